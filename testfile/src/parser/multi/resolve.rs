//! Resolving a multi-kernel test when its `[test]` ends: names (buffers, pipes, the kernels of
//! `after` and `arg:`) become indices, each launch gets its complete argument list, and every
//! `expect:` is checked against its buffer. Problems are reported in the order of the checks.

use std::collections::BTreeMap;

use super::super::super::{
    BufferDecl, BufferExpect, Expect, LaunchArg, LaunchArgValue, LaunchDecl, MultiTest, PipeDecl,
    TestCase, Tolerance,
};
use super::super::keys::pick;
use super::super::{Parser, TestSection};
use super::{RawArg, RawExpect, RawLaunch, RawWhat};

/// Launch index of each launched kernel.
type KernelIndex = BTreeMap<String, usize>;

impl Parser<'_> {
    /// Checks and resolves a multi-kernel test.
    pub(in crate::parser) fn finish_multi(&mut self, t: TestSection) -> Option<TestCase> {
        let errors = self.errors.len();
        let first = t.multi.first.unwrap_or(t.line);
        self.reject_single_kernel_keys(&t, first);
        let m = t.multi;
        if m.launches.is_empty() {
            self.error(
                first,
                "this test declares buffers, pipes or arguments but launches nothing; add a \
                 `launch: <kernel> <global size> [<local size>]` line",
            );
            return None;
        }
        let d = &self.config.launch;
        let default_tolerance =
            pick(&t.launch.tolerance, &d.tolerance).map_or(Tolerance::Exact, |a| a.value);
        let expect_test_fail =
            pick(&t.launch.expect_test_fail, &d.expect_test_fail).is_some_and(|a| a.value);
        self.check_unique_names(&m.buffers, &m.pipes);
        let kernels = self.index_kernels(&m.launches);
        let mut launches = self.resolve_launches(&m.launches, &kernels);
        let per_kernel = self.resolve_args(m.args, &kernels, &m.buffers, &m.pipes);
        self.attach_args(&mut launches, per_kernel);
        let expects = self.resolve_expects(m.expects, &m.buffers, default_tolerance);
        if self.errors.len() != errors {
            return None;
        }
        let l0 = &launches[0];
        let name = t
            .name
            .unwrap_or_else(|| format!("{} #{}", l0.kernel, t.number));
        Some(TestCase {
            name,
            line: t.line,
            kernel_name: l0.kernel.clone(),
            dimensions: l0.dimensions,
            global_size: l0.global_size,
            local_size: l0.local_size,
            global_offset: l0.global_offset,
            build_options: self.config.build_options.clone(),
            expect_test_fail,
            args: Vec::new(),
            multi: Some(MultiTest {
                buffers: m.buffers,
                pipes: m.pipes,
                launches,
                expects,
            }),
        })
    }

    /// The keys and lines of single-kernel tests, which a test with `launch:` lines replaces.
    fn reject_single_kernel_keys(&mut self, t: &TestSection, first: u32) {
        for key in [
            "kernel_name",
            "dimensions",
            "global_size",
            "local_size",
            "global_offset",
        ] {
            if let Some(&l) = t.seen.get(key) {
                self.error(
                    l,
                    format!(
                        "`{key}` belongs to single-kernel tests; a test with `launch:` lines gives \
                         the kernel and its sizes on each `launch:` line"
                    ),
                );
            }
        }
        if !t.mentioned.is_empty() {
            self.error(
                first,
                "`arg_in:`/`arg_out:` belong to single-kernel tests; with `launch:` lines use \
                 `buffer:`, `arg:` and `expect:`",
            );
        }
    }

    /// Buffers and pipes share one namespace.
    fn check_unique_names(&mut self, buffers: &[BufferDecl], pipes: &[PipeDecl]) {
        let mut names: BTreeMap<String, u32> = BTreeMap::new();
        for (n, l) in buffers
            .iter()
            .map(|b| (&b.name, b.line))
            .chain(pipes.iter().map(|p| (&p.name, p.line)))
        {
            if let Some(prev) = names.insert(n.clone(), l) {
                self.error(
                    l,
                    format!("`{n}` is already declared at line {prev}; give each buffer and pipe its own name"),
                );
            }
        }
    }

    /// Each kernel is launched once, so `after` and `arg:` name a launch by its kernel.
    fn index_kernels(&mut self, raw: &[RawLaunch]) -> KernelIndex {
        let mut kernels = KernelIndex::new();
        for (i, l) in raw.iter().enumerate() {
            if let Some(&prev) = kernels.get(&l.kernel) {
                let pl = raw[prev].line;
                self.error(
                    l.line,
                    format!(
                        "kernel `{}` is already launched at line {pl}; a test launches each \
                         kernel once (`arg:` lines name the launch by its kernel)",
                        l.kernel
                    ),
                );
            } else {
                kernels.insert(l.kernel.clone(), i);
            }
        }
        kernels
    }

    /// The launches with `after` resolved to launch indices; their arguments come later.
    fn resolve_launches(&mut self, raw: &[RawLaunch], kernels: &KernelIndex) -> Vec<LaunchDecl> {
        let mut launches: Vec<LaunchDecl> = Vec::new();
        for l in raw {
            let mut after = Vec::new();
            for a in &l.after {
                match kernels.get(a) {
                    Some(&i) if raw[i].kernel != l.kernel => after.push(i),
                    Some(_) => self.error(l.line, format!("`{a}` cannot run after itself")),
                    None => self.error(
                        l.line,
                        format!("`after {a}`: no `launch:` line of this test runs `{a}`"),
                    ),
                }
            }
            launches.push(LaunchDecl {
                line: l.line,
                kernel: l.kernel.clone(),
                dimensions: l.dimensions,
                global_size: l.global,
                local_size: l.local,
                global_offset: l.offset,
                after,
                args: Vec::new(),
            });
        }
        launches
    }

    /// The `arg:` lines, by launch index and argument index, with names resolved to buffers and
    /// pipes.
    fn resolve_args(
        &mut self,
        raw: Vec<RawArg>,
        kernels: &KernelIndex,
        buffers: &[BufferDecl],
        pipes: &[PipeDecl],
    ) -> BTreeMap<usize, BTreeMap<u32, LaunchArg>> {
        let mut per_kernel: BTreeMap<usize, BTreeMap<u32, LaunchArg>> = BTreeMap::new();
        for a in raw {
            let Some(&li) = kernels.get(&a.kernel) else {
                self.error(
                    a.line,
                    format!(
                        "`arg: {} {}`: no `launch:` line of this test runs `{}`",
                        a.kernel, a.index, a.kernel
                    ),
                );
                continue;
            };
            let value = match a.what {
                RawWhat::Value { ty, bytes } => LaunchArgValue::Value { ty, bytes },
                RawWhat::Local { ty, len } => LaunchArgValue::Local { ty, len },
                RawWhat::Name(n) => {
                    if let Some(b) = buffers.iter().position(|b| b.name == n) {
                        LaunchArgValue::Buffer(b)
                    } else if let Some(p) = pipes.iter().position(|p| p.name == n) {
                        LaunchArgValue::Pipe(p)
                    } else {
                        self.error(
                            a.line,
                            format!(
                                "`{n}` is not a buffer or pipe of this test; declare it with \
                                 `buffer: {n} <type>[<count>] <values>` or `pipe: {n} <type> \
                                 <max_packets>`"
                            ),
                        );
                        continue;
                    }
                }
            };
            let args = per_kernel.entry(li).or_default();
            if let Some(prev) = args.get(&a.index) {
                let pl = prev.line;
                self.error(
                    a.line,
                    format!(
                        "argument {} of `{}` is already given at line {pl}",
                        a.index, a.kernel
                    ),
                );
                continue;
            }
            args.insert(
                a.index,
                LaunchArg {
                    index: a.index,
                    line: a.line,
                    value,
                },
            );
        }
        per_kernel
    }

    /// Gives each launch its arguments, which must be complete (`0..n`).
    fn attach_args(
        &mut self,
        launches: &mut [LaunchDecl],
        mut per_kernel: BTreeMap<usize, BTreeMap<u32, LaunchArg>>,
    ) {
        for (li, l) in launches.iter_mut().enumerate() {
            let args = per_kernel.remove(&li).unwrap_or_default();
            for (expected, (&index, _)) in args.iter().enumerate() {
                if expected as u32 != index {
                    self.error(
                        l.line,
                        format!(
                            "argument {expected} of `{}` is missing; every kernel argument needs \
                             an `arg: {} {expected} ...` line",
                            l.kernel, l.kernel
                        ),
                    );
                    break;
                }
            }
            l.args = args.into_values().collect();
        }
    }

    /// The `expect:` lines, each naming a buffer of its size.
    fn resolve_expects(
        &mut self,
        raw: Vec<RawExpect>,
        buffers: &[BufferDecl],
        default_tolerance: Tolerance,
    ) -> Vec<BufferExpect> {
        let mut expects = Vec::new();
        for e in raw {
            let Some(b) = buffers.iter().position(|b| b.name == e.buffer) else {
                self.error(
                    e.line,
                    format!("`{}` is not a buffer of this test", e.buffer),
                );
                continue;
            };
            let bd = &buffers[b];
            let have = bd.len as usize * bd.ty.byte_size();
            if have != e.bytes.len() {
                self.error(
                    e.line,
                    format!(
                        "`expect: {} {}[{}]` is {} bytes but the buffer (line {}) is {have} bytes",
                        e.buffer,
                        e.ty,
                        e.len,
                        e.bytes.len(),
                        bd.line
                    ),
                );
                continue;
            }
            let tolerance = e.tolerance.unwrap_or(if e.ty.scalar.is_float() {
                default_tolerance
            } else {
                Tolerance::Exact
            });
            expects.push(BufferExpect {
                buffer: b,
                ty: e.ty,
                len: e.len,
                expect: Expect {
                    line: e.line,
                    bytes: e.bytes,
                    tolerance,
                },
                unordered: e.unordered,
            });
        }
        expects
    }
}
