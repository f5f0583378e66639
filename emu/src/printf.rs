//! `printf` (OpenCL C 6.15.14): the format string is a string literal in constant memory;
//! conversions `d i o u x X c s f F e E g G p %` with flags `- + space # 0`, width, precision,
//! length modifiers `hh h l` and the vector specifier `vN` (lanes joined by commas). Output
//! goes to the run's printf buffer, shown by `oclhls emu`. `%a` is reported as unsupported.

use frontend::ast::ScalarKind;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: Option<usize>,
    pub prec: Option<usize>,
    pub vector: Option<usize>,
    pub conv: char,
}

/// A piece of a parsed format: text, or a conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Conv(Spec),
}

pub fn parse(fmt: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut it = fmt.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if it.peek() == Some(&'%') {
            it.next();
            text.push('%');
            continue;
        }
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        let mut s = Spec::default();
        while let Some(&f) = it.peek() {
            match f {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '#' => s.alt = true,
                '0' => s.zero = true,
                _ => break,
            }
            it.next();
        }
        let num = |it: &mut std::iter::Peekable<std::str::Chars>| {
            let mut n: Option<usize> = None;
            while let Some(d) = it.peek().and_then(|c| c.to_digit(10)) {
                n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
                it.next();
            }
            n
        };
        s.width = num(&mut it);
        if it.peek() == Some(&'.') {
            it.next();
            s.prec = Some(num(&mut it).unwrap_or(0));
        }
        if it.peek() == Some(&'v') {
            it.next();
            let n = num(&mut it).ok_or("`%v` needs a lane count (2, 3, 4, 8 or 16)")?;
            if ![2, 3, 4, 8, 16].contains(&n) {
                return Err(format!("`%v{n}`: vectors have 2, 3, 4, 8 or 16 lanes"));
            }
            s.vector = Some(n);
        }
        // Length modifiers: the value's own type decides the width here.
        while let Some(&m) = it.peek() {
            if m == 'h' || m == 'l' {
                it.next();
            } else {
                break;
            }
        }
        let Some(conv) = it.next() else {
            return Err("the format ends inside a conversion".into());
        };
        if !"diouxXcsfFeEgGp".contains(conv) {
            return Err(format!("unsupported conversion `%{conv}`"));
        }
        s.conv = conv;
        out.push(Piece::Conv(s));
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

fn pad(s: &Spec, body: String, sign: &str, numeric: bool) -> String {
    let len = sign.len() + body.chars().count();
    let w = s.width.unwrap_or(0);
    if len >= w {
        return format!("{sign}{body}");
    }
    let fill = w - len;
    if s.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if s.zero && numeric && !(s.prec.is_some() && "diouxX".contains(s.conv)) {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

fn sign_of(s: &Spec, neg: bool) -> &'static str {
    if neg {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// `%e`-style text of `v` with `prec` digits: C writes at least two exponent digits.
fn exp_form(v: f64, prec: usize, upper: bool) -> String {
    let t = format!("{:.*e}", prec, v);
    let (m, e) = t.split_once('e').expect("`{:e}` has an exponent");
    let e: i32 = e.parse().expect("an integer exponent");
    let s = format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

fn strip_zeros(s: String) -> String {
    if let Some((m, e)) = s.split_once(['e', 'E']) {
        let sep = if s.contains('E') { 'E' } else { 'e' };
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        format!("{m}{sep}{e}")
    } else if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn float(s: &Spec, v: f64) -> String {
    let upper = s.conv.is_ascii_uppercase();
    if !v.is_finite() {
        let t = if v.is_nan() { "nan" } else { "inf" };
        let t = if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
        return pad(s, t, sign_of(s, v.is_sign_negative() && !v.is_nan()), false);
    }
    let neg = v.is_sign_negative();
    let a = v.abs();
    let prec = s.prec.unwrap_or(6);
    let body = match s.conv {
        'f' | 'F' => format!("{:.*}", prec, a),
        'e' | 'E' => exp_form(a, prec, upper),
        _ => {
            let p = if prec == 0 { 1 } else { prec };
            let x = if a == 0.0 {
                0
            } else {
                let e = exp_form(a, p - 1, false);
                e.split_once('e').unwrap().1.parse::<i32>().unwrap()
            };
            let t = if x < -4 || x >= p as i32 {
                exp_form(a, p - 1, upper)
            } else {
                format!("{:.*}", (p as i32 - 1 - x).max(0) as usize, a)
            };
            if s.alt {
                t
            } else {
                strip_zeros(t)
            }
        }
    };
    pad(s, body, sign_of(s, neg), true)
}

/// One lane of kind `k` (its bits) as conversion `s`.
pub fn format_lane(s: &Spec, k: ScalarKind, bits: u64) -> String {
    match s.conv {
        'd' | 'i' => {
            let v = k.as_i64(bits);
            let mut body = v.unsigned_abs().to_string();
            if let Some(p) = s.prec {
                if p == 0 && v == 0 {
                    body.clear();
                }
                while body.len() < p {
                    body.insert(0, '0');
                }
            }
            pad(s, body, sign_of(s, v < 0), true)
        }
        'o' | 'u' | 'x' | 'X' | 'p' => {
            let v = k.truncate(bits);
            let mut body = match s.conv {
                'o' => format!("{v:o}"),
                'u' => v.to_string(),
                'X' => format!("{v:X}"),
                _ => format!("{v:x}"),
            };
            if let Some(p) = s.prec {
                if p == 0 && v == 0 {
                    body.clear();
                }
                while body.len() < p {
                    body.insert(0, '0');
                }
            }
            let prefix = match s.conv {
                'p' => "0x",
                'x' if s.alt && v != 0 => "0x",
                'X' if s.alt && v != 0 => "0X",
                'o' if s.alt && !body.starts_with('0') => "0",
                _ => "",
            };
            pad(s, format!("{prefix}{body}"), "", true)
        }
        'c' => pad(s, ((bits & 0xff) as u8 as char).to_string(), "", false),
        _ => {
            let v = match k {
                ScalarKind::Double => f64::from_bits(bits),
                ScalarKind::Float => f32::from_bits(bits as u32) as f64,
                ScalarKind::Half => half_to_f64(bits as u16),
                _ => k.as_i64(bits) as f64,
            };
            float(s, v)
        }
    }
}

/// A string argument (`%s`).
pub fn format_str(s: &Spec, text: &str) -> String {
    let t: String = match s.prec {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    };
    pad(s, t, "", false)
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}
