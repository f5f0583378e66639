//! Error tests: each file under `tests/errors/` marks the lines where a diagnostic is expected
//! with `//~ ERROR <fragment>` (or `//~ WARNING <fragment>`; `//~^` refers to the line above).
//! The test fails on a missing diagnostic (none on that line containing the fragment) and on
//! an unexpected one (an error or warning on a line without a matching annotation).

mod common;

use frontend::{render, Severity, SourceMap};

#[derive(Debug)]
struct Expect {
    line: u32,
    severity: Severity,
    fragment: String,
    matched: bool,
}

fn expectations(text: &str) -> Vec<Expect> {
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(pos) = line.find("//~") else {
            continue;
        };
        let mut rest = &line[pos + 3..];
        let mut target = i as u32 + 1;
        while let Some(r) = rest.strip_prefix('^') {
            target -= 1;
            rest = r;
        }
        let rest = rest.trim_start();
        let (severity, frag) = if let Some(f) = rest.strip_prefix("ERROR") {
            (Severity::Error, f)
        } else if let Some(f) = rest.strip_prefix("WARNING") {
            (Severity::Warning, f)
        } else {
            panic!(
                "line {}: annotation must be `//~ ERROR ...` or `//~ WARNING ...`",
                i + 1
            );
        };
        v.push(Expect {
            line: target,
            severity,
            fragment: frag.trim().to_string(),
            matched: false,
        });
    }
    v
}

fn run(path: &std::path::Path) -> Result<(), String> {
    let (sm, r): (SourceMap, _) = common::compile_path(path);
    let diags = match r {
        Ok((_, w)) => w,
        Err(d) => d,
    };
    let main = frontend::FileId(0);
    let mut exp = expectations(sm.text(main));
    assert!(!exp.is_empty(), "{} has no annotations", path.display());
    let mut problems = Vec::new();
    for d in &diags {
        let span = d.span();
        let (line, _) = sm.line_col(span);
        let hit = exp.iter_mut().find(|e| {
            span.file == main
                && e.line == line
                && e.severity == d.severity
                && d.message.contains(&e.fragment)
        });
        match hit {
            Some(e) => e.matched = true,
            None => problems.push(format!(
                "unexpected {:?} at {}: {}",
                d.severity,
                sm.describe(span),
                d.message
            )),
        }
    }
    for e in exp.iter().filter(|e| !e.matched) {
        problems.push(format!(
            "missing {:?} on line {} containing `{}`",
            e.severity, e.line, e.fragment
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}:\n  {}\nall diagnostics:\n{}",
            path.display(),
            problems.join("\n  "),
            render(&sm, &diags, false)
        ))
    }
}

#[test]
fn error_files() {
    let files = common::cl_files("errors");
    assert!(!files.is_empty());
    let failures: Vec<String> = files.iter().filter_map(|p| run(p).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_error_has_a_span_in_a_known_file() {
    for p in common::cl_files("errors") {
        let (sm, r) = common::compile_path(&p);
        let diags = r.err().unwrap_or_default();
        for d in diags {
            let s = d.span();
            assert!(
                (s.file.0 as usize) < sm.len(),
                "{}: {}",
                p.display(),
                d.message
            );
            assert!(
                s.end as usize <= sm.text(s.file).len(),
                "{}: {}",
                p.display(),
                d.message
            );
        }
    }
}
