//! A few small MachSuite instances from the shared benchmark set: the loader, the bounds,
//! scheduling, independent verification, and our chaining rule against HatScheT's
//! `.200MHz` graphs. The full set is benchmarked by `examples/machsuite.rs`.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::hatschet;
use scheduler::{schedule, verify, Options, Schedule};

fn path(rel: &str) -> PathBuf {
    hatschet::default_dir().join(rel)
}

fn opts() -> Options {
    Options {
        time_limit_per_ii: Duration::from_secs(20),
        ..Options::default()
    }
}

/// (file, ops, edges, ResMII, RecMII, optimal II)
const CASES: &[(&str, usize, usize, u32, u32, u32)] = &[
    ("sort_radix/graph15.graphml", 20, 31, 1, 2, 2),
    ("md_grid/graph10.graphml", 23, 36, 1, 2, 2),
    ("stencil3d/graph3.graphml", 26, 38, 1, 2, 2),
    ("gemm_blocked/graph1.graphml", 26, 38, 1, 2, 2),
    ("sort_radix/graph12.graphml", 30, 48, 1, 4, 4),
    ("viterbi/graph1.graphml", 44, 63, 2, 2, 2),
];

fn count(rel: &str, needle: &str) -> usize {
    std::fs::read_to_string(path(rel))
        .expect("benchmark file readable")
        .matches(needle)
        .count()
}

#[test]
fn small_instances_parse_schedule_and_verify() {
    for &(rel, ops, edges, res, rec, ii) in CASES {
        let p = hatschet::load(&path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(p.ops.len(), ops, "{rel}: ops");
        assert_eq!(p.edges.len(), edges, "{rel}: edges");
        assert_eq!(count(rel, "<node "), ops, "{rel}: parser missed nodes");
        assert_eq!(count(rel, "<edge "), edges, "{rel}: parser missed edges");
        assert_eq!(scheduler::res_mii(&p).0, res, "{rel}: ResMII");
        assert_eq!(scheduler::rec_mii(&p).0, rec, "{rel}: RecMII");
        let s = schedule(&p, &opts()).unwrap_or_else(|e| panic!("{rel}: {e}"));
        verify(&p, &s).unwrap_or_else(|v| panic!("{rel}: {v:?}"));
        assert_eq!((s.res_mii, s.rec_mii, s.ii), (res, rec, ii), "{rel}");
        assert!(s.optimal, "{rel}: II = MII is optimal");
    }
}

/// md_grid/graph2: MII 5 is infeasible; the ILP proves it and II 6 is optimal.
#[test]
fn ii_above_mii_is_proven() {
    let p = hatschet::load(&path("md_grid/graph2.graphml")).expect("loads");
    let s = schedule(&p, &opts()).expect("schedules");
    verify(&p, &s).expect("valid");
    assert_eq!((s.mii, s.ii), (5, 6));
    assert!(s.optimal);
    assert_eq!(s.limited_by, scheduler::Limit::Combined { mii: 5 });
}

/// Schedules `a` and checks the result against the rules of `b` (same operations).
fn cross_check(a: &scheduler::Problem, b: &scheduler::Problem, what: &str) -> Schedule {
    let s = schedule(a, &opts()).unwrap_or_else(|e| panic!("{what}: {e}"));
    verify(a, &s).unwrap_or_else(|v| panic!("{what}: {v:?}"));
    // Edges of b at the same II; lengths agree since the ops are the same.
    let mut s2 = s.clone();
    s2.stats.attempts.clear();
    if let Err(v) = verify(b, &s2) {
        panic!("{what}: schedule of one variant breaks the other: {v:?}");
    }
    s
}

/// Our chaining rule (derived from the clock period and the operator delays) and the extra
/// edges of HatScheT's `.200MHz` graphs agree: a schedule under either set of constraints
/// satisfies the other.
#[test]
fn chaining_agrees_with_hatschet_200mhz() {
    for rel in ["stencil2d/graph2", "gemm_ncubed/graph2", "md_grid/graph4"] {
        let base = hatschet::load(&path(&format!("{rel}.graphml"))).expect("loads");
        let mut ours = base.clone();
        ours.clock_period_ns = Some(5.0);
        let mut theirs = hatschet::load(&path(&format!("{rel}.200MHz.graphml"))).expect("loads");
        assert!(
            theirs.edges.len() > base.edges.len(),
            "{rel}: has chaining edges"
        );
        // Check their schedule against our rule, and ours against their edges.
        let mut theirs_with_period = theirs.clone();
        theirs_with_period.clock_period_ns = Some(5.0);
        cross_check(
            &theirs,
            &theirs_with_period,
            &format!("{rel} (theirs vs our rule)"),
        );
        theirs.clock_period_ns = None;
        let mut ours_with_edges = theirs.clone();
        ours_with_edges.clock_period_ns = Some(5.0);
        cross_check(
            &ours,
            &ours_with_edges,
            &format!("{rel} (ours vs their edges)"),
        );
    }
}
