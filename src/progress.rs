//! Progress of steps that take more than a second (board builds): a spinner with the elapsed
//! time on a terminal (indicatif), plain lines otherwise (logs, CI, pipes).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Shows steps one after another on stderr.
pub struct Progress {
    terminal: bool,
}

/// A running step; [`Step::finish`] prints how long it took.
pub struct Step {
    what: String,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Progress {
    pub fn new() -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
        }
    }

    pub fn step(&self, what: &str) -> Step {
        let bar = if self.terminal {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.set_message(what.to_string());
            b.enable_steady_tick(Duration::from_millis(200));
            Some(b)
        } else {
            eprintln!("{what} ...");
            None
        };
        Step {
            what: what.to_string(),
            started: Instant::now(),
            bar,
        }
    }
}

impl Step {
    pub fn finish(self) {
        let line = format!(
            "{}: done in {:.1} s",
            self.what,
            self.started.elapsed().as_secs_f64()
        );
        match self.bar {
            Some(b) => b.finish_with_message(line),
            None => eprintln!("{line}"),
        }
    }
}
