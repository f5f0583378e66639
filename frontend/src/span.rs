//! Source files and byte spans.
//!
//! Every token, AST node and diagnostic carries a [`Span`]: a file id plus a half-open byte
//! range into that file's text. Tokens produced by macro expansion carry the span of the macro
//! *use* in the file being compiled, so diagnostics always point at text the user wrote.

use std::fmt;
use std::ops::Range;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }

    /// The smallest span covering both (if they are in different files, `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn is_empty(self) -> bool {
        self.start >= self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}..{}", self.file.0, self.start, self.end)
    }
}

struct SourceFile {
    name: String,
    text: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// Offset of the first byte that was not valid UTF-8 (replaced by U+FFFD in `text`).
    invalid_utf8: Option<u32>,
    /// `#line N` directives: (0-based physical line the number applies to, N), sorted.
    line_directives: Vec<(usize, u32)>,
}

/// All source files seen by one compilation (the main file and everything it includes).
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add_file(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        let line_starts = codespan_reporting::files::line_starts(&text).collect();
        self.files.push(SourceFile {
            name: name.into(),
            text,
            line_starts,
            invalid_utf8: None,
            line_directives: Vec::new(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// Adds a file from raw bytes. Invalid UTF-8 sequences are replaced by U+FFFD and the
    /// position of the first one is remembered ([`SourceMap::invalid_utf8`]) so that
    /// compilation can report it.
    pub fn add_file_bytes(&mut self, name: impl Into<String>, bytes: &[u8]) -> FileId {
        let bad = std::str::from_utf8(bytes)
            .err()
            .map(|e| e.valid_up_to() as u32);
        let id = self.add_file(name, String::from_utf8_lossy(bytes).into_owned());
        self.files[id.0 as usize].invalid_utf8 = bad;
        id
    }

    /// Byte offset of the first invalid UTF-8 sequence of a file added with `add_file_bytes`.
    pub fn invalid_utf8(&self, file: FileId) -> Option<u32> {
        self.files[file.0 as usize].invalid_utf8
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Finds an already loaded file by name.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u32))
    }

    pub fn name(&self, file: FileId) -> &str {
        &self.files[file.0 as usize].name
    }

    pub fn text(&self, file: FileId) -> &str {
        &self.files[file.0 as usize].text
    }

    /// The source text a span covers (empty if the span is out of range).
    pub fn snippet(&self, span: Span) -> &str {
        self.text(span.file).get(span.range()).unwrap_or("")
    }

    /// The byte range of the line (without its newline) holding byte `off` of `file`.
    pub fn line_span(&self, file: FileId, off: usize) -> std::ops::Range<usize> {
        let f = &self.files[file.0 as usize];
        let off = off.min(f.text.len());
        let line = match f.line_starts.binary_search(&off) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = f.line_starts[line];
        let end = f
            .line_starts
            .get(line + 1)
            .map_or(f.text.len(), |&n| n.saturating_sub(1).max(start));
        start..end
    }

    /// 1-based line and column (column counted in characters) of the start of `span`.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        let f = &self.files[span.file.0 as usize];
        let off = (span.start as usize).min(f.text.len());
        let line = match f.line_starts.binary_search(&off) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let ls = f.line_starts[line];
        let col = f
            .text
            .get(ls..off)
            .map(|s| s.chars().count())
            .unwrap_or(off - ls);
        (line as u32 + 1, col as u32 + 1)
    }

    /// `name:line:col` of the start of `span`, for messages that are not full diagnostics.
    /// The line is the presumed one (after `#line`).
    pub fn describe(&self, span: Span) -> String {
        let (l, c) = self.line_col(span);
        format!(
            "{}:{}:{}",
            self.name(span.file),
            self.presumed_line(span.file, l),
            c
        )
    }

    /// Records `#line n` ending at byte `directive_end`: the following physical line is line
    /// `n` for diagnostics and `__LINE__`. Directives must be recorded in source order.
    pub fn add_line_directive(&mut self, file: FileId, directive_end: u32, n: u32) {
        let f = &mut self.files[file.0 as usize];
        let off = (directive_end as usize).min(f.text.len());
        let line = match f.line_starts.binary_search(&off) {
            Ok(l) => l,
            Err(l) => l,
        };
        f.line_directives.retain(|&(l, _)| l < line);
        f.line_directives.push((line, n));
    }

    /// The line number users see for 1-based physical `line` of `file`: `#line` applied.
    pub fn presumed_line(&self, file: FileId, line: u32) -> u32 {
        let f = &self.files[file.0 as usize];
        let idx = line.saturating_sub(1) as usize;
        let pos = f.line_directives.partition_point(|&(l, _)| l <= idx);
        match pos.checked_sub(1).map(|p| f.line_directives[p]) {
            Some((l, n)) => n.saturating_add((idx - l) as u32),
            None => line,
        }
    }
}

impl<'a> codespan_reporting::files::Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files
            .get(id.0 as usize)
            .map(|f| f.name.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files
            .get(id.0 as usize)
            .map(|f| f.text.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let f = self
            .files
            .get(id.0 as usize)
            .ok_or(codespan_reporting::files::Error::FileMissing)?;
        Ok(match f.line_starts.binary_search(&byte_index) {
            Ok(l) => l,
            Err(l) => l - 1,
        })
    }

    fn line_number(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        if id.0 as usize >= self.files.len() {
            return Err(codespan_reporting::files::Error::FileMissing);
        }
        Ok(self.presumed_line(id, line_index as u32 + 1) as usize)
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let f = self
            .files
            .get(id.0 as usize)
            .ok_or(codespan_reporting::files::Error::FileMissing)?;
        let start = *f.line_starts.get(line_index).ok_or(
            codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: f.line_starts.len() - 1,
            },
        )?;
        let end = f
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(f.text.len());
        Ok(start..end)
    }
}
