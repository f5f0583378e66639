//! Numeric, character and string literal parsing (C99 6.4.4 with OpenCL types).

use crate::types::ScalarKind;

/// Parses an integer literal and types it per C99 6.4.4.1 with OpenCL sizes (`int` 32,
/// `long` 64 bits): decimal without suffix -> int, long; octal/hex -> int, uint, long, ulong;
/// `u` -> uint, ulong; `l` -> long (ulong for octal/hex); `ul` -> ulong.
pub fn parse_int(s: &str) -> Result<(u64, ScalarKind), String> {
    let lower = s.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b, 2)
    } else if lower.starts_with('0') && lower.len() > 1 {
        (&lower[1..], 8)
    } else {
        (&lower[..], 10)
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (num, suffix) = digits.split_at(end);
    if num.is_empty() && radix != 8 {
        return Err(format!("invalid integer literal `{}`", s));
    }
    let (unsigned, long) = match suffix {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "lu" | "ull" | "llu" => (true, true),
        _ => {
            if suffix.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                return Err(format!("invalid digit in octal literal `{}`", s));
            }
            return Err(format!(
                "invalid suffix `{}` on integer literal `{}`",
                &s[s.len() - suffix.len()..],
                s
            ));
        }
    };
    let v = if num.is_empty() {
        0
    } else {
        u64::from_str_radix(num, radix)
            .map_err(|_| format!("integer literal `{}` is too large for any integer type", s))?
    };
    let decimal = radix == 10;
    let fits = |k: ScalarKind| -> bool {
        match k {
            ScalarKind::Int => v <= i32::MAX as u64,
            ScalarKind::UInt => v <= u32::MAX as u64,
            ScalarKind::Long => v <= i64::MAX as u64,
            _ => true,
        }
    };
    let candidates: &[ScalarKind] = match (unsigned, long, decimal) {
        (false, false, true) => &[ScalarKind::Int, ScalarKind::Long, ScalarKind::ULong],
        (false, false, false) => &[
            ScalarKind::Int,
            ScalarKind::UInt,
            ScalarKind::Long,
            ScalarKind::ULong,
        ],
        (true, false, _) => &[ScalarKind::UInt, ScalarKind::ULong],
        (false, true, true) => &[ScalarKind::Long, ScalarKind::ULong],
        (false, true, false) => &[ScalarKind::Long, ScalarKind::ULong],
        (true, true, _) => &[ScalarKind::ULong],
    };
    let k = candidates
        .iter()
        .copied()
        .find(|k| fits(*k))
        .unwrap_or(ScalarKind::ULong);
    Ok((v, k))
}

/// Suffix of a floating literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    H,
}

/// Parses a decimal or hexadecimal floating literal.
pub fn parse_float(s: &str) -> Result<(f64, FloatSuffix), String> {
    let lower = s.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    // In a hex literal `f` is a digit unless the binary exponent has already started.
    let f_suffix = lower.ends_with('f') && (!is_hex || lower.contains('p'));
    let (body, suffix) = if f_suffix {
        (&lower[..lower.len() - 1], FloatSuffix::F)
    } else if lower.ends_with('h') {
        (&lower[..lower.len() - 1], FloatSuffix::H)
    } else {
        (&lower[..], FloatSuffix::None)
    };
    let v = if let Some(h) = body.strip_prefix("0x") {
        parse_hex_float(h).ok_or_else(|| format!("invalid hexadecimal floating literal `{}`", s))?
    } else {
        if body.is_empty()
            || !body
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
        {
            return Err(format!("invalid floating literal `{}`", s));
        }
        body.parse::<f64>()
            .map_err(|_| format!("invalid floating literal `{}`", s))?
    };
    Ok((v, suffix))
}

fn parse_hex_float(h: &str) -> Option<f64> {
    let (mant, exp) = match h.find('p') {
        Some(i) => (&h[..i], h[i + 1..].parse::<i32>().ok()?),
        None => return None,
    };
    let (int, frac) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int.chars() {
        v = v * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        v += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

/// Whether a pp-number is a floating literal (as opposed to an integer).
pub fn is_float_literal(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    if lower.starts_with("0x") {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}

/// Decodes escapes of a character or string literal body; returns the bytes.
fn unescape(body: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            return Err("incomplete escape sequence".into());
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                if v > 255 {
                    return Err("octal escape sequence out of range".into());
                }
                v as u8
            }
            b'x' => {
                let start = i;
                let mut v = 0u32;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.saturating_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                if i == start {
                    return Err("`\\x` used with no following hex digits".into());
                }
                if v > 255 {
                    return Err("hex escape sequence out of range".into());
                }
                v as u8
            }
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            _ => return Err(format!("unknown escape sequence `\\{}`", c as char)),
        };
        out.push(v);
    }
    Ok(out)
}

/// `'a'` -> 97 (type int in C; a plain char is signed, so `'\xff'` is -1).
pub fn parse_char(s: &str) -> Result<u64, String> {
    let body = s
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or("invalid character literal")?;
    let bytes = unescape(body)?;
    match bytes.as_slice() {
        [] => Err("empty character literal".into()),
        [c] => Ok(*c as i8 as i64 as u64),
        _ => Err("multi-character character literals are not supported".into()),
    }
}

/// `"abc"` -> "abc".
pub fn parse_string(s: &str) -> Result<String, String> {
    let body = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or("invalid string literal")?;
    Ok(String::from_utf8_lossy(&unescape(body)?).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(parse_int("1").unwrap(), (1, ScalarKind::Int));
        assert_eq!(parse_int("1u").unwrap(), (1, ScalarKind::UInt));
        assert_eq!(
            parse_int("0xffffffff").unwrap(),
            (0xffffffff, ScalarKind::UInt)
        );
        assert_eq!(
            parse_int("4294967295").unwrap(),
            (4294967295, ScalarKind::Long)
        );
        assert_eq!(parse_int("1ul").unwrap(), (1, ScalarKind::ULong));
        assert_eq!(parse_int("010").unwrap(), (8, ScalarKind::Int));
        assert_eq!(parse_int("0").unwrap(), (0, ScalarKind::Int));
        assert!(parse_int("1x").is_err());
        assert!(parse_int("99999999999999999999999").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1.5f").unwrap(), (1.5, FloatSuffix::F));
        assert_eq!(parse_float("1e3").unwrap(), (1000.0, FloatSuffix::None));
        assert_eq!(parse_float("0x1.8p1").unwrap(), (3.0, FloatSuffix::None));
        assert_eq!(parse_float("0x1.0p-126f").unwrap().1, FloatSuffix::F);
        assert!(is_float_literal("1.0"));
        assert!(is_float_literal("1e5"));
        assert!(!is_float_literal("0x1f"));
    }

    #[test]
    fn chars() {
        assert_eq!(parse_char("'a'").unwrap(), 97);
        assert_eq!(parse_char("'\\n'").unwrap(), 10);
        assert_eq!(parse_char("'\\xff'").unwrap() as i64, -1);
    }
}
