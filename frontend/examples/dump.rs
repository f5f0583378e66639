//! `cargo run -p frontend --example dump -- file.cl [-I dir]`: prints the checked AST or the
//! rendered diagnostics. A debugging aid for the front end.

use frontend::{compile, load_file, render, Options, SourceMap};
use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut opts = Options::default();
    let mut file = None;
    while let Some(a) = args.next() {
        if a == "-I" {
            if let Some(d) = args.next() {
                opts.include_dirs.push(PathBuf::from(d));
            }
        } else if let Some(d) = a.strip_prefix("-D") {
            let (n, v) = match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d.to_string(), None),
            };
            opts.defines.push((n, v));
        } else {
            file = Some(PathBuf::from(a));
        }
    }
    let Some(file) = file else {
        eprintln!("usage: dump FILE.cl [-I DIR] [-DNAME[=VALUE]]");
        std::process::exit(2);
    };
    let mut sm = SourceMap::new();
    let id = match load_file(&mut sm, &file) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("{}: {}", file.display(), e);
            std::process::exit(2);
        }
    };
    match compile(&mut sm, id, &opts) {
        Ok((prog, warnings)) => {
            print!("{}", prog.dump());
            eprint!("{}", render(&sm, &warnings, false));
        }
        Err(diags) => {
            eprint!("{}", render(&sm, &diags, false));
            std::process::exit(1);
        }
    }
}
