//! The verifier rejects broken IR (each check can fail) and accepts what lowering builds.

use frontend::span::{FileId, Span};
use hls_ir::{BinOp, CmpOp, Dep, Kernel, Op, OpKind, Ty};

fn span() -> Span {
    Span::new(FileId(0), 0, 0)
}

fn op(kind: OpKind, ty: Ty) -> Op {
    Op {
        kind,
        ty,
        region: Kernel::WORK_ITEM_LOOP,
        span: span(),
        name: None,
    }
}

fn errors(k: &Kernel) -> String {
    hls_ir::verify(k)
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn well_formed_kernel_verifies() {
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(3), Ty::I32), &[]);
    let b = k.add_op(op(OpKind::Const(4), Ty::I32), &[]);
    let s = k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[a, b]);
    k.add_op(op(OpKind::Cmp(CmpOp::LtS), Ty::BOOL), &[s, b]);
    assert_eq!(errors(&k), "");
}

#[test]
fn width_mismatch_is_reported() {
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(3), Ty::I32), &[]);
    let b = k.add_op(op(OpKind::Const(4), Ty::Int(16)), &[]);
    k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[a, b]);
    assert!(
        errors(&k).contains("operand types differ"),
        "{}",
        errors(&k)
    );
}

#[test]
fn wrong_arity_is_reported() {
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(3), Ty::I32), &[]);
    k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[a]);
    assert!(errors(&k).contains("takes 2 operands"), "{}", errors(&k));
}

#[test]
fn constant_wider_than_type_is_reported() {
    let mut k = Kernel::new("k", span());
    k.add_op(op(OpKind::Const(0x1ff), Ty::Int(8)), &[]);
    assert!(errors(&k).contains("wider than its type"), "{}", errors(&k));
}

#[test]
fn zero_distance_cycle_is_reported_but_carried_edges_are_fine() {
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(1), Ty::I32), &[]);
    let x = k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[a, a]);
    let y = k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[x, a]);
    k.add_dep(y, x, Dep::Order { distance: 1 });
    assert_eq!(errors(&k), "", "a loop-carried edge may close a cycle");
    k.add_dep(y, x, Dep::Order { distance: 0 });
    assert!(errors(&k).contains("cycle of distance 0"), "{}", errors(&k));
}

#[test]
fn predicate_must_be_i1() {
    let mut k = Kernel::new("k", span());
    let addr = k.add_op(op(OpKind::Const(0), Ty::I32), &[]);
    let bad_pred = k.add_op(op(OpKind::Const(1), Ty::I32), &[]);
    k.mems.push(hls_ir::Memory {
        name: "m".into(),
        kind: hls_ir::MemKind::Global {
            arg: hls_ir::ArgId(0),
            constant: false,
        },
        elem: Ty::I32,
        elem_bytes: 4,
        span: span(),
    });
    k.add_op(
        op(
            OpKind::Load {
                mem: hls_ir::MemId(0),
            },
            Ty::I32,
        ),
        &[addr, bad_pred],
    );
    assert!(errors(&k).contains("predicate operand"), "{}", errors(&k));
}

#[test]
fn cse_and_dce_keep_the_kernel_valid() {
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(3), Ty::I32), &[]);
    let b = k.add_op(op(OpKind::Const(3), Ty::I32), &[]);
    let x = k.add_op(op(OpKind::Binary(BinOp::Xor), Ty::I32), &[a, b]);
    let _unused = k.add_op(op(OpKind::Binary(BinOp::Mul), Ty::I32), &[x, x]);
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    // 3 ^ 3 folds to 0 and nothing has a side effect: everything is dead.
    assert_eq!(k.num_ops(), 0);
}

#[test]
fn values_leave_loops_only_through_loop_results() {
    use hls_ir::kernel::{Loop, LoopKind};
    use hls_ir::LoopId;
    let mut k = Kernel::new("k", span());
    k.loops.push(Loop {
        kind: LoopKind::Source,
        parent: Some(Kernel::WORK_ITEM_LOOP),
        name: "k.loop1".into(),
        span: span(),
        trip_count: None,
        unroll: None,
        flattened: Vec::new(),
        coalesce_requested: false,
        flatten_declined: None,
        requested_ii: None,
        rows: None,
    });
    let l1 = LoopId::from_index(1);
    let one = k.add_op(op(OpKind::Const(1), Ty::BOOL), &[]);
    let zero = k.add_op(op(OpKind::Const(0), Ty::I32), &[]);
    let mut inner = op(OpKind::Carried, Ty::I32);
    inner.region = l1;
    let c = k.add_op(inner, &[zero]);
    let mut add = op(OpKind::Binary(BinOp::Add), Ty::I32);
    add.region = l1;
    let next = k.add_op(add, &[c, zero]);
    k.add_dep(
        next,
        c,
        Dep::Data {
            operand: 1,
            distance: 1,
        },
    );
    let mut exit = op(OpKind::LoopExit, Ty::Token);
    exit.region = l1;
    k.add_op(exit, &[one]);
    let lp = k.add_op(op(OpKind::Loop(l1), Ty::Token), &[one]);
    k.add_op(op(OpKind::LoopResult, Ty::I32), &[lp, next, zero]);
    assert_eq!(errors(&k), "", "a well-formed loop verifies");
    // The loop's value read directly by the parent: not allowed.
    k.add_op(op(OpKind::Binary(BinOp::Add), Ty::I32), &[next, zero]);
    assert!(errors(&k).contains("cannot see"), "{}", errors(&k));
}

#[test]
fn bit_plumbing_widths_are_checked() {
    // An aggregate image of 128 bits: bit selects inside it and a concatenation of the right
    // width verify; a select past its end, a concatenation of the wrong width, and arithmetic
    // on more than 64 bits do not.
    let mut k = Kernel::new("k", span());
    let img = k.add_op(op(OpKind::Const(0), Ty::Int(128)), &[]);
    let lane = k.add_op(op(OpKind::Extract { lo: 96 }, Ty::I32), &[img]);
    let f = k.add_op(op(OpKind::Extract { lo: 32 }, Ty::Float(32)), &[img]);
    k.add_op(op(OpKind::Concat, Ty::Int(64)), &[lane, f]);
    assert_eq!(errors(&k), "");
    k.add_op(op(OpKind::Extract { lo: 97 }, Ty::I32), &[img]);
    assert!(errors(&k).contains("outside its operand"), "{}", errors(&k));
    let mut k = Kernel::new("k", span());
    let a = k.add_op(op(OpKind::Const(1), Ty::I32), &[]);
    k.add_op(op(OpKind::Concat, Ty::Int(48)), &[a, a]);
    assert!(
        errors(&k).contains("as wide as its parts"),
        "{}",
        errors(&k)
    );
    let mut k = Kernel::new("k", span());
    let w = k.add_op(op(OpKind::Const(1), Ty::Int(128)), &[]);
    k.add_op(op(OpKind::Binary(BinOp::Add), Ty::Int(128)), &[w, w]);
    assert!(errors(&k).contains("wider than 64 bits"), "{}", errors(&k));
}

#[test]
fn store_masks_fit_the_element() {
    use hls_ir::{ArgId, ByteMask, MemKind, Memory};
    let mut k = Kernel::new("k", span());
    k.mems.push(Memory {
        name: "p".into(),
        kind: MemKind::Global {
            arg: ArgId(0),
            constant: false,
        },
        elem: Ty::Int(64),
        elem_bytes: 8,
        span: span(),
    });
    let m = hls_ir::MemId(0);
    let addr = k.add_op(op(OpKind::Const(0x100), Ty::I32), &[]);
    let data = k.add_op(op(OpKind::Const(7), Ty::Int(64)), &[]);
    let t = k.add_op(op(OpKind::Const(1), Ty::BOOL), &[]);
    let store = |mask: Vec<bool>| OpKind::Store {
        mem: m,
        mask: Some(ByteMask(mask)),
    };
    let mut ok = vec![false; 8];
    ok[2] = true;
    ok[3] = true;
    k.add_op(op(store(ok), Ty::Token), &[addr, data, t]);
    assert_eq!(errors(&k), "");
    k.add_op(op(store(vec![true; 4]), Ty::Token), &[addr, data, t]);
    assert!(errors(&k).contains("byte mask"), "{}", errors(&k));
}
