//! Transform passes over a [`Kernel`], and the one place their order is decided.
//!
//! Each pass has a kebab-case name and a one-line description; `run_pipeline` runs them in
//! order and verifies the IR after each one in debug and test builds (and always when
//! `verify_each` is set), so a broken invariant is reported against the pass that broke it.

pub mod bank;
pub mod const_fold;
pub mod cse;
pub mod dce;
pub mod div_const;
pub mod exit_ahead;
pub mod licm;
pub mod narrow;
pub mod partition;

use crate::kernel::Kernel;
use crate::verify::{verify, VerifyError};
pub use bank::IiGoal;

pub struct Pass {
    pub name: &'static str,
    pub description: &'static str,
    pub run: fn(&mut Kernel),
}

/// The pass order. Ordering constraints:
/// - `const-fold` first: lowering emits many constant sub-expressions (address scaling,
///   implicit conversions of literals) whose folding exposes dead ops, and makes the indices
///   of unrolled accesses constants for `partition`.
/// - `partition` after folding, then `const-fold` again: the stored values it forwards to
///   loads meet the bit selects that unpack them (a field of a struct element is a select of
///   the stored concatenation, which folding reduces to the field's value). `--print-ir-after
///   const-fold` prints the IR after the last of them.
/// - `licm` after folding (folded operands become constants, so more ops are invariant) and
///   before `cse` (hoisted copies from sibling loops merge in the parent).
/// - `cse` after folding: folded constants become identical and merge. `const-fold` once
///   more after it: values that were different ops until `cse` merged them (`(uint)x -
///   (uint)x` is two extensions of `x` until then) fold now (`x - x`, `x ^ x`, `x == x`);
///   the kernel fuzzer found it (`tests/fuzz-regressions/seed20261126_case7550.cl`, a
///   compare with a value that is always 0 left for the lint to find).
/// - `narrow` after folding and `cse`: its analyses see constants and shared values, and one
///   rewrite serves every use; after `licm`, so a hoisted value is narrowed once, outside the
///   loop. Before `dce`, which removes the wide ops it replaced.
/// - `div-const` after `narrow`: a division narrowed to fewer bits needs a smaller multiply,
///   and `narrow` knows divisions by constants (their quotients' ranges), not the multiplies
///   and shifts that replace them. Before `dce`, which removes the divisions it replaced.
/// - `dce` last: removes everything folding left unused (and the values `partition` carried
///   that nothing reads); it must see final uses.
pub const PIPELINE: &[Pass] = &[
    Pass {
        name: "const-fold",
        description: "fold operations on constants and simplify x+0, x*1, x<<0, trivial selects",
        run: const_fold::run,
    },
    Pass {
        name: "partition",
        description: "turn small on-chip arrays into values (registers): constant indices, or any index up to 4 elements",
        run: partition::run,
    },
    Pass {
        name: "const-fold",
        description: "fold operations on constants and simplify x+0, x*1, x<<0, trivial selects",
        run: const_fold::run,
    },
    Pass {
        name: "licm",
        description: "move pure loop-invariant operations out of loops",
        run: licm::run,
    },
    Pass {
        name: "cse",
        description: "merge pure operations with the same kind, type, region and operands",
        run: cse::run,
    },
    Pass {
        name: "const-fold",
        description: "fold operations on constants and simplify x+0, x*1, x<<0, trivial selects",
        run: const_fold::run,
    },
    Pass {
        name: "narrow",
        description:
            "compute integer operations at the fewest bits their uses and known values need",
        run: narrow::run,
    },
    Pass {
        name: "div-const",
        description: "divide and take remainders by constants with multiplies and shifts",
        run: div_const::run,
    },
    Pass {
        name: "dce",
        description: "remove operations without side effects whose results are unused",
        run: dce::run,
    },
];

/// The pass that needs the scheduler's view of each loop, run after [`PIPELINE`]: `bank`
/// must see the final accesses (after `dce`), and how many ports a loop can use depends on
/// the II its recurrences and other resources allow, which only the scheduler computes.
pub const BANK: &str = "bank";

/// The last pass (`exit_ahead`): after `bank`, whose residue analysis reads the loops' stop
/// conditions as the source wrote them.
pub const EXIT_AHEAD: &str = "exit-ahead";

/// Run every pass in order, then `bank` and `dce` again when `goal` is given (see
/// [`bank::IiGoal`]; without it no memory is banked), then `exit-ahead` and `dce`. `after_each` sees the IR after each pass (for `--print-ir-after`).
pub fn run_pipeline(
    k: &mut Kernel,
    verify_each: bool,
    goal: Option<IiGoal>,
    after_each: &mut dyn FnMut(&str, &Kernel),
) -> Result<(), VerifyError> {
    let check = |k: &Kernel, name: &str| {
        if verify_each || cfg!(debug_assertions) {
            verify(k).map_err(|mut e| {
                e.after = name.to_string();
                e
            })?;
        }
        Ok(())
    };
    for p in PIPELINE {
        (p.run)(k);
        check(k, p.name)?;
        after_each(p.name, k);
    }
    if let Some(goal) = goal {
        bank::run(k, goal);
        check(k, BANK)?;
        after_each(BANK, k);
        // A bank that no load reads (the loads' indices are all in other banks) keeps only
        // its stores, and its never-read memory fails the lint: `dce` removes them (the
        // kernel fuzzer found it, `tests/fuzz-regressions/seed20261126_case672.cl`).
        dce::run(k);
        check(k, "dce")?;
        after_each("dce", k);
    }
    exit_ahead::run(k);
    check(k, EXIT_AHEAD)?;
    after_each(EXIT_AHEAD, k);
    // The old stop conditions that nothing else reads go.
    dce::run(k);
    check(k, "dce")?;
    after_each("dce", k);
    Ok(())
}
