//! Every kernel under `tests/kernels/` checks without errors or warnings.

mod common;

use frontend::render;

#[test]
fn all_kernels_check_cleanly() {
    let files = common::cl_files("kernels");
    assert!(!files.is_empty());
    let mut failures = String::new();
    for path in files {
        let (sm, r) = common::compile_path(&path);
        match r {
            Ok((_, warnings)) if warnings.is_empty() => {}
            Ok((_, warnings)) => {
                failures.push_str(&format!(
                    "{}: unexpected warnings\n{}",
                    path.display(),
                    render(&sm, &warnings, false)
                ));
            }
            Err(d) => failures.push_str(&format!(
                "{}: errors\n{}",
                path.display(),
                render(&sm, &d, false)
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures);
}
