//! The deadlock report: every running kernel is blocked (on a pipe, or at a barrier behind
//! blocked work-items), and the launches that wait for them.

use super::{LaunchState, Slot, Status};
use crate::interp::Shared;
use crate::EmuError;
use frontend::ast::Program;
use frontend::SourceMap;
use std::sync::Mutex;

/// Why no work-item can run: one label per blocked kernel and notes on every waiting one.
pub(super) fn deadlock(
    prog: &Program,
    sm: &SourceMap,
    launches: &[LaunchState],
    slots: &[Slot],
    shared: &Mutex<Shared>,
) -> EmuError {
    let sh = shared.lock().unwrap_or_else(|e| e.into_inner());
    let mut notes = Vec::new();
    let mut labels = Vec::new();
    let mut primary = None;
    for l in launches {
        let Some((_, first, n)) = l.active else {
            continue;
        };
        let name = &prog.func(l.func).name;
        let items = &slots[first..first + n];
        let blocked = items.iter().find_map(|s| match &s.status {
            Status::Blocked {
                span,
                pipe,
                write,
                n,
            } => Some((s, *span, *pipe, *write, *n)),
            _ => None,
        });
        if let Some((s, span, pipe, write, n)) = blocked {
            primary.get_or_insert(span);
            let p = &sh.pipes.pipes[pipe];
            labels.push((
                span,
                format!(
                    "`{name}` waits here on pipe `{}` ({} of {} packets)",
                    p.name,
                    p.fifo.len(),
                    p.capacity
                ),
            ));
            notes.push(format!(
                "kernel `{name}` is blocked at {}: {} waits to {} {n} packet(s) {} pipe `{}` ({})",
                sm.describe(span),
                s.who,
                if write { "write" } else { "read" },
                if write { "to" } else { "from" },
                p.name,
                p.fill()
            ));
        } else if let Some(s) = items
            .iter()
            .find(|s| matches!(s.status, Status::AtBarrier(_)))
        {
            primary.get_or_insert(s.last);
            labels.push((s.last, format!("`{name}` waits at this barrier")));
            notes.push(format!(
                "kernel `{name}` is blocked at {}: {} waits at a barrier for work-items of its \
                 group that are blocked",
                sm.describe(s.last),
                s.who
            ));
        }
    }
    for l in launches
        .iter()
        .filter(|l| l.active.is_none() && !l.finished)
    {
        let waits: Vec<String> = l
            .after
            .iter()
            .filter(|&&a| !launches[a].finished)
            .map(|&a| format!("`{}`", prog.func(launches[a].func).name))
            .collect();
        notes.push(format!(
            "kernel `{}` has not started: it runs after {}",
            prog.func(l.func).name,
            waits.join(" and ")
        ));
    }
    let span = primary.unwrap_or_default();
    let mut e = EmuError::at(
        span,
        "deadlock: every running kernel is blocked".to_string(),
    );
    for (s, t) in labels {
        e = e.with_label(s, t);
    }
    for n in notes {
        e = e.with_note(n);
    }
    e
}
