//! `const-fold`: fold integer operations on constants, apply algebraic identities, and reduce
//! multiplications by a power of two to shifts (wiring instead of a DSP multiplier).
//! Requires: a verified kernel. Guarantees: no integer `Binary`/`Cmp`/`Convert`/`Select` op has
//! only constant operands; the kernel still verifies (folded values are masked to their type).
//! Floating-point ops are left alone: folding them must follow the rounding the hardware uses.

use crate::ids::OpId;
use crate::kernel::{Kernel, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind};
use crate::types::Ty;

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

fn const_of(k: &Kernel, id: OpId) -> Option<u64> {
    match k.op(id).kind {
        OpKind::Const(v) if !k.op(id).ty.is_float() => Some(v),
        _ => None,
    }
}

/// Evaluate an integer binary op on constants, or `None` when it must not be folded
/// (division by zero is left for the hardware path to report at run time).
pub fn eval_binary(b: BinOp, ty: Ty, x: u64, y: u64) -> Option<u64> {
    let bits = ty.bits();
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    let sh = (y % bits as u64) as u32; // OpenCL masks shift counts to the width
    let r = match b {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::DivU if y != 0 => x / y,
        BinOp::RemU if y != 0 => x % y,
        BinOp::DivS if y != 0 => sx.wrapping_div(sy) as u64,
        BinOp::RemS if y != 0 => sx.wrapping_rem(sy) as u64,
        BinOp::Shl => x << sh,
        BinOp::ShrU => x >> sh,
        BinOp::ShrS => (sx >> sh) as u64,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::MinS => sx.min(sy) as u64,
        BinOp::MaxS => sx.max(sy) as u64,
        BinOp::MinU => x.min(y),
        BinOp::MaxU => x.max(y),
        _ => return None,
    };
    Some(r & ty.mask())
}

pub fn eval_cmp(c: CmpOp, bits: u32, x: u64, y: u64) -> Option<bool> {
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    Some(match c {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::LtS => sx < sy,
        CmpOp::LeS => sx <= sy,
        CmpOp::GtS => sx > sy,
        CmpOp::GeS => sx >= sy,
        CmpOp::LtU => x < y,
        CmpOp::LeU => x <= y,
        CmpOp::GtU => x > y,
        CmpOp::GeU => x >= y,
        _ => return None,
    })
}

fn fold(k: &Kernel, id: OpId) -> Option<Result<u64, OpId>> {
    let op = k.op(id);
    let args = k.operands(id);
    let c: Vec<Option<u64>> = args.iter().map(|&a| const_of(k, a)).collect();
    match &op.kind {
        OpKind::Binary(b) if !op.ty.is_float() => {
            if let (Some(x), Some(y)) = (c[0], c[1]) {
                return eval_binary(*b, op.ty, x, y).map(Ok);
            }
            // Identities: x+0, x-0, x|0, x^0, x<<0, x>>0 -> x ; x*1 -> x ; 0+x, 1*x -> x.
            match (b, c[0], c[1]) {
                (
                    BinOp::Add
                    | BinOp::Sub
                    | BinOp::Or
                    | BinOp::Xor
                    | BinOp::Shl
                    | BinOp::ShrU
                    | BinOp::ShrS,
                    _,
                    Some(0),
                ) => Some(Err(args[0])),
                (BinOp::Mul | BinOp::DivU | BinOp::DivS, _, Some(1)) => Some(Err(args[0])),
                (BinOp::Add | BinOp::Or | BinOp::Xor, Some(0), _) => Some(Err(args[1])),
                (BinOp::Mul, Some(1), _) => Some(Err(args[1])),
                (BinOp::Mul | BinOp::And, _, Some(0)) | (BinOp::Mul | BinOp::And, Some(0), _) => {
                    Some(Ok(0))
                }
                _ => None,
            }
        }
        OpKind::Cmp(cmp) => match (c[0], c[1]) {
            (Some(x), Some(y)) => {
                eval_cmp(*cmp, k.op(args[0]).ty.bits(), x, y).map(|b| Ok(b as u64))
            }
            _ => None,
        },
        OpKind::Select => match c[0] {
            Some(1) => Some(Err(args[1])),
            Some(_) => Some(Err(args[2])),
            None if args[1] == args[2] => Some(Err(args[1])),
            None => None,
        },
        OpKind::Convert(cv) if !op.ty.is_float() => {
            let from = k.op(args[0]).ty;
            if from.is_float() {
                return None;
            }
            let x = c[0]?;
            let v = match cv {
                ConvOp::Trunc | ConvOp::ZExt | ConvOp::Bitcast => x,
                ConvOp::SExt => sext(x, from.bits()) as u64,
                _ => return None,
            };
            Some(Ok(v & op.ty.mask()))
        }
        _ => None,
    }
}

/// `x * 2^n` or `2^n * x` (integers) as `(x, n)`.
fn mul_by_power_of_two(k: &Kernel, id: OpId) -> Option<(OpId, u32)> {
    let op = k.op(id);
    if op.kind != OpKind::Binary(BinOp::Mul) || op.ty.is_float() {
        return None;
    }
    let args = k.operands(id);
    for (x, c) in [(args[0], args[1]), (args[1], args[0])] {
        if let Some(v) = const_of(k, c) {
            if v.is_power_of_two() {
                return Some((x, v.trailing_zeros()));
            }
        }
    }
    None
}

pub fn run(k: &mut Kernel) {
    // Ids are created in topological order by lowering, but passes may not keep that, so
    // iterate to a fixed point.
    loop {
        let mut changed = false;
        for id in k.op_ids() {
            if !k.contains(id) {
                continue;
            }
            if let Some((x, n)) = mul_by_power_of_two(k, id) {
                let op = k.op(id).clone();
                let amount = k.add_op(
                    Op {
                        kind: OpKind::Const(n as u64),
                        name: None,
                        ..op.clone()
                    },
                    &[],
                );
                let shl = k.add_op(
                    Op {
                        kind: OpKind::Binary(BinOp::Shl),
                        ..op
                    },
                    &[x, amount],
                );
                k.replace_uses(id, shl);
                k.remove_op(id);
                changed = true;
                continue;
            }
            match fold(k, id) {
                Some(Ok(v)) => {
                    let op = k.op(id).clone();
                    let c = k.add_op(
                        Op {
                            kind: OpKind::Const(v),
                            ..op
                        },
                        &[],
                    );
                    k.replace_uses(id, c);
                    k.remove_op(id);
                    changed = true;
                }
                Some(Err(same)) if same != id => {
                    k.replace_uses(id, same);
                    k.remove_op(id);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
}
