//! Verilator's run-time library, compiled once and reused by every model build.
//!
//! Each model links Verilator's global objects (`verilated.o`, `verilated_threads.o`, and
//! `verilated_fst_c.o` in traced models). Compiling them is 5.6 s of CPU on the 2-core machine,
//! more than the model itself for every kernel of the corpus, and they are the same for every
//! model built with the same Verilator, compiler and flags. So [`crate::build`] runs Verilator
//! without `--build`, copies the kept objects into the new model's object directory (newer than
//! the generated makefile, so `make` takes them as up to date) and only then runs `make`. The
//! first build of a kind compiles them as before and keeps them here.
//!
//! Layout: `<models>/runtime-<key>/<name>.o`, where the key is SHA-256 of everything in the
//! objects' compile command: Verilator's version, the build flags, the trace option, the extra
//! Verilator arguments, the object names and the C++ compiler's `--version`. Entries are
//! written to a temporary name and renamed, so two builds racing write the same bytes and a
//! reader never sees half a file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

/// The runtime objects a generated model links: the names listed under `VM_GLOBAL_FAST` and
/// `VM_GLOBAL_SLOW` in `<obj>/<prefix>_classes.mk`, in order.
pub(crate) fn global_names(obj: &Path, prefix: &str) -> Vec<String> {
    let path = obj.join(format!("{prefix}_classes.mk"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let mut in_list = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("VM_GLOBAL_FAST") || t.starts_with("VM_GLOBAL_SLOW") {
            in_list = true;
        } else if in_list && t.ends_with('\\') {
            let name = t.trim_end_matches('\\').trim();
            if !name.is_empty() {
                names.push(name.to_string());
            }
        } else {
            in_list = false;
        }
    }
    names
}

/// Where the objects of this kind of build are kept.
pub(crate) fn dir(models: &Path, parts: &[&[u8]], names: &[String]) -> PathBuf {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(b"oclhls-sim verilator runtime objects");
    for p in parts {
        field(p);
    }
    for n in names {
        field(n.as_bytes());
    }
    field(compiler_version().as_bytes());
    let digest = h.finalize();
    let key: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    models.join(format!("runtime-{key}"))
}

/// The first line of `$CXX --version` (`c++` when `CXX` is unset, as in `verilated.mk`), or
/// the empty string when it cannot be run (the build itself will then say why).
fn compiler_version() -> String {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    Command::new(&cxx)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            let text = String::from_utf8_lossy(&o.stdout);
            format!("{cxx}: {}", text.lines().next().unwrap_or(""))
        })
        .unwrap_or_default()
}

/// Copies the kept objects into `obj`, if every one of `names` is kept. Returns whether it did.
/// A copy is a new file, so its modification time is now: later than the makefile Verilator
/// has just written, which is what `make` compares the objects against.
pub(crate) fn place(kept: &Path, names: &[String], obj: &Path) -> bool {
    if names.is_empty() || !names.iter().all(|n| kept.join(format!("{n}.o")).is_file()) {
        return false;
    }
    for n in names {
        let file = format!("{n}.o");
        if std::fs::copy(kept.join(&file), obj.join(&file)).is_err() {
            // Whatever was copied is removed, so that `make` compiles every object itself.
            for m in names {
                let _ = std::fs::remove_file(obj.join(format!("{m}.o")));
            }
            return false;
        }
    }
    true
}

/// Keeps the objects a successful build compiled. Failures are ignored: the next build
/// compiles them again.
pub(crate) fn keep(kept: &Path, names: &[String], obj: &Path) {
    if names.is_empty() || std::fs::create_dir_all(kept).is_err() {
        return;
    }
    for n in names {
        let file = format!("{n}.o");
        let target = kept.join(&file);
        if target.is_file() {
            continue;
        }
        let tmp = kept.join(format!(".{file}.{}.tmp", std::process::id()));
        if std::fs::copy(obj.join(&file), &tmp).is_ok() {
            let _ = std::fs::rename(&tmp, &target);
        }
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_both_global_lists() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("Vmodel_classes.mk"),
            "VM_SUPPORT_SLOW += \\\n  Vmodel__Syms__Slow \\\n\n\
             # Global classes\nVM_GLOBAL_FAST += \\\n  verilated \\\n  verilated_threads \\\n\n\
             VM_GLOBAL_SLOW += \\\n  verilated_fst_c \\\n\n",
        )
        .unwrap();
        assert_eq!(
            global_names(d.path(), "Vmodel"),
            ["verilated", "verilated_threads", "verilated_fst_c"]
        );
        assert!(global_names(d.path(), "Vother").is_empty());
    }

    #[test]
    fn objects_are_placed_only_when_all_are_kept() {
        let d = tempfile::tempdir().unwrap();
        let (kept, obj, obj2) = (d.path().join("k"), d.path().join("o"), d.path().join("p"));
        std::fs::create_dir_all(&obj).unwrap();
        std::fs::create_dir_all(&obj2).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        assert!(!place(&kept, &names, &obj2));
        std::fs::write(obj.join("a.o"), b"A").unwrap();
        keep(&kept, &names, &obj);
        assert!(!place(&kept, &names, &obj2), "b.o is not kept");
        assert!(!obj2.join("a.o").exists());
        std::fs::write(obj.join("b.o"), b"B").unwrap();
        keep(&kept, &names, &obj);
        assert!(place(&kept, &names, &obj2));
        assert_eq!(std::fs::read(obj2.join("b.o")).unwrap(), b"B");
        let leftovers = std::fs::read_dir(&kept).unwrap().count();
        assert_eq!(leftovers, 2, "no temporary files stay behind");
    }

    #[test]
    fn the_key_depends_on_flags_and_names() {
        let m = Path::new("/m");
        let n = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let a = dir(m, &[b"5.048", b"flags"], &n(&["verilated"]));
        assert_eq!(a, dir(m, &[b"5.048", b"flags"], &n(&["verilated"])));
        assert_ne!(a, dir(m, &[b"5.049", b"flags"], &n(&["verilated"])));
        assert_ne!(a, dir(m, &[b"5.048", b"flags"], &n(&["verilated", "x"])));
        assert!(a
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("runtime-"));
    }
}
