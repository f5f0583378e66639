//! Assembling a single-kernel test: the `[config]` defaults applied, the sizes checked, and
//! the `arg_in:`/`arg_out:` lines of each index merged into one [`Arg`].

use super::super::types::ValueType;
use super::super::{Arg, ArgKind, Expect, TestCase, Tolerance};
use super::args::{ParsedArg, ParsedKind};
use super::keys::pick;
use super::{Parser, TestSection};

impl Parser<'_> {
    /// Applies the `[config]` defaults to a test and checks it as a whole.
    pub(super) fn finish_test(&mut self, t: TestSection) -> Option<TestCase> {
        if t.multi.first.is_some() {
            return self.finish_multi(t);
        }
        let d = &self.config.launch;
        let kernel_name = pick(&t.launch.kernel_name, &d.kernel_name).and_then(|k| k.value);
        let dimensions = pick(&t.launch.dimensions, &d.dimensions).map_or(1, |a| a.value);
        let mut global_size =
            pick(&t.launch.global_size, &d.global_size).map_or([1; 3], |a| a.value);
        let local = pick(&t.launch.local_size, &d.local_size);
        let mut global_offset =
            pick(&t.launch.global_offset, &d.global_offset).map_or([0; 3], |a| a.value);
        let expect_test_fail =
            pick(&t.launch.expect_test_fail, &d.expect_test_fail).is_some_and(|a| a.value);
        let tolerance =
            pick(&t.launch.tolerance, &d.tolerance).map_or(Tolerance::Exact, |a| a.value);

        let mut ok = true;
        if kernel_name.is_none() {
            let what = t
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" `{n}`"));
            self.error(
                t.line,
                format!(
                    "test{what} has no kernel_name; add `kernel_name: <kernel>` to this [test] or \
                     to [config]"
                ),
            );
            ok = false;
        }
        let mut local_size = local.as_ref().map_or(Some([1; 3]), |a| a.value);
        if let (Some(l), Some(at)) = (local_size.as_mut(), local.as_ref()) {
            if let Some(d0) = (0..dimensions as usize).find(|&k| l[k] == 0) {
                self.error(
                    at.line,
                    format!(
                        "local_size is 0 in dimension {d0}, which is used (dimensions: \
                         {dimensions}); a work-group has at least one work-item per dimension"
                    ),
                );
                ok = false;
            }
        }
        // Entries past `dimensions` are never read by the enqueue; make them neutral.
        for k in dimensions as usize..3 {
            global_size[k] = 1;
            global_offset[k] = 0;
            if let Some(l) = local_size.as_mut() {
                l[k] = 1;
            }
        }

        let mut ins = t.ins;
        let mut outs = t.outs;
        let indices = t.mentioned;
        let mut args = Vec::with_capacity(indices.len());
        for (expected, &index) in indices.iter().enumerate() {
            if expected as u32 != index {
                let given: Vec<String> = indices.iter().map(u32::to_string).collect();
                self.error(
                    t.line,
                    format!(
                        "argument {expected} is missing (this test gives arguments {}); every \
                         kernel argument needs an `arg_in:` or `arg_out:` line",
                        given.join(", ")
                    ),
                );
                ok = false;
                break;
            }
            let arg_in = ins.remove(&index);
            let arg_out = outs.remove(&index);
            match self.merge_arg(index, arg_in, arg_out, tolerance) {
                Some(a) => args.push(a),
                None => ok = false,
            }
        }
        let (Some(kernel_name), true) = (kernel_name, ok) else {
            return None;
        };
        let name = t
            .name
            .unwrap_or_else(|| format!("{kernel_name} #{}", t.number));
        Some(TestCase {
            name,
            line: t.line,
            kernel_name,
            dimensions,
            global_size,
            local_size,
            global_offset,
            build_options: self.config.build_options.clone(),
            expect_test_fail,
            args,
            multi: None,
        })
    }

    fn merge_arg(
        &mut self,
        index: u32,
        arg_in: Option<ParsedArg>,
        arg_out: Option<ParsedArg>,
        default_tolerance: Tolerance,
    ) -> Option<Arg> {
        let expect = |line: u32, ty: ValueType, bytes: Vec<u8>, own: Option<Tolerance>| Expect {
            line,
            bytes,
            // A default tolerance is for float results; integers stay exact unless their own
            // line says otherwise.
            tolerance: own.unwrap_or(if ty.scalar.is_float() {
                default_tolerance
            } else {
                Tolerance::Exact
            }),
        };
        let (line, kind) = match (arg_in, arg_out) {
            (None, None) => return None,
            (Some(a), None) => (
                a.line,
                match a.kind {
                    ParsedKind::Value { ty, bytes } => ArgKind::Scalar { ty, bytes },
                    ParsedKind::Buffer { ty, len, bytes, .. } => ArgKind::Buffer {
                        ty,
                        len,
                        input: Some(bytes),
                        expect: None,
                    },
                    ParsedKind::Null { ty, len } => ArgKind::NullBuffer { ty, len },
                    ParsedKind::Local { ty, len } => ArgKind::Local { ty, len },
                },
            ),
            (None, Some(b)) => match b.kind {
                ParsedKind::Buffer {
                    ty,
                    len,
                    bytes,
                    tolerance,
                } => (
                    b.line,
                    ArgKind::Buffer {
                        ty,
                        len,
                        input: None,
                        expect: Some(expect(b.line, ty, bytes, tolerance)),
                    },
                ),
                // arg_out lines are decoded as buffers only.
                _ => return None,
            },
            (Some(a), Some(b)) => {
                let ParsedKind::Buffer { bytes: input, .. } = a.kind else {
                    self.error(
                        b.line,
                        format!(
                            "`{}` is a buffer but `{}` (line {}) is {}; an argument given by both \
                             arg_in and arg_out is one buffer",
                            b.head,
                            a.head,
                            a.line,
                            a.kind.describe()
                        ),
                    );
                    return None;
                };
                let ParsedKind::Buffer {
                    ty,
                    len,
                    bytes,
                    tolerance,
                } = b.kind
                else {
                    return None;
                };
                if input.len() != bytes.len() {
                    self.error(
                        b.line,
                        format!(
                            "`{}` is {} bytes but `{}` (line {}) is {} bytes; an in/out buffer \
                             has one size",
                            b.head,
                            bytes.len(),
                            a.head,
                            a.line,
                            input.len()
                        ),
                    );
                    return None;
                }
                (
                    a.line.min(b.line),
                    ArgKind::Buffer {
                        ty,
                        len,
                        input: Some(input),
                        expect: Some(expect(b.line, ty, bytes, tolerance)),
                    },
                )
            }
        };
        Some(Arg { index, line, kind })
    }
}
