//! Diagnostics: built with [`Diagnostic::error`] / [`Diagnostic::warning`], collected, then
//! rendered with codespan-reporting by [`render`].

use crate::span::{SourceMap, Span};
use codespan_reporting::diagnostic as cd;
use codespan_reporting::term;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// One message about the source. The first label is the primary one; its span is where the
/// problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            labels: vec![(span, String::new())],
            notes: Vec::new(),
        }
    }

    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, span, message)
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, span, message)
    }

    pub fn note_diag(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Note, span, message)
    }

    /// Adds a label. A label on the primary span replaces the primary span's (empty) text.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        let text = text.into();
        if let Some(first) = self.labels.first_mut() {
            if first.0 == span && first.1.is_empty() {
                first.1 = text;
                return self;
            }
        }
        self.labels.push((span, text));
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The primary span.
    pub fn span(&self) -> Span {
        self.labels.first().map(|l| l.0).unwrap_or_default()
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Renders diagnostics as text: `error: message`, `--> file:line:col`, the source line, labels.
pub fn render(sm: &SourceMap, diags: &[Diagnostic], color: bool) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for d in diags {
        if let Some(text) = render_clipped(sm, d) {
            out.push_str(&text);
            continue;
        }
        let sev = match d.severity {
            Severity::Error => cd::Severity::Error,
            Severity::Warning => cd::Severity::Warning,
            Severity::Note => cd::Severity::Note,
        };
        let labels = d
            .labels
            .iter()
            .enumerate()
            .filter(|(_, (s, _))| (s.file.0 as usize) < sm.len())
            .map(|(i, (s, t))| {
                let range = clamp_range(sm, *s);
                if i == 0 {
                    cd::Label::primary(s.file, range).with_message(t.clone())
                } else {
                    cd::Label::secondary(s.file, range).with_message(t.clone())
                }
            })
            .collect();
        let cdiag = cd::Diagnostic::new(sev)
            .with_message(d.message.clone())
            .with_labels(labels)
            .with_notes(d.notes.clone());
        let rendered = if color {
            let mut buf = term::termcolor::Buffer::ansi();
            let _ = term::emit(&mut buf, &config, sm, &cdiag);
            String::from_utf8_lossy(buf.as_slice()).into_owned()
        } else {
            let mut buf = term::termcolor::Buffer::no_color();
            let _ = term::emit(&mut buf, &config, sm, &cdiag);
            String::from_utf8_lossy(buf.as_slice()).into_owned()
        };
        out.push_str(&rendered);
    }
    out
}

/// A range that codespan accepts: inside the text and on char boundaries.
fn clamp_range(sm: &SourceMap, s: Span) -> std::ops::Range<usize> {
    let text = sm.text(s.file);
    let mut a = (s.start as usize).min(text.len());
    let mut b = (s.end as usize).min(text.len()).max(a);
    while a > 0 && !text.is_char_boundary(a) {
        a -= 1;
    }
    while b < text.len() && !text.is_char_boundary(b) {
        b += 1;
    }
    a..b
}

/// Source lines longer than this are shown clipped around the label's span (codespan shows
/// shorter ones whole).
const MAX_LINE: usize = 400;

/// Bytes of a clipped line shown around the span.
const WINDOW: usize = 160;

/// A diagnostic whose labels sit on source lines longer than [`MAX_LINE`] bytes, in the layout
/// codespan gives the others but with each line cut to a window around its label (`…` marks
/// the cuts), so rendering costs the same whatever the line's length. `None` when every
/// label's line is short (codespan renders it).
fn render_clipped(sm: &SourceMap, d: &Diagnostic) -> Option<String> {
    let labels: Vec<(Span, &String)> = d
        .labels
        .iter()
        .filter(|(s, _)| (s.file.0 as usize) < sm.len())
        .map(|(s, t)| (*s, t))
        .collect();
    let line_of = |s: Span| {
        let r = clamp_range(sm, s);
        let l = sm.line_span(s.file, r.start);
        (l.start, l.end, r)
    };
    if !labels.iter().any(|&(s, _)| {
        let (a, b, _) = line_of(s);
        b - a > MAX_LINE
    }) {
        return None;
    }
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut out = format!("{sev}: {}\n", d.message);
    for (i, &(s, t)) in labels.iter().enumerate() {
        let text = sm.text(s.file);
        let (a, b, r) = line_of(s);
        let (line, col) = sm.line_col(s);
        let arrow = if i == 0 { "┌─" } else { "·" };
        let pad = " ".repeat(line.to_string().len());
        out.push_str(&format!("{pad} {arrow} {}:{line}:{col}\n", sm.name(s.file)));
        // A window of at most WINDOW bytes around the span, on char boundaries.
        let span_len = (r.end - r.start).min(WINDOW / 2);
        let mut lo = r.start.saturating_sub((WINDOW - span_len) / 2).max(a);
        let mut hi = (lo + WINDOW).min(b);
        while lo > a && !text.is_char_boundary(lo) {
            lo -= 1;
        }
        while hi < b && !text.is_char_boundary(hi) {
            hi += 1;
        }
        let (pre, post) = (if lo > a { "…" } else { "" }, if hi < b { "…" } else { "" });
        let shown = text[lo..hi].replace('\t', " ");
        out.push_str(&format!("{pad} │\n{line} │ {pre}{shown}{post}\n"));
        let caret_at = text[lo..r.start].chars().count() + pre.chars().count();
        let carets = text[r.start..r.end.min(hi).max(r.start)]
            .chars()
            .count()
            .max(1);
        let mark = if i == 0 { "^" } else { "-" };
        let marks = format!("{}{} {t}", " ".repeat(caret_at), mark.repeat(carets));
        out.push_str(&format!("{pad} │ {}\n{pad} │\n", marks.trim_end()));
    }
    for n in &d.notes {
        out.push_str(&format!("   = {n}\n"));
    }
    out.push('\n');
    Some(out)
}
