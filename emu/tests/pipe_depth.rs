//! A program-scope pipe holds as many packets in the emulator as its FIFO in hardware:
//! `hwcontract::pipe::effective_depth` of its `xcl_reqd_pipe_depth` (at least two packets,
//! sixteen when the attribute gives no number).

use emu::{ArgValue, BufferSpec, Config, LaunchSpec, RunSpec};

/// Non-blocking writes into a program-scope pipe declared `attr` until one fails: returns
/// (packets written, `get_pipe_max_packets`).
fn fill(attr: &str) -> (u32, u32) {
    let src = format!(
        "pipe int gp __attribute__(({attr}));\n\
         kernel void fill(global int *out) {{\n\
         \x20   int n = 0;\n\
         \x20   for (int i = 0; i < 100; i++) {{ int v = i; if (write_pipe(gp, &v) == 0) n++; }}\n\
         \x20   out[0] = n;\n\
         \x20   out[1] = (int)get_pipe_max_packets(gp);\n\
         }}\n"
    );
    let mut sm = frontend::SourceMap::new();
    let file = sm.add_file("depth.cl", &src);
    let (prog, _) = frontend::compile(&mut sm, file, &Default::default()).expect("compiles");
    let spec = RunSpec {
        buffers: vec![BufferSpec {
            name: "out".into(),
            bytes: vec![0; 8],
        }],
        pipes: vec![],
        launches: vec![LaunchSpec {
            kernel: "fill".into(),
            dims: 1,
            global: [1, 1, 1],
            local: Some([1, 1, 1]),
            offset: [0; 3],
            args: vec![ArgValue::Buffer(0)],
            after: vec![],
        }],
    };
    let out = emu::run(&prog, &sm, &spec, &Config::default()).expect("runs");
    let word = |i: usize| u32::from_le_bytes(out.buffers[0][4 * i..4 * i + 4].try_into().unwrap());
    (word(0), word(1))
}

#[test]
fn depth_one_holds_what_the_hardware_fifo_holds() {
    let hw = hwcontract::pipe::effective_depth(Some(1));
    assert_eq!(hw, hwcontract::pipe::MIN_DEPTH);
    assert_eq!(fill("xcl_reqd_pipe_depth(1)"), (hw, hw));
}

#[test]
fn explicit_depth_is_kept() {
    assert_eq!(fill("xcl_reqd_pipe_depth(5)"), (5, 5));
}
