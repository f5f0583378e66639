//! Running one kernel file through `oclhls sim` (twice: random stalls and long latencies, then
//! ideal memory; the second run reuses the cached Verilator model) and
//! `verilator --lint-only -Wall` on every module it wrote, and classifying the result.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one case did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// The hardware path refused the kernel with a clean "not yet supported" diagnostic.
    Skip(String),
    Fail(Failure),
}

/// A failure: its class, and a short key the reducer keeps constant (the stage at fault).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub class: Class,
    pub key: String,
    /// The first lines of the evidence.
    pub detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Mismatch,
    Crash,
    Hang,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Mismatch => "mismatch",
            Class::Crash => "crash",
            Class::Hang => "hang",
        }
    }
}

pub struct Checker {
    pub oclhls: PathBuf,
    pub timeout: Duration,
    pub verilator: Option<(toolchain::Toolchain, toolchain::ToolInfo)>,
}

/// Output kept of a child process (the rest is dropped).
const KEEP: usize = 64 * 1024;

struct Run {
    code: Option<i32>,
    timed_out: bool,
    out: String,
}

/// Runs `cmd` with a wall-clock limit, stdout and stderr together in a file, bounded.
fn run_bounded(mut cmd: Command, log: &Path, timeout: Duration) -> std::io::Result<Run> {
    let f = std::fs::File::create(log)?;
    cmd.stdout(f.try_clone()?).stderr(f).stdin(Stdio::null());
    let mut child = cmd.spawn()?;
    let start = Instant::now();
    let (code, timed_out) = loop {
        if let Some(s) = child.try_wait()? {
            break (s.code(), false);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut buf = Vec::new();
    std::fs::File::open(log)?
        .take(KEEP as u64)
        .read_to_end(&mut buf)?;
    Ok(Run {
        code,
        timed_out,
        out: String::from_utf8_lossy(&buf).into_owned(),
    })
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join("\n")
}

impl Checker {
    /// Checks the kernel file `file`, writing into `dir`.
    pub fn check(&self, file: &Path, dir: &Path) -> Verdict {
        let _ = std::fs::remove_dir_all(dir);
        if let Err(e) = std::fs::create_dir_all(dir) {
            return crash("io", format!("cannot create {}: {e}", dir.display()));
        }
        let memories: [&[&str]; 2] = [
            &["--seed", "7", "--stall-prob", "0.4", "--max-latency", "12"],
            &["--ideal-memory"],
        ];
        for (i, mem) in memories.iter().enumerate() {
            let rtl = dir.join("rtl");
            let mut cmd = Command::new(&self.oclhls);
            cmd.arg("sim")
                .arg(file)
                .arg("-o")
                .arg(&rtl)
                .args(["--offline", "--max-cycles", "2000000"])
                .args(mem.iter());
            let log = dir.join(format!("sim{i}.log"));
            let r = match run_bounded(cmd, &log, self.timeout) {
                Ok(r) => r,
                Err(e) => return crash("io", format!("cannot run oclhls: {e}")),
            };
            if let Some(v) = classify(&r) {
                return v;
            }
            if r.out.contains("SKIP ") {
                let why = r.out.lines().find(|l| l.starts_with("SKIP ")).unwrap_or("");
                return Verdict::Skip(why.to_string());
            }
            if i == 0 {
                if let Some(v) = self.lint(&rtl) {
                    return v;
                }
            }
        }
        Verdict::Pass
    }

    /// `verilator --lint-only -Wall` on every kernel module of `report.json`.
    fn lint(&self, rtl: &Path) -> Option<Verdict> {
        let (tc, v) = self.verilator.as_ref()?;
        let report = match std::fs::read_to_string(rtl.join("report.json")) {
            Ok(t) => t,
            Err(e) => return Some(crash("report", format!("no report.json: {e}"))),
        };
        let report: serde_json::Value = match serde_json::from_str(&report) {
            Ok(r) => r,
            Err(e) => return Some(crash("report", format!("report.json: {e}"))),
        };
        for k in report["kernels"].as_array().into_iter().flatten() {
            let module = k["interface"]["module"].as_str().unwrap_or_default();
            let mut cmd = tc.command(v);
            cmd.current_dir(rtl)
                .args(["--lint-only", "-Wall", "--top-module", module])
                .arg(k["verilog"].as_str().unwrap_or_default())
                .args(
                    k["support_files"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|f| f.as_str()),
                );
            let r = match run_bounded(cmd, &rtl.join("lint.log"), self.timeout) {
                Ok(r) => r,
                Err(e) => return Some(crash("io", format!("cannot run verilator: {e}"))),
            };
            if r.code != Some(0) {
                let first = r
                    .out
                    .lines()
                    .find(|l| l.starts_with("%"))
                    .unwrap_or("")
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .to_string();
                return Some(crash(
                    &format!("lint {first}"),
                    format!("lint of {module}:\n{}", first_lines(&r.out, 20)),
                ));
            }
        }
        None
    }
}

fn crash(key: &str, detail: String) -> Verdict {
    Verdict::Fail(Failure {
        class: Class::Crash,
        key: key.to_string(),
        detail,
    })
}

/// A failure from one `oclhls sim` run, or `None` if every test passed or was skipped.
fn classify(r: &Run) -> Option<Verdict> {
    let out = &r.out;
    if r.timed_out {
        return Some(Verdict::Fail(Failure {
            class: Class::Hang,
            key: "timeout".into(),
            detail: format!("timed out\n{}", first_lines(out, 10)),
        }));
    }
    if out.contains("panicked at") || r.code == Some(101) {
        // The key is the panic's place and message, without the thread id (`main' (1234)`),
        // which changes from run to run.
        let mut lines = out.lines().skip_while(|l| !l.contains("panicked at"));
        let at = lines.next().unwrap_or("panic");
        let at = at.split("panicked at").nth(1).unwrap_or(at).trim();
        // Numbers in the message (value ids, cycles) change as the reducer edits the kernel.
        let mut msg = String::new();
        for c in lines.next().unwrap_or("").chars() {
            match c {
                '0'..='9' if msg.ends_with('N') => {}
                '0'..='9' => msg.push('N'),
                c => msg.push(c),
            }
        }
        return Some(crash(&format!("panic at {at} {msg}"), first_lines(out, 20)));
    }
    match r.code {
        Some(0) => return None,
        Some(1) => {}
        c => return Some(crash(&format!("exit {c:?}"), first_lines(out, 20))),
    }
    let fail = out.lines().find(|l| l.starts_with("FAIL ")).unwrap_or("");
    let (class, key) = if fail.contains("cycle budget") || fail.contains("deadlock") {
        (Class::Hang, "cycles")
    } else if fail.contains("disagrees with the emulator") {
        (Class::Mismatch, "ir-lowering")
    } else if fail.contains("pass pipeline changed") {
        (Class::Mismatch, "passes")
    } else if fail.contains("Verilator disagrees with the IR") {
        (Class::Mismatch, "rtl")
    } else if fail.contains("the emulator and Verilator disagree") {
        (Class::Mismatch, "emu-verilator")
    } else if fail.contains("IR interpreter") {
        (Class::Crash, "ir-interpreter")
    } else if fail.contains("does not compile") {
        (Class::Crash, "compile")
    } else if fail.contains("protocol violation") || fail.contains("does not follow the hardware") {
        (Class::Crash, "protocol")
    } else if fail.contains("on port `") && fail.contains("at cycle") {
        (Class::Crash, "memory-fault")
    } else if fail.contains("verilator failed to build") || out.contains("%Error") {
        (Class::Crash, "verilator-build")
    } else if fail.contains("expected") && fail.contains("got") {
        (Class::Mismatch, "expected")
    } else {
        (Class::Crash, "other")
    };
    Some(Verdict::Fail(Failure {
        class,
        key: key.into(),
        detail: first_lines(out, 30),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(code: Option<i32>, out: &str) -> Run {
        Run {
            code,
            timed_out: false,
            out: out.into(),
        }
    }

    fn class_key(r: &Run) -> Option<(Class, String)> {
        match classify(r) {
            Some(Verdict::Fail(f)) => Some((f.class, f.key)),
            _ => None,
        }
    }

    #[test]
    fn sim_outputs_are_classified() {
        assert_eq!(
            class_key(&run(Some(0), "PASS t\n1 passed, 0 failed\n")),
            None
        );
        let rtl = "FAIL test 0: Verilator disagrees with the IR after the passes (a scheduling or RTL bug; expected = IR, got = Verilator) on argument 4\n0 passed, 1 failed\n";
        assert_eq!(
            class_key(&run(Some(1), rtl)),
            Some((Class::Mismatch, "rtl".into()))
        );
        let panic = "thread 'main' (1234) panicked at hls-ir/src/x.rs:3:5:\nboom %12 at 3\n";
        assert_eq!(
            class_key(&run(Some(101), panic)),
            Some((
                Class::Crash,
                "panic at hls-ir/src/x.rs:3:5: boom %N at N".into()
            ))
        );
        let budget = "FAIL test 0: no `done` after 2000000 cycles (the cycle budget; raise it)\n";
        assert_eq!(class_key(&run(Some(1), budget)).unwrap().0, Class::Hang);
        assert_eq!(
            class_key(&run(Some(2), "error: x")),
            Some((Class::Crash, "exit Some(2)".into()))
        );
        let mut slow = run(None, "");
        slow.timed_out = true;
        assert_eq!(class_key(&slow).unwrap().0, Class::Hang);
    }
}
