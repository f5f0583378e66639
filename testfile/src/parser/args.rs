//! `arg_in:` and `arg_out:` lines: decoded into bytes as soon as they are read (each carries
//! its own type), against the per-file allocation budget (`MAX_FILE_BYTES`).

use super::super::types::ValueType;
use super::super::values::{self, clip, Values};
use super::super::Tolerance;
use super::suggest::suggest_type;
use super::tokens::{parse_array_spec, parse_tolerance, split_tolerance};
use super::Parser;

/// Largest total of argument bytes one file may ask for (each argument is also limited to
/// [`values::MAX_BUFFER_BYTES`]).
pub(super) const MAX_FILE_BYTES: u64 = 256 << 20;

/// One `arg_in:`/`arg_out:` line, decoded.
pub(super) struct ParsedArg {
    pub(super) line: u32,
    /// `arg_in: 1 buffer int[4]`, for messages.
    pub(super) head: String,
    pub(super) kind: ParsedKind,
}

/// What an `arg_in:`/`arg_out:` line passes, before the two lines of one index are merged.
pub(super) enum ParsedKind {
    Value {
        ty: ValueType,
        bytes: Vec<u8>,
    },
    Buffer {
        ty: ValueType,
        len: u32,
        bytes: Vec<u8>,
        tolerance: Option<Tolerance>,
    },
    Null {
        ty: ValueType,
        len: u32,
    },
    Local {
        ty: ValueType,
        len: u32,
    },
}

impl ParsedKind {
    pub(super) fn describe(&self) -> &'static str {
        match self {
            ParsedKind::Value { .. } => "a by-value argument",
            ParsedKind::Buffer { .. } => "a buffer",
            ParsedKind::Null { .. } => "a NULL buffer",
            ParsedKind::Local { .. } => "local memory",
        }
    }
}

impl Parser<'_> {
    /// `arg_in:` / `arg_out:` in test `i`.
    pub(super) fn arg(&mut self, i: usize, input: bool, value: &str, line: u32) {
        let key = if input { "arg_in" } else { "arg_out" };
        if let Some(index) = value
            .split_whitespace()
            .next()
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
        {
            self.tests[i].mentioned.insert(index);
        }
        match self.decode_arg(i, key, input, value, line) {
            Ok((index, arg)) => {
                let t = &mut self.tests[i];
                let map = if input { &mut t.ins } else { &mut t.outs };
                if let Some(first) = map.get(&index) {
                    let first = first.line;
                    self.error(
                        line,
                        format!(
                            "`{key}` for argument {index} is already given at line {first}; each \
                             argument has at most one arg_in and one arg_out line"
                        ),
                    );
                } else {
                    map.insert(index, arg);
                }
            }
            Err(e) => self.error(line, e),
        }
    }

    /// One `arg_in:`/`arg_out:` value: `<index> buffer|local <type>[<count>] ...` or
    /// `<index> <type> <values>`.
    fn decode_arg(
        &mut self,
        i: usize,
        key: &str,
        input: bool,
        value: &str,
        line: u32,
    ) -> Result<(u32, ParsedArg), String> {
        let shown = clip(value);
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let (&index_tok, rest) = tokens
            .split_first()
            .ok_or_else(|| format!("`{key}:` has no value"))?;
        let index = if index_tok.bytes().all(|b| b.is_ascii_digit()) {
            index_tok.parse::<u32>().ok()
        } else {
            None
        }
        .ok_or_else(|| {
            format!(
                "`{key}: {shown}`: the argument index `{index_tok}` must be a number from 0 (the \
                 kernel's first argument)"
            )
        })?;
        let Some((&what, rest)) = rest.split_first() else {
            return Err(format!(
                "`{key}: {index}` needs a type and values, e.g. `{key}: {index} buffer int[4] 1 2 \
                 3 4` or `{key}: {index} int 5`"
            ));
        };
        // `random` without a seed draws from a seed fixed by the position of the argument, so
        // values do not change from run to run (documented in test-format.md).
        let default_seed = 1000 * self.tests[i].number as u64 + index as u64;
        let kind = match what {
            "buffer" | "local" => {
                let Some((&spec, values)) = rest.split_first() else {
                    return Err(format!(
                        "`{key}: {index} {what}` needs `<type>[<count>]`, e.g. `{key}: {index} \
                         {what} float[16]`"
                    ));
                };
                let (ty, len) = parse_array_spec(spec)?;
                let head = format!("{key}: {index} {what} {spec}");
                values::check_size(ty, len, &head)?;
                if what == "local" {
                    let kind = local_arg(input, index, spec, &head, values, ty, len)?;
                    return Ok((index, ParsedArg { line, head, kind }));
                }
                let buffer = BufferLine {
                    input,
                    ty,
                    len,
                    head: &head,
                };
                self.decode_buffer_arg(buffer, values, default_seed)?
            }
            "image" | "sampler" => {
                return Err(format!(
                    "`{key}: {index} {what}`: {what} arguments are not supported (the device has \
                     no images); pass the data in a buffer"
                ))
            }
            type_name => {
                let Some(ty) = ValueType::parse(type_name) else {
                    return Err(format!(
                        "unknown type `{type_name}` in `{key}: {shown}`{}; expected `buffer \
                         <type>[<count>]`, `local <type>[<count>]`, or a by-value type such as \
                         int, uint4 or float",
                        suggest_type(type_name)
                    ));
                };
                if !input {
                    return Err(format!(
                        "`arg_out: {index} {type_name}`: arg_out takes only buffers, e.g. \
                         `arg_out: {index} buffer {type_name}[1] <values>`"
                    ));
                }
                let head = format!("{key}: {index} {type_name}");
                self.decode_value_arg(ty, &head, rest, default_seed)?
            }
        };
        let head = match &kind {
            ParsedKind::Value { ty, .. } => format!("{key}: {index} {ty}"),
            ParsedKind::Buffer { ty, len, .. } | ParsedKind::Null { ty, len } => {
                format!("{key}: {index} buffer {ty}[{len}]")
            }
            ParsedKind::Local { ty, len } => format!("{key}: {index} local {ty}[{len}]"),
        };
        Ok((index, ParsedArg { line, head, kind }))
    }

    /// The values (and an `arg_out`'s tolerance) of a `buffer <type>[<count>]` argument.
    fn decode_buffer_arg(
        &mut self,
        b: BufferLine<'_>,
        values: &[&str],
        default_seed: u64,
    ) -> Result<ParsedKind, String> {
        let BufferLine {
            input,
            ty,
            len,
            head,
        } = b;
        let (value_tokens, tolerance) = split_tolerance(values);
        let tolerance = match tolerance {
            Some(_) if input => {
                return Err(format!(
                    "{head}: a tolerance belongs on the arg_out line of the buffer"
                ))
            }
            Some(t) => {
                Some(parse_tolerance(t, Some(ty.scalar)).map_err(|e| format!("{head}: {e}"))?)
            }
            None => None,
        };
        let vals = Values::classify(value_tokens).map_err(|e| format!("{head}: {e}"))?;
        Ok(match vals {
            Values::Null if input => ParsedKind::Null { ty, len },
            Values::Null => {
                return Err(format!(
                    "{head}: an arg_out buffer cannot be NULL; give the values the \
                     kernel must produce"
                ))
            }
            Values::Random(_) if !input => {
                return Err(format!(
                    "{head}: an arg_out buffer cannot be random; give the values the \
                     kernel must produce"
                ))
            }
            _ => {
                let bytes = self.decode_values(ty, len, &vals, head, default_seed)?;
                ParsedKind::Buffer {
                    ty,
                    len,
                    bytes,
                    tolerance,
                }
            }
        })
    }

    /// The values of a by-value `arg_in: <index> <type> <values>` (or piglit's `<type> NULL`).
    fn decode_value_arg(
        &mut self,
        ty: ValueType,
        head: &str,
        rest: &[&str],
        default_seed: u64,
    ) -> Result<ParsedKind, String> {
        let (value_tokens, tolerance) = split_tolerance(rest);
        if tolerance.is_some() {
            return Err(format!(
                "{head}: a tolerance belongs on an arg_out buffer line"
            ));
        }
        let vals = Values::classify(value_tokens).map_err(|e| format!("{head}: {e}"))?;
        Ok(match vals {
            // piglit sets the argument to NULL with the type's size: local memory.
            Values::Null => ParsedKind::Local { ty, len: 1 },
            _ => ParsedKind::Value {
                ty,
                bytes: self.decode_values(ty, 1, &vals, head, default_seed)?,
            },
        })
    }

    /// Decodes `vals` into the bytes of `len` elements of `ty`, charged to the file's budget.
    pub(super) fn decode_values(
        &mut self,
        ty: ValueType,
        len: u32,
        vals: &Values<'_>,
        head: &str,
        default_seed: u64,
    ) -> Result<Vec<u8>, String> {
        let bytes = values::check_size(ty, len, head)?;
        if self.allocated + bytes > MAX_FILE_BYTES {
            return Err(format!(
                "{head}: the arguments of this file would need more than {} MiB; make the \
                 buffers smaller",
                MAX_FILE_BYTES >> 20
            ));
        }
        let out = values::fill(ty, len, vals, head, default_seed)?;
        self.allocated += bytes;
        Ok(out)
    }
}

/// A `buffer <type>[<count>]` argument line being decoded.
struct BufferLine<'h> {
    input: bool,
    ty: ValueType,
    len: u32,
    /// `arg_in: 1 buffer int[4]`, for messages.
    head: &'h str,
}

/// `arg_in: <index> local <type>[<count>]`: only an input, and without values.
fn local_arg(
    input: bool,
    index: u32,
    spec: &str,
    head: &str,
    values: &[&str],
    ty: ValueType,
    len: u32,
) -> Result<ParsedKind, String> {
    if !input {
        return Err(format!(
            "{head}: local memory cannot be an arg_out (the host cannot read \
             it); use `arg_in: {index} local {spec}`"
        ));
    }
    if !values.is_empty() {
        return Err(format!(
            "{head} takes no values: local memory starts undefined; found `{}`",
            clip(&values.join(" "))
        ));
    }
    Ok(ParsedKind::Local { ty, len })
}
