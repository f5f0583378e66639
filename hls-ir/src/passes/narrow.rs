//! `narrow`: compute integer operations at the fewest bits that give the same observable
//! results. C's integer promotions make `uchar + uchar` a 32-bit add, a loop counter
//! `for (int i = 0; i < 16; i++)` a 32-bit add and compare, an index into a 16-entry local
//! array 32 bits wide; every extra bit is a LUT and carry-chain delay on the FPGA.
//!
//! Two analyses decide the width `n` of each value (LLVM's `DemandedBits` and `KnownBits`,
//! as CIRCT and XLS use them):
//! - **Known bits and ranges**, forward ([`crate::analysis::known_bits`]): a value whose high
//!   bits are known zeros (or copies of its sign) is the zero (sign) extension of its low `n`
//!   bits, e.g. `(uint)a + (uint)b` for `uchar a, b` is a 9-bit value, the counter of
//!   `for (int i = 0; i < 16; i++)` a 4-bit one (and `i + 1` a 5-bit one).
//! - **Demanded bits**, backward (here): the low bits each use reads. A truncation, a store of a
//!   narrow element (or of some bytes), a bit select, a shift by a constant, a narrowed
//!   operation and an address into an on-chip memory (which decodes only
//!   [`crate::Memory::onchip_address_bits`]) read only low bits of their operands. Stores to
//!   global memory, pipes, loads' addresses into global memory and every operation this pass
//!   does not know (operations added to the IR later included) read all bits.
//!
//! Demands are prefixes (the low `d` bits), so every value of the rewritten IR agrees with the
//! original in its low `dem` bits, where `dem` is the most any use demands — by induction over
//! the graph: an operation whose low `n` result bits depend only on the low `n` bits of its
//! operands (`add`, `sub`, `mul`, `and`, `or`, `xor`, `not`, `neg`, `shl` by a constant,
//! `select`, carried values and loop results) is computed on truncated operands at `n = min(dem,
//! known width)` bits; where `n` is the known width the result is extended exactly (zero or
//! sign extension), so it equals the original in every bit. Comparisons, min/max, `abs`,
//! `udiv` and `urem` are computed at `n` bits only when both operands are known to be zero-
//! (signed predicates become unsigned) or sign-extensions from `n` bits; a signed division or
//! remainder of operands known to be zero extensions becomes an unsigned one at `n` bits, of
//! sign extensions a signed one at `n + 1` bits (the quotient `MIN / -1` needs them) or `n`
//! (the remainder); the IR's division by zero, 0 and the dividend, is the same at every width.
//! A right shift by a
//! constant becomes a bit select. Values the analysis proves constant become constants (a
//! comparison it decides, a select of a decided condition becomes its arm). Truncations become
//! bit selects (`extract`), which the RTL takes as soon as the source is there.
//!
//! Widths: any width is fine for LUT fabric, so `n` is exact, except for multiplies (one DSP
//! stage up to 18 bits, otherwise the 32- or 64-bit structures `rtl-templates` builds, so `n`
//! is rounded up to 32 or 64) and never below what is demanded. Variable shifts, `mul_hi`,
//! and floating-point operations keep their width.
//!
//! Requires: a verified kernel. Guarantees: a verified kernel whose stores, pipe writes and
//! other side effects see the same values in every execution as before (an on-chip address
//! outside its memory, undefined in OpenCL, may reach another element); loops' trip counts
//! are recorded in [`crate::Loop::trip_count`] before the counters change shape.

use crate::analysis::known_bits::{self, has_facts, topo_order, Facts, KnownBits};
use crate::analysis::trip_count::trip_count;
use crate::ids::{LoopId, OpId};
use crate::integer;
use crate::kernel::{Dep, Kernel, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::types::Ty;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How a narrowed value's bits above `n` are rebuilt where the full width is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ext {
    /// Zeros: exact, the value is known to be a zero extension.
    Zero,
    /// Copies of bit `n - 1`: exact, the value is known to be a sign extension.
    Sign,
    /// Zeros, but only because no use reads those bits.
    Any,
}

/// What becomes of one op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    Keep,
    /// The op always has this value.
    Const(u64),
    /// An op whose low `n` bits depend only on its operands' low `n` bits, at `n` bits.
    Low {
        n: u32,
        ext: Ext,
    },
    /// min/max/abs/udiv/urem at `n` bits: the operands are zero extensions (`signed` false) or
    /// sign extensions of their low `n` bits.
    Exact {
        n: u32,
        signed: bool,
    },
    /// A comparison at `n` bits, likewise.
    Cmp {
        n: u32,
        signed: bool,
    },
    /// Bits `lo .. lo + n` of operand 0: a truncation, a bit select, a shift right by a
    /// constant, an extension of which only `n <= source` bits are demanded.
    Bits {
        lo: u32,
        n: u32,
        ext: Ext,
    },
    /// The low `n` bits of operand `index`: a select whose condition is known, an `and` with
    /// a constant whose low `n` bits are all ones.
    Operand {
        index: usize,
        n: u32,
        ext: Ext,
    },
}

/// A value of the rewritten IR standing for an original value: `op` holds its low `n` bits.
#[derive(Clone, Copy, Debug)]
struct View {
    op: OpId,
    n: u32,
    ext: Ext,
}

/// Ops whose result is all they contribute: pure ops, and loop-carried values and results
/// (values, not effects).
fn is_pure(kind: &OpKind) -> bool {
    kind.is_pure() || matches!(kind, OpKind::Carried | OpKind::LoopResult)
}

fn is_float_cmp(c: CmpOp) -> bool {
    matches!(
        c,
        CmpOp::FEq | CmpOp::FNe | CmpOp::FLt | CmpOp::FLe | CmpOp::FGt | CmpOp::FGe
    )
}

fn unsigned(c: CmpOp) -> CmpOp {
    match c {
        CmpOp::LtS => CmpOp::LtU,
        CmpOp::LeS => CmpOp::LeU,
        CmpOp::GtS => CmpOp::GtU,
        CmpOp::GeS => CmpOp::GeU,
        other => other,
    }
}

/// The amount of a shift by a constant, as the IR takes it (modulo the width).
fn const_amount(k: &Kernel, o: OpId) -> Option<u32> {
    let w = k.op(o).ty.bits() as u64;
    k.int_const(k.operands(o)[1]).map(|c| (c % w) as u32)
}

/// The width to compute a value at: no more than demanded, no more than known to matter.
fn low_width(f: &Facts, dem: u32, w: u32) -> (u32, Ext) {
    let n = dem.min(f.unsigned_bits()).min(f.signed_bits()).clamp(1, w);
    (n, ext_for(f, n))
}

fn ext_for(f: &Facts, n: u32) -> Ext {
    if n >= f.unsigned_bits() {
        Ext::Zero
    } else if n >= f.signed_bits() {
        Ext::Sign
    } else {
        Ext::Any
    }
}

/// Multiplies are built as one DSP stage up to 18 bits, otherwise as the 32- or 64-bit split
/// structures of `rtl-templates` (`emit_mul`): other widths are rounded up to those.
fn mul_width(n: u32) -> u32 {
    match n {
        0..=18 => n,
        19..=32 => 32,
        _ => 64,
    }
}

/// Widths at which operands `a` are all zero extensions (`(n, false)`) or sign extensions
/// (`(n, true)`): the smaller, zero extension on a tie.
fn exact_width(kb: &KnownBits, a: &[OpId], zero: bool, sign: bool) -> Option<(u32, bool)> {
    let facts: Vec<&Facts> = a.iter().map(|&o| kb.get(o)).collect::<Option<_>>()?;
    let kz = facts.iter().map(|f| f.unsigned_bits()).max()?.max(1);
    let ks = facts.iter().map(|f| f.signed_bits()).max()?;
    match (zero, sign) {
        (true, true) if kz <= ks => Some((kz, false)),
        (_, true) => Some((ks, true)),
        (true, false) => Some((kz, false)),
        (false, false) => None,
    }
}

struct Planner<'a> {
    k: &'a Kernel,
    kb: &'a KnownBits,
    /// Ops the pass leaves alone whatever their facts: order edges into them, or values
    /// reaching them across iterations other than a carried value's next.
    frozen: BTreeSet<OpId>,
}

impl Planner<'_> {
    fn plan(&self, o: OpId, dem: u32) -> Plan {
        let k = self.k;
        let op = k.op(o);
        if dem == 0 || !has_facts(k, o) || self.frozen.contains(&o) || !is_pure(&op.kind) {
            return Plan::Keep;
        }
        let Some(f) = self.kb.get(o) else {
            return Plan::Keep;
        };
        let w = op.ty.bits();
        let a = k.operands(o);
        if let Some(v) = f.value() {
            if !matches!(op.kind, OpKind::Const(_)) {
                return Plan::Const(v);
            }
        }
        let low = |n: u32, ext: Ext| {
            if n < w {
                Plan::Low { n, ext }
            } else {
                Plan::Keep
            }
        };
        match &op.kind {
            OpKind::Binary(BinOp::And) => {
                let (n, ext) = low_width(f, dem, w);
                // A mask that keeps all the bits still needed is no operation.
                let ones = integer::mask(n);
                match (k.int_const(a[0]), k.int_const(a[1])) {
                    (_, Some(c)) if c & ones == ones => Plan::Operand { index: 0, n, ext },
                    (Some(c), _) if c & ones == ones => Plan::Operand { index: 1, n, ext },
                    _ => low(n, ext),
                }
            }
            OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor)
            | OpKind::Unary(UnOp::Not | UnOp::Neg)
            | OpKind::Carried
            | OpKind::LoopResult => {
                let (n, ext) = low_width(f, dem, w);
                low(n, ext)
            }
            OpKind::Binary(BinOp::Mul) => {
                let (n, _) = low_width(f, dem, w);
                let n = mul_width(n).min(w);
                low(n, ext_for(f, n))
            }
            OpKind::Binary(BinOp::Shl) if const_amount(k, o).is_some() => {
                let (n, ext) = low_width(f, dem, w);
                low(n, ext)
            }
            OpKind::Select => match self.kb.get(a[0]).and_then(|c| c.value()) {
                Some(c) => {
                    let (n, ext) = low_width(f, dem, w);
                    Plan::Operand {
                        index: if c == 1 { 1 } else { 2 },
                        n,
                        ext,
                    }
                }
                None => {
                    let (n, ext) = low_width(f, dem, w);
                    low(n, ext)
                }
            },
            OpKind::Binary(b @ (BinOp::ShrU | BinOp::ShrS)) => {
                let Some(c) = const_amount(k, o) else {
                    return Plan::Keep;
                };
                // The result is bits c.. of the operand, then zeros (copies of the sign).
                let (n, ext) = low_width(f, dem, w);
                let n = n.min(w - c);
                let ext = if n == w - c && ext == Ext::Any {
                    if *b == BinOp::ShrU {
                        Ext::Zero
                    } else {
                        Ext::Sign
                    }
                } else {
                    ext
                };
                // Not narrower than the shift itself: it stays (it is wiring already).
                if n == w - c {
                    Plan::Keep
                } else {
                    Plan::Bits { lo: c, n, ext }
                }
            }
            OpKind::Binary(BinOp::MinS | BinOp::MinU | BinOp::MaxS | BinOp::MaxU) => {
                match exact_width(self.kb, &a, true, true) {
                    Some((n, signed)) if n < w => Plan::Exact { n, signed },
                    _ => Plan::Keep,
                }
            }
            OpKind::Binary(BinOp::DivU | BinOp::RemU) => {
                match exact_width(self.kb, &a, true, false) {
                    Some((n, signed)) if n < w => Plan::Exact { n, signed },
                    _ => Plan::Keep,
                }
            }
            // A signed division of values known non-negative is an unsigned one (C promotes
            // `uchar / uchar` to a signed `int` division); of sign extensions from `n` bits it
            // takes `n + 1` bits (`MIN / -1` of `n` bits is `2^(n-1)`), a remainder `n`.
            OpKind::Binary(b @ (BinOp::DivS | BinOp::RemS)) => {
                match exact_width(self.kb, &a, true, true) {
                    Some((n, false)) if n < w => Plan::Exact { n, signed: false },
                    Some((n, true)) => {
                        let n = if *b == BinOp::DivS { n + 1 } else { n };
                        if n < w {
                            Plan::Exact { n, signed: true }
                        } else {
                            Plan::Keep
                        }
                    }
                    _ => Plan::Keep,
                }
            }
            // At least 2 bits: the RTL reads the sign bit of a vector.
            OpKind::Unary(UnOp::AbsS) => match exact_width(self.kb, &a, false, true) {
                Some((n, signed)) if n.max(2) < w => Plan::Exact {
                    n: n.max(2),
                    signed,
                },
                _ => Plan::Keep,
            },
            OpKind::Cmp(c) if !is_float_cmp(*c) => {
                let ow = k.op(a[0]).ty.bits();
                match exact_width(self.kb, &a, true, true) {
                    Some((n, signed)) if n < ow => Plan::Cmp { n, signed },
                    _ => Plan::Keep,
                }
            }
            OpKind::Convert(ConvOp::Trunc) => Plan::Bits {
                lo: 0,
                n: dem.clamp(1, w),
                ext: Ext::Any,
            },
            OpKind::Convert(ConvOp::ZExt | ConvOp::SExt) => {
                let s = k.op(a[0]).ty.bits();
                if dem <= s && dem < w {
                    Plan::Bits {
                        lo: 0,
                        n: dem.max(1),
                        ext: Ext::Any,
                    }
                } else {
                    Plan::Keep
                }
            }
            OpKind::Extract { lo } if dem < w => Plan::Bits {
                lo: *lo,
                n: dem.max(1),
                ext: Ext::Any,
            },
            _ => Plan::Keep,
        }
    }

    /// The low bits of each operand that op `o` reads under `plan`, demanded `dem` bits itself
    /// (widths of the operands cap them later).
    fn demands(&self, o: OpId, plan: Plan, dem: u32) -> Vec<u32> {
        let k = self.k;
        let op = k.op(o);
        let a = k.operands(o);
        let full: Vec<u32> = a.iter().map(|&x| k.op(x).ty.bits()).collect();
        let pure = is_pure(&op.kind);
        if pure && dem == 0 {
            return vec![0; a.len()];
        }
        // A shift's amount is read whole (the IR takes it modulo the width).
        let shift = |x: u32| vec![x, full[1]];
        match plan {
            Plan::Const(_) => vec![0; a.len()],
            Plan::Low { n, .. } => self.low_demands(o, n),
            Plan::Exact { n, .. } | Plan::Cmp { n, .. } => vec![n; a.len()],
            Plan::Bits { lo, n, .. } => match op.kind {
                OpKind::Binary(_) => shift(lo + n),
                _ => vec![lo + n],
            },
            Plan::Operand { index, n, .. } => {
                let mut v = vec![0; a.len()];
                v[index] = n;
                v
            }
            Plan::Keep => match &op.kind {
                OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And)
                | OpKind::Binary(BinOp::Or | BinOp::Xor)
                | OpKind::Unary(UnOp::Not | UnOp::Neg)
                | OpKind::Select
                | OpKind::Carried
                | OpKind::LoopResult
                    if has_facts(k, o) =>
                {
                    self.low_demands(o, dem)
                }
                OpKind::Binary(BinOp::Shl) if has_facts(k, o) && const_amount(k, o).is_some() => {
                    self.low_demands(o, dem)
                }
                OpKind::Convert(ConvOp::ZExt | ConvOp::SExt) => vec![full[0]],
                OpKind::Extract { lo } => vec![lo + dem.min(op.ty.bits())],
                OpKind::Concat if op.ty.bits() <= 64 => {
                    let mut at = 0;
                    a.iter()
                        .map(|&p| {
                            let pw = k.op(p).ty.bits();
                            let d = dem.saturating_sub(at).min(pw);
                            at += pw;
                            d
                        })
                        .collect()
                }
                OpKind::Load { mem } => vec![self.address_bits(*mem), 1],
                OpKind::Store { mem, mask } => {
                    let data = match mask {
                        Some(m) if full[1] <= 64 => {
                            let top = m.0.iter().rposition(|&b| b).map_or(0, |i| i + 1);
                            (8 * top as u32).min(full[1])
                        }
                        _ => full[1],
                    };
                    vec![self.address_bits(*mem), data, 1]
                }
                _ => full,
            },
        }
    }

    /// Demands of a low-bit op computed at `n` bits.
    fn low_demands(&self, o: OpId, n: u32) -> Vec<u32> {
        let k = self.k;
        match k.op(o).kind {
            OpKind::Binary(BinOp::Shl) => {
                let c = const_amount(k, o).expect("shifts by a variable are kept whole");
                vec![n.saturating_sub(c), k.op(k.operands(o)[1]).ty.bits()]
            }
            OpKind::Select => vec![1, n, n],
            OpKind::LoopResult => vec![0, n, n],
            _ => vec![n; k.operands(o).len()],
        }
    }

    fn address_bits(&self, mem: crate::ids::MemId) -> u32 {
        match self.k.mem(mem).onchip_address_bits() {
            Some((offset, index)) => (offset + index).min(32),
            None => 32,
        }
    }
}

/// The demanded bits of every value, to a fixed point (demands only grow; loop-carried values
/// pass them around their cycle).
fn demanded(p: &Planner, order: &[OpId]) -> Vec<u32> {
    let k = p.k;
    let mut dem = vec![0u32; k.op_bound()];
    loop {
        let mut changed = false;
        for &o in order.iter().rev() {
            let d = dem[o.index()];
            let plan = p.plan(o, d);
            let wants = p.demands(o, plan, d);
            for (x, want) in k.operands(o).into_iter().zip(wants) {
                let w = k.op(x).ty.bits();
                // Values the pass does not narrow (floats, aggregates) are read whole.
                let want = if has_facts(k, x) {
                    want.min(w)
                } else if want > 0 {
                    w
                } else {
                    0
                };
                if want > dem[x.index()] {
                    dem[x.index()] = want;
                    changed = true;
                }
            }
        }
        if !changed {
            return dem;
        }
    }
}

/// Builds the narrowed ops.
struct Rewriter<'a> {
    k: &'a mut Kernel,
    new: BTreeMap<OpId, View>,
    memo: HashMap<(u8, OpId, u64, u32, LoopId), OpId>,
}

impl Rewriter<'_> {
    fn add(&mut self, like: OpId, kind: OpKind, ty: Ty, region: LoopId, operands: &[OpId]) -> OpId {
        let span = self.k.op(like).span;
        self.k.add_op(
            Op {
                kind,
                ty,
                region,
                span,
                name: None,
            },
            operands,
        )
    }

    /// Where a helper op for `x` goes: beside `x`, or, for launch-wide values, in the region
    /// of the use.
    fn home(&self, x: OpId, at: LoopId) -> LoopId {
        if self.k.op(x).kind.is_launch_invariant() {
            at
        } else {
            self.k.op(x).region
        }
    }

    fn konst(&mut self, v: u64, bits: u32, at: LoopId, like: OpId) -> OpId {
        let v = v & integer::mask(bits);
        let key = (0, OpId(0), v, bits, at);
        if let Some(&c) = self.memo.get(&key) {
            return c;
        }
        let c = self.add(like, OpKind::Const(v), Ty::Int(bits as u16), at, &[]);
        self.memo.insert(key, c);
        c
    }

    /// Bits `lo .. lo + w` of op `x` of the new IR, as an integer (the bits of a float are
    /// an `extract` too: reading through `as_uint` reaches them; fuzz case 2175).
    fn extract(&mut self, x: OpId, lo: u32, w: u32, at: LoopId) -> OpId {
        if lo == 0 && self.k.op(x).ty == Ty::Int(w as u16) {
            return x;
        }
        if let Some(v) = self.k.int_const(x) {
            let v = if lo >= 64 { 0 } else { v >> lo };
            return self.konst(v, w, at, x);
        }
        // (Never through an op this pass replaces: it is about to go.)
        let (src, lo) = match self.k.op(x).kind {
            OpKind::Extract { lo: inner } if !self.new.contains_key(&self.k.operands(x)[0]) => {
                (self.k.operands(x)[0], inner + lo)
            }
            _ => (x, lo),
        };
        let at = self.home(src, at);
        let key = (1, src, lo as u64, w, at);
        if let Some(&e) = self.memo.get(&key) {
            return e;
        }
        let e = self.add(src, OpKind::Extract { lo }, Ty::Int(w as u16), at, &[src]);
        self.memo.insert(key, e);
        e
    }

    /// Op `x` of the new IR extended to `w` bits.
    fn extend(&mut self, x: OpId, w: u32, signed: bool, at: LoopId) -> OpId {
        let xw = self.k.op(x).ty.bits();
        if xw == w {
            return x;
        }
        if let Some(v) = self.k.int_const(x) {
            let v = if signed {
                integer::sext(v, xw) as u64
            } else {
                v
            };
            return self.konst(v, w, at, x);
        }
        // An extension of an extension is one extension (a sign extension of a zero extension
        // is a zero extension: its sign bit is 0).
        let inner = match self.k.op(x).kind {
            OpKind::Convert(ConvOp::ZExt | ConvOp::SExt) => Some(self.k.operands(x)[0]),
            _ => None,
        }
        .filter(|i| !self.new.contains_key(i));
        let (src, signed) = match (self.k.op(x).kind.clone(), inner) {
            (OpKind::Convert(ConvOp::ZExt), Some(i)) => (i, false),
            (OpKind::Convert(ConvOp::SExt), Some(i)) if signed => (i, true),
            _ => (x, signed),
        };
        let at = self.home(src, at);
        let key = (2 + signed as u8, src, 0, w, at);
        if let Some(&e) = self.memo.get(&key) {
            return e;
        }
        let kind = OpKind::Convert(if signed { ConvOp::SExt } else { ConvOp::ZExt });
        let e = self.add(src, kind, Ty::Int(w as u16), at, &[src]);
        self.memo.insert(key, e);
        e
    }

    /// The new IR's view of original value `v`.
    fn view(&mut self, v: OpId, at: LoopId) -> View {
        if let Some(&view) = self.new.get(&v) {
            return view;
        }
        let w = self.k.op(v).ty.bits();
        let exact = View {
            op: v,
            n: w,
            ext: Ext::Zero,
        };
        let OpKind::Convert(c @ (ConvOp::ZExt | ConvOp::SExt)) = self.k.op(v).kind else {
            return exact;
        };
        // An extension the pass keeps: look through it to its (possibly narrowed) source.
        let src = self.k.operands(v)[0];
        let s = self.k.op(src).ty.bits();
        let inner = self.view(src, at);
        let ext = if c == ConvOp::SExt {
            Ext::Sign
        } else {
            Ext::Zero
        };
        if inner.n >= s {
            let op = self.extract(inner.op, 0, s, at);
            return View { op, n: s, ext };
        }
        match (inner.ext, ext) {
            (Ext::Sign, Ext::Zero) => {
                let op = self.extend(inner.op, s, true, at);
                View { op, n: s, ext }
            }
            // Zeros above the narrow source: its extension is a zero extension either way.
            (Ext::Zero | Ext::Any, _) => View {
                op: inner.op,
                n: inner.n,
                ext: Ext::Zero,
            },
            (Ext::Sign, _) => inner,
        }
    }

    /// An op of the new IR holding bits `lo .. lo + w` of original value `v`, for a use in
    /// region `at`.
    fn bits_of(&mut self, v: OpId, lo: u32, w: u32, at: LoopId) -> OpId {
        debug_assert!(lo + w <= self.k.op(v).ty.bits(), "{v}: bits {lo}+{w}");
        if let Some(c) = self.k.int_const(v) {
            let c = if lo >= 64 { 0 } else { c >> lo };
            return self.konst(c, w, at, v);
        }
        if !self.new.contains_key(&v) {
            match self.k.op(v).kind {
                // Bit plumbing the pass keeps: read through it.
                OpKind::Extract { lo: inner } => {
                    let src = self.k.operands(v)[0];
                    return self.bits_of(src, inner + lo, w, at);
                }
                OpKind::Concat => {
                    let mut base = 0;
                    for p in self.k.operands(v) {
                        let pw = self.k.op(p).ty.bits();
                        if lo >= base && lo + w <= base + pw {
                            return self.bits_of(p, lo - base, w, at);
                        }
                        base += pw;
                    }
                }
                _ => {}
            }
        }
        let View { op, n, ext } = self.view(v, at);
        if lo + w <= n {
            return self.extract(op, lo, w, at);
        }
        // Bits above the narrow value: rebuilt by its extension.
        if lo >= n {
            return if ext == Ext::Sign {
                let sign = self.extract(op, n - 1, 1, at);
                self.extend(sign, w, true, at)
            } else {
                self.konst(0, w, at, op)
            };
        }
        let part = self.extract(op, lo, n - lo, at);
        self.extend(part, w, ext == Ext::Sign, at)
    }
}

pub fn run(k: &mut Kernel) {
    // Narrowed counters no longer have the shape `trip_count` recognises: record it first.
    for l in k.loops.ids().skip(1) {
        if k.loops[l].trip_count.is_none() {
            k.loops[l].trip_count = trip_count(k, l);
        }
    }
    let kb = known_bits::analyse(k);
    let order = topo_order(k);
    let frozen = frozen_ops(k);
    let planner = Planner { k, kb: &kb, frozen };
    let dem = demanded(&planner, &order);
    let plans: BTreeMap<OpId, Plan> = order
        .iter()
        .map(|&o| (o, planner.plan(o, dem[o.index()])))
        .filter(|(_, p)| *p != Plan::Keep)
        .collect();
    if plans.is_empty() {
        return;
    }
    let mut rw = Rewriter {
        k,
        new: BTreeMap::new(),
        memo: HashMap::new(),
    };
    let mut carried_next: Vec<CarriedNext> = Vec::new();
    for &o in &order {
        let Some(&plan) = plans.get(&o) else {
            continue;
        };
        let op = rw.k.op(o).clone();
        let view = rw.apply(o, &op, plan, &mut carried_next);
        if op.name.is_some()
            && rw.k.op(view.op).name.is_none()
            && !rw.k.op(view.op).kind.is_launch_invariant()
        {
            rw.k.op_mut(view.op).name = op.name.clone();
        }
        rw.new.insert(o, view);
    }
    for CarriedNext { carried, next, n } in carried_next {
        let at = rw.k.op(carried).region;
        let x = rw.bits_of(next, 0, n, at);
        rw.k.add_dep(
            x,
            carried,
            Dep::Data {
                operand: 1,
                distance: 1,
            },
        );
    }
    rw.replace_uses_with_extensions();
}

/// Ops that must keep their width: those ordered after another (side effects) and those that
/// read a value of an earlier iteration (other than a carried value's `next`).
fn frozen_ops(k: &Kernel) -> BTreeSet<OpId> {
    k.op_ids()
        .into_iter()
        .filter(|&o| {
            let carried = k.op(o).kind == OpKind::Carried;
            k.preds(o).iter().any(|(_, d)| match d {
                Dep::Order { .. } => true,
                Dep::Data { operand, distance } => {
                    *distance > 0 && !(carried && *operand == 1 && *distance == 1)
                }
            })
        })
        .collect()
}

/// A narrowed carried value whose `next` (of `n` bits) is connected once every op is
/// rewritten.
struct CarriedNext {
    carried: OpId,
    next: OpId,
    n: u32,
}

impl Rewriter<'_> {
    /// The narrow view of op `o` (a copy of the op before the rewrite: `op`) under `plan`.
    fn apply(&mut self, o: OpId, op: &Op, plan: Plan, carried_next: &mut Vec<CarriedNext>) -> View {
        let at = op.region;
        let a = self.k.operands(o);
        let w = op.ty.bits();
        match plan {
            Plan::Keep => unreachable!("kept ops have no plan entry"),
            Plan::Const(v) => View {
                op: self.konst(v, w, at, o),
                n: w,
                ext: Ext::Zero,
            },
            Plan::Low { n, ext } => View {
                op: self.low(o, op, n, carried_next),
                n,
                ext,
            },
            Plan::Exact { n, signed } => {
                let kind = match &op.kind {
                    OpKind::Binary(BinOp::MinS) if !signed => OpKind::Binary(BinOp::MinU),
                    OpKind::Binary(BinOp::MaxS) if !signed => OpKind::Binary(BinOp::MaxU),
                    OpKind::Binary(BinOp::DivS) if !signed => OpKind::Binary(BinOp::DivU),
                    OpKind::Binary(BinOp::RemS) if !signed => OpKind::Binary(BinOp::RemU),
                    kind => kind.clone(),
                };
                let ext = if signed && kind != OpKind::Unary(UnOp::AbsS) {
                    Ext::Sign
                } else {
                    Ext::Zero
                };
                let xs: Vec<OpId> = a.iter().map(|&x| self.bits_of(x, 0, n, at)).collect();
                let new = self.add(o, kind, Ty::Int(n as u16), at, &xs);
                View { op: new, n, ext }
            }
            Plan::Cmp { n, signed } => {
                let OpKind::Cmp(c) = op.kind else {
                    unreachable!("planned as a comparison")
                };
                let c = if signed { c } else { unsigned(c) };
                let x = self.bits_of(a[0], 0, n, at);
                let y = self.bits_of(a[1], 0, n, at);
                let new = self.add(o, OpKind::Cmp(c), Ty::BOOL, at, &[x, y]);
                View {
                    op: new,
                    n: 1,
                    ext: Ext::Zero,
                }
            }
            Plan::Bits { lo, n, ext } => View {
                op: self.bits_of(a[0], lo, n, at),
                n,
                ext,
            },
            Plan::Operand { index, n, ext } => View {
                op: self.bits_of(a[index], 0, n, at),
                n,
                ext,
            },
        }
    }

    /// Op `o` computed on the low `n` bits of its operands (`Plan::Low`).
    fn low(&mut self, o: OpId, op: &Op, n: u32, carried_next: &mut Vec<CarriedNext>) -> OpId {
        let at = op.region;
        let a = self.k.operands(o);
        let ty = Ty::Int(n as u16);
        match &op.kind {
            OpKind::Binary(BinOp::Shl) => {
                let c = const_amount(self.k, o).expect("planned shifts are by constants");
                if c >= n {
                    self.konst(0, n, at, o)
                } else {
                    let x = self.bits_of(a[0], 0, n, at);
                    let amount = if self.k.int_const(a[1]) == Some(c as u64) {
                        a[1]
                    } else {
                        let aw = self.k.op(a[1]).ty.bits();
                        self.konst(c as u64, aw, at, a[1])
                    };
                    self.add(o, op.kind.clone(), ty, at, &[x, amount])
                }
            }
            OpKind::Select => {
                let c = self.bits_of(a[0], 0, 1, at);
                let t = self.bits_of(a[1], 0, n, at);
                let f = self.bits_of(a[2], 0, n, at);
                self.add(o, OpKind::Select, ty, at, &[c, t, f])
            }
            OpKind::Carried => {
                // The initial value is read by the parent when the loop starts: a helper op
                // narrowing it belongs there.
                let parent = self.k.loops[at].parent.unwrap_or(at);
                let init = self.bits_of(a[0], 0, n, parent);
                let c = self.add(o, OpKind::Carried, ty, at, &[init]);
                carried_next.push(CarriedNext {
                    carried: c,
                    next: a[1],
                    n,
                });
                c
            }
            OpKind::LoopResult => {
                let next = self.bits_of(a[1], 0, n, at);
                let init = self.bits_of(a[2], 0, n, at);
                self.add(o, OpKind::LoopResult, ty, at, &[a[0], next, init])
            }
            kind => {
                let xs: Vec<OpId> = a.iter().map(|&x| self.bits_of(x, 0, n, at)).collect();
                self.add(o, kind.clone(), ty, at, &xs)
            }
        }
    }

    /// Uses of the replaced ops that stay read the narrow value, extended back; the replaced
    /// ops go.
    fn replace_uses_with_extensions(&mut self) {
        let replaced: BTreeSet<OpId> = self.new.keys().copied().collect();
        for &o in &replaced {
            let outside = self.k.succs(o).iter().any(|(t, _)| !replaced.contains(t));
            if !outside {
                continue;
            }
            let View { op, n, ext } = self.new[&o];
            let at = self.k.op(o).region;
            let wide = self.extend(op, self.k.op(o).ty.bits().max(n), ext == Ext::Sign, at);
            if self.k.op(wide).name.is_none() && !self.k.op(wide).kind.is_launch_invariant() {
                self.k.op_mut(wide).name = self.k.op(o).name.clone();
            }
            self.k.replace_uses(o, wide);
        }
        for o in replaced {
            self.k.remove_op(o);
        }
    }
}
