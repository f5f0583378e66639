//! The board simulation as a transport: the Verilator model of `oclhls_board_sim` (the
//! simulation variant of the SoC, docs/hardware-interface.md, "Board simulation") in this
//! process. Bytes to the board go into the bridge's byte stream (`rx_*`), bytes from it come
//! out of `tx_*`; time passes only while the host waits (`recv`, `pause`), and timeouts and
//! pauses are simulated time at the SoC's clock.

use std::collections::VecDeque;
use std::time::Duration;

use sim::{Model, PortId, PortSpec};

use crate::{Error, Result, Transport};

/// The ports of `oclhls_board_sim` (board-support/rtl/oclhls_board_sim.v).
pub fn board_sim_ports() -> Vec<PortSpec> {
    vec![
        PortSpec::input("clk", 1),
        PortSpec::input("rst", 1),
        PortSpec::input("rx_valid", 1),
        PortSpec::output("rx_ready", 1),
        PortSpec::input("rx_data", 8),
        PortSpec::output("tx_valid", 1),
        PortSpec::input("tx_ready", 1),
        PortSpec::output("tx_data", 8),
    ]
}

/// How the simulated link behaves.
#[derive(Clone, Copy, Debug)]
pub struct SimBoardOptions {
    /// The SoC's clock (timeouts and pauses are converted to cycles with it).
    pub clock_hz: u64,
    /// Clock cycles between two bytes to the board: 1 is as fast as the bridge takes them;
    /// `clock_hz / (baud / 10)` models a UART (167 at 50 MHz and 3 Mbaud).
    pub cycles_per_byte: u64,
    /// Cycles of reset at the start.
    pub reset_cycles: u64,
}

impl SimBoardOptions {
    pub fn new(clock_hz: u64) -> SimBoardOptions {
        SimBoardOptions {
            clock_hz,
            cycles_per_byte: 1,
            reset_cycles: 16,
        }
    }
}

struct Ports {
    rst: PortId,
    rx_valid: PortId,
    rx_ready: PortId,
    rx_data: PortId,
    tx_valid: PortId,
    tx_ready: PortId,
    tx_data: PortId,
}

/// A simulated board (see the module docs).
pub struct SimBoard {
    model: Model,
    p: Ports,
    opts: SimBoardOptions,
    to_board: VecDeque<u8>,
    from_board: VecDeque<u8>,
    /// Cycle from which the next byte may go to the board.
    next_send: u64,
}

impl SimBoard {
    /// Resets `model` (an instance of `oclhls_board_sim`) and returns the board.
    pub fn new(mut model: Model, opts: SimBoardOptions) -> Result<SimBoard> {
        let port = |m: &Model, n: &str| {
            m.port(n).ok_or_else(|| {
                Error::Sim(sim::SimError::Interface(format!(
                    "the board simulation model has no port `{n}`"
                )))
            })
        };
        let p = Ports {
            rst: port(&model, "rst")?,
            rx_valid: port(&model, "rx_valid")?,
            rx_ready: port(&model, "rx_ready")?,
            rx_data: port(&model, "rx_data")?,
            tx_valid: port(&model, "tx_valid")?,
            tx_ready: port(&model, "tx_ready")?,
            tx_data: port(&model, "tx_data")?,
        };
        model.set(p.rst, 1);
        model.ticks(opts.reset_cycles)?;
        model.set(p.rst, 0);
        model.set(p.tx_ready, 1);
        // LiteX's CRG holds reset one more cycle after the input falls.
        model.ticks(4)?;
        Ok(SimBoard {
            model,
            p,
            opts,
            to_board: VecDeque::new(),
            from_board: VecDeque::new(),
            next_send: 0,
        })
    }

    /// Clock cycles simulated so far.
    pub fn cycles(&self) -> u64 {
        self.model.cycles()
    }

    pub fn options(&self) -> &SimBoardOptions {
        &self.opts
    }

    /// Sets the pacing of bytes to the board (see [`SimBoardOptions::cycles_per_byte`]).
    pub fn set_cycles_per_byte(&mut self, n: u64) {
        self.opts.cycles_per_byte = n.max(1);
    }

    /// Runs `n` clock cycles, offering the bytes sent so far; returns what the board sent
    /// meanwhile (and any bytes received before and not read). For a free-running board
    /// (`pty::serve`).
    pub fn run_free(&mut self, n: u64) -> Result<Vec<u8>> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(self.from_board.drain(..).collect())
    }

    fn cycles_of(&self, d: Duration) -> u64 {
        (d.as_secs_f64() * self.opts.clock_hz as f64).ceil() as u64
    }

    /// One clock cycle: a byte offered to the board if one waits, any byte it sends taken.
    fn step(&mut self) -> Result<()> {
        let now = self.model.cycles();
        let offer = match self.to_board.front() {
            Some(&b) if now >= self.next_send => Some(b),
            _ => None,
        };
        let m = &mut self.model;
        m.set(self.p.rx_valid, u64::from(offer.is_some()));
        m.set(self.p.rx_data, u64::from(offer.unwrap_or(0)));
        m.eval()?;
        let taken = offer.is_some() && m.get(self.p.rx_ready) == 1;
        let sent = (m.get(self.p.tx_valid) == 1).then(|| m.get(self.p.tx_data) as u8);
        m.tick()?;
        if taken {
            self.to_board.pop_front();
            self.next_send = now + self.opts.cycles_per_byte;
        }
        if let Some(b) = sent {
            self.from_board.push_back(b);
        }
        Ok(())
    }
}

impl Transport for SimBoard {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.to_board.extend(bytes);
        Ok(())
    }

    fn recv(&mut self, buf: &mut [u8], timeout: Duration, what: &str) -> Result<()> {
        let limit = self.model.cycles() + self.cycles_of(timeout);
        while self.from_board.len() < buf.len() {
            if self.model.cycles() >= limit {
                return Err(Error::Timeout {
                    link: self.describe(),
                    what: what.to_string(),
                    timeout,
                    got: self.from_board.len(),
                    want: buf.len(),
                });
            }
            self.step()?;
        }
        for b in buf.iter_mut() {
            *b = self.from_board.pop_front().unwrap_or(0);
        }
        Ok(())
    }

    fn pause(&mut self, d: Duration) -> Result<()> {
        while !self.to_board.is_empty() {
            self.step()?;
        }
        let n = self.cycles_of(d);
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    fn discard_input(&mut self) -> Result<()> {
        self.from_board.clear();
        Ok(())
    }

    fn describe(&self) -> String {
        "the board simulation".to_string()
    }
}
