//! The whole board in Verilator (`oclhls sim FILE.cl --board ulx3s`): vadd's test vectors run
//! on the simulation variant of the LiteX SoC (LiteDRAM with its SDRAM model and DFI timing
//! checker, UARTBone on a byte stream) through the host runtime, and agree with the emulator.
//! Needs the LiteX venv: when it cannot be provisioned (no PyPI), the test says why and
//! passes. The SoC's Verilator model is cached like kernel models (about 20-35 s to build on
//! this 2-core machine, then about 1 s per test; docs/benchmarks.md, "Board simulation").

use std::path::Path;
use std::process::Command;
use toolchain::{Tool, Toolchain};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether LiteX can be provisioned; if not, says which test is skipped and why.
fn litex_available(what: &str) -> bool {
    match Toolchain::new(false).locate(Tool::Litex) {
        Ok(_) => true,
        Err(e) => {
            eprintln!("{what}: LiteX cannot be provisioned: {e}");
            false
        }
    }
}

/// `oclhls sim ARGS... -o DIR` on the board (`--board ulx3s` is added): the exit status,
/// stdout and stderr.
fn sim_on_board(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oclhls"))
        .current_dir(root())
        .arg("sim")
        .args(args)
        .args(["--board", "ulx3s", "-o"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn vadd_runs_on_the_simulated_board_through_the_host_runtime() {
    if !litex_available("skipping the board simulation of vadd") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (status, stdout, stderr) = sim_on_board(&["examples/vadd.cl"], tmp.path());
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("3 passed, 0 failed"), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("PASS vadd 1024 items in groups of 64 (")
            && stdout.contains("cycles for 1024 work-items on the board"),
        "{stdout}"
    );
    // LiteDRAM's DFI timing checker is in the model and printed nothing.
    let soc = std::fs::read_to_string(tmp.path().join("ulx3s-sim/soc/gateware/oclhls_ulx3s_sim.v"))
        .unwrap();
    assert!(
        soc.contains("tREFI violation"),
        "the timing checker is built in"
    );
    assert!(!stdout.contains("violation"), "SDRAM timing: {stdout}");
    // The simulation SoC has the board's register map (checked against the plan when it is
    // generated) and LiteDRAM's init sequence for the host.
    let init = std::fs::read_to_string(tmp.path().join("ulx3s-sim/soc/sdram_init.json")).unwrap();
    assert!(
        init.contains("\"memtype\": \"SDR\"") && init.contains("Precharge All"),
        "{init}"
    );
}

/// The board's memory adapter with elements wider than the 16-bit native port: `counter_two`
/// stores 32-bit words under predicates (a store whose predicate is false waits for `ready`
/// without `valid`, so the adapter must latch an element before splitting it: the split alone
/// hung this kernel), `int4_ops` reads and writes 128-bit elements (eight commands each) in
/// bursts.
#[test]
fn wide_and_predicated_accesses_run_on_the_simulated_board() {
    if !litex_available("skipping the board simulation of wide accesses") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let files = ["tests/kernels/counter_two.cl", "tests/kernels/int4_ops.cl"];
    let (status, stdout, stderr) = sim_on_board(&files, tmp.path());
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("PASS positives count up, negatives count down")
            && stdout.matches("on the board").count() >= 2
            && stdout.contains("2 passed, 0 failed"),
        "{stdout}\n{stderr}"
    );
}

/// Global atomics through the board's atomic unit: 32- and 64-bit, every operation, many
/// work-items on few addresses (the unit's forwarding of writes still in flight), the old
/// values a work-item gets back; and a multi-kernel test: two kernels at once into one
/// histogram, both clients of the one unit (atomic across kernels); and a pipe system.
#[test]
fn global_atomics_and_systems_run_on_the_simulated_board() {
    if !litex_available("skipping the board simulation of atomics") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (status, stdout, stderr) = sim_on_board(&["tests/emu/atomics.cl"], tmp.path());
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("PASS 32 work-items in groups of 8")
            && stdout.contains("the emulator agrees")
            && stdout.contains("1 passed, 0 failed"),
        "{stdout}\n{stderr}"
    );
    // Two pipe systems' files: a program-scope pipe between two kernels (the system CI
    // builds to a bitstream, tests/board_soc.rs), and the histogram of two kernels at once.
    let args = [
        "tests/emu/xilinx_pipes.cl",
        "tests/kernels/atomic_hist_global.cl",
        "--filter",
        "kernels",
    ];
    let (status, stdout, stderr) = sim_on_board(&args, tmp.path());
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("PASS both kernels at once into one histogram (2 kernels on the board")
            && stdout.contains(
                "PASS a program-scope pipe of depth 2 between two kernels (2 kernels on the board"
            )
            && stdout.contains("2 files: 2 passed, 0 failed, 0 skipped"),
        "{stdout}\n{stderr}"
    );
}

/// A kernel that does not finish within the cycle budget is reported with its status
/// registers, not a hang (vadd's 1024 work-items take about 13 000 cycles; the budget is 100).
#[test]
fn a_kernel_over_its_budget_times_out_with_its_status() {
    if !litex_available("skipping the board simulation timeout test") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "examples/vadd.cl",
        "--filter",
        "1024",
        "--max-cycles",
        "100",
    ];
    let (status, stdout, _) = sim_on_board(&args, tmp.path());
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL vadd 1024 items in groups of 64")
            && stdout.contains("kernel `vadd` did not finish within 2µs")
            && stdout.contains("busy 1, done 0"),
        "{stdout}"
    );
}

/// `oclhls run` over a serial port: the simulated board of vadd served on a pseudo-terminal
/// (`oclhls sim --pty`) and driven through it by `oclhls run --no-program` exactly as a board
/// on /dev/ttyUSB0 would be (termios, the UARTBone bridge, the build id check, the SDRAM init).
#[test]
fn oclhls_run_drives_a_board_over_a_serial_port() {
    use std::io::BufRead;
    if !litex_available("skipping `oclhls run` over a pseudo-terminal") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_oclhls"))
        .current_dir(root())
        .args(["sim", "examples/vadd.cl", "--board", "ulx3s", "--pty", "-o"])
        .arg(tmp.path().join("served"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(tmp.path().join("server.err")).unwrap())
        .spawn()
        .unwrap();
    // Killed on every path out of the test, also a failed assertion.
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let stdout = server.stdout.take().unwrap();
    let server = Kill(server);
    let mut lines = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok);
    let Some(line) = lines.find(|l| l.starts_with("serving the simulated board")) else {
        drop(server);
        let err = std::fs::read_to_string(tmp.path().join("server.err")).unwrap_or_default();
        // A machine without pseudo-terminals (no /dev/ptmx) cannot run this test.
        assert!(
            err.contains("creating a pseudo-terminal"),
            "the server stopped: {err}"
        );
        eprintln!("skipping `oclhls run` over a pseudo-terminal: {err}");
        return;
    };
    // The rest of the server's output is drained while it serves: the SoC's SDRAM model
    // prints a line per cycle of a timing violation (refreshes stop while the host replays
    // the init sequence, and a slow host leaves the board running meanwhile), and a pipe
    // nobody reads would block the server after 64 KB, so that the board stops answering.
    let printed = std::thread::spawn(move || {
        let mut first = Vec::new();
        for l in lines {
            if first.len() < 20 {
                first.push(l);
            }
        }
        first
    });
    let port = line
        .split_whitespace()
        .find(|w| w.starts_with("/dev/"))
        .unwrap()
        .to_string();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_oclhls"))
            .current_dir(root())
            .args(["run", "examples/vadd.cl", "--no-program", "-o"])
            .arg(tmp.path().join("run"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--port", &port, "--timeout", "300"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() || !text.contains("3 passed, 0 failed") {
        drop(server);
        let printed = printed.join().unwrap_or_default();
        panic!("{text}\nthe server printed first:\n{}", printed.join("\n"));
    }
    assert!(
        text.contains("cycles for 1024 work-items on the board")
            && text.contains("the emulator agrees"),
        "{text}"
    );
    drop(server);
    // No such port: the first test says what to check, the others that the board is not ready.
    let out = run(&["--port", "/dev/oclhls-no-such-port"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("no such port: is the board plugged in?"),
        "{text}"
    );
    assert!(text.contains("not run: the board is not ready"), "{text}");
    assert!(text.contains("0 passed, 3 failed"), "{text}");
}
