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
