//! The multi-kernel lines of a `[test]`: `launch:`, `pipe:`, `buffer:`, `arg:`, `expect:`.
//!
//! Lines are decoded as they are read (values into bytes); names (buffers, pipes, kernels of
//! `after` and `arg:`) are resolved when the test ends, since a line may name something declared
//! further down.

use super::super::types::ValueType;
use super::super::values::{clip, Values};
use super::super::{
    BufferDecl, BufferExpect, Expect, Launch, LaunchArg, LaunchArgValue, MultiTest, PipeDecl,
    TestCase, Tolerance,
};
use super::{is_identifier, parse_array_spec, parse_int_in, parse_tolerance, split_tolerance};
use super::{Parser, TestSection};
use std::collections::BTreeMap;

/// Keys of a multi-kernel test.
pub(super) const KEYS: &[&str] = &["launch", "pipe", "buffer", "arg", "expect"];

#[derive(Default)]
pub(super) struct Lines {
    launches: Vec<RawLaunch>,
    pipes: Vec<PipeDecl>,
    buffers: Vec<BufferDecl>,
    args: Vec<RawArg>,
    expects: Vec<RawExpect>,
    /// Line of the first multi-kernel line, once seen.
    pub(super) first: Option<u32>,
}

struct RawLaunch {
    line: u32,
    kernel: String,
    dimensions: u32,
    global: [u32; 3],
    local: Option<[u32; 3]>,
    offset: [u32; 3],
    after: Vec<String>,
}

struct RawArg {
    line: u32,
    kernel: String,
    index: u32,
    what: RawWhat,
}

enum RawWhat {
    Name(String),
    Value { ty: ValueType, bytes: Vec<u8> },
    Local { ty: ValueType, len: u32 },
}

struct RawExpect {
    line: u32,
    buffer: String,
    ty: ValueType,
    len: u32,
    bytes: Vec<u8>,
    unordered: bool,
    tolerance: Option<Tolerance>,
}

/// `64`, `64,8` or `4,4,4`: the sizes and how many were given.
fn parse_dims(what: &str, tok: &str) -> Result<([u32; 3], u32), String> {
    let parts: Vec<&str> = tok.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!(
            "{what} `{}`: give 1 to 3 sizes separated by commas, e.g. `64` or `16,16`",
            clip(tok)
        ));
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        *slot = parse_int_in(p, 0, u32::MAX as i128).ok_or_else(|| {
            format!(
                "{what} `{}`: `{}` is not a size from 0 to {}",
                clip(tok),
                clip(p),
                u32::MAX
            )
        })? as u32;
    }
    Ok((out, parts.len() as u32))
}

impl Parser<'_> {
    /// One multi-kernel line of test `i`.
    pub(super) fn multi_line(&mut self, i: usize, key: &str, value: &str, line: u32) {
        self.tests[i].multi.first.get_or_insert(line);
        let seed = 1000 * self.tests[i].number as u64 + line as u64;
        let r = match key {
            "launch" => self.launch_line(value, line).map(|l| {
                self.tests[i].multi.launches.push(l);
            }),
            "pipe" => pipe_line(value, line).map(|p| self.tests[i].multi.pipes.push(p)),
            "buffer" => self
                .buffer_line(value, line, seed)
                .map(|b| self.tests[i].multi.buffers.push(b)),
            "arg" => self
                .arg_line(value, line, seed)
                .map(|a| self.tests[i].multi.args.push(a)),
            _ => self
                .expect_line(value, line)
                .map(|e| self.tests[i].multi.expects.push(e)),
        };
        if let Err(e) = r {
            self.error(line, format!("`{key}: {}`: {e}", clip(value)));
        }
    }

    fn launch_line(&mut self, value: &str, line: u32) -> Result<RawLaunch, String> {
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let usage = "write `launch: <kernel> <global size> [<local size>] [offset <offset>] \
                     [after <kernel>]...`, sizes as `64` or `64,8`";
        let [kernel, global, rest @ ..] = &tokens[..] else {
            return Err(usage.to_string());
        };
        if !is_identifier(kernel) {
            return Err(format!("`{}` is not a kernel name; {usage}", clip(kernel)));
        }
        let (global, dimensions) = parse_dims("global size", global)?;
        let mut l = RawLaunch {
            line,
            kernel: kernel.to_string(),
            dimensions,
            global,
            local: None,
            offset: [0; 3],
            after: Vec::new(),
        };
        let mut k = 0;
        if let Some(tok) = rest.first().filter(|t| !matches!(**t, "after" | "offset")) {
            if *tok != "NULL" {
                let (local, n) = parse_dims("local size", tok)?;
                if n != dimensions {
                    return Err(format!(
                        "the local size `{tok}` has {n} dimension(s), the global size {dimensions}"
                    ));
                }
                if local[..n as usize].contains(&0) {
                    return Err(
                        "a local size of 0; a work-group has at least one work-item \
                                per dimension"
                            .to_string(),
                    );
                }
                l.local = Some(local);
            }
            k = 1;
        }
        while k < rest.len() {
            match (rest[k], rest.get(k + 1)) {
                ("after", Some(name)) => l.after.push(name.to_string()),
                ("offset", Some(o)) => {
                    let (off, n) = parse_dims("offset", o)?;
                    if n != dimensions {
                        return Err(format!(
                            "the offset `{o}` has {n} dimension(s), the global size {dimensions}"
                        ));
                    }
                    l.offset = off;
                    l.offset[n as usize..].fill(0);
                }
                (t, _) => return Err(format!("unexpected `{}`; {usage}", clip(t))),
            }
            k += 2;
        }
        Ok(l)
    }

    fn buffer_line(&mut self, value: &str, line: u32, seed: u64) -> Result<BufferDecl, String> {
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let [name, spec, values @ ..] = &tokens[..] else {
            return Err("write `buffer: <name> <type>[<count>] [<values>]`".to_string());
        };
        if !is_identifier(name) {
            return Err(format!("`{}` is not a name", clip(name)));
        }
        let (ty, len) = parse_array_spec(spec)?;
        let head = format!("buffer: {name} {spec}");
        let bytes = if values.is_empty() {
            super::super::values::check_size(ty, len, &head)?;
            None
        } else {
            let vals = Values::classify(values)?;
            if vals == Values::Null {
                return Err("a buffer of a multi-kernel test cannot be NULL".to_string());
            }
            Some(self.decode_values(ty, len, &vals, &head, seed)?)
        };
        Ok(BufferDecl {
            line,
            name: name.to_string(),
            ty,
            len,
            bytes,
        })
    }

    fn arg_line(&mut self, value: &str, line: u32, seed: u64) -> Result<RawArg, String> {
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let usage = "write `arg: <kernel> <index> <buffer or pipe name>`, `arg: <kernel> <index> \
                     <type> <value>` or `arg: <kernel> <index> local <type>[<count>]`";
        let [kernel, index, what, rest @ ..] = &tokens[..] else {
            return Err(usage.to_string());
        };
        let index = parse_int_in(index, 0, u32::MAX as i128)
            .filter(|_| index.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| format!("`{}` is not an argument index; {usage}", clip(index)))?
            as u32;
        let what = if *what == "local" {
            let [spec] = rest else {
                return Err(format!(
                    "local memory takes only `<type>[<count>]`; {usage}"
                ));
            };
            let (ty, len) = parse_array_spec(spec)?;
            super::super::values::check_size(ty, len, "local")?;
            RawWhat::Local { ty, len }
        } else if let Some(ty) = ValueType::parse(what) {
            let vals = Values::classify(rest)?;
            let head = format!("arg: {kernel} {index} {what}");
            RawWhat::Value {
                ty,
                bytes: self.decode_values(ty, 1, &vals, &head, seed)?,
            }
        } else if is_identifier(what) && rest.is_empty() {
            RawWhat::Name(what.to_string())
        } else {
            return Err(usage.to_string());
        };
        Ok(RawArg {
            line,
            kernel: kernel.to_string(),
            index,
            what,
        })
    }

    fn expect_line(&mut self, value: &str, line: u32) -> Result<RawExpect, String> {
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let [name, spec, rest @ ..] = &tokens[..] else {
            return Err(
                "write `expect: <buffer> <type>[<count>] [unordered] <values> [tolerance <x> \
                 [ulp]]`"
                    .to_string(),
            );
        };
        let (ty, len) = parse_array_spec(spec)?;
        let (unordered, rest) = match rest.split_first() {
            Some((&"unordered", r)) => (true, r),
            _ => (false, rest),
        };
        let (vals, tol) = split_tolerance(rest);
        let tolerance = match tol {
            Some(t) => Some(parse_tolerance(t, Some(ty.scalar))?),
            None => None,
        };
        let vals = Values::classify(vals)?;
        if matches!(vals, Values::Null | Values::Random(_)) {
            return Err("give the values the buffer must hold (not NULL or random)".to_string());
        }
        let head = format!("expect: {name} {spec}");
        let bytes = self.decode_values(ty, len, &vals, &head, 0)?;
        Ok(RawExpect {
            line,
            buffer: name.to_string(),
            ty,
            len,
            bytes,
            unordered,
            tolerance,
        })
    }

    /// Checks and resolves a multi-kernel test.
    pub(super) fn finish_multi(&mut self, t: TestSection) -> Option<TestCase> {
        let errors = self.errors.len();
        let first = t.multi.first.unwrap_or(t.line);
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
            super::pick(&t.launch.tolerance, &d.tolerance).map_or(Tolerance::Exact, |a| a.value);
        let expect_test_fail =
            super::pick(&t.launch.expect_test_fail, &d.expect_test_fail).is_some_and(|a| a.value);
        // names
        let mut names: BTreeMap<String, u32> = BTreeMap::new();
        for (n, l) in m
            .buffers
            .iter()
            .map(|b| (&b.name, b.line))
            .chain(m.pipes.iter().map(|p| (&p.name, p.line)))
        {
            if let Some(prev) = names.insert(n.clone(), l) {
                self.error(
                    l,
                    format!("`{n}` is already declared at line {prev}; give each buffer and pipe its own name"),
                );
            }
        }
        let mut kernels: BTreeMap<String, usize> = BTreeMap::new();
        for (i, l) in m.launches.iter().enumerate() {
            if let Some(&prev) = kernels.get(&l.kernel) {
                let pl = m.launches[prev].line;
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
        let mut launches: Vec<Launch> = Vec::new();
        for l in &m.launches {
            let mut after = Vec::new();
            for a in &l.after {
                match kernels.get(a) {
                    Some(&i) if m.launches[i].kernel != l.kernel => after.push(i),
                    Some(_) => self.error(l.line, format!("`{a}` cannot run after itself")),
                    None => self.error(
                        l.line,
                        format!("`after {a}`: no `launch:` line of this test runs `{a}`"),
                    ),
                }
            }
            launches.push(Launch {
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
        let mut per_kernel: BTreeMap<usize, BTreeMap<u32, LaunchArg>> = BTreeMap::new();
        for a in m.args {
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
                    if let Some(b) = m.buffers.iter().position(|b| b.name == n) {
                        LaunchArgValue::Buffer(b)
                    } else if let Some(p) = m.pipes.iter().position(|p| p.name == n) {
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
        let mut expects = Vec::new();
        for e in m.expects {
            let Some(b) = m.buffers.iter().position(|b| b.name == e.buffer) else {
                self.error(
                    e.line,
                    format!("`{}` is not a buffer of this test", e.buffer),
                );
                continue;
            };
            let bd = &m.buffers[b];
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
}

fn pipe_line(value: &str, line: u32) -> Result<PipeDecl, String> {
    let tokens: Vec<&str> = value.split_whitespace().collect();
    let [name, ty, max] = &tokens[..] else {
        return Err(
            "write `pipe: <name> <packet type> <max_packets>`, e.g. `pipe: p float 64`".to_string(),
        );
    };
    if !is_identifier(name) || !is_identifier(ty) {
        return Err("the pipe name and the packet type must be identifiers".to_string());
    }
    let max_packets = parse_int_in(max, 1, u32::MAX as i128)
        .ok_or_else(|| format!("max_packets `{}` must be a number from 1", clip(max)))?
        as u32;
    Ok(PipeDecl {
        line,
        name: name.to_string(),
        packet_type: ty.to_string(),
        packet_value_type: ValueType::parse(ty),
        max_packets,
    })
}
