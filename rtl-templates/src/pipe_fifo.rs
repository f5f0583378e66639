//! The pipe FIFO: the hardware of an OpenCL pipe object, with or without reservation logic.
//!
//! Two askama templates: `oclhls_pipe_side.v` (one side's reserve/commit pointers and
//! reservation table) and `oclhls_pipe_fifo.v` (storage, queries, and either two sides or plain
//! pointers). Widths, depth and table size are Verilog parameters, so one rendering serves every
//! pipe of a system. The port contract is `docs/hardware-interface.md`, "Pipe FIFOs", and
//! in code `hwcontract::pipe` (module names, parameters, ports, the depth rule).

use askama::Template;

// The module names, parameters and ports are the hardware contract's (`hwcontract::pipe`);
// the templates implement them (tests/pipe_fifo_contract.rs checks the rendered port list).
/// Module name of the FIFO with reservation logic.
pub use hwcontract::pipe::MODULE as PIPE_FIFO;
/// Module name of the FIFO without reservation logic (plain non-blocking reads and writes).
pub use hwcontract::pipe::MODULE_PLAIN as PIPE_FIFO_PLAIN;
/// Module name of one side of [`PIPE_FIFO`].
pub use hwcontract::pipe::MODULE_SIDE as PIPE_SIDE;

#[derive(Template)]
#[template(path = "oclhls_pipe_fifo.v", escape = "none")]
struct PipeFifoTemplate<'a> {
    version: &'a str,
    module_name: &'a str,
    reservations: bool,
}

#[derive(Template)]
#[template(path = "oclhls_pipe_side.v", escape = "none")]
struct PipeSideTemplate<'a> {
    version: &'a str,
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The Verilog files of the pipe FIFO, as `(file name, text)`: with `reservations`,
/// `oclhls_pipe_fifo.v` and the `oclhls_pipe_side.v` it instantiates; without,
/// `oclhls_pipe_fifo_plain.v` alone.
pub fn pipe_fifo_files(reservations: bool) -> Vec<(String, String)> {
    // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE) want it.
    let file = |name: &str, text: String| (format!("{name}.v"), text + "\n");
    if reservations {
        let fifo = PipeFifoTemplate {
            version: VERSION,
            module_name: PIPE_FIFO,
            reservations: true,
        }
        .render()
        .expect("the pipe FIFO template renders");
        let side = PipeSideTemplate { version: VERSION }
            .render()
            .expect("the pipe side template renders");
        vec![file(PIPE_FIFO, fifo), file(PIPE_SIDE, side)]
    } else {
        let fifo = PipeFifoTemplate {
            version: VERSION,
            module_name: PIPE_FIFO_PLAIN,
            reservations: false,
        }
        .render()
        .expect("the pipe FIFO template renders");
        vec![file(PIPE_FIFO_PLAIN, fifo)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_name_their_modules_and_ports() {
        let res = pipe_fifo_files(true);
        assert_eq!(res.len(), 2);
        assert!(res[0].1.contains("module oclhls_pipe_fifo #("));
        assert!(res[0].1.contains("wr_res_req") && res[0].1.contains("rd_commit_id"));
        assert!(res[1].1.contains("module oclhls_pipe_side #("));
        let plain = pipe_fifo_files(false);
        assert_eq!(plain.len(), 1);
        assert!(plain[0].1.contains("module oclhls_pipe_fifo_plain #("));
        for word in [
            "wr_res", "rd_res", "wr_slot", "_commit", "MAX_RES", "FORMAL",
        ] {
            assert!(!plain[0].1.contains(word), "{word} in the plain FIFO");
        }
        for (_, text) in res.iter().chain(&plain) {
            assert!(text.ends_with("endmodule\n`default_nettype wire\n"));
            assert!(!text.contains("{{") && !text.contains("{%"));
        }
    }
}
