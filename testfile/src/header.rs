//! Finding the `/*! ... !*/` header in a kernel file and splitting it into logical lines.

/// The text between `/*!` and `!*/`.
pub(crate) struct Header<'a> {
    pub(crate) text: &'a str,
    /// 1-based line of the `/*!`; the first line of `text` is on it.
    pub(crate) line: u32,
}

/// Finds the test header.
///
/// A header is a C comment that opens with `/*!` and closes with `!*/` (the comment ends at the
/// first `*/`, as for the compiler). A `/*! ... */` comment is a Doxygen comment, not a header,
/// unless its first line of content is a `[section]`: then the closing `!` is missing.
pub(crate) fn find(source: &str) -> Result<Option<Header<'_>>, (u32, String)> {
    let mut from = 0;
    while let Some(rel) = source[from..].find("/*!") {
        let open = from + rel;
        let body = &source[open + 3..];
        let line = line_of(source, open);
        match body.find("*/") {
            Some(close) if close > 0 && body.as_bytes()[close - 1] == b'!' => {
                let after = open + 3 + close + 2;
                if let Some(second) = find_header_start(source, after) {
                    return Err((
                        line_of(source, second),
                        format!(
                            "second test header; the header at line {line} already holds the \
                             tests: put every [test] section in that one"
                        ),
                    ));
                }
                return Ok(Some(Header {
                    text: &body[..close - 1],
                    line,
                }));
            }
            Some(close) => {
                if starts_with_section(&body[..close]) {
                    return Err((
                        line,
                        "test header ends with `*/`; close it with `!*/`".to_string(),
                    ));
                }
                from = open + 3 + close + 2;
            }
            None => {
                if starts_with_section(body) {
                    return Err((
                        line,
                        "test header opened with `/*!` is never closed; end it with `!*/`"
                            .to_string(),
                    ));
                }
                return Ok(None);
            }
        }
    }
    Ok(None)
}

/// Position of a later `/*! ... !*/` comment, if any.
fn find_header_start(source: &str, mut from: usize) -> Option<usize> {
    while let Some(rel) = source[from..].find("/*!") {
        let open = from + rel;
        let body = &source[open + 3..];
        let close = body.find("*/")?;
        if close > 0 && body.as_bytes()[close - 1] == b'!' {
            return Some(open);
        }
        from = open + 3 + close + 2;
    }
    None
}

/// Whether the first line with content (ignoring `#` comments) is a `[section]`.
fn starts_with_section(text: &str) -> bool {
    text.split('\n')
        .map(|l| strip_comment(l).trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with('['))
}

fn line_of(source: &str, pos: usize) -> u32 {
    let newlines = source.as_bytes()[..pos]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    u32::try_from(newlines).unwrap_or(u32::MAX - 1) + 1
}

/// Removes a `#` comment and a trailing `\r`.
fn strip_comment(line: &str) -> &str {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

/// A logical line: comments removed, continuations joined, trimmed, never empty.
pub(crate) struct Line {
    /// 1-based line in the file where the logical line starts.
    pub(crate) line: u32,
    pub(crate) text: String,
}

/// Splits header text into logical lines as piglit does: everything from `#` to the end of a
/// line is a comment; a line ending in `\` (after its comment is removed) continues on the next
/// line, which is appended as is; a blank line ends a continuation.
pub(crate) fn logical_lines(header: &Header<'_>) -> Vec<Line> {
    let physical: Vec<&str> = header.text.split('\n').map(strip_comment).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < physical.len() {
        let line = header.line.saturating_add(i as u32);
        let mut text = physical[i].to_string();
        i += 1;
        if text.trim().is_empty() {
            continue;
        }
        while let Some(before) = text.trim_end().strip_suffix('\\') {
            text = before.to_string();
            match physical.get(i) {
                Some(next) if !next.trim().is_empty() => {
                    text.push_str(next);
                    i += 1;
                }
                _ => break,
            }
        }
        let text = text.trim();
        if !text.is_empty() {
            out.push(Line {
                line,
                text: text.to_string(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(src: &str) -> Vec<(u32, String)> {
        let h = find(src).unwrap().unwrap();
        logical_lines(&h)
            .into_iter()
            .map(|l| (l.line, l.text))
            .collect()
    }

    #[test]
    fn finds_header_and_numbers_lines() {
        let src = "// x\n/*!\n[config]\n  name: a # comment\n\n!*/\nkernel void k() {}\n";
        assert_eq!(
            lines(src),
            [(3, "[config]".to_string()), (4, "name: a".to_string())]
        );
    }

    #[test]
    fn joins_continuations_like_piglit() {
        let src = "/*!\n[test]\narg_in: 1 buffer float[3] 1 \\ # one\n  2 \\\n  3\nx: y\n!*/";
        assert_eq!(
            lines(src)[1],
            (3, "arg_in: 1 buffer float[3] 1   2   3".to_string())
        );
        assert_eq!(lines(src)[2], (6, "x: y".to_string()));
        // A blank line ends a continuation.
        let src = "/*!\na: 1 \\\n\nb: 2 \\\n!*/";
        assert_eq!(
            lines(src),
            [(2, "a: 1".to_string()), (4, "b: 2".to_string())]
        );
    }

    #[test]
    fn doxygen_comments_are_not_headers() {
        assert!(find("/*! \\file x.cl */ kernel void k() {}")
            .unwrap()
            .is_none());
        assert!(find("/*!\n  \\brief x\n  */\n/*!\n */").unwrap().is_none());
        assert!(find("no header").unwrap().is_none());
        assert!(find("/*! never closed").unwrap().is_none());
        let h = find("/*! doc */\n/*!\n[config]\n!*/").unwrap().unwrap();
        assert_eq!(h.line, 2);
    }

    #[test]
    fn reports_broken_headers() {
        let e = find("\n/*!\n[config]\nname: x\n").err().unwrap();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("never closed"), "{}", e.1);
        let e = find("/*!\n[config]\n*/").err().unwrap();
        assert!(e.1.contains("close it with `!*/`"), "{}", e.1);
        let e = find("/*!\n[config]\n!*/\n\n/*!\n[test]\n!*/")
            .err()
            .unwrap();
        assert_eq!(e.0, 5);
        assert!(e.1.contains("second test header"), "{}", e.1);
    }
}
