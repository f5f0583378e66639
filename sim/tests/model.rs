//! Port access, clocking, `$stop` handling and build errors on the `widths` test model.

mod common;

use std::sync::OnceLock;

use common::{build, toolchain, widths_source};
use sim::{build_model, BuildOptions, BuiltModel, InitValues, InstanceOptions, PortSpec, SimError};

fn widths() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build(&widths_source(), &BuildOptions::default()))
}

#[test]
fn ports_of_every_width() {
    let mut m = widths().instantiate().unwrap();
    let p = |m: &sim::Model, n: &str| m.port(n).unwrap_or_else(|| panic!("no port {n}"));
    let (in5, out5) = (p(&m, "in5"), p(&m, "out5"));
    let (in16, out16) = (p(&m, "in16"), p(&m, "out16"));
    let (in33, out33) = (p(&m, "in33"), p(&m, "out33"));
    let (in64, out64) = (p(&m, "in64"), p(&m, "out64"));
    let (in100, out100) = (p(&m, "in100"), p(&m, "out100"));
    assert_eq!(m.port("nope"), None);
    assert_eq!(m.spec(in100), &PortSpec::input("in100", 100));

    m.set(in5, 0xff_u64); // masked to 5 bits
    assert_eq!(m.get(in5), 0x1f);
    m.set(in5, 0b00101);
    m.set(in16, 0xffff);
    m.set(in33, 0x1_0000_0001);
    m.set(in64, 0x1122_3344_5566_7788);
    m.set_wide(in100, &[0xdead_beef, 0, 0x1234_5678, 0xffff_ffff]); // top word masked to 4 bits
    assert_eq!(m.get_wide(in100), vec![0xdead_beef, 0, 0x1234_5678, 0xf]);
    m.eval().unwrap();
    assert_eq!(m.get(out5), 0b11010);
    assert_eq!(m.get(out16), 0);
    assert_eq!(m.get(out33), 0x0_ffff_fffe);
    assert_eq!(m.get(out64), 0x5566_7788_1122_3344);
    assert_eq!(m.get_wide(out100), vec![!0xdead_beef, !0, !0x1234_5678, 0]);
    // Wide accessors work on narrow ports too.
    assert_eq!(m.get_wide(out64), vec![0x1122_3344, 0x5566_7788]);
    m.set_wide(in33, &[7, 1]);
    assert_eq!(m.get(in33), 0x1_0000_0007);
}

#[test]
#[should_panic(expected = "set() on output port `out5`")]
fn setting_an_output_panics() {
    let mut m = widths().instantiate().unwrap();
    let p = m.port("out5").unwrap();
    m.set(p, 1);
}

#[test]
fn clocking_and_independent_instances() {
    let mut a = widths().instantiate().unwrap();
    let mut b = widths()
        .instantiate_with(&InstanceOptions {
            init: InitValues::Zeros,
        })
        .unwrap();
    let (rst, count) = (a.port("rst").unwrap(), a.port("count").unwrap());
    for m in [&mut a, &mut b] {
        m.set(rst, 1);
        m.tick().unwrap();
        m.set(rst, 0);
    }
    a.ticks(10).unwrap();
    b.tick().unwrap();
    assert_eq!(a.get(count), 10);
    assert_eq!(b.get(count), 1);
    assert_eq!(a.cycles(), 11);
    assert!(!a.finished());
}

#[test]
fn random_initial_values_are_seeded() {
    let count_after_eval = |init| {
        let mut m = widths()
            .instantiate_with(&InstanceOptions { init })
            .unwrap();
        m.eval().unwrap();
        m.get(m.port("count").unwrap())
    };
    assert_eq!(count_after_eval(InitValues::Zeros), 0);
    assert_eq!(count_after_eval(InitValues::Ones), 0xffff_ffff);
    let r1 = count_after_eval(InitValues::Random(1));
    assert_eq!(r1, count_after_eval(InitValues::Random(1)));
    assert_ne!(r1, count_after_eval(InitValues::Random(2)));
}

#[test]
fn stop_is_an_error_not_an_exit() {
    let mut m = widths().instantiate().unwrap();
    let stop = m.port("stop").unwrap();
    m.tick().unwrap();
    m.set(stop, 1);
    let err = m.tick().unwrap_err();
    assert!(
        matches!(err, SimError::ModelStopped { cycle: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("$stop"), "{err}");
    // Other instances are unaffected.
    let mut other = widths().instantiate().unwrap();
    other.tick().unwrap();
}

#[test]
fn runtime_fatal_error_is_an_error_not_an_exit() {
    let mut m = widths().instantiate().unwrap();
    let dump = m.port("dump").unwrap();
    m.tick().unwrap();
    m.set(dump, 1);
    let err = m.tick().unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SimError::ModelStopped { .. }), "{msg}");
    assert!(msg.contains("$writemem file not found"), "{msg}");
    // The instance stays dead; dropping it is fine.
    assert!(m.eval().is_err());
}

#[test]
fn port_width_mismatch_fails_the_build_clearly() {
    let mut src = widths_source();
    for p in &mut src.ports {
        if p.name == "in16" {
            p.width = 32;
        }
    }
    let cache = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..Default::default()
    };
    let err = build_model(toolchain(), &src, &opts).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SimError::BuildFailed { .. }), "{msg}");
    assert!(
        msg.contains("port `in16` is not 32 bits wide in the Verilog"),
        "{msg}"
    );
    // Nothing half-built is left in the cache, only the lock and the log.
    for e in std::fs::read_dir(cache.path()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name.ends_with(".lock") || name.starts_with("failed-"),
            "leftover {name}"
        );
    }
}
