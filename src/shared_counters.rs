//! Atomic counters shared by the kernels of a multi-kernel test: a buffer that is the counter
//! of several launches which may run at the same time becomes one register in the system top
//! (`rtl_templates::shared_counter`), and those kernels are instantiated as their `__shared`
//! variants (`rtl_templates::emit_kernel_with`). Launches that run one after the other
//! (`after`) keep their counters in registers of their own: each reads the buffer at its start
//! and writes it back before its `done`.

use crate::compile::Compiled;
use rtl_templates::shared_counter::{CounterUser, SharedCounter};
use rtl_templates::EmittedKernel;
use std::collections::BTreeMap;
use testfile::{LaunchArgValue, MultiTest};

/// The shared counters of a system and the kernel modules it instantiates in their place.
#[derive(Default)]
pub struct Shared {
    pub counters: Vec<SharedCounter>,
    /// The test's buffer of each counter (an index into `MultiTest::buffers`).
    pub buffers: Vec<usize>,
    /// Per kernel of the system: its `__shared` module, when it uses a shared counter.
    pub variants: Vec<Option<EmittedKernel>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("counters", &self.counters)
            .field("buffers", &self.buffers)
            .finish_non_exhaustive()
    }
}

/// One launch's use of a buffer as an atomic counter the kernel updates.
struct Use {
    launch: usize,
    counter: hls_ir::CounterId,
    prefix: String,
    bits: u32,
}

/// Finds the counter buffers of `m` that launches which may run at once update, and builds
/// the kernels' variants; `kernels` are the launches' kernels (indices into `c.kernels`).
pub fn plan(c: &Compiled, kernels: &[usize], m: &MultiTest) -> Result<Shared, String> {
    let mut users: BTreeMap<usize, Vec<Use>> = BTreeMap::new();
    for (li, l) in m.launches.iter().enumerate() {
        let k = &c.kernels[kernels[li]];
        for a in &l.args {
            let LaunchArgValue::Buffer(b) = a.value else {
                continue;
            };
            let arg = k.ir.args.get(hls_ir::ArgId::from_index(a.index as usize));
            let (Some(hls_ir::ArgKind::Counter(cid)), Some(ap)) = (
                arg.map(|x| &x.kind),
                k.rtl.interface.args.get(a.index as usize),
            ) else {
                continue;
            };
            // A counter the kernel never updates has no port: nothing to share.
            if let Some(prefix) = &ap.mem_prefix {
                users.entry(b).or_default().push(Use {
                    launch: li,
                    counter: *cid,
                    prefix: prefix.clone(),
                    bits: ap.bits,
                });
            }
        }
    }
    let mut out = Shared {
        variants: kernels.iter().map(|_| None).collect(),
        ..Shared::default()
    };
    let mut shared_ids: Vec<Vec<hls_ir::CounterId>> = vec![Vec::new(); kernels.len()];
    for (b, uses) in users {
        if !any_concurrent(m, &uses) {
            continue;
        }
        if let Some(u) = uses.iter().find(|u| u.bits != uses[0].bits) {
            return Err(format!(
                "buffer `{}` is a {}-bit counter of `{}` (line {}) and a {}-bit counter of `{}` (line {}); kernels that share a counter must agree on its width",
                m.buffers[b].name,
                uses[0].bits,
                m.launches[uses[0].launch].kernel,
                m.launches[uses[0].launch].line,
                u.bits,
                m.launches[u.launch].kernel,
                m.launches[u.launch].line
            ));
        }
        if let Some(l) = m.launches.iter().find(|l| l.kernel == "counters") {
            return Err(format!(
                "line {}: a kernel named `counters` cannot be part of a system whose top holds a shared counter (its ports `counters__*` would be the counter's); rename the kernel",
                l.line
            ));
        }
        for u in &uses {
            shared_ids[u.launch].push(u.counter);
        }
        out.buffers.push(b);
        out.counters.push(SharedCounter {
            name: m.buffers[b].name.clone(),
            bits: uses[0].bits,
            users: uses
                .iter()
                .map(|u| CounterUser {
                    kernel: u.launch,
                    prefix: u.prefix.clone(),
                    inc: true,
                    count_bits: 0,
                })
                .collect(),
        });
    }
    for (li, ids) in shared_ids.iter().enumerate() {
        if ids.is_empty() {
            continue;
        }
        let k = &c.kernels[kernels[li]];
        let v = rtl_templates::emit_kernel_with(&k.ir, &k.schedule, ids, &k.rtl.options).map_err(
            |d| {
                format!(
                    "kernel `{}` cannot be built with a shared counter: {}",
                    k.ir.name,
                    d.iter()
                        .map(|d| d.message.clone())
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            },
        )?;
        out.variants[li] = Some(v);
    }
    // What the variants' share ports say: direction and width of each count.
    for sc in &mut out.counters {
        for u in &mut sc.users {
            let v = out.variants[u.kernel].as_ref().expect("built above");
            let fired = format!("{}_fired", u.prefix);
            u.count_bits = v
                .interface
                .ports
                .iter()
                .find(|p| p.name == fired)
                .map(|p| p.width)
                .expect("a shared counter's module has its share ports");
            u.inc = v
                .counters
                .iter()
                .find(|r| rtl_templates::namer::legal(&r.name) == u.prefix)
                .is_none_or(|r| r.increment);
        }
    }
    Ok(out)
}

/// Whether two of the launches in `uses` may run at the same time (neither is after the
/// other, also transitively).
fn any_concurrent(m: &MultiTest, uses: &[Use]) -> bool {
    let before = |a: usize, b: usize| {
        let mut todo = vec![b];
        let mut seen = vec![false; m.launches.len()];
        while let Some(x) = todo.pop() {
            for &y in &m.launches[x].after {
                if y == a {
                    return true;
                }
                if !std::mem::replace(&mut seen[y], true) {
                    todo.push(y);
                }
            }
        }
        false
    };
    uses.iter().enumerate().any(|(i, x)| {
        uses[i + 1..].iter().any(|y| {
            x.launch != y.launch && !before(x.launch, y.launch) && !before(y.launch, x.launch)
        })
    })
}
