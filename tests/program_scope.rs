//! Program-scope data in hardware: ROMs in report.json, and OpenCL 2.0 program-scope `global`
//! variables that keep their values from one launch of a kernel module to the next (the test
//! format launches a kernel once per test, so these launch one model twice from Rust).

mod common;

use common::{oclhls, root, write};
use sim::{GlobalMemory, KernelRun, NdRange, PortSpec};
use std::path::Path;

/// Compiles `file` into `dir`; its report.json.
fn compile(file: &str, dir: &Path) -> serde_json::Value {
    let o = oclhls(&[file, "-o", dir.to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

/// The Verilator model of kernel `name` of a compile into `dir`.
fn model(report: &serde_json::Value, dir: &Path, name: &str) -> sim::Model {
    let k = report["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == name)
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let mut files: Vec<_> = k["support_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| dir.join(f.as_str().unwrap()))
        .collect();
    files.push(dir.join(k["verilog"].as_str().unwrap()));
    let ports = k["interface"]["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (n, w) = (
                p["name"].as_str().unwrap(),
                p["width"].as_u64().unwrap() as u32,
            );
            if p["dir"] == "in" {
                PortSpec::input(n, w)
            } else {
                PortSpec::output(n, w)
            }
        })
        .collect();
    let src = sim::ModelSource {
        top: k["interface"]["module"].as_str().unwrap().to_string(),
        files,
        ports,
    };
    let tc = toolchain::Toolchain::new(false);
    sim::build_model(&tc, &src, &sim::BuildOptions::default())
        .unwrap()
        .instantiate()
        .unwrap()
}

#[test]
fn program_scope_globals_persist_across_launches() {
    let dir = tempfile::tempdir().unwrap();
    let file = "tests/kernels/program_globals.cl";
    let report = compile(file, dir.path());
    let k = &report["kernels"][0];
    assert_eq!(k["program_variables"][0]["name"], "base", "{k:#}");
    assert_eq!(k["program_variables"][0]["words"], 8, "{k:#}");
    assert!(k["roms"].as_array().unwrap().is_empty(), "{k:#}");

    // bump: base[i] += 3 + 2 (i mod 4); the first launch starts from the initialiser
    // {100, 200, 300, 400, 108, 208, 308, 408}, the second from what the first left.
    let mut m = model(&report, dir.path(), "bump");
    let mut mem = GlobalMemory::new();
    let o = mem.alloc(32, 4).unwrap();
    let mut got = Vec::new();
    for _ in 0..2 {
        KernelRun::new(&mut m)
            .arg("o", o.into())
            .range(NdRange::linear(8, 8))
            .run(&mut mem)
            .unwrap();
        got.push(mem.read::<i32>(o, 8).unwrap());
    }
    assert_eq!(got[0], [103, 205, 307, 409, 111, 213, 315, 417]);
    assert_eq!(got[1], [106, 210, 314, 418, 114, 218, 322, 426]);

    // tally: an atomic counter starting at 0 (no initialiser); each launch counts the
    // non-zero inputs (5 of 8), and the work-items see the old values in order.
    let mut m = model(&report, dir.path(), "tally");
    let input = mem.alloc_init(&[5i32, 0, 7, 2, 0, 0, 9, 1]).unwrap();
    let out = mem.alloc(32, 4).unwrap();
    let mut got = Vec::new();
    for _ in 0..2 {
        KernelRun::new(&mut m)
            .arg("in", input.into())
            .arg("out", out.into())
            .range(NdRange::linear(8, 8))
            .run(&mut mem)
            .unwrap();
        got.push(mem.read::<u32>(out, 8).unwrap());
    }
    let none = u32::MAX;
    assert_eq!(got[0], [0, none, 1, 2, none, none, 3, 4]);
    assert_eq!(got[1], [5, none, 6, 7, none, none, 8, 9]);
}

#[test]
fn roms_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let report = compile("tests/kernels/rom_ebr.cl", dir.path());
    let rom = |k: usize| report["kernels"][k]["roms"][0].clone();
    assert_eq!(
        rom(0),
        serde_json::json!({"name": "mix", "line": 44, "words": 256, "width": 32, "kind": "ebr"})
    );
    assert_eq!(rom(1)["words"], 256);
    assert_eq!(rom(1)["width"], 16);
    let report = compile("tests/kernels/rom_lut.cl", dir.path());
    for k in report["kernels"].as_array().unwrap() {
        assert_eq!(k["roms"][0]["kind"], "lut", "{k:#}");
        for l in k["loops"].as_array().unwrap() {
            assert_eq!(l["ii"], 1, "{l:#}");
        }
    }
    // Constant indices only: no ROM at all.
    let report = compile("tests/kernels/rom_fold.cl", dir.path());
    for k in report["kernels"].as_array().unwrap() {
        assert!(k["roms"].as_array().unwrap().is_empty(), "{k:#}");
    }
}

#[test]
fn program_variable_shared_by_kernels_of_a_system_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "shared.cl",
        "/*!\n[config]\n[test]\nname: count then read\nlaunch: inc 4\nlaunch: rd 1 after inc\nbuffer: o int[1] 0\narg: rd 0 o\nexpect: o int[1] 4\n!*/\n\
         global int counter;\nkernel void inc(void) { atomic_inc(&counter); }\nkernel void rd(global int *o) { o[0] = counter; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains(
            "program-scope variable `counter` (line 11) is used by kernels `inc` and `rd` of this system"
        ),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("not yet supported"), "{}", o.stdout);
}
