//! The multi-kernel lines of a `[test]`: `launch:`, `pipe:`, `buffer:`, `arg:`, `expect:`.
//!
//! Lines are decoded as they are read (values into bytes); names (buffers, pipes, kernels of
//! `after` and `arg:`) are resolved when the test ends, since a line may name something declared
//! further down (`resolve`).

mod resolve;

use super::super::types::ValueType;
use super::super::values::{clip, Values};
use super::super::{BufferDecl, PipeDecl, Tolerance};
use super::tokens::{
    is_identifier, parse_array_spec, parse_int_in, parse_tolerance, split_tolerance,
};
use super::Parser;

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
