//! The `printf` built-in: reads the format string from memory, formats every argument with
//! [`crate::printf`] and appends the text to the run's output.

use crate::interp::{Item, R};
use crate::value::Val;
use frontend::ast::{Expr, ScalarKind};

impl Item<'_> {
    /// A NUL-terminated string in memory (at most 64 KiB).
    fn c_string(&mut self, addr: u32, span: frontend::span::Span) -> R<String> {
        let mut bytes = Vec::new();
        for i in 0..65_536u32 {
            let b = self.access(addr.wrapping_add(i), 1, 1, span, None)?[0];
            if b == 0 {
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            bytes.push(b);
        }
        Err(self.err(
            span,
            "a string of more than 64 KiB without its terminating NUL",
        ))
    }

    pub(super) fn printf(&mut self, args: &[Expr], e: &Expr) -> R<Val> {
        use crate::printf::{format_lane, format_str, parse, Piece};
        let span = e.span;
        let addr = self.eval(&args[0])?.first() as u32;
        let fmt = self.c_string(addr, args[0].span)?;
        let pieces = parse(&fmt).map_err(|m| self.err(args[0].span, format!("printf: {m}")))?;
        let mut out = String::new();
        let mut next = 1;
        for p in pieces {
            let s = match p {
                Piece::Text(t) => {
                    out.push_str(&t);
                    continue;
                }
                Piece::Conv(s) => s,
            };
            let Some(a) = args.get(next) else {
                return Err(self.err(
                    span,
                    "printf: the format has more conversions than arguments",
                ));
            };
            next += 1;
            if s.conv == 's' {
                let ptr = self.eval(a)?.first() as u32;
                let text = self.c_string(ptr, a.span)?;
                out.push_str(&format_str(&s, &text));
                continue;
            }
            let Val::Lanes(k, lanes) = self.eval(a)? else {
                return Err(self.err(a.span, "printf: this argument is not a scalar or a vector"));
            };
            match s.vector {
                Some(n) if n == lanes.len() => {
                    let parts: Vec<String> = lanes.iter().map(|&l| format_lane(&s, k, l)).collect();
                    out.push_str(&parts.join(","));
                }
                None if lanes.len() == 1 => out.push_str(&format_lane(&s, k, lanes[0])),
                _ => {
                    return Err(self.err(
                        a.span,
                        format!(
                            "printf: a {}-lane argument for a conversion of {} lanes (vectors need `%vN`)",
                            lanes.len(),
                            s.vector.unwrap_or(1)
                        ),
                    ))
                }
            }
        }
        if next < args.len() {
            return Err(self.err(span, "printf: more arguments than the format's conversions"));
        }
        self.lock().printf.push_str(&out);
        Ok(Val::scalar(ScalarKind::Int, 0))
    }
}
