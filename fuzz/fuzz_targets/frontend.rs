//! Feeds arbitrary bytes through the whole front end (load, preprocess, parse, check) and
//! renders the diagnostics. The front end must not panic, hang or overflow the stack, and every
//! diagnostic must point into a loaded file.
#![no_main]

use frontend::{compile_with_stack, render, Options, SourceMap};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut sm = SourceMap::new();
    let file = sm.add_file_bytes("fuzz.cl", data);
    // 32 MiB instead of `compile`'s 256 MiB: inputs are capped by -max_len=4096, and ASan
    // clears the shadow of the whole stack of every new thread (see `compile_with_stack`).
    let diags = match compile_with_stack(&mut sm, file, &Options::default(), 32 << 20) {
        Ok((_, warnings)) => warnings,
        Err(errors) => {
            assert!(errors.iter().any(|d| d.is_error()), "Err without an error");
            errors
        }
    };
    for d in &diags {
        let s = d.span();
        assert!((s.file.0 as usize) < sm.len(), "span in an unknown file");
        assert!(
            s.start <= s.end && s.end as usize <= sm.text(s.file).len(),
            "span out of range: {d:?}"
        );
    }
    let _ = render(&sm, &diags, false);
});
