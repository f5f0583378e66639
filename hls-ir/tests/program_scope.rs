//! Program-scope variables in the IR: the initial contents lowering computes (`mem_init`), ROM
//! reads at constant indices folded (in lowering and by `const-fold`), ROMs split into banks
//! with their contents, and the IR interpreter's results unchanged by the passes.

mod common;

use common::{launch_of, lower};
use hls_ir::{Kernel, LoopId, MemKind, OpKind};

fn passes(k: &Kernel, goal: Option<u32>) -> Kernel {
    let mut k = k.clone();
    let g = move |_: &Kernel, _: LoopId| goal;
    let goal: Option<hls_ir::passes::IiGoal> = if goal.is_some() { Some(&g) } else { None };
    hls_ir::passes::run_pipeline(&mut k, true, goal, &mut |_, _| {}).unwrap();
    k
}

/// Loads of ROMs left in `k`.
fn rom_loads(k: &Kernel) -> usize {
    k.op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::Load { mem } if k.mem(mem).kind.is_rom()))
        .count()
}

fn run_words(k: &Kernel, items: u32, out_words: usize) -> Vec<u32> {
    let l = launch_of(vec![0x1000], vec![(0x1000, vec![0; 4 * out_words])], items);
    let r = hls_ir::interp::run(k, &l).unwrap();
    r[0].1
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn initial_contents_are_memory_images() {
    // A struct of an int and a short (8 bytes with padding), a float computed from constants
    // with the hardware's rounding, and an unsized array completed by its initialiser.
    let k = lower(
        "constant struct s { int a; short b; } t[2] = {{1, -2}, {0x01020304, 7}};\n\
         constant float third = 1.0f / 3.0f;\n\
         constant uchar u[] = {9, 8, 7};\n\
         kernel void k(global int *o, int i) { o[0] = t[i].a + t[i].b + (int)(third * 3.0f) + u[i]; }",
    );
    let m = |name: &str| {
        let i = hls_ir::MemId::from_index(k.mems.iter().position(|m| m.name == name).unwrap());
        (i, k.mem(i))
    };
    let (id, t) = m("t");
    assert_eq!(
        t.kind,
        MemKind::Program {
            len: 2,
            constant: true
        }
    );
    assert_eq!(t.elem_bytes, 8);
    assert_eq!(
        k.mem_init[&id],
        [1, 0, 0, 0, 0xfe, 0xff, 0, 0, 4, 3, 2, 1, 7, 0, 0, 0]
    );
    let (id, f) = m("third");
    assert_eq!(
        f.kind,
        MemKind::Program {
            len: 1,
            constant: true
        }
    );
    assert_eq!(
        k.mem_init[&id],
        fpsem::div(1.0f32.to_bits(), 3.0f32.to_bits()).to_le_bytes()
    );
    let (id, u) = m("u");
    assert_eq!(
        u.kind,
        MemKind::Program {
            len: 3,
            constant: true
        }
    );
    assert_eq!(k.mem_init[&id], [9, 8, 7]);
}

#[test]
fn constant_indices_read_no_memory() {
    // `t[2]` folds while lowering; `t[(n & 0) + 1]` only once const-fold knows `n & 0` is 0.
    let k = lower(
        "constant int t[4] = {10, 20, 30, 40};\n\
         kernel void k(global int *o) { size_t n = get_global_id(0); o[n] = t[2] + t[(n & 0) + 1]; }",
    );
    assert_eq!(rom_loads(&k), 1);
    let after = passes(&k, None);
    assert_eq!(rom_loads(&after), 0);
    assert_eq!(run_words(&k, 2, 2), [50, 50]);
    assert_eq!(run_words(&after, 2, 2), [50, 50]);
}

#[test]
fn rom_banks_keep_their_contents() {
    // Four reads of one ROM per iteration: banked for II 1, element i in bank i mod 4.
    let src = "constant int sq[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};\n\
               kernel void k(global int *o) {\n\
                 size_t n = get_global_id(0);\n\
                 int acc = 0;\n\
                 for (int j = 0; j < 4; j++)\n\
                   acc += sq[4 * j] + sq[4 * j + 1] + sq[4 * j + 2] + sq[(4 * j + 3 + n) & 15];\n\
                 o[n] = acc;\n\
               }";
    let k = lower(src);
    let after = passes(&k, Some(1));
    let banks: Vec<_> = after
        .mems
        .iter()
        .enumerate()
        .filter(|(_, m)| m.name.starts_with("sq_b"))
        .collect();
    assert_eq!(
        banks.len(),
        4,
        "{}",
        hls_ir::printer::print_kernel(&after, &|_| String::new())
    );
    let (b1, _) = banks[1];
    assert_eq!(
        after.mem_init[&hls_ir::MemId::from_index(b1)],
        [1, 25, 81, 169]
            .iter()
            .flat_map(|v: &i32| v.to_le_bytes())
            .collect::<Vec<u8>>()
    );
    // By hand: n = 0 sums all 16 squares (1240); n = 1 reads sq[4j + 4 mod 16] instead of
    // sq[4j + 3]: 1240 - (9 + 49 + 121 + 225) + (16 + 64 + 144 + 0) = 1060.
    assert_eq!(run_words(&k, 2, 2), [1240, 1060]);
    assert_eq!(run_words(&after, 2, 2), [1240, 1060]);
}

#[test]
fn global_variables_are_writable_program_memories() {
    let k = lower(
        "global int hits[4] = {5};\n\
         kernel void k(global int *o) { size_t n = get_global_id(0); hits[n & 3] += 1; o[n] = hits[n & 3]; }",
    );
    let m = k.mem(hls_ir::MemId::from_index(
        k.mems.iter().position(|m| m.name == "hits").unwrap(),
    ));
    assert_eq!(
        m.kind,
        MemKind::Program {
            len: 4,
            constant: false
        }
    );
    let after = passes(&k, None);
    // Work-items 0..5 in order: hits[0] = 5 + 1, then 6 + 1 at n = 4; the others 0 + 1.
    assert_eq!(run_words(&after, 6, 6), [6, 1, 1, 1, 7, 2]);
}
