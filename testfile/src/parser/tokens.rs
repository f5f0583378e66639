//! Values of single tokens and short values: `key: value` splitting, names, booleans, versions,
//! integers in a range, the three sizes of `global_size:`, `<type>[<count>]` and tolerances.

use super::super::types::{ScalarType, ValueType};
use super::super::values::{self, clip};
use super::super::Tolerance;
use super::suggest::suggest_type;

/// Splits `key: value` (key of letters, digits and `_`). The value may be empty.
pub(super) fn split_key_value(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once(':')?;
    let key = key.trim();
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    Some((key, value.trim()))
}

pub(super) fn words(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_string).collect()
}

pub(super) fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// piglit rejects `/` and `%` in names: it uses them in result paths and printf formats.
pub(super) fn check_name(name: &str) -> Result<(), String> {
    match name.chars().find(|c| matches!(c, '/' | '%')) {
        Some(c) => Err(format!(
            "test name `{name}` contains `{c}`; names may not contain `/` or `%`"
        )),
        None => Ok(()),
    }
}

pub(super) fn parse_bool(key: &str, value: &str) -> Result<bool, String> {
    let shown = clip(value);
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("`{key}: {shown}`: give true or false (or 1 or 0)")),
    }
}

pub(super) fn parse_version(key: &str, value: &str) -> Result<u32, String> {
    let shown = clip(value);
    parse_int_in(value, 0, u32::MAX as i128)
        .map(|v| v as u32)
        .ok_or_else(|| {
            format!("`{key}: {shown}`: give the OpenCL C version times 10, e.g. 12 for 1.2")
        })
}

pub(super) fn parse_int_in(tok: &str, lo: i128, hi: i128) -> Option<i128> {
    values::parse_int(tok)
        .ok()
        .filter(|v| (lo..=hi).contains(v))
}

/// Three sizes, one per dimension, as piglit requires.
pub(super) fn parse_sizes(key: &str, value: &str) -> Result<[u32; 3], String> {
    let shown = clip(value);
    let tokens: Vec<&str> = value.split_whitespace().collect();
    let [a, b, c] = tokens[..] else {
        return Err(format!(
            "`{key}: {shown}`: give 3 numbers, one per dimension, e.g. `{key}: 64 1 1`; entries \
             past `dimensions` are ignored"
        ));
    };
    let mut out = [0u32; 3];
    for (slot, tok) in out.iter_mut().zip([a, b, c]) {
        *slot = parse_int_in(tok, 0, u32::MAX as i128).ok_or_else(|| {
            format!(
                "`{key}: {shown}`: `{}` is not a size from 0 to {} (size_t is 32 bits on \
                     this device)",
                clip(tok),
                u32::MAX
            )
        })? as u32;
    }
    Ok(out)
}

/// `int4[16]` → (int4, 16).
pub(super) fn parse_array_spec(spec: &str) -> Result<(ValueType, u32), String> {
    let shape_error =
        || format!("expected `<type>[<count>]` such as `float[16]` or `int4[2]`, found `{spec}`");
    let (type_name, count) = spec
        .strip_suffix(']')
        .and_then(|s| s.split_once('['))
        .ok_or_else(shape_error)?;
    let ty = ValueType::parse(type_name).ok_or_else(|| {
        format!(
            "unknown type `{type_name}` in `{spec}`{}; expected an OpenCL type such as int, \
             uchar16 or float4",
            suggest_type(type_name)
        )
    })?;
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(shape_error());
    }
    let len = count
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= u32::MAX as u64)
        .ok_or_else(|| format!("`{spec}`: the count {count} is too large"))?;
    if len == 0 {
        return Err(format!("`{spec}`: a buffer holds at least 1 element"));
    }
    Ok((ty, len as u32))
}

/// Splits `values... tolerance <x> [ulp]` at the `tolerance` word.
pub(super) fn split_tolerance<'a, 'b>(
    tokens: &'b [&'a str],
) -> (&'b [&'a str], Option<&'b [&'a str]>) {
    match tokens.iter().position(|t| *t == "tolerance") {
        Some(i) => (&tokens[..i], Some(&tokens[i + 1..])),
        None => (tokens, None),
    }
}

/// `<x>` or `<x> ulp`. `scalar` is the buffer's type (`None` for the `tolerance:` key, which
/// applies to float outputs only).
pub(super) fn parse_tolerance(
    tokens: &[&str],
    scalar: Option<ScalarType>,
) -> Result<Tolerance, String> {
    let is_int = scalar.is_some_and(|s| !s.is_float());
    match tokens {
        [x, "ulp"] => {
            if is_int {
                return Err(format!(
                    "`tolerance {x} ulp` is for float types; for integers write `tolerance <n>` \
                     (the largest allowed difference)"
                ));
            }
            parse_int_in(x, 0, u64::MAX as i128)
                .map(|n| Tolerance::Ulp(n as u64))
                .ok_or_else(|| format!("`tolerance {x} ulp`: give a whole number of ulps"))
        }
        [x] if is_int => parse_int_in(x, 0, u64::MAX as i128)
            .map(|n| Tolerance::Abs(n as f64))
            .ok_or_else(|| {
                format!("`tolerance {x}`: give the largest allowed difference, a whole number >= 0")
            }),
        [x] => match values::parse_float(x) {
            Ok(v) if v >= 0.0 => Ok(Tolerance::Abs(v)),
            _ => Err(format!(
                "`tolerance {x}`: give the largest allowed difference, a number >= 0, or \
                 `tolerance <n> ulp`"
            )),
        },
        _ => Err(format!(
            "cannot read `tolerance {}`; write `tolerance <x>` or `tolerance <n> ulp` after the \
             values",
            clip(&tokens.join(" "))
        )),
    }
}
