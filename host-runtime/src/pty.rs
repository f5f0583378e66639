//! A simulated board on a pseudo-terminal: the board simulation behind a serial port that any
//! program can open (`oclhls run --port`, LiteX's `litex_server --uart --uart-port`), so the
//! serial path of the host software runs end to end without a board.
//!
//! The simulation runs free, as a board would: it takes what the host wrote, runs a slice of
//! clock cycles, and writes back what the board sent. With no traffic for a while it slows
//! down to a slice every few milliseconds, so an idle server costs almost no CPU.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::{Error, Result, SimBoard, Transport};

/// Clock cycles simulated per round of the server loop.
const SLICE: u64 = 2000;
/// Rounds without traffic after which the server waits for input between rounds.
const IDLE_ROUNDS: u32 = 200;

/// The master side of a new pseudo-terminal and the path of its slave (`/dev/pts/N`).
pub fn open_pty() -> Result<(File, PathBuf)> {
    let err = |what: &str| Error::Io {
        context: format!("creating a pseudo-terminal ({what})"),
        source: std::io::Error::last_os_error(),
    };
    // SAFETY: plain libc calls on a descriptor this function owns; `name` is a buffer of the
    // size given to ptsname_r, which NUL-terminates it.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        if fd < 0 {
            return Err(err("posix_openpt"));
        }
        let master = File::from_raw_fd(fd);
        if libc::grantpt(fd) != 0 || libc::unlockpt(fd) != 0 {
            return Err(err("grantpt/unlockpt"));
        }
        let mut name = [0 as libc::c_char; 128];
        if libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) != 0 {
            return Err(err("ptsname_r"));
        }
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_string_lossy()
            .into_owned();
        Ok((master, PathBuf::from(path)))
    }
}

/// Serves `board` on the pseudo-terminal `master` until `stop` is set.
pub fn serve(mut board: SimBoard, mut master: File, stop: &AtomicBool) -> Result<()> {
    let fd = master.as_raw_fd();
    let mut buf = [0u8; 4096];
    let mut quiet = 0u32;
    while !stop.load(Ordering::Relaxed) {
        let wait_ms = if quiet >= IDLE_ROUNDS { 5 } else { 0 };
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let n = unsafe { libc::poll(&mut pfd, 1, wait_ms) };
        if n > 0 && pfd.revents & libc::POLLIN != 0 {
            match master.read(&mut buf) {
                Ok(k) if k > 0 => {
                    board.send(&buf[..k])?;
                    quiet = 0;
                }
                _ => {}
            }
        } else if n > 0 && pfd.revents & libc::POLLHUP != 0 {
            // No host has the port open: nothing to serve until one does.
            std::thread::sleep(Duration::from_millis(5));
            quiet = IDLE_ROUNDS;
            continue;
        }
        let out = board.run_free(SLICE)?;
        if out.is_empty() {
            quiet = quiet.saturating_add(1);
        } else {
            quiet = 0;
            master.write_all(&out).map_err(|e| Error::Io {
                context: "writing to the pseudo-terminal".to_string(),
                source: e,
            })?;
        }
    }
    Ok(())
}
