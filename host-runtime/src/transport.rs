//! The byte link between host and board.

use std::time::Duration;

use crate::Result;

/// A byte link to a board. Bytes arrive in order and are not lost or corrupted on a working
/// link; the protocol above ([`crate::Bridge`]) recovers from a broken frame by timing out.
pub trait Transport {
    /// Queues `bytes` for the board. May return before they are delivered.
    fn send(&mut self, bytes: &[u8]) -> Result<()>;

    /// Fills `buf` with the next bytes from the board, or fails with [`crate::Error::Timeout`]
    /// (`what` says what was awaited) when they do not all arrive within `timeout`.
    fn recv(&mut self, buf: &mut [u8], timeout: Duration, what: &str) -> Result<()>;

    /// Lets at least `d` pass on the board (after everything sent so far was delivered).
    fn pause(&mut self, d: Duration) -> Result<()>;

    /// Drops bytes received and not read yet (resynchronising after a timeout).
    fn discard_input(&mut self) -> Result<()>;

    /// The link, for messages (`/dev/ttyUSB0 at 3000000 baud`, `the board simulation`).
    fn describe(&self) -> String;
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).send(bytes)
    }
    fn recv(&mut self, buf: &mut [u8], timeout: Duration, what: &str) -> Result<()> {
        (**self).recv(buf, timeout, what)
    }
    fn pause(&mut self, d: Duration) -> Result<()> {
        (**self).pause(d)
    }
    fn discard_input(&mut self) -> Result<()> {
        (**self).discard_input()
    }
    fn describe(&self) -> String {
        (**self).describe()
    }
}
