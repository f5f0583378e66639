//! Hand-computed problems: bounds, schedules, limits, errors, and the verifier.

use std::time::Duration;

use scheduler::{
    rec_mii, res_mii, schedule, try_rec_mii, verify, Edge, Limit, Method, Op, OpIdx, Options,
    Problem, Resource, ResourceId, Schedule, ScheduleError, Violation,
};

fn opts() -> Options {
    Options {
        time_limit_per_ii: Duration::from_secs(20),
        ..Options::default()
    }
}

fn run(p: &Problem) -> Schedule {
    let s = schedule(p, &opts()).expect("schedulable");
    verify(p, &s).expect("schedule verifies");
    s
}

/// load (2) -> mul (3) -> store (1), no recurrence, no limits.
fn chain() -> Problem {
    let mut p = Problem::new();
    let a = p.add_op(Op::new("load", 2));
    let b = p.add_op(Op::new("mul", 3));
    let c = p.add_op(Op::new("store", 1));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, c, 0, 0);
    p
}

#[test]
fn chain_is_asap_at_ii_1() {
    let p = chain();
    assert_eq!(res_mii(&p), (1, None));
    assert_eq!(rec_mii(&p), (1, None));
    let s = run(&p);
    assert_eq!(s.ii, 1);
    assert_eq!(s.start, vec![0, 2, 5]);
    assert_eq!(s.length, 6);
    assert!(s.optimal);
    assert_eq!(s.limited_by, Limit::None);
    assert_eq!(s.stages(), 6);
    assert_eq!(s.stage_of(OpIdx(2)), Some(5));
}

/// `acc = acc + load(i)` with a 3-cycle adder: the loop-carried edge acc -> acc limits II to 3.
fn accumulator() -> (Problem, usize) {
    let mut p = Problem::new();
    let ld = p.add_op(Op::new("load", 2));
    let add = p.add_op(Op::new("acc", 3));
    p.add_edge(ld, add, 0, 0);
    let carried = p.add_edge(add, add, 0, 1);
    (p, carried)
}

#[test]
fn accumulator_recurrence_gives_ii_3() {
    let (p, carried) = accumulator();
    assert_eq!(rec_mii(&p), (3, Some(vec![carried])));
    let s = run(&p);
    assert_eq!((s.rec_mii, s.res_mii, s.mii, s.ii), (3, 1, 3, 3));
    assert!(s.optimal);
    assert_eq!(
        s.limited_by,
        Limit::Recurrence {
            edges: vec![carried],
            ii: 3
        }
    );
}

#[test]
fn two_op_recurrence_with_distance_2() {
    // a (1) -> b (2) -> a at distance 2: cycle length 3 over 2 iterations -> II 2.
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 1));
    let b = p.add_op(Op::new("b", 2));
    let e0 = p.add_edge(a, b, 0, 0);
    let e1 = p.add_edge(b, a, 0, 2);
    let (ii, cycle) = rec_mii(&p);
    assert_eq!(ii, 2);
    let mut cycle = cycle.expect("critical cycle");
    cycle.sort_unstable();
    assert_eq!(cycle, vec![e0, e1]);
    assert_eq!(run(&p).ii, 2);
}

#[test]
fn recurrence_with_extra_delay_and_long_distance() {
    // Cycle length 1 + 4 + 2 + 0 = 7, distance 3 -> II = ceil(7 / 3) = 3.
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 1));
    let b = p.add_op(Op::new("b", 2));
    p.add_edge(a, b, 4, 0);
    p.add_edge(b, a, 0, 3);
    assert_eq!(rec_mii(&p).0, 3);
    assert_eq!(run(&p).ii, 3);
}

#[test]
fn three_loads_on_two_ports_give_ii_2() {
    let mut p = Problem::new();
    let port = p.add_resource(Resource::limited("mem_read", 2));
    let mut loads = Vec::new();
    for i in 0..3 {
        loads.push(p.add_op(Op::new(format!("load{i}"), 2).on(port)));
    }
    let sum = p.add_op(Op::new("sum", 1));
    for &l in &loads {
        p.add_edge(l, sum, 0, 0);
    }
    assert_eq!(res_mii(&p), (2, Some(port)));
    let s = run(&p);
    assert_eq!(s.ii, 2);
    assert_eq!(
        s.limited_by,
        Limit::Resource {
            resource: port,
            uses: 3
        }
    );
    // Two loads share a congruence class at most.
    let mut per_slot = [0; 2];
    for &l in &loads {
        per_slot[(s.start[l.index()] % 2) as usize] += 1;
    }
    assert!(per_slot.iter().all(|&c| c <= 2));
}

#[test]
fn blocking_time_counts_in_res_mii_and_slots() {
    // Two divisions on one unrolled divider busy 3 cycles each: ResMII = ceil(2 * 3 / 1) = 6.
    let mut p = Problem::new();
    let div = p.add_resource(Resource {
        name: "div".into(),
        limit: Some(1),
        blocking_time: 3,
    });
    let a = p.add_op(Op::new("d0", 4).on(div));
    let b = p.add_op(Op::new("d1", 4).on(div));
    p.add_edge(a, b, 0, 0);
    assert_eq!(res_mii(&p).0, 6);
    let s = run(&p);
    assert_eq!(s.ii, 6);
    let (ta, tb) = (s.start[0] % 6, s.start[1] % 6);
    let gap = (tb + 6 - ta) % 6;
    assert!(
        (3..=3).contains(&gap),
        "busy intervals must not overlap mod 6: {ta} {tb}"
    );
}

#[test]
fn blocking_time_longer_than_ii_is_counted_per_cover() {
    // One op busy 5 cycles on 3 units: ResMII = ceil(5 / 3) = 2; at II 2 it covers one
    // slot 3 times and the other twice.
    let mut p = Problem::new();
    let r = p.add_resource(Resource {
        name: "slow".into(),
        limit: Some(3),
        blocking_time: 5,
    });
    p.add_op(Op::new("x", 5).on(r));
    assert_eq!(res_mii(&p).0, 2);
    let s = run(&p);
    assert_eq!(s.ii, 2);
    // Two units only: the same schedule is rejected.
    let mut q = p.clone();
    q.resources[0].limit = Some(2);
    let err = verify(&q, &s).expect_err("3 covers of one slot > 2 units");
    assert!(matches!(
        err[0],
        Violation::Resource {
            used: 3,
            limit: 2,
            ..
        }
    ));
}

/// Three latency-0 adders of 2 ns in a chain, then a 7 ns op, with a 5 ns clock.
fn chained() -> Problem {
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 0).with_delay(2.0));
    let b = p.add_op(Op::new("b", 0).with_delay(2.0));
    let c = p.add_op(Op::new("c", 0).with_delay(2.0));
    let d = p.add_op(Op::new("slow", 0).with_delay(7.0));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, c, 0, 0);
    p.add_edge(c, d, 0, 0);
    p.clock_period_ns = Some(5.0);
    p
}

#[test]
fn chaining_keeps_chains_within_the_period() {
    let p = chained();
    let s = run(&p);
    let t = &s.start;
    // At most two of a, b, c share a cycle (6 ns > 5 ns); the 7 ns op chains with nothing
    // that has a delay. Three cycles suffice.
    assert!(t[2] > t[0]);
    assert!(t[3] > t[2] && t[3] > t[1]);
    assert_eq!(s.length, 3);
    assert!(s.stats.chain_constraints >= 2);
}

#[test]
fn without_period_everything_chains() {
    let mut p = chained();
    p.clock_period_ns = None;
    let s = run(&p);
    assert_eq!(s.start, vec![0, 0, 0, 0]);
    assert_eq!(s.length, 1);
}

#[test]
fn slow_op_alone_is_fine_and_zero_delay_ops_chain_with_it() {
    let mut p = Problem::new();
    let slow = p.add_op(Op::new("slow", 0).with_delay(9.0));
    let wire = p.add_op(Op::new("wire", 0));
    p.add_edge(slow, wire, 0, 0);
    p.clock_period_ns = Some(5.0);
    let s = run(&p);
    assert_eq!(s.start, vec![0, 0]);
}

#[test]
fn chaining_can_raise_rec_mii() {
    // A loop-carried chain of three 2 ns ops needs two cycles per iteration at 5 ns.
    let mut p = Problem::new();
    let ops: Vec<OpIdx> = (0..3)
        .map(|i| p.add_op(Op::new(format!("x{i}"), 0).with_delay(2.0)))
        .collect();
    p.add_edge(ops[0], ops[1], 0, 0);
    p.add_edge(ops[1], ops[2], 0, 0);
    let back = p.add_edge(ops[2], ops[0], 1, 1);
    assert_eq!(rec_mii(&p).0, 1);
    p.clock_period_ns = Some(5.0);
    let (ii, cycle) = rec_mii(&p);
    assert_eq!(ii, 2);
    // The chaining constraint x0 -> x2 is reported as the chain's edges.
    let mut cycle = cycle.expect("critical cycle");
    cycle.sort_unstable();
    assert_eq!(cycle, vec![0, 1, back]);
    let s = run(&p);
    assert_eq!(s.ii, 2);
}

#[test]
fn non_pipelined_iterations_do_not_overlap() {
    let (mut p, _) = accumulator();
    let port = p.add_resource(Resource::limited("port", 1));
    p.ops[0].resource = Some(port);
    let o = Options {
        pipelined: false,
        ..opts()
    };
    let s = schedule(&p, &o).expect("schedulable");
    verify(&p, &s).expect("valid");
    assert!(!s.pipelined);
    assert_eq!(s.limited_by, Limit::NotPipelined);
    assert_eq!(s.start, vec![0, 2]);
    assert_eq!(s.length, 5);
    assert_eq!(s.ii, 5);
    assert!(s.optimal);
}

#[test]
fn non_pipelined_respects_resources_and_loop_carried_delay() {
    // Two ops on one unit; a loop-carried edge with a large delay stretches the iteration.
    let mut p = Problem::new();
    let u = p.add_resource(Resource::limited("unit", 1));
    let a = p.add_op(Op::new("a", 1).on(u));
    let b = p.add_op(Op::new("b", 1).on(u));
    p.add_edge(b, a, 6, 1);
    let o = Options {
        pipelined: false,
        ..opts()
    };
    let s = schedule(&p, &o).expect("schedulable");
    verify(&p, &s).expect("valid");
    // t(a) + ii >= t(b) + 1 + 6 and ii >= t(a) + 1: best with b first and a three
    // cycles later (ii 4), not back to back (ii 6).
    assert_eq!(s.start, vec![3, 0]);
    assert_eq!((s.length, s.ii), (4, 4));
    assert!(s.optimal);
}

/// Two ops on one unit, a -> b with latency 2 and b -> a at distance 1: at II = MII = 2 they
/// would share a row.
fn infeasible_at_mii() -> Problem {
    let mut p = Problem::new();
    let u = p.add_resource(Resource::limited("unit", 1));
    let a = p.add_op(Op::new("a", 2).on(u));
    let b = p.add_op(Op::new("b", 0).on(u));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, a, 0, 1);
    p
}

#[test]
fn ii_above_mii_when_mii_is_infeasible() {
    let p = infeasible_at_mii();
    let s = run(&p);
    assert_eq!((s.mii, s.ii), (2, 3));
    assert!(s.optimal, "II 2 proven infeasible");
    assert_eq!(s.limited_by, Limit::Combined { mii: 2 });
    assert!(s.stats.attempts.len() >= 2);
}

#[test]
fn heuristic_only_then_fallback() {
    let p = infeasible_at_mii();
    let o = Options {
        use_ilp: false,
        ii_search_span: 0,
        ..opts()
    };
    let s = schedule(&p, &o).expect("fallback schedules");
    verify(&p, &s).expect("valid");
    assert_eq!(s.ii, 3);
    assert!(!s.optimal);
    assert!(s.stats.fallback_used);
    assert_eq!(s.stats.method, Method::Fallback);
    assert_eq!(s.limited_by, Limit::Unproven { mii: 2 });
}

#[test]
fn max_ii_below_any_schedule_is_an_error() {
    let p = infeasible_at_mii();
    let o = Options {
        max_ii: Some(2),
        ..opts()
    };
    assert_eq!(
        schedule(&p, &o).unwrap_err(),
        ScheduleError::NoScheduleWithin { max_ii: 2, mii: 2 }
    );
}

#[test]
fn zero_distance_positive_cycle_is_an_error() {
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 1));
    let b = p.add_op(Op::new("b", 1));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, a, 0, 0);
    match schedule(&p, &opts()) {
        Err(ScheduleError::PositiveCycle { mut edges, length }) => {
            edges.sort_unstable();
            assert_eq!(edges, vec![0, 1]);
            assert_eq!(length, 2);
        }
        other => panic!("expected PositiveCycle, got {other:?}"),
    }
    assert!(matches!(
        try_rec_mii(&p),
        Err(ScheduleError::PositiveCycle { .. })
    ));
    assert_eq!(rec_mii(&p).0, u32::MAX);
}

#[test]
fn zero_weight_cycles_are_timing_windows() {
    // b no later than 2 cycles after a: a -> b (lat 1), b -> a with delay -3.
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 1));
    let b = p.add_op(Op::new("b", 1));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, a, -3, 0);
    let s = run(&p);
    assert_eq!(s.ii, 1);
    let gap = s.start[1] - s.start[0];
    assert!((1..=2).contains(&gap));
}

#[test]
fn combinational_cycle_under_chaining_is_an_error() {
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 0).with_delay(1.0));
    let b = p.add_op(Op::new("b", 0).with_delay(1.0));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, a, 0, 0);
    p.clock_period_ns = Some(5.0);
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::CombinationalCycle { .. })
    ));
}

#[test]
fn malformed_problems_are_errors_not_panics() {
    let mut p = chain();
    p.edges.push(Edge {
        src: OpIdx(0),
        dst: OpIdx(9),
        delay: 0,
        distance: 0,
    });
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::UnknownOp { edge: 2, .. })
    ));

    let mut p = chain();
    p.ops[1].resource = Some(ResourceId(4));
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::UnknownResource { .. })
    ));

    let mut p = chain();
    p.ops[0].delay_ns = f64::NAN;
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::InvalidDelay { .. })
    ));

    let mut p = chain();
    p.clock_period_ns = Some(0.0);
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::InvalidClockPeriod(_))
    ));

    let mut p = chain();
    let r = p.add_resource(Resource::limited("none", 0));
    p.ops[0].resource = Some(r);
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::NoUnits { uses: 1, .. })
    ));
    assert_eq!(res_mii(&p).0, u32::MAX);

    let mut p = chain();
    p.ops[0].latency = u32::MAX;
    assert!(matches!(
        schedule(&p, &opts()),
        Err(ScheduleError::OutOfRange { .. })
    ));
}

#[test]
fn empty_problem() {
    let p = Problem::new();
    let s = run(&p);
    assert_eq!((s.ii, s.length, s.start.len()), (1, 0, 0));
}

#[test]
fn verify_rejects_broken_schedules() {
    let mut p = Problem::new();
    let port = p.add_resource(Resource::limited("port", 1));
    let a = p.add_op(Op::new("a", 2).on(port));
    let b = p.add_op(Op::new("b", 1).on(port));
    let e = p.add_edge(a, b, 0, 0);
    let good = run(&p);
    assert_eq!(good.ii, 2);

    // Dependence: b starts before a's result.
    let mut s = good.clone();
    s.start = vec![0, 1];
    s.length = 2;
    let v = verify(&p, &s).unwrap_err();
    assert!(v
        .iter()
        .any(|x| matches!(x, Violation::Dependence { edge, earliest: 2, .. } if *edge == e)));

    // Resource: both in the same row.
    let mut s = good.clone();
    s.start = vec![0, 2];
    s.length = 3;
    let v = verify(&p, &s).unwrap_err();
    assert_eq!(
        v,
        vec![Violation::Resource {
            resource: port,
            slot: 0,
            used: 2,
            limit: 1,
            ops: vec![a, b],
        }]
    );

    // Wrong length, wrong op count, zero II.
    let mut s = good.clone();
    s.length += 1;
    assert!(matches!(
        verify(&p, &s).unwrap_err()[0],
        Violation::WrongLength { .. }
    ));
    let mut s = good.clone();
    s.start.pop();
    assert!(matches!(
        verify(&p, &s).unwrap_err()[0],
        Violation::WrongOpCount { .. }
    ));
    let mut s = good.clone();
    s.ii = 0;
    assert_eq!(verify(&p, &s).unwrap_err(), vec![Violation::ZeroIi]);

    // Non-pipelined schedules may not overlap iterations.
    let mut s = good;
    s.pipelined = false;
    assert!(matches!(
        verify(&p, &s).unwrap_err()[0],
        Violation::Overlap { .. }
    ));
}

#[test]
fn verify_rejects_overlong_chains() {
    let p = chained();
    let mut s = run(&p);
    s.start = vec![0, 0, 0, 1];
    s.length = 2;
    let v = verify(&p, &s).unwrap_err();
    assert_eq!(v.len(), 1);
    match &v[0] {
        Violation::Chaining { ops, delay_ns, .. } => {
            assert_eq!(ops, &vec![OpIdx(0), OpIdx(1), OpIdx(2)]);
            assert!((delay_ns - 6.0).abs() < 1e-9);
        }
        other => panic!("expected Chaining, got {other:?}"),
    }
    s.start = vec![0, 0, 1, 1];
    assert!(matches!(
        verify(&p, &s).unwrap_err()[0],
        Violation::Chaining { .. }
    ));
}

#[test]
fn verify_reports_same_cycle_combinational_loops() {
    // Legal as a schedule problem without period; with a period the loop is reported.
    let mut p = Problem::new();
    let a = p.add_op(Op::new("a", 0).with_delay(1.0));
    let b = p.add_op(Op::new("b", 0).with_delay(1.0));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, a, 0, 0);
    let mut s = run(&p);
    p.clock_period_ns = Some(5.0);
    s.stats.attempts.clear();
    assert!(matches!(
        verify(&p, &s).unwrap_err()[0],
        Violation::CombinationalCycle { .. }
    ));
}

#[test]
fn stats_name_the_solver() {
    let s = run(&chain());
    let expected = if cfg!(feature = "highs") {
        "highs"
    } else {
        "microlp"
    };
    assert_eq!(s.stats.solver, expected);
    assert!(s.stats.overturned.is_empty());
}

#[test]
fn pathological_blocking_times_still_schedule() {
    // ResMII = 3 * 2^16: the reservation table is too large for the heuristic's slot scan
    // and the ILP; the fallback's flat schedule (a valid modulo schedule) takes over.
    let mut p = Problem::new();
    let r = p.add_resource(Resource {
        name: "slow".into(),
        limit: Some(1),
        blocking_time: 1 << 16,
    });
    for i in 0..3 {
        p.add_op(Op::new(format!("x{i}"), 1).on(r));
    }
    let s = schedule(&p, &opts()).expect("schedulable");
    verify(&p, &s).expect("valid");
    assert_eq!(s.mii, 3 << 16);
    assert_eq!(s.ii, 3 << 16);
    assert!(s.stats.fallback_used);
    assert!(s.optimal, "II = MII");
}

/// A memory read of latency 1 whose data arrives 4 ns into its cycle, then a 2 ns select and a
/// 3 ns add, with a 5 ns clock: the select may sit in the data's cycle (6 ns > 5 ns: no),
/// so both move one cycle; a zero-delay consumer stays.
fn late_result() -> Problem {
    let mut p = Problem::new();
    let ld = p.add_op(Op::new("load", 1).with_delay(0.5).with_out_delay(4.0));
    let sel = p.add_op(Op::new("select", 0).with_delay(0.8));
    let add = p.add_op(Op::new("add", 0).with_delay(2.0));
    let wire = p.add_op(Op::new("wire", 0));
    p.add_edge(ld, sel, 0, 0);
    p.add_edge(sel, add, 0, 0);
    p.add_edge(ld, wire, 0, 0);
    p.clock_period_ns = Some(5.0);
    p
}

#[test]
fn late_results_push_long_chains_to_the_next_cycle() {
    let p = late_result();
    let s = run(&p);
    // load at 0, data in cycle 1 at 4 ns: the select (4.8 ns) fits, the add (6.8) does not.
    assert_eq!(s.start, vec![0, 1, 2, 1]);
    let mut bad = s.clone();
    bad.start = vec![0, 1, 1, 1];
    match &verify(&p, &bad).unwrap_err()[0] {
        Violation::Chaining { ops, delay_ns, .. } => {
            assert_eq!(ops, &vec![OpIdx(0), OpIdx(1), OpIdx(2)]);
            assert!((delay_ns - 6.8).abs() < 1e-9);
        }
        other => panic!("expected Chaining, got {other:?}"),
    }
    // Consumed a cycle later, the data comes from a register: no constraint.
    let mut late = s.clone();
    late.start = vec![0, 2, 2, 1];
    late.length = 3;
    verify(&p, &late).expect("a registered result chains from the start of the cycle");
}

#[test]
fn late_results_count_in_recurrences() {
    // The next iteration's load waits for this one's add: with the late data the add sits a
    // cycle after the data's, so II 2 instead of 1.
    let mut p = late_result();
    p.add_edge(OpIdx(2), OpIdx(0), 0, 1);
    let (ii, _) = rec_mii(&p);
    assert_eq!(ii, 2);
    p.ops[0].out_delay_ns = 0.0;
    assert_eq!(rec_mii(&p).0, 1);
}

/// Three 3 ns adds into a request whose handshake takes 3.5 ns before its register, with a
/// 10 ns clock: the adds chain (9 ns), but the request cannot sit in their cycle (12.5 ns).
fn request_after_adds() -> Problem {
    let mut p = Problem::new();
    let a = p.add_op(Op::new("add a", 0).with_delay(3.0));
    let b = p.add_op(Op::new("add b", 0).with_delay(3.0));
    let c = p.add_op(Op::new("add c", 0).with_delay(3.0));
    let req = p.add_op(Op::new("store", 1).with_in_delay(3.5));
    p.add_edge(a, b, 0, 0);
    p.add_edge(b, c, 0, 0);
    p.add_edge(c, req, 0, 0);
    p.clock_period_ns = Some(10.0);
    p
}

#[test]
fn input_logic_of_a_multi_cycle_op_ends_the_chain() {
    let p = request_after_adds();
    let s = run(&p);
    // a, b, c chain in cycle 0 (9 ns); the store's 3.5 ns do not fit behind them.
    assert_eq!(s.start, vec![0, 0, 0, 1]);
    let mut bad = s.clone();
    bad.start = vec![0, 0, 0, 0];
    match &verify(&p, &bad).unwrap_err()[0] {
        Violation::Chaining { ops, delay_ns, .. } => {
            assert_eq!(ops, &vec![OpIdx(0), OpIdx(1), OpIdx(2), OpIdx(3)]);
            assert!((delay_ns - 12.5).abs() < 1e-9);
        }
        other => panic!("expected Chaining, got {other:?}"),
    }
    // Without input logic the request chains (the operands are registered as they arrive).
    let mut free = p.clone();
    free.ops[3].in_delay_ns = 0.0;
    assert_eq!(run(&free).start, vec![0, 0, 0, 0]);
    // Behind a late result the input logic counts too: a load whose data arrives at 7 ns
    // cannot feed the request in that cycle (10.5 ns).
    let mut late = Problem::new();
    let ld = late.add_op(Op::new("load", 1).with_out_delay(7.0));
    let req = late.add_op(Op::new("store", 1).with_in_delay(3.5));
    late.add_edge(ld, req, 0, 0);
    late.clock_period_ns = Some(10.0);
    assert_eq!(run(&late).start, vec![0, 2]);
}

#[test]
fn a_requested_ii_above_mii_is_the_schedule_and_the_limit() {
    let p = chain();
    let o = Options {
        min_ii: Some(3),
        ..opts()
    };
    let s = schedule(&p, &o).expect("schedules");
    verify(&p, &s).expect("valid");
    assert_eq!((s.mii, s.ii), (1, 3));
    assert_eq!(s.limited_by, Limit::Requested { ii: 3 });
    // Below MII the request changes nothing: the recurrence's II stands.
    let (acc, _) = accumulator();
    let low = Options {
        min_ii: Some(1),
        ..opts()
    };
    let s = schedule(&acc, &low).expect("schedules");
    assert_eq!(s.ii, s.mii);
    assert!(matches!(s.limited_by, Limit::Recurrence { .. }));
}
