//! The internal constraint graph: problem edges plus derived chaining constraints, with
//! longest-path helpers shared by the MII computation, the heuristics and the ILP bounds.

use std::collections::HashMap;

use crate::chain::ChainEdge;
use crate::problem::Problem;

/// A difference constraint `t(dst) >= t(src) + d - omega * II`.
#[derive(Clone, Debug)]
pub(crate) struct Dep {
    pub src: usize,
    pub dst: usize,
    /// `latency(src) + delay`.
    pub d: i64,
    pub omega: i64,
    /// The problem edges this constraint comes from: one edge, or the edges of the
    /// combinational chain a chaining constraint was derived from.
    pub origin: Vec<usize>,
}

impl Dep {
    /// Weight at initiation interval `ii`.
    pub fn weight(&self, ii: i64) -> i64 {
        self.d - self.omega * ii
    }
}

/// Constraint graph over the operations of a validated problem.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub n: usize,
    pub deps: Vec<Dep>,
    pub out: Vec<Vec<usize>>,
    pub inc: Vec<Vec<usize>>,
    /// `max(latency, 1)`: cycles an operation counts towards the schedule length.
    pub lat1: Vec<i64>,
}

impl Graph {
    /// Builds the graph; parallel constraints with equal distance are merged (the largest
    /// `d` implies the others), which keeps the ILP small.
    pub fn new(p: &Problem, chains: &[ChainEdge]) -> Self {
        let n = p.ops.len();
        let mut best: HashMap<(usize, usize, i64), usize> = HashMap::new();
        let mut deps: Vec<Dep> = Vec::new();
        let mut push = |dep: Dep, deps: &mut Vec<Dep>| {
            let key = (dep.src, dep.dst, dep.omega);
            match best.get(&key) {
                Some(&k) => {
                    if dep.d > deps[k].d {
                        deps[k] = dep;
                    }
                }
                None => {
                    best.insert(key, deps.len());
                    deps.push(dep);
                }
            }
        };
        for (i, e) in p.edges.iter().enumerate() {
            let src = e.src.index();
            push(
                Dep {
                    src,
                    dst: e.dst.index(),
                    d: i64::from(p.ops[src].latency) + i64::from(e.delay),
                    omega: i64::from(e.distance),
                    origin: vec![i],
                },
                &mut deps,
            );
        }
        for c in chains {
            push(
                Dep {
                    src: c.src,
                    dst: c.dst,
                    d: c.d,
                    omega: 0,
                    origin: c.path.clone(),
                },
                &mut deps,
            );
        }
        let mut out = vec![Vec::new(); n];
        let mut inc = vec![Vec::new(); n];
        for (k, d) in deps.iter().enumerate() {
            out[d.src].push(k);
            inc[d.dst].push(k);
        }
        let lat1 = p.ops.iter().map(|o| i64::from(o.latency.max(1))).collect();
        Graph {
            n,
            deps,
            out,
            inc,
            lat1,
        }
    }

    /// Earliest start times (`>= 0`) at `ii`; `None` for `ii` = infinity (loop-carried
    /// constraints ignored). Returns `None` if a positive cycle prevents convergence.
    pub fn asap(&self, ii: Option<i64>) -> Option<Vec<i64>> {
        let mut t = vec![0i64; self.n];
        self.relax(&mut t, ii, true).then_some(t)
    }

    /// Latest start times such that every operation finishes by `horizon` (taking
    /// `extra_end[v]` as a per-operation lower bound on what it adds to the length).
    pub fn alap(&self, ii: Option<i64>, horizon: i64, end: &[i64]) -> Option<Vec<i64>> {
        let mut t: Vec<i64> = (0..self.n).map(|v| horizon - end[v]).collect();
        self.relax(&mut t, ii, false).then_some(t)
    }

    /// Longest distance from each operation to the end of the schedule (its height),
    /// the priority of the list and iterative modulo schedulers.
    pub fn heights(&self, ii: Option<i64>) -> Option<Vec<i64>> {
        // height(v) = max(lat1(v), max over v->w of weight + height(w)); computed as an
        // ALAP with horizon 0, negated.
        let end: Vec<i64> = self.lat1.clone();
        let t = self.alap(ii, 0, &end)?;
        Some(t.into_iter().map(|x| -x).collect())
    }

    fn active(&self, dep: &Dep, ii: Option<i64>) -> Option<i64> {
        if dep.src == dep.dst {
            return None;
        }
        match ii {
            Some(ii) => Some(dep.weight(ii)),
            None if dep.omega == 0 => Some(dep.d),
            None => None,
        }
    }

    /// Bellman-Ford style relaxation with a FIFO work list. `forward`: raise `t[dst]` to
    /// `t[src] + w`; backward: lower `t[src]` to `t[dst] - w`.
    fn relax(&self, t: &mut [i64], ii: Option<i64>, forward: bool) -> bool {
        let n = self.n;
        let mut queue: std::collections::VecDeque<usize> = (0..n).collect();
        let mut queued = vec![true; n];
        let mut count = vec![0usize; n];
        while let Some(v) = queue.pop_front() {
            queued[v] = false;
            count[v] += 1;
            if count[v] > n + 1 {
                return false;
            }
            let list = if forward { &self.out[v] } else { &self.inc[v] };
            for &k in list {
                let dep = &self.deps[k];
                let Some(w) = self.active(dep, ii) else {
                    continue;
                };
                let (u, cand) = if forward {
                    (dep.dst, t[v].saturating_add(w))
                } else {
                    (dep.src, t[v].saturating_sub(w))
                };
                let better = if forward { cand > t[u] } else { cand < t[u] };
                if better {
                    t[u] = cand;
                    if !queued[u] {
                        queued[u] = true;
                        queue.push_back(u);
                    }
                }
            }
        }
        true
    }

    /// A topological rank over the loop-independent constraints with `d >= 0` (the
    /// "data flows forward" order); operations on cycles get ranks after the rest.
    pub fn topo_rank(&self) -> Vec<usize> {
        let fwd = |d: &Dep| d.omega == 0 && d.d >= 0 && d.src != d.dst;
        let mut indeg = vec![0usize; self.n];
        for d in self.deps.iter().filter(|d| fwd(d)) {
            indeg[d.dst] += 1;
        }
        let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<usize>> = (0..self.n)
            .filter(|&v| indeg[v] == 0)
            .map(std::cmp::Reverse)
            .collect();
        let mut rank = vec![usize::MAX; self.n];
        let mut next = 0;
        while let Some(std::cmp::Reverse(v)) = ready.pop() {
            rank[v] = next;
            next += 1;
            for &k in &self.out[v] {
                let d = &self.deps[k];
                if fwd(d) {
                    indeg[d.dst] -= 1;
                    if indeg[d.dst] == 0 {
                        ready.push(std::cmp::Reverse(d.dst));
                    }
                }
            }
        }
        for r in rank.iter_mut() {
            if *r == usize::MAX {
                *r = next;
                next += 1;
            }
        }
        rank
    }
}

/// Strongly connected components (iterative Tarjan); returns the component of each node.
pub(crate) fn scc(n: usize, out: &[Vec<usize>], target: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut next_comp = 0;
    // Call stack of (node, position in its out list).
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        calls.push((root, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
            if *pos < out[v].len() {
                let w = target(out[v][*pos]);
                *pos += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = next_comp;
                        if w == v {
                            break;
                        }
                    }
                    next_comp += 1;
                }
            }
        }
    }
    comp
}
