//! The `narrow` pass: the widths it gives small kernels (worked out by hand in each test), and
//! a randomized differential test: the IR interpreter before and after the pass, on the test
//! vectors of every corpus kernel file and of kernels written to stress it, with many random
//! inputs, must write the same bytes to every buffer.

mod common;

use frontend::span::SourceMap;
use hls_ir::interp::{self, InterpLaunch};
use hls_ir::passes::{run_pipeline, PIPELINE};
use hls_ir::{CmpOp, ConvOp, Kernel, MemId, OpId, OpKind, Ty};
use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use testfile::{ArgKind, TestCase};

/// Lowered and run through the passes of `PIPELINE` (not `exit-ahead` after them, which
/// carries the stop conditions these tests look at ahead: `exit_ahead.rs` tests it).
fn narrowed(src: &str) -> Kernel {
    let mut k = common::lower(src);
    for p in PIPELINE {
        (p.run)(&mut k);
        hls_ir::verify(&k).unwrap_or_else(|e| panic!("{e}"));
    }
    k
}

/// Lowered and run through every pass but `narrow`.
fn without_narrow(mut k: Kernel) -> Kernel {
    for p in PIPELINE.iter().filter(|p| p.name != "narrow") {
        (p.run)(&mut k);
        hls_ir::verify(&k).unwrap_or_else(|e| panic!("{e}"));
    }
    k
}

fn mem_named(k: &Kernel, name: &str) -> MemId {
    let i = k.mems.iter().position(|m| m.name == name).unwrap();
    MemId::from_index(i)
}

/// The stores (`store`) or loads of memory `name`.
fn accesses(k: &Kernel, name: &str, stores: bool) -> Vec<OpId> {
    let m = mem_named(k, name);
    k.op_ids()
        .into_iter()
        .filter(|&o| match k.op(o).kind {
            OpKind::Store { mem, .. } => stores && mem == m,
            OpKind::Load { mem } => !stores && mem == m,
            _ => false,
        })
        .collect()
}

/// `o`, or the value an extension of it extends.
fn unextended(k: &Kernel, o: OpId) -> OpId {
    match k.op(o).kind {
        OpKind::Convert(ConvOp::ZExt | ConvOp::SExt) => k.operands(o)[0],
        _ => o,
    }
}

/// The value a store writes, looking through an extension.
fn stored(k: &Kernel, mem: &str) -> OpId {
    let st = accesses(k, mem, true);
    assert_eq!(st.len(), 1, "one store to {mem}");
    unextended(k, k.operands(st[0])[1])
}

fn print(k: &Kernel) -> String {
    hls_ir::printer::print_kernel(k, &|_| String::new())
}

fn ty(k: &Kernel, o: OpId) -> Ty {
    k.op(o).ty
}

#[test]
fn a_row_flag_proved_constant_drops_the_nests_row_record() {
    // `#pragma loop_coalesce` flattens a nest whose inner level never runs (`j < 0u`): its
    // row flag ("the inner level has an iteration now") is always false, and `narrow`
    // replaces it by a constant. The loop's row record (`Loop::rows`, a hint for analyses)
    // then named a constant as a carried flag and the verifier stopped the build (fuzz case
    // 5438); the record is dropped instead, and the pipeline verifies after every pass.
    let src = "kernel void k(global float *out, uint n) {
  float v = 0.0f;
  #pragma loop_coalesce
  for (uint i = 0; i < n; i++) {
    for (uint j = 0; j < 0u; j++) {
      v = 5.0f;
    }
  }
  out[get_global_id(0)] = v;
}";
    let k = common::lower(src);
    assert!(
        k.loops.iter().any(|l| l.rows.is_some()),
        "the nest is flattened"
    );
    let k = narrowed(src);
    assert!(k.loops.iter().all(|l| l.rows.is_none()));
}

#[test]
fn uchar_arithmetic_is_done_at_8_and_9_bits() {
    // c: (a * 3 + b) truncated to a uchar: only 8 bits are demanded. d: a + b is at most
    // 510, 9 bits, zero-extended into the ushort.
    let k = narrowed(
        "kernel void k(global const uchar *restrict a, global const uchar *restrict b,
                       global uchar *restrict c, global ushort *restrict d) {
           int i = get_global_id(0);
           c[i] = a[i] * 3 + b[i];
           d[i] = a[i] + b[i];
         }",
    );
    let c = stored(&k, "c");
    assert!(
        matches!(k.op(c).kind, OpKind::Binary(hls_ir::BinOp::Add)),
        "{}",
        print(&k)
    );
    assert_eq!(ty(&k, c), Ty::Int(8), "{}", print(&k));
    let mul = k.operands(c).into_iter().find(|&o| {
        ty(&k, o) == Ty::Int(8) && matches!(k.op(o).kind, OpKind::Binary(hls_ir::BinOp::Mul))
    });
    assert!(mul.is_some(), "the multiply is 8 bits too:\n{}", print(&k));
    let st = accesses(&k, "d", true)[0];
    let d = k.operands(st)[1];
    assert!(
        matches!(k.op(d).kind, OpKind::Convert(ConvOp::ZExt)),
        "{}",
        print(&k)
    );
    let add = k.operands(d)[0];
    assert!(matches!(k.op(add).kind, OpKind::Binary(hls_ir::BinOp::Add)));
    assert_eq!(ty(&k, add), Ty::Int(9), "{}", print(&k));
}

/// The carried counter of `loop1` and its exit comparison.
fn counter(k: &Kernel, name: &str) -> (OpId, OpId) {
    let c = k
        .op_ids()
        .into_iter()
        .find(|&o| k.op(o).kind == OpKind::Carried && k.op(o).name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no carried `{name}`:\n{}", print(k)));
    let exit = k
        .ops_in(k.op(c).region)
        .into_iter()
        .find(|&o| k.op(o).kind == OpKind::LoopExit)
        .unwrap();
    // stop = !cmp
    let stop = k.operands(exit)[0];
    let cmp = k.operands(stop)[0];
    (c, cmp)
}

#[test]
fn counted_loop_counter_is_5_bits() {
    // i in [0, 15] (4 bits) is carried; i + 1 in [1, 16] (5 bits) is compared with 16, both
    // non-negative, so unsigned at 5 bits. The trip count is kept.
    let k = narrowed(
        "kernel void k(global const int *a, global int *o) {
           int acc = 0;
           for (int i = 0; i < 16; i++) acc += a[i];
           o[get_global_id(0)] = acc;
         }",
    );
    let (i, cmp) = counter(&k, "i");
    assert_eq!(ty(&k, i), Ty::Int(4), "{}", print(&k));
    assert_eq!(k.op(cmp).kind, OpKind::Cmp(CmpOp::LtU), "{}", print(&k));
    let next = k.operands(cmp)[0];
    assert_eq!(ty(&k, next), Ty::Int(5), "{}", print(&k));
    let l = k.op(i).region;
    assert_eq!(k.loops[l].trip_count, Some(16));
    // The accumulator stays 32 bits: it is stored whole.
    let acc = k
        .op_ids()
        .into_iter()
        .find(|&o| k.op(o).kind == OpKind::Carried && k.op(o).name.as_deref() == Some("acc"))
        .unwrap();
    assert_eq!(ty(&k, acc), Ty::I32);
}

#[test]
fn counters_of_other_shapes_are_bounded() {
    // Down from 100 by 3 while j > 4 (signed): j in [5, 100] once the loop continues, and the
    // first value 100: 7 bits. A char counter from -5 to 5: sign-extended 4-bit values.
    let k = narrowed(
        "kernel void k(global int *o) {
           int acc = 0;
           for (int j = 100; j > 4; j -= 3) acc += j;
           for (char m = -5; m < 5; m++) acc ^= m;
           o[get_global_id(0)] = acc;
         }",
    );
    let (j, cmp) = counter(&k, "j");
    assert_eq!(ty(&k, j), Ty::Int(7), "{}", print(&k));
    assert!(ty(&k, k.operands(cmp)[0]).bits() <= 8, "{}", print(&k));
    let (m, _) = counter(&k, "m");
    assert_eq!(ty(&k, m), Ty::Int(4), "{}", print(&k));
}

#[test]
fn onchip_address_is_as_wide_as_the_memory() {
    // t has 64 ints: its addresses need 2 + 6 bits. The index comes from memory (unknown), so
    // only the demanded bits narrow it: the shift is done at 8 bits and zero-extended.
    let k = narrowed(
        "kernel void k(global const int *a, global int *o) {
           int i = get_global_id(0);
           int t[64];
           for (int j = 0; j < 64; j++) t[j] = j * j;
           o[i] = t[a[i]];
         }",
    );
    let loads = accesses(&k, "t", false);
    assert_eq!(loads.len(), 1);
    let addr = k.operands(loads[0])[0];
    assert_eq!(ty(&k, addr), Ty::I32);
    assert!(
        matches!(k.op(addr).kind, OpKind::Convert(ConvOp::ZExt)),
        "{}",
        print(&k)
    );
    let shl = k.operands(addr)[0];
    assert_eq!(ty(&k, shl), Ty::Int(8), "{}", print(&k));
    // The store in the loop: j in [0, 63], so j << 2 is 8 bits as well.
    let st = accesses(&k, "t", true)[0];
    assert_eq!(
        ty(&k, unextended(&k, k.operands(st)[0])),
        Ty::Int(8),
        "{}",
        print(&k)
    );
    // The global address stays 32 bits.
    let g = accesses(&k, "a", false)[0];
    assert!(matches!(
        k.op(k.operands(g)[0]).kind,
        OpKind::Binary(hls_ir::BinOp::Add)
    ));
    assert_eq!(ty(&k, k.operands(g)[0]), Ty::I32);
}

#[test]
fn masks_compares_and_selects_narrow() {
    // x = a & 0xff is the low byte (the and disappears); x < 200 compares 8-bit values; both
    // arms stay in [1, 254] under their conditions, so the select is 8 bits, zero-extended.
    let k = narrowed(
        "kernel void k(global const int *a, global int *o) {
           int i = get_global_id(0);
           int x = a[i] & 0xff;
           o[i] = x < 200 ? x + 1 : x - 1;
         }",
    );
    let sel = stored(&k, "o");
    assert_eq!(k.op(sel).kind, OpKind::Select, "{}", print(&k));
    assert_eq!(ty(&k, sel), Ty::Int(8), "{}", print(&k));
    let cmp = k.operands(sel)[0];
    assert_eq!(k.op(cmp).kind, OpKind::Cmp(CmpOp::LtU), "{}", print(&k));
    assert_eq!(ty(&k, k.operands(cmp)[0]), Ty::Int(8));
    assert!(
        !k.op_ids()
            .into_iter()
            .any(|o| matches!(k.op(o).kind, OpKind::Binary(hls_ir::BinOp::And))),
        "the mask is wiring now:\n{}",
        print(&k)
    );
}

#[test]
fn signed_values_narrow_by_sign_extension() {
    // char * char is in [-16256, 16384]: 16 bits signed, one DSP stage; the comparison of two
    // chars is done on 8 bits, signed.
    let k = narrowed(
        "kernel void k(global const char *a, global const char *b, global int *o) {
           int i = get_global_id(0);
           o[i] = a[i] * b[i] + (a[i] < b[i]);
         }",
    );
    let st = accesses(&k, "o", true)[0];
    let v = k.operands(st)[1];
    assert!(
        matches!(k.op(v).kind, OpKind::Convert(ConvOp::SExt)),
        "{}",
        print(&k)
    );
    let mul = k
        .op_ids()
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::Binary(hls_ir::BinOp::Mul)))
        .unwrap();
    assert_eq!(ty(&k, mul), Ty::Int(16), "{}", print(&k));
    let cmp = k
        .op_ids()
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::Cmp(_)))
        .unwrap();
    assert_eq!(k.op(cmp).kind, OpKind::Cmp(CmpOp::LtS));
    assert_eq!(ty(&k, k.operands(cmp)[0]), Ty::Int(8), "{}", print(&k));
}

#[test]
fn full_width_values_and_variable_shifts_are_left_alone() {
    // Nothing is known about a and b, and all 32 bits are stored: the pass changes nothing.
    let src = "kernel void k(global const int *a, global const int *b, global int *o) {
                 int i = get_global_id(0);
                 o[i] = (a[i] + b[i]) * a[i] - (b[i] >> 3);
               }";
    let before = without_narrow(common::lower(src));
    assert_eq!(print(&narrowed(src)), print(&before));
    // A shift by a variable amount keeps its width (the amount is taken modulo the width).
    let k = narrowed(
        "kernel void k(global const int *a, global const int *b, global int *o) {
           int i = get_global_id(0);
           o[i] = (a[i] & 0xff) << b[i];
         }",
    );
    let shl = stored(&k, "o");
    assert!(matches!(k.op(shl).kind, OpKind::Binary(hls_ir::BinOp::Shl)));
    assert_eq!(ty(&k, shl), Ty::I32);
}

#[test]
fn decided_comparisons_become_constants() {
    // In the loop j < 8, so j < 10 always holds: the select is its true arm.
    let k = narrowed(
        "kernel void k(global int *o) {
           int acc = 0;
           for (int j = 0; j < 8; j++) acc += j < 10 ? 1 : 100;
           o[get_global_id(0)] = acc;
         }",
    );
    assert!(
        !k.op_ids()
            .into_iter()
            .any(|o| matches!(k.op(o).kind, OpKind::Const(100))),
        "{}",
        print(&k)
    );
}

// ---- Differential test ----

/// Deterministic random inputs.
struct Rng(StdRng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(StdRng::seed_from_u64(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.random()
    }

    /// A lane of `bytes` bytes, often an edge value (0, 1, -1, the extremes, small values).
    fn lane(&mut self, bytes: usize) -> u64 {
        let bits = 8 * bytes as u32;
        let m = if bits >= 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let sign = 1u64 << (bits - 1);
        let v = match self.next() % 8 {
            0 => 0,
            1 => 1,
            2 => m,
            3 => sign,
            4 => sign - 1,
            5 => self.next() % 16,
            6 => self.next() >> (64 - 1 - (self.next() % bits as u64)),
            _ => self.next(),
        };
        v & m
    }
}

/// One test of a kernel file, as the IR interpreter runs it.
struct Case {
    what: String,
    before: Kernel,
    after: Kernel,
    launch: InterpLaunch,
    /// Per buffer of `launch`: the size of its scalar lanes in bytes.
    lanes: Vec<usize>,
    /// Scalar arguments: index and size in bytes.
    scalars: Vec<(usize, usize)>,
}

fn lower_named(path: &str, src: &str, name: &str) -> Kernel {
    let mut sm = SourceMap::new();
    let f = sm.add_file(path, src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p
        .kernels()
        .find(|(_, f)| f.name == name)
        .unwrap_or_else(|| panic!("{path}: no kernel `{name}`"));
    hls_ir::lower::lower_kernel(&p, id)
        .unwrap_or_else(|d| panic!("{path}: {}", frontend::render(&sm, &d, false)))
}

fn case(
    path: &str,
    src: &str,
    t: &TestCase,
    kernels: &mut BTreeMap<String, (Kernel, Kernel)>,
) -> Case {
    let (before, after) = kernels
        .entry(t.kernel_name.clone())
        .or_insert_with(|| {
            let k = lower_named(path, src, &t.kernel_name);
            let mut after = k.clone();
            run_pipeline(&mut after, true, None, &mut |_, _| {}).unwrap();
            (without_narrow(k), after)
        })
        .clone();
    let mut args = vec![0u64; before.args.len()];
    let mut wide_args = BTreeMap::new();
    let mut buffers = Vec::new();
    let mut lanes = Vec::new();
    let mut scalars = Vec::new();
    let mut next = 0x1000u32;
    for arg in &t.args {
        let i = arg.index as usize;
        match &arg.kind {
            ArgKind::Scalar { bytes, .. } if bytes.len() > 8 => {
                wide_args.insert(i, bytes.clone());
            }
            ArgKind::Scalar { bytes, .. } => {
                let mut v = [0u8; 8];
                v[..bytes.len()].copy_from_slice(bytes);
                args[i] = u64::from_le_bytes(v);
                scalars.push((i, bytes.len()));
            }
            ArgKind::Buffer { ty, len, input, .. } => {
                let size = *len as usize * ty.byte_size();
                args[i] = next as u64;
                buffers.push((next, input.clone().unwrap_or_else(|| vec![0xa5; size])));
                lanes.push(ty.scalar.size());
                next += (size as u32).div_ceil(256) * 256 + 256;
            }
            ArgKind::Local { .. } | ArgKind::NullBuffer { .. } => {}
        }
    }
    let mut global = t.global_size;
    let mut local = t.local_size.unwrap_or(global).map(|l| l.max(1));
    for d in (t.dimensions as usize).min(3)..3 {
        global[d] = 1;
        local[d] = 1;
    }
    Case {
        what: format!("{path}: {}", t.name),
        before,
        after,
        launch: InterpLaunch {
            args,
            wide_args,
            buffers,
            global_size: global,
            local_size: local,
            global_offset: t.global_offset,
            work_dim: t.dimensions,
            max_steps: 2_000_000,
        },
        lanes,
        scalars,
    }
}

fn cases_of(path: &str, src: &str) -> Vec<Case> {
    let tf = testfile::parse(path, src)
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .unwrap_or_else(|| panic!("{path}: no test header"));
    if tf.expect_build_fail {
        return Vec::new();
    }
    let mut kernels = BTreeMap::new();
    tf.tests
        .iter()
        .filter(|t| t.multi.is_none())
        .map(|t| case(path, src, t, &mut kernels))
        .collect()
}

/// Runs `c` on its own inputs and `rounds` random ones; returns how many runs compared.
/// Random inputs may make a loop run much longer (a Collatz sequence from 0 never ends): those
/// runs stop at four times the steps the test's own inputs take, within a factor of two.
fn differential(c: &mut Case, rounds: u32, rng: &mut Rng) -> u32 {
    let original: Vec<Vec<u8>> = c.launch.buffers.iter().map(|b| b.1.clone()).collect();
    let original_args = c.launch.args.clone();
    let mut budget = 1000;
    while budget < 2_000_000 {
        c.launch.max_steps = budget;
        if !matches!(
            interp::run(&c.before, &c.launch),
            Err(interp::InterpError::StepLimit(_))
        ) {
            break;
        }
        budget *= 2;
    }
    c.launch.max_steps = 4 * budget;
    let mut compared = 0;
    for round in 0..=rounds {
        // Every other round also moves the scalars (sizes, bounds) near their values.
        c.launch.args = original_args.clone();
        if round % 2 == 1 {
            for &(i, bytes) in &c.scalars {
                let v = c.launch.args[i];
                let m = if bytes >= 8 {
                    u64::MAX
                } else {
                    (1 << (8 * bytes)) - 1
                };
                c.launch.args[i] = match rng.next() % 4 {
                    0 => v.wrapping_add(1),
                    1 => v.wrapping_sub(1),
                    2 => rng.next() % (2 * (v & 0xffff) + 8),
                    _ => rng.lane(bytes),
                } & m;
            }
        }
        for (b, (buf, lane)) in c.launch.buffers.iter_mut().zip(&c.lanes).enumerate() {
            if round == 0 {
                buf.1 = original[b].clone();
            } else {
                for chunk in buf.1.chunks_mut(*lane) {
                    let v = rng.lane(*lane);
                    for (i, byte) in chunk.iter_mut().enumerate() {
                        *byte = (v >> (8 * i)) as u8;
                    }
                }
            }
        }
        let before = match interp::run(&c.before, &c.launch) {
            Ok(b) => b,
            Err(interp::InterpError::Unsupported(what)) => {
                assert_eq!(round, 0, "{}: unsupported only sometimes", c.what);
                eprintln!("{}: skipped, the interpreter does not model {what}", c.what);
                return 0;
            }
            // Random inputs may index outside a buffer or loop for long: nothing to compare.
            Err(e) => {
                assert!(round > 0, "{}: its own test fails: {e}", c.what);
                continue;
            }
        };
        let after = interp::run(&c.after, &c.launch).unwrap_or_else(|e| {
            panic!("{} (round {round}): fails only after `narrow`: {e}", c.what)
        });
        for (b, (x, y)) in before.iter().zip(&after).enumerate() {
            assert_eq!(
                x.1, y.1,
                "{} (round {round}): buffer {b} differs after `narrow`; arguments {:?}, buffers {:?}",
                c.what, c.launch.args, c.launch.buffers
            );
        }
        compared += 1;
    }
    compared
}

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![root.join("examples/vadd.cl")];
    for dir in ["tests/kernels", "bench/kernels"] {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cl"))
            .collect();
        v.sort();
        files.extend(v);
    }
    files
}

#[test]
fn corpus_kernels_compute_the_same_after_narrowing() {
    let mut rng = Rng::new(0x6e61_7272_6f77);
    let (mut files, mut runs) = (0, 0);
    for path in corpus_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let mut cases = cases_of(&name, &src);
        for c in &mut cases {
            runs += differential(c, 30, &mut rng);
        }
        files += usize::from(!cases.is_empty());
    }
    assert!(files >= 40, "only {files} corpus files had tests");
    assert!(runs >= 1400, "only {runs} runs compared");
}

/// Kernels written to exercise the pass: mixed signed and unsigned narrow types, masks,
/// shifts, min/max/abs, clamps, and loops counting up, down, by steps, with `break`.
const STRESS: &str = r#"/*!
[config]
kernel_name: mix
dimensions: 1

[test]
name: mix
global_size: 8 1 1
local_size: 8 1 1
arg_in: 0 buffer char[8] 1 -1 127 -128 0 5 -7 100
arg_in: 1 buffer uchar[8] 0 1 255 128 7 200 3 9
arg_in: 2 buffer short[8] 0 -1 32767 -32768 1000 -1000 3 17
arg_in: 3 buffer int[8] 0 -1 2147483647 -2147483648 65535 -65536 12345 -54321
arg_in: 4 buffer int[8] 0 0 0 0 0 0 0 0
arg_in: 5 buffer uchar[8] 0 0 0 0 0 0 0 0
arg_in: 6 buffer short[8] 0 0 0 0 0 0 0 0
arg_in: 7 buffer ulong[8] 0 0 0 0 0 0 0 0

[test]
name: loops
kernel_name: loops
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[4] 3 -1 20 70
arg_in: 1 buffer uchar[4] 1 2 250 0
arg_in: 2 buffer int[4] 0 0 0 0
!*/
kernel void mix(global const char *c, global const uchar *u, global const short *s,
                global const int *x, global int *o, global uchar *ob, global short *os,
                global ulong *ol) {
  int i = get_global_id(0);
  char a = c[i];
  uchar b = u[i];
  short h = s[i];
  int v = x[i];
  int r = a * b;
  r += (b & 0x0f) << 3;
  r ^= (h >> 4) + (v & 0x3ff);
  r += (int)((uint)(v & 0xffff) % 7u) + (int)((uint)(v & 0xff) / 5u);
  r += max(min(v, 100), -100) * 3;
  r -= abs(a) + abs(h >> 8);
  r += (a < b) + (h >= a) * 2 + ((uchar)v > b) * 4 + (a == (char)h) * 8;
  int clamp = v > 1000 ? 1000 : (v < -1000 ? -1000 : v);
  r += clamp * 7;
  r += (v >> 28) + (int)((uint)v >> 27) + (h << 3) + (b << 9);
  o[i] = r;
  ob[i] = b + a * 3 - (b >> 1);
  os[i] = h * 3 + a - ((h & 0xff00) >> 8);
  ol[i] = (ulong)(b + 1) * (ulong)(uint)v + (ulong)(a & 0x7f);
}

kernel void loops(global const int *n, global const uchar *u, global int *o) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < 16; j++) acc += j * u[i];
  for (int j = 100; j > 4; j -= 3) acc ^= j;
  for (uint j = 0; j <= 40u; j += 8u) acc += j;
  for (char m = -5; m < 5; m++) acc += m * 3;
  for (int j = 0; j < n[i]; j++) {
    if (j == 9) break;
    acc += j << 2;
  }
  int k = 0;
  while (k != 12) { acc -= k; k += 2; }
  uchar w = u[i];
  for (int j = 0; j < 5; j++) w = w * 3 + 1;
  int f = 0;
  while (f < (n[i] & 63)) {
    if ((f ^ u[i]) == 0x2a)
      break;
    f++;
  }
  for (short q = 0; q < (short)(n[i] & 0x1ff); q += 7) acc += q;
  int g = 0;
  while (g < n[i]) {
    if ((((g * 5) ^ u[i]) & 0xff) == 0x2a)
      break;
    g++;
  }
  o[i] = acc + w + f + g;
}
"#;

#[test]
fn stress_kernels_compute_the_same_after_narrowing() {
    let mut rng = Rng::new(42);
    let mut cases = cases_of("stress.cl", STRESS);
    assert_eq!(cases.len(), 2);
    let runs: u32 = cases
        .iter_mut()
        .map(|c| differential(c, 400, &mut rng))
        .sum();
    assert!(runs >= 700, "only {runs} runs compared");
    // The pass did something to each.
    for c in &cases {
        assert_ne!(print(&c.before), print(&c.after), "{}", c.what);
    }
}

#[test]
fn the_differential_test_notices_a_wrong_width() {
    // Narrowing an add below its known width changes the result: the harness must see it.
    let mut cases = cases_of("stress.cl", STRESS);
    let c = &mut cases[0];
    let add = c
        .after
        .op_ids()
        .into_iter()
        .find(|&o| {
            matches!(c.after.op(o).kind, OpKind::Binary(hls_ir::BinOp::Add))
                && c.after.op(o).ty == Ty::I32
                && c.after
                    .operands(o)
                    .iter()
                    .all(|&x| c.after.op(x).ty == Ty::I32)
        })
        .expect("a 32-bit add");
    // Replace it by its low 8 bits, zero-extended.
    let ops = c.after.operands(add);
    let mk = |k: &mut Kernel, kind: OpKind, ty: Ty, operands: &[OpId]| {
        let like = k.op(add).clone();
        k.add_op(
            hls_ir::Op {
                kind,
                ty,
                name: None,
                ..like
            },
            operands,
        )
    };
    let x = mk(
        &mut c.after,
        OpKind::Extract { lo: 0 },
        Ty::Int(8),
        &[ops[0]],
    );
    let y = mk(
        &mut c.after,
        OpKind::Extract { lo: 0 },
        Ty::Int(8),
        &[ops[1]],
    );
    let s = mk(
        &mut c.after,
        OpKind::Binary(hls_ir::BinOp::Add),
        Ty::Int(8),
        &[x, y],
    );
    let z = mk(&mut c.after, OpKind::Convert(ConvOp::ZExt), Ty::I32, &[s]);
    c.after.replace_uses(add, z);
    hls_ir::verify(&c.after).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        differential(c, 50, &mut Rng::new(7))
    }));
    assert!(caught.is_err(), "a wrong width went unnoticed");
}

/// A carried value whose initial value narrow cuts (an `int` argument used at fewer bits):
/// the cut is read by the parent when the loop starts, so it is computed there (the verifier
/// refuses an initial value computed inside the loop; piglit's gegl FIR kernel hit this).
#[test]
fn a_narrowed_initial_value_is_computed_in_the_parent() {
    let k = narrowed(
        "kernel void k(global float4 *out, const global float4 *buf, int offset, \
         const int delta, constant float *m, const int n) {\n\
         float4 acc = 0.0f;\n\
         for (int i = 0; i < n; i++) { acc += buf[offset] * m[i]; offset += delta; }\n\
         out[0] = acc;\n}",
    );
    for o in k.op_ids() {
        if k.op(o).kind == hls_ir::OpKind::Carried {
            let init = k.operands(o)[0];
            assert!(
                k.op(init).region != k.op(o).region || k.op(init).kind.is_launch_invariant(),
                "{}",
                print(&k)
            );
        }
    }
}

/// A float's bits read as an integer keep an `extract` of the float when the pass narrows an
/// operation on them: the kernel fuzzer found `narrow` using the float itself as an integer
/// operand (`tests/fuzz-regressions/seed20261126_case2175.cl`).
#[test]
fn bits_of_a_float_stay_an_integer() {
    let k = narrowed(
        "kernel void k(global const float *in, global long *out, uint n) {
           int i = get_global_id(0);
           float4 f = (float4)(0.0f, in[i], 1.0f, 2.0f);
           out[i] = (long)(as_uint4(f).s1) | (long)n;
         }",
    );
    for o in k.op_ids() {
        if let OpKind::Binary(_) = k.op(o).kind {
            for p in k.operands(o) {
                assert!(!ty(&k, p).is_float(), "{o} reads float {p}:\n{}", print(&k));
            }
        }
    }
}
