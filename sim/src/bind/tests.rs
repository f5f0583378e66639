//! Binding tests: no Verilator, only the binding of parsed test vectors.

use super::*;

const SRC: &str = "/*!
[config]
name: bind

[test]
name: t
kernel_name: k
dimensions: 1
global_size: 4 0 0
arg_in: 0 int 7
arg_in: 1 buffer int[4] 1 2 3 4
arg_out: 2 buffer int[4] 5 6 7 8
!*/
";

fn test_case(src: &str) -> TestCase {
    let tf = testfile::parse("t.cl", src).unwrap().unwrap();
    tf.tests.into_iter().next().unwrap()
}

fn arg(index: u32, name: &str, kind: ArgClass, bits: u32) -> KernelArg {
    KernelArg {
        index,
        name: name.to_string(),
        kind,
        port: Some(name.to_string()),
        bits,
        local_bytes: None,
    }
}

fn shape() -> KernelShape {
    KernelShape {
        args: vec![
            arg(0, "n", ArgClass::Scalar, 32),
            arg(1, "src", ArgClass::Global, 32),
            arg(2, "dst", ArgClass::Global, 32),
        ],
        ..Default::default()
    }
}

#[test]
fn scalars_and_buffers() {
    let t = test_case(SRC);
    let b = bind(&t, &shape()).unwrap();
    assert_eq!(b.ports[0], ("n".to_string(), PortValue::Scalar(7)));
    assert_eq!(b.scalars[0], 7);
    assert_eq!(b.buffers.len(), 2);
    // A buffer with contents holds them.
    let (src, ref init) = b.buffers[0];
    assert_eq!(b.scalars[1], src as u64);
    assert_eq!(init, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!(b.memory.read_bytes(src, 16).unwrap(), &init[..]);
    // A buffer without contents is poisoned, and its expected values are an output to check.
    let (dst, ref init) = b.buffers[1];
    assert_eq!(init, &vec![0xA5; 16]);
    assert_eq!(b.memory.read_bytes(dst, 16).unwrap(), &[0xA5; 16]);
    assert_eq!(b.outputs.len(), 1);
    let o = &b.outputs[0];
    assert_eq!(
        (o.index, o.name.as_str(), o.addr, o.size),
        (2, "dst", dst, 16)
    );
    assert_eq!(o.expect.bytes[0], 5);
    assert_eq!(b.range.global_size, [4, 1, 1]);
    assert_eq!(b.range.local_size, [1, 1, 1]);
}

#[test]
fn kind_mismatch() {
    let t = test_case(SRC);
    let mut s = shape();
    s.args[0].kind = ArgClass::Global;
    let e = bind(&t, &s).unwrap_err();
    assert!(matches!(e, BindError::KindMismatch { index: 0, .. }));
    assert_eq!(
        e.to_string(),
        "line 10: argument 0 (`n`) is a global argument; the test passes a scalar"
    );
}

#[test]
fn argument_count() {
    let t = test_case(SRC);
    let mut s = shape();
    s.args.pop();
    assert_eq!(
        bind(&t, &s).unwrap_err().to_string(),
        "kernel `k` takes 2 arguments but the test gives indices [0, 1, 2]"
    );
}

#[test]
fn work_group_checks() {
    let t = test_case(&SRC.replace(
        "global_size: 4 0 0",
        "global_size: 4 0 0\nlocal_size: 2 0 0",
    ));
    let s = KernelShape {
        reqd_work_group_size: Some([4, 1, 1]),
        ..shape()
    };
    assert_eq!(
        bind(&t, &s).unwrap_err().to_string(),
        "the kernel requires work-groups of 4x1x1 (reqd_work_group_size), but this test launches 2x1x1 (OpenCL: CL_INVALID_WORK_GROUP_SIZE)"
    );
    let s = KernelShape {
        max_group_items: Some(1),
        ..shape()
    };
    assert!(matches!(
        bind(&t, &s).unwrap_err(),
        BindError::GroupTooLarge { max: 1, items: 2 }
    ));
}

#[test]
fn a_counter_is_bound_to_a_buffer() {
    let src = "/*!
[config]
name: bind

[test]
name: t
kernel_name: k
dimensions: 1
global_size: 4 0 0
arg_in:  0 buffer ulong[1] 0x100000000
arg_out: 0 buffer ulong[1] 0x100000004
!*/
";
    let shape = KernelShape {
        args: vec![arg(0, "c", ArgClass::Counter, 64)],
        ..Default::default()
    };
    let b = bind(&test_case(src), &shape).unwrap();
    let (addr, ref init) = b.buffers[0];
    assert_eq!(addr % 8, 0, "aligned for its 64 bits");
    assert_eq!(init, &0x1_0000_0000u64.to_le_bytes());
    assert_eq!(b.scalars[0], addr as u64);
    assert_eq!(
        b.ports[0],
        ("c".to_string(), PortValue::Scalar(addr as u64))
    );
    assert_eq!(b.outputs[0].size, 8);
    // A counter is not a by-value argument.
    let scalar = src.replace(
        "arg_in:  0 buffer ulong[1] 0x100000000\narg_out: 0 buffer ulong[1] 0x100000004",
        "arg_in: 0 ulong 7",
    );
    let e = bind(&test_case(&scalar), &shape).unwrap_err().to_string();
    assert!(e.contains("is a counter argument"), "{e}");
}
