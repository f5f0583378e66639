//! The time-indexed ILP, in the "folded" form of Eichenberger & Davidson ("Efficient
//! formulation for optimal modulo schedulers", PLDI 1997).
//!
//! Each operation `v` gets binaries `x[v][r]`, one per congruence class (row) `r` of
//! `t(v) mod II` it can take, a stage `k(v)`, and a start time `t(v)` linked by one equality
//! `t(v) = sum(r * x[v][r]) + II * k(v)`. Why folded rather than one binary per absolute
//! time step:
//! * the number of binaries is at most `II` per operation whatever the latency bound, so
//!   the feasibility core (see `Core` in the driver), which needs stage ranges of several
//!   II, costs only integer bounds on `k`;
//! * when ASAP/ALAP windows are narrower than II (the common case once a schedule has
//!   supplied a latency bound), only the rows in the window get a binary and `k` becomes an
//!   affine function of them (`Stage::Wrap`) or a constant, so the model is as small as the
//!   plain time-indexed one;
//! * the modulo resource constraints are simply one row per resource and congruence class.
//!
//! Dependences come in two forms ([`DependenceForm`]). E&D's *structured* rows: for an
//! edge `i -> j` with `t(j) >= t(i) + D - omega * II`, and every row `r` of `i`, with
//! `q = r + D`, `m = floor(q / II)`, `s = q mod II`:
//!
//! ```text
//!   sum_{r' >= r} x[i][r'] + sum_{r' < s} x[j][r'] + k(i) - k(j) <= omega - m + 1
//! ```
//!
//! ("if `i` sits in row `r` or later, `j` must be at least `m - omega` stages after it, one
//! more if its row is before `s`"); their LP relaxation is tighter, but they grow with
//! `II^2` per edge. The *aggregated* row `t(j) - t(i) >= D - omega * II` has two nonzeros
//! thanks to the explicit `t` (expanding `t` into `2 II` terms per row made HiGHS's bound
//! propagation dominate the solve time). Measured on MachSuite: structured rows pay off in
//! the bounded length-minimising model when windows are narrow; on the dense projected
//! feasibility cores aggregated rows were 5-20x faster, proofs of infeasibility included.
//!
//! For non-pipelined regions the same builder is used with a period larger than any time
//! (no folding, `k = 0`), plus the length variable `L` playing the role of II for
//! loop-carried edges: `t(j) - t(i) + omega * L >= D`.

use std::collections::BTreeMap;

use good_lp::{variable, Constraint, Expression, ProblemVariables, Variable};

use crate::graph::Graph;
use crate::problem::Problem;
use crate::schedule::{DependenceForm, Objective};

/// What to build.
pub(crate) struct Spec<'a> {
    pub g: &'a Graph,
    pub p: &'a Problem,
    /// Modulo period; for flat (non-pipelined) problems, larger than any busy cycle.
    pub ii: i64,
    pub flat: bool,
    /// Windows `lo[v] <= t(v) <= hi[v]`.
    pub lo: Vec<i64>,
    pub hi: Vec<i64>,
    /// Bounds on the length variable.
    pub l_min: i64,
    pub horizon: i64,
    /// A known feasible solution: start times and length.
    pub warm: Option<(Vec<i64>, i64)>,
    pub form: DependenceForm,
    pub objective: Objective,
}

enum Stage {
    Const(i64),
    /// `base + 1` for rows below `below`, `base` otherwise.
    Wrap {
        base: i64,
        below: i64,
    },
    Var {
        var: Variable,
        lo: i64,
        hi: i64,
    },
}

struct OpVars {
    rows: Vec<i64>,
    /// `None` when the operation has a single row (the binary is the constant 1).
    x: Vec<Option<Variable>>,
    stage: Stage,
    /// The start time, linked by `t = sum(r * x[r]) + II * k`. Stating dependences on it
    /// keeps those rows at two nonzeros; expanded rows of `2 II` nonzeros made HiGHS's bound
    /// propagation dominate the solve time.
    t: Variable,
}

/// A built model, solvable by any backend.
pub(crate) struct Model {
    pub vars: ProblemVariables,
    pub all: Vec<Variable>,
    pub objective: Expression,
    pub constraints: Vec<Constraint>,
    pub warm: Option<Vec<(Variable, f64)>>,
    ops: Vec<OpVars>,
    ii: i64,
}

/// The model has no solution in the given windows (found while building).
pub(crate) struct Empty;

fn x_expr(x: Option<Variable>) -> Expression {
    match x {
        Some(v) => Expression::from(v),
        None => Expression::from(1.0),
    }
}

impl OpVars {
    fn k_bounds(&self) -> (i64, i64) {
        match self.stage {
            Stage::Const(c) => (c, c),
            Stage::Wrap { base, .. } => (base, base + 1),
            Stage::Var { lo, hi, .. } => (lo, hi),
        }
    }

    fn k_expr(&self) -> Expression {
        match self.stage {
            Stage::Const(c) => Expression::from(c as f64),
            Stage::Wrap { base, below } => {
                let mut e = Expression::from(base as f64);
                for (i, &r) in self.rows.iter().enumerate() {
                    if r < below {
                        e += x_expr(self.x[i]);
                    }
                }
                e
            }
            Stage::Var { var, .. } => Expression::from(var),
        }
    }

    fn t_expr(&self) -> Expression {
        Expression::from(self.t)
    }

    fn folded_t(&self, ii: i64) -> Expression {
        let mut e = Expression::default();
        for (i, &r) in self.rows.iter().enumerate() {
            if r != 0 {
                e.add_mul(r as f64, x_expr(self.x[i]));
            }
        }
        e.add_mul(ii as f64, self.k_expr());
        e
    }

    /// `sum of x over rows >= r` (`ge = true`) or `rows < r`.
    fn partial(&self, r: i64, ge: bool) -> (Expression, bool) {
        let mut e = Expression::default();
        let mut any = false;
        for (i, &row) in self.rows.iter().enumerate() {
            if (row >= r) == ge {
                e += x_expr(self.x[i]);
                any = true;
            }
        }
        (e, any)
    }
}

/// Does a row `lhs <= rhs` need to be stated? `Err` if it can never hold.
fn needed(has_vars: bool, max_lhs: f64, rhs: f64) -> Result<bool, Empty> {
    if max_lhs <= rhs + 1e-9 {
        return Ok(false);
    }
    if !has_vars {
        // A constant row: its maximum is its value, and it is violated.
        return Err(Empty);
    }
    Ok(true)
}

/// Largest model built: binaries, and terms of the modulo resource rows. Realistic loops
/// stay far below; pathological inputs (IIs or blocking times in the millions) are left to
/// the heuristics instead of exhausting memory.
const MAX_BINARIES: i64 = 2_000_000;
const MAX_RESOURCE_TERMS: i64 = 10_000_000;

/// Whether the model for `spec` would exceed [`MAX_BINARIES`] or [`MAX_RESOURCE_TERMS`].
pub(crate) fn too_large(spec: &Spec) -> bool {
    let mut binaries: i64 = 0;
    let mut terms: i64 = 0;
    for v in 0..spec.g.n {
        let rows = (spec.hi[v] - spec.lo[v] + 1).clamp(1, spec.ii);
        binaries = binaries.saturating_add(rows);
        if let Some((_, _, bt)) = spec.p.occupancy(v) {
            terms = terms.saturating_add(rows.saturating_mul(i64::from(bt).min(spec.ii)));
        }
    }
    binaries > MAX_BINARIES || terms > MAX_RESOURCE_TERMS
}

pub(crate) fn build(spec: &Spec) -> Result<Model, Empty> {
    let ii = spec.ii;
    let mut vars = ProblemVariables::new();
    let mut all = Vec::new();
    let mut cons: Vec<Constraint> = Vec::new();
    let ops = op_vars(spec, &mut vars, &mut all, &mut cons)?;
    let length = vars.add(
        variable()
            .min(spec.l_min as f64)
            .max(spec.horizon.max(spec.l_min) as f64),
    );
    all.push(length);
    dependence_rows(spec, &ops, length, &mut cons)?;
    resource_rows(spec, &ops, &mut cons)?;
    length_rows(spec, &ops, length, &mut cons);
    let objective = objective(spec, &ops, length);
    let warm = warm_start(spec, &ops, length);
    Ok(Model {
        vars,
        all,
        objective,
        constraints: cons,
        warm,
        ops,
        ii,
    })
}

/// The variables of every operation (row binaries, stage, start time) within its window,
/// with their one-row and linking constraints.
fn op_vars(
    spec: &Spec,
    vars: &mut ProblemVariables,
    all: &mut Vec<Variable>,
    cons: &mut Vec<Constraint>,
) -> Result<Vec<OpVars>, Empty> {
    let ii = spec.ii;
    let n = spec.g.n;
    let mut ops = Vec::with_capacity(n);
    for v in 0..n {
        let (a, b) = (spec.lo[v], spec.hi[v]);
        if a > b {
            return Err(Empty);
        }
        let (ka, kb) = (a.div_euclid(ii), b.div_euclid(ii));
        let (rows, stage) = if b - a + 1 >= ii {
            let stage = if ka == kb {
                Stage::Const(ka)
            } else {
                let var = vars.add(variable().integer().min(ka as f64).max(kb as f64));
                all.push(var);
                Stage::Var {
                    var,
                    lo: ka,
                    hi: kb,
                }
            };
            ((0..ii).collect::<Vec<i64>>(), stage)
        } else {
            let mut rows: Vec<i64> = (a..=b).map(|t| t.rem_euclid(ii)).collect();
            rows.sort_unstable();
            let stage = if ka == kb {
                Stage::Const(ka)
            } else {
                Stage::Wrap {
                    base: ka,
                    below: a.rem_euclid(ii),
                }
            };
            (rows, stage)
        };
        let x: Vec<Option<Variable>> = if rows.len() == 1 {
            vec![None]
        } else {
            rows.iter()
                .map(|_| {
                    let var = vars.add(variable().binary());
                    all.push(var);
                    Some(var)
                })
                .collect()
        };
        if rows.len() > 1 {
            let sum: Expression = x.iter().map(|&v| x_expr(v)).sum();
            cons.push(sum.eq(1.0));
        }
        let t = vars.add(variable().min(a as f64).max(b as f64));
        all.push(t);
        let op = OpVars { rows, x, stage, t };
        cons.push((Expression::from(t) - op.folded_t(ii)).eq(0.0));
        ops.push(op);
    }
    Ok(ops)
}

/// Dependences, in the form `spec.form` asks for; for flat problems, loop-carried edges
/// against the length variable.
fn dependence_rows(
    spec: &Spec,
    ops: &[OpVars],
    length: Variable,
    cons: &mut Vec<Constraint>,
) -> Result<(), Empty> {
    let (g, ii, hi) = (spec.g, spec.ii, &spec.hi);
    for dep in &g.deps {
        let (i, j) = (dep.src, dep.dst);
        if i == j {
            continue;
        }
        if spec.flat && dep.omega > 0 {
            // t(j) - t(i) + omega * L >= d
            if spec.lo[j] - hi[i] + dep.omega * spec.l_min >= dep.d {
                continue;
            }
            let mut e = ops[j].t_expr() - ops[i].t_expr();
            e.add_mul(dep.omega as f64, length);
            cons.push(e.geq(dep.d as f64));
            continue;
        }
        let w = if spec.flat { dep.d } else { dep.weight(ii) };
        if spec.lo[j] - hi[i] >= w {
            continue;
        }
        let omega = if spec.flat { 0 } else { dep.omega };
        match spec.form {
            DependenceForm::Aggregated => {
                let e = ops[j].t_expr() - ops[i].t_expr();
                cons.push(e.geq(w as f64));
            }
            DependenceForm::Structured | DependenceForm::Auto => {
                structured_rows(ii, &ops[i], &ops[j], dep.d, omega, cons)?;
            }
        }
    }
    Ok(())
}

/// E&D's structured rows of an edge `i -> j` of delay `d` and distance `omega`, one per row
/// of `i`; `Err` if a constant one is violated.
fn structured_rows(
    ii: i64,
    oi: &OpVars,
    oj: &OpVars,
    d: i64,
    omega: i64,
    cons: &mut Vec<Constraint>,
) -> Result<(), Empty> {
    let (_, ki_hi) = oi.k_bounds();
    let (kj_lo, _) = oj.k_bounds();
    for (idx, &r) in oi.rows.iter().enumerate() {
        let q = r + d;
        let m = q.div_euclid(ii);
        let s = q.rem_euclid(ii);
        let rhs = (omega - m + 1) as f64;
        let (a_expr, a_vars) = if idx == 0 {
            (Expression::from(1.0), false)
        } else {
            let (e, _) = oi.partial(r, true);
            (e, true)
        };
        let (b_expr, b_any) = oj.partial(s, false);
        let max_lhs = 1.0 + f64::from(u8::from(b_any)) + (ki_hi - kj_lo) as f64;
        let lhs = a_expr + b_expr + oi.k_expr() - oj.k_expr();
        let has_vars = a_vars
            || (b_any && oj.x.iter().any(Option::is_some))
            || !matches!(oi.stage, Stage::Const(_))
            || !matches!(oj.stage, Stage::Const(_));
        if !has_vars {
            // Constant: evaluate exactly.
            let value =
                1.0 + f64::from(u8::from(b_any)) + (oi.k_bounds().0 - oj.k_bounds().0) as f64;
            if value > rhs + 1e-9 {
                return Err(Empty);
            }
            continue;
        }
        if needed(has_vars, max_lhs, rhs)? {
            cons.push(lhs.leq(rhs));
        }
    }
    Ok(())
}

/// Modulo resource constraints: one row per resource and congruence class.
fn resource_rows(spec: &Spec, ops: &[OpVars], cons: &mut Vec<Constraint>) -> Result<(), Empty> {
    let (p, ii, n) = (spec.p, spec.ii, spec.g.n);
    for (r, res) in p.resources.iter().enumerate() {
        let Some(limit) = res.limit else { continue };
        let bt = i64::from(res.blocking_time);
        if bt == 0 {
            continue;
        }
        // slot -> op -> (terms, max contribution)
        let mut rows: BTreeMap<i64, BTreeMap<usize, (Expression, f64, bool)>> = BTreeMap::new();
        for v in (0..n).filter(|&v| p.ops[v].resource.map(|x| x.index()) == Some(r)) {
            let op = &ops[v];
            for (idx, &row) in op.rows.iter().enumerate() {
                for b in 0..bt.min(ii) {
                    let mult = ((bt - 1 - b) / ii + 1) as f64;
                    let slot = (row + b).rem_euclid(ii);
                    let entry = rows.entry(slot).or_default().entry(v).or_insert((
                        Expression::default(),
                        0.0,
                        false,
                    ));
                    entry.0.add_mul(mult, x_expr(op.x[idx]));
                    entry.1 = f64::max(entry.1, mult);
                    entry.2 |= op.x[idx].is_some();
                }
            }
        }
        for (_, users) in rows {
            let max: f64 = users.values().map(|u| u.1).sum();
            let has_vars = users.values().any(|u| u.2);
            let mut lhs = Expression::default();
            for (_, (e, _, _)) in users {
                lhs += e;
            }
            if needed(has_vars, max, f64::from(limit))? {
                cons.push(lhs.leq(f64::from(limit)));
            }
        }
    }
    Ok(())
}

/// Length: L >= t(v) + max(latency, 1), and for flat problems also t(v) + blocking time
/// (the next iteration must find the unit free). Skipped where a successor implies it.
fn length_rows(spec: &Spec, ops: &[OpVars], length: Variable, cons: &mut Vec<Constraint>) {
    let (g, p, hi, n) = (spec.g, spec.p, &spec.hi, spec.g.n);
    let needs_length = spec.flat || spec.objective != Objective::Feasibility;
    for v in (0..n).filter(|_| needs_length) {
        let mut end = g.lat1[v];
        if spec.flat {
            if let Some((_, _, bt)) = p.occupancy(v) {
                end = end.max(i64::from(bt));
            }
        }
        if hi[v] + end <= spec.l_min {
            continue;
        }
        let implied = g.out[v].iter().any(|&k| {
            let d = &g.deps[k];
            d.dst != v && d.omega == 0 && d.d >= end && g.lat1[d.dst] >= 1
        });
        if implied && !spec.flat {
            continue;
        }
        let e = Expression::from(length) - ops[v].t_expr();
        cons.push(e.geq(end as f64));
    }
}

/// The objective of `spec.objective`.
fn objective(spec: &Spec, ops: &[OpVars], length: Variable) -> Expression {
    let (p, hi, n) = (spec.p, &spec.hi, spec.g.n);
    match spec.objective {
        Objective::Feasibility => Expression::default(),
        Objective::Length => Expression::from(length),
        Objective::LengthThenRegisters => {
            // Weight of the length large enough that one cycle of length outweighs any
            // change of the summed edge lifetimes within the windows (lexicographic), as
            // long as that keeps coefficients numerically tame.
            let mut coef = vec![0i64; n];
            let mut range: i64 = 0;
            for e in &p.edges {
                let (i, j) = (e.src.index(), e.dst.index());
                if i == j {
                    continue;
                }
                coef[j] += 1;
                coef[i] -= 1;
                range = range
                    .saturating_add(hi[i] - spec.lo[i])
                    .saturating_add(hi[j] - spec.lo[j]);
            }
            let weight = range.saturating_add(1);
            if weight > 1_000_000 {
                Expression::from(length)
            } else {
                let mut obj = Expression::default();
                obj.add_mul(weight as f64, length);
                for v in 0..n {
                    if coef[v] != 0 {
                        obj.add_mul(coef[v] as f64, ops[v].t_expr());
                    }
                }
                obj
            }
        }
    }
}

/// Solver values for the known solution of `spec.warm`, if every time lies in its window.
fn warm_start(spec: &Spec, ops: &[OpVars], length: Variable) -> Option<Vec<(Variable, f64)>> {
    let ii = spec.ii;
    spec.warm.as_ref().and_then(|(times, l)| {
        let mut values = Vec::new();
        for (v, op) in ops.iter().enumerate() {
            let t = times[v];
            let row = t.rem_euclid(ii);
            let k = t.div_euclid(ii);
            let pos = op.rows.iter().position(|&r| r == row)?;
            for (idx, x) in op.x.iter().enumerate() {
                if let Some(x) = x {
                    values.push((*x, if idx == pos { 1.0 } else { 0.0 }));
                }
            }
            if let Stage::Var { var, .. } = op.stage {
                values.push((var, k as f64));
            }
            values.push((op.t, t as f64));
        }
        values.push((length, *l as f64));
        Some(values)
    })
}

impl Model {
    /// Start times from solver values (one per entry of `all`).
    pub fn decode(&self, values: &[f64]) -> Vec<i64> {
        let index: std::collections::HashMap<Variable, usize> =
            self.all.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let val = |v: Variable| index.get(&v).map_or(0.0, |&i| values[i]);
        self.ops
            .iter()
            .map(|op| {
                let mut best = (f64::NEG_INFINITY, 0usize);
                for (idx, x) in op.x.iter().enumerate() {
                    let xv = x.map_or(1.0, val);
                    if xv > best.0 {
                        best = (xv, idx);
                    }
                }
                let row = op.rows[best.1];
                let k = match op.stage {
                    Stage::Const(c) => c,
                    Stage::Wrap { base, below } => base + i64::from(row < below),
                    Stage::Var { var, .. } => val(var).round() as i64,
                };
                row + self.ii * k
            })
            .collect()
    }

    /// Number of variables and constraints, for statistics.
    pub fn size(&self) -> (usize, usize) {
        (self.all.len(), self.constraints.len())
    }
}
