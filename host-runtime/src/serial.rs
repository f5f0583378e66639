//! A real board's serial port (the ULX3S's FT231X), through termios: raw 8N1, no flow
//! control, at a fixed baud rate. Compiled and unit-tested for its error messages here; it has
//! not been run against hardware yet.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{Error, Result, Transport};

/// An open serial port.
pub struct SerialPort {
    file: File,
    path: PathBuf,
    baud: u32,
}

/// The termios speed constant of `baud` (Linux's fixed rates that the FT231X reaches).
fn speed(baud: u32) -> Option<libc::speed_t> {
    Some(match baud {
        9600 => libc::B9600,
        19200 => libc::B19200,
        38400 => libc::B38400,
        57600 => libc::B57600,
        115200 => libc::B115200,
        230400 => libc::B230400,
        460800 => libc::B460800,
        921600 => libc::B921600,
        1000000 => libc::B1000000,
        1500000 => libc::B1500000,
        2000000 => libc::B2000000,
        3000000 => libc::B3000000,
        _ => return None,
    })
}

impl SerialPort {
    /// Opens `path` at `baud` (the board's UARTBone rate: 3 000 000 in oclhls' board system).
    pub fn open(path: &Path, baud: u32) -> Result<SerialPort> {
        let shown = path.display();
        let rate = speed(baud).ok_or_else(|| {
            Error::BoardInfo(format!(
                "baud rate {baud} is not one the serial driver offers (9600 to 3000000)"
            ))
        })?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(path)
            .map_err(|e| {
                let hint = match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        " (no such port: is the board plugged in? `ls /dev/ttyUSB*`)"
                    }
                    std::io::ErrorKind::PermissionDenied => {
                        " (permission denied: add yourself to the `dialout` group, then log in again)"
                    }
                    _ => "",
                };
                Error::Io {
                    context: format!("opening serial port {shown}{hint}"),
                    source: e,
                }
            })?;
        let fd = file.as_raw_fd();
        // SAFETY: `fd` is an open descriptor owned by `file`; `t` is fully written by
        // tcgetattr before it is read.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(fd, &mut t) != 0 {
                return Err(Error::Io {
                    context: format!("{shown} is not a serial port"),
                    source: std::io::Error::last_os_error(),
                });
            }
            libc::cfmakeraw(&mut t);
            t.c_cflag |= libc::CLOCAL | libc::CREAD;
            t.c_cflag &= !(libc::CRTSCTS | libc::CSTOPB | libc::PARENB);
            t.c_cc[libc::VMIN] = 0;
            t.c_cc[libc::VTIME] = 0;
            libc::cfsetispeed(&mut t, rate);
            libc::cfsetospeed(&mut t, rate);
            if libc::tcsetattr(fd, libc::TCSANOW, &t) != 0 {
                return Err(Error::Io {
                    context: format!("configuring {shown} for {baud} baud"),
                    source: std::io::Error::last_os_error(),
                });
            }
            libc::tcflush(fd, libc::TCIOFLUSH);
        }
        Ok(SerialPort {
            file,
            path: path.to_path_buf(),
            baud,
        })
    }
}

impl Transport for SerialPort {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        let shown = self.path.display().to_string();
        self.file.write_all(bytes).map_err(|e| Error::Io {
            context: format!("writing to {shown}"),
            source: e,
        })
    }

    fn recv(&mut self, buf: &mut [u8], timeout: Duration, what: &str) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let mut got = 0;
        while got < buf.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            let mut pfd = libc::pollfd {
                fd: self.file.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().min(i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd.
            let n = unsafe { libc::poll(&mut pfd, 1, ms) };
            if n < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(Error::Io {
                    context: format!("waiting for {}", self.path.display()),
                    source: e,
                });
            }
            if n == 0 {
                return Err(Error::Timeout {
                    link: self.describe(),
                    what: what.to_string(),
                    timeout,
                    got,
                    want: buf.len(),
                });
            }
            let n = self.file.read(&mut buf[got..]).map_err(|e| Error::Io {
                context: format!("reading from {}", self.path.display()),
                source: e,
            })?;
            got += n;
            if n == 0 && Instant::now() >= deadline {
                // Readable but empty (a hung-up line): still bounded by the timeout.
                return Err(Error::Timeout {
                    link: self.describe(),
                    what: what.to_string(),
                    timeout,
                    got,
                    want: buf.len(),
                });
            }
        }
        Ok(())
    }

    fn pause(&mut self, d: Duration) -> Result<()> {
        // SAFETY: a valid descriptor; waits until the queued bytes are on the wire.
        unsafe { libc::tcdrain(self.file.as_raw_fd()) };
        std::thread::sleep(d);
        Ok(())
    }

    fn discard_input(&mut self) -> Result<()> {
        // SAFETY: a valid descriptor.
        unsafe { libc::tcflush(self.file.as_raw_fd(), libc::TCIFLUSH) };
        Ok(())
    }

    fn describe(&self) -> String {
        format!("{} at {} baud", self.path.display(), self.baud)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn errors_say_what_to_check() {
        let e = SerialPort::open(Path::new("/dev/oclhls-no-such-port"), 115200)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no such port"), "{e}");
        let e = SerialPort::open(Path::new("/dev/null"), 115200)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not a serial port"), "{e}");
        let e = SerialPort::open(Path::new("/dev/null"), 12345)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("baud rate 12345"), "{e}");
    }
}
