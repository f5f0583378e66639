//! Reducing a failing case over the generator's AST: greedy delta debugging that keeps a
//! change while the same failure (class and key, `check::Failure`) persists. Candidates go
//! from coarse to fine — fewer tests, fewer outputs, no atomics/counter/work-group part/pipe,
//! chunks of statements, single statements, `if` replaced by a branch, expressions replaced
//! by a subexpression of their type or a zero — and the whole reduction stops at a deadline.
//! A candidate the front end or the emulator rejects (a removed declaration still used) costs
//! milliseconds; only valid ones reach Verilator.

use crate::ast::{Expr, Scalar, Stmt, Ty};
use crate::case::Case;
use std::time::Instant;

/// The predicate: does this case still fail the same way?
pub trait Oracle {
    fn still_fails(&mut self, c: &Case) -> bool;
}

pub struct Stats {
    pub tried: u32,
    pub kept: u32,
}

pub fn reduce(case: &Case, oracle: &mut dyn Oracle, deadline: Instant) -> (Case, Stats) {
    let mut cur = case.clone();
    let mut st = Stats { tried: 0, kept: 0 };
    let mut try_it = |cur: &mut Case, cand: Case, st: &mut Stats| -> bool {
        if Instant::now() > deadline || cand == *cur {
            return false;
        }
        st.tried += 1;
        if oracle.still_fails(&cand) {
            *cur = cand;
            st.kept += 1;
            true
        } else {
            false
        }
    };
    loop {
        let before = cur.clone();
        // One test.
        for i in 0..cur.tests.len() {
            if cur.tests.len() > 1 {
                let mut c = cur.clone();
                c.tests = vec![cur.tests[i].clone()];
                if try_it(&mut cur, c, &mut st) {
                    break;
                }
            }
        }
        // Fewer outputs.
        let mut i = 0;
        while i < cur.kernel.outputs.len() && cur.kernel.outputs.len() > 1 {
            let mut c = cur.clone();
            c.kernel.outputs.remove(i);
            if !try_it(&mut cur, c, &mut st) {
                i += 1;
            }
        }
        // No global atomics / counter / work-group part.
        let mut c = cur.clone();
        c.kernel.acc = None;
        try_it(&mut cur, c, &mut st);
        let mut c = cur.clone();
        c.kernel.counter = false;
        try_it(&mut cur, c, &mut st);
        let mut c = cur.clone();
        c.kernel.pipe = None;
        try_it(&mut cur, c, &mut st);
        if let Some(hist) = cur.kernel.group.as_ref().map(|g| g.hist) {
            let mut c = cur.clone();
            c.kernel.group = None;
            for t in &mut c.tests {
                t.local = t.global;
            }
            if !try_it(&mut cur, c, &mut st) && hist {
                let mut c = cur.clone();
                c.kernel.group.as_mut().unwrap().hist = false;
                try_it(&mut cur, c, &mut st);
            }
        }
        // Chunks of top-level statements, halving.
        let mut chunk = cur.kernel.body.len().div_ceil(2);
        while chunk >= 1 {
            let mut start = 0;
            while start < cur.kernel.body.len() {
                let mut c = cur.clone();
                let end = (start + chunk).min(c.kernel.body.len());
                c.kernel.body.drain(start..end);
                if !try_it(&mut cur, c, &mut st) {
                    start += chunk;
                }
            }
            chunk /= 2;
        }
        // Single statements anywhere (from the last, so declarations go after their uses),
        // and `if`s replaced by a branch.
        let mut n = count_stmts(&cur.kernel.body);
        while n > 0 {
            n -= 1;
            let mut c = cur.clone();
            if edit_stmt(&mut c.kernel.body, n, &mut |b, i| {
                b.remove(i);
            }) && try_it(&mut cur, c, &mut st)
            {
                continue;
            }
            // A loop by one iteration of its body (its counter declared as 0).
            let mut c = cur.clone();
            let mut changed = false;
            edit_stmt(&mut c.kernel.body, n, &mut |b, i| {
                if let Stmt::For(v, _, body, _, _) = &b[i] {
                    let zero = Expr::Lit(Ty::scalar(Scalar::UInt), vec![0]);
                    let mut flat = vec![Stmt::Decl(v.clone(), zero)];
                    flat.extend(body.iter().cloned());
                    b.splice(i..=i, flat);
                    changed = true;
                }
            });
            if changed && try_it(&mut cur, c, &mut st) {
                continue;
            }
            for branch in 0..2 {
                let mut c = cur.clone();
                let mut changed = false;
                edit_stmt(&mut c.kernel.body, n, &mut |b, i| {
                    if let Stmt::If(_, t, e) = &b[i] {
                        let keep = if branch == 0 { t.clone() } else { e.clone() };
                        b.splice(i..=i, keep);
                        changed = true;
                    }
                });
                if changed && try_it(&mut cur, c, &mut st) {
                    break;
                }
            }
        }
        // Expressions: by a subexpression of the same type, else by zero.
        let mut n = count_exprs(&mut cur.clone());
        while n > 0 {
            n -= 1;
            let mut c = cur.clone();
            let mut cands = Vec::new();
            edit_expr(&mut c, n, &mut |e| {
                let t = e.ty();
                for ch in e.children_mut() {
                    if ch.ty() == t {
                        cands.push(ch.clone());
                    }
                }
                if !matches!(e, Expr::Lit(..) | Expr::Var(..)) {
                    cands.push(Expr::Lit(t, vec![0; t.lanes as usize]));
                }
            });
            for cand in cands {
                let mut c = cur.clone();
                edit_expr(&mut c, n, &mut |e| *e = cand.clone());
                if try_it(&mut cur, c, &mut st) {
                    break;
                }
            }
        }
        if cur == before || Instant::now() > deadline {
            return (cur, st);
        }
    }
}

fn count_stmts(b: &[Stmt]) -> usize {
    b.iter()
        .map(|s| {
            1 + match s {
                Stmt::If(_, t, e) => count_stmts(t) + count_stmts(e),
                Stmt::For(_, _, body, _, _) => count_stmts(body),
                _ => 0,
            }
        })
        .sum()
}

/// Applies `f(block, index)` to the `n`-th statement in pre-order; whether it exists.
fn edit_stmt(b: &mut Vec<Stmt>, n: usize, f: &mut dyn FnMut(&mut Vec<Stmt>, usize)) -> bool {
    let mut n = n;
    walk_stmts(b, &mut n, f)
}

fn walk_stmts(b: &mut Vec<Stmt>, n: &mut usize, f: &mut dyn FnMut(&mut Vec<Stmt>, usize)) -> bool {
    for i in 0..b.len() {
        if *n == 0 {
            f(b, i);
            return true;
        }
        *n -= 1;
        for inner in b[i].blocks_mut() {
            if walk_stmts(inner, n, f) {
                return true;
            }
        }
    }
    false
}

fn count_exprs(c: &mut Case) -> usize {
    let (mut n, mut never) = (0, usize::MAX);
    for_each_root(c, &mut |e| walk_expr(e, &mut never, &mut n, &mut |_| {}));
    n
}

/// Applies `f` to the `n`-th expression node in pre-order.
fn edit_expr(c: &mut Case, n: usize, f: &mut dyn FnMut(&mut Expr)) {
    let mut target = n;
    let mut seen = 0;
    for_each_root(c, &mut |e| walk_expr(e, &mut target, &mut seen, f));
}

fn walk_expr(e: &mut Expr, target: &mut usize, seen: &mut usize, f: &mut dyn FnMut(&mut Expr)) {
    if *seen == *target {
        f(e);
        *seen += 1;
        return;
    }
    *seen += 1;
    for ch in e.children_mut() {
        walk_expr(ch, target, seen, f);
    }
}

fn for_each_root(c: &mut Case, f: &mut dyn FnMut(&mut Expr)) {
    fn stmts(b: &mut [Stmt], f: &mut dyn FnMut(&mut Expr)) {
        for s in b {
            for e in s.exprs_mut() {
                f(e);
            }
            for inner in s.blocks_mut() {
                stmts(inner, f);
            }
        }
    }
    if let Some(g) = &mut c.kernel.group {
        f(&mut g.x);
    }
    stmts(&mut c.kernel.body, f);
    for (_, e) in &mut c.kernel.outputs {
        f(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::generate;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// A fake oracle: "fails" while some statement anywhere is an assignment.
    struct HasAssign;
    fn has_assign(b: &[Stmt]) -> bool {
        b.iter().any(|s| match s {
            Stmt::Assign(..) => true,
            Stmt::If(_, t, e) => has_assign(t) || has_assign(e),
            Stmt::For(_, _, body, _, _) => has_assign(body),
            _ => false,
        })
    }
    impl Oracle for HasAssign {
        fn still_fails(&mut self, c: &Case) -> bool {
            has_assign(&c.kernel.body)
        }
    }

    #[test]
    fn reduction_shrinks_and_keeps_the_failure() {
        for seed in 0..10 {
            let mut r = StdRng::seed_from_u64(seed);
            let case = Case::new(generate(&mut r), &mut r);
            let mut o = HasAssign;
            if !o.still_fails(&case) {
                continue;
            }
            let deadline = Instant::now() + std::time::Duration::from_secs(20);
            let (small, _) = reduce(&case, &mut o, deadline);
            assert!(o.still_fails(&small));
            assert!(small.kernel.source().len() <= case.kernel.source().len());
            assert!(
                count_stmts(&small.kernel.body) <= 3,
                "{}",
                small.kernel.source()
            );
        }
    }

    #[test]
    fn expressions_are_numbered_in_pre_order() {
        let mut r = StdRng::seed_from_u64(3);
        let mut case = Case::new(generate(&mut r), &mut r);
        let n = count_exprs(&mut case);
        assert!(n > 0);
        let zero = Expr::Lit(Ty::scalar(Scalar::Int), vec![0]);
        let mut c = case.clone();
        edit_expr(&mut c, 0, &mut |e| *e = zero.clone());
        assert_ne!(c, case);
    }
}
