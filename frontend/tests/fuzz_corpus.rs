//! Replays the committed cargo-fuzz corpus and every past crash reproducer through the front
//! end (see docs/fuzzing.md): none may panic, and every diagnostic must have a valid span.

use frontend::{compile, render, Options, SourceMap};
use std::path::{Path, PathBuf};

fn inputs(dir: &str) -> Vec<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(dir);
    let mut v: Vec<PathBuf> = match std::fs::read_dir(&d) {
        Ok(rd) => rd
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_file())
            .collect(),
        Err(e) => panic!("{}: {}", d.display(), e),
    };
    v.sort();
    v
}

/// The same checks as the fuzz target (fuzz/fuzz_targets/frontend.rs).
fn replay(path: &Path) {
    let bytes = std::fs::read(path).expect("read input");
    let mut sm = SourceMap::new();
    let file = sm.add_file_bytes("fuzz.cl", &bytes);
    let diags = match compile(&mut sm, file, &Options::default()) {
        Ok((_, warnings)) => warnings,
        Err(errors) => {
            assert!(
                errors.iter().any(|d| d.is_error()),
                "{}: Err without an error",
                path.display()
            );
            errors
        }
    };
    for d in &diags {
        let s = d.span();
        assert!((s.file.0 as usize) < sm.len(), "{}", path.display());
        assert!(
            s.start <= s.end && s.end as usize <= sm.text(s.file).len(),
            "{}: {:?}",
            path.display(),
            d
        );
    }
    let _ = render(&sm, &diags, false);
}

#[test]
fn fuzz_corpus_replays() {
    let files = inputs("corpus/frontend");
    assert!(files.len() > 10, "the committed corpus is missing");
    files.iter().for_each(|p| replay(p));
}

#[test]
fn fuzz_crash_reproducers_replay() {
    // Each file once crashed, hung or overflowed the stack; see its name.
    inputs("regressions").iter().for_each(|p| replay(p));
}
