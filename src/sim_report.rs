//! What `oclhls sim` records of its tests besides the lines it prints: each test's verdict
//! and time for the JUnit XML report (`--junit`), where its waveform goes (`--trace`), and the
//! command that writes the waveform of a failing test run without `--trace`.

use crate::simulate::SimArgs;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A test's verdict, with the text its `PASS`/`FAIL`/`SKIP` line prints after the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The summary (cycles, stalls), printed in parentheses.
    Passed(String),
    /// Why: the first differing element and the stage at fault, or what went wrong.
    Failed(String),
    /// The reason.
    Skipped(String),
}

impl Verdict {
    /// The line (or lines) `oclhls sim` prints for test `name`.
    pub(crate) fn line(&self, name: &str) -> String {
        match self {
            Verdict::Passed(s) => format!("PASS {name} ({s})"),
            Verdict::Failed(w) => format!("FAIL {name}: {w}"),
            Verdict::Skipped(r) => format!("SKIP {name}: {r}"),
        }
    }
}

/// One test of a file as the report shows it.
#[derive(Clone, Debug)]
pub(crate) struct CaseRecord {
    pub name: String,
    pub time: Duration,
    pub verdict: Verdict,
    /// The line printed after the verdict about the waveform (its file, or how to get it).
    pub waveform: Option<String>,
}

/// The tests of one kernel file.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileRecord {
    /// The file as given on the command line.
    pub file: String,
    pub cases: Vec<CaseRecord>,
}

impl FileRecord {
    /// Passed, failed and skipped tests.
    pub(crate) fn counts(&self) -> (u32, u32, u32) {
        let mut c = (0, 0, 0);
        for case in &self.cases {
            match case.verdict {
                Verdict::Passed(_) => c.0 += 1,
                Verdict::Failed(_) => c.1 += 1,
                Verdict::Skipped(_) => c.2 += 1,
            }
        }
        c
    }
}

/// The JUnit XML report of `files`: a test suite per kernel file (named by its path), a test
/// case per test (class name = the file's path), a failure's message is its `FAIL` line's
/// first line and its text the whole message, a skip's message its reason.
// quick-junit (nextest's JUnit writer) does the XML: escaping, and dropping what XML 1.0
// cannot hold (ANSI colour codes, control characters).
pub(crate) fn junit(files: &[FileRecord]) -> Result<String, String> {
    let mut report = Report::new("oclhls sim");
    let mut total = Duration::ZERO;
    for f in files {
        let mut suite = TestSuite::new(f.file.as_str());
        let mut time = Duration::ZERO;
        for c in &f.cases {
            let status = match &c.verdict {
                Verdict::Passed(_) => TestCaseStatus::success(),
                Verdict::Failed(why) => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    let mut text = why.clone();
                    if let Some(w) = &c.waveform {
                        text.push('\n');
                        text.push_str(w);
                    }
                    s.set_message(why.lines().next().unwrap_or_default())
                        .set_description(text);
                    s
                }
                Verdict::Skipped(reason) => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(reason.as_str());
                    s
                }
            };
            let mut case = TestCase::new(c.name.as_str(), status);
            case.set_classname(f.file.as_str()).set_time(c.time);
            if let Verdict::Passed(summary) = &c.verdict {
                let mut out = summary.clone();
                if let Some(w) = &c.waveform {
                    out.push('\n');
                    out.push_str(w);
                }
                case.set_system_out(out);
            }
            time += c.time;
            suite.add_test_case(case);
        }
        suite.set_time(time);
        total += time;
        report.add_test_suite(suite);
    }
    report.set_time(total);
    report.to_string().map_err(|e| e.to_string())
}

/// Writes the JUnit report of `files` to `path`.
pub(crate) fn write_junit(path: &Path, files: &[FileRecord]) -> anyhow::Result<()> {
    let xml = junit(files).map_err(|e| anyhow::anyhow!("the JUnit report: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, xml).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// A file name for test `name`'s waveform: letters, digits, `-`, `_` and `.` kept, runs of
/// anything else one `_`, at most 100 bytes, never empty or hidden; `taken` makes it unique
/// within a file's directory (`-2`, `-3`...).
pub(crate) fn waveform_name(name: &str, taken: &mut BTreeSet<String>) -> String {
    let mut s = String::new();
    for ch in name.chars() {
        if ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.') {
            s.push(ch);
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    let s = s.trim_matches(|c| c == '_' || c == '.');
    let mut s: String = s.chars().take(100).collect();
    if s.is_empty() {
        s = "test".to_string();
    }
    let mut unique = s.clone();
    let mut n = 2;
    while !taken.insert(unique.clone()) {
        unique = format!("{s}-{n}");
        n += 1;
    }
    format!("{unique}.fst")
}

/// One directory name per kernel file (its stem; `-2`, `-3`... when two files share one), for
/// `-o DIR/<stem>` and `--trace DIR/<stem>`.
pub(crate) fn file_stems(files: &[PathBuf]) -> Vec<String> {
    let mut taken = BTreeSet::new();
    files
        .iter()
        .map(|f| {
            let stem = f
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "kernel".to_string());
            let mut unique = stem.clone();
            let mut n = 2;
            while !taken.insert(unique.clone()) {
                unique = format!("{stem}-{n}");
                n += 1;
            }
            unique
        })
        .collect()
}

/// The command that reruns test `test` of `file` as this run did (seed, memory, options)
/// and writes its waveform.
pub(crate) fn waveform_hint(a: &SimArgs, file: &Path, test: &str) -> String {
    let mut words = vec![
        "oclhls".to_string(),
        "sim".to_string(),
        shell_quote(&file.display().to_string()),
    ];
    words.extend(
        crate::simulate::rerun_options(a)
            .iter()
            .map(|w| shell_quote(w)),
    );
    // `--filter` selects by substring; the quotes keep the name one word.
    words.push("--filter".to_string());
    words.push(format!("'{}'", test.replace('\'', r"'\''")));
    words.extend(["--trace".to_string(), "waves".to_string()]);
    format!("  waveform: {}", words.join(" "))
}

fn shell_quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=,+:@".contains(&b))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waveform_names_are_plain_and_unique() {
        let mut taken = BTreeSet::new();
        assert_eq!(waveform_name("vadd 1", &mut taken), "vadd_1.fst");
        assert_eq!(waveform_name("vadd/1", &mut taken), "vadd_1-2.fst");
        assert_eq!(waveform_name("a  *  b", &mut taken), "a_b.fst");
        assert_eq!(waveform_name("../x", &mut taken), "x.fst");
        assert_eq!(waveform_name("***", &mut taken), "test.fst");
        assert_eq!(waveform_name("", &mut taken), "test-2.fst");
        let long = "é".repeat(10) + &"y".repeat(300);
        assert_eq!(waveform_name(&long, &mut taken).len(), 100 + ".fst".len());
    }

    #[test]
    fn stems_are_unique_per_file() {
        let files: Vec<PathBuf> = ["a/k.cl", "b/k.cl", "c/m.cl", "k-2.cl"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(file_stems(&files), ["k", "k-2", "m", "k-2-2"]);
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        sim: SimArgs,
    }

    fn hint(words: &[&str]) -> String {
        use clap::Parser;
        let cli = Cli::parse_from(["sim"].iter().chain(words));
        waveform_hint(&cli.sim, &cli.sim.files[0], "a 'b'")
    }

    #[test]
    fn hints_rerun_with_the_options_that_change_a_test() {
        let filter = r"--filter 'a '\''b'\''' --trace waves";
        assert_eq!(
            hint(&["k.cl", "--junit", "r.xml", "-o", "out"]),
            format!("  waveform: oclhls sim k.cl {filter}")
        );
        assert_eq!(
            hint(&[
                "dir/my k.cl",
                "--seed",
                "3",
                "--stall-prob",
                "0.5",
                "--max-latency",
                "2"
            ]),
            format!(
                "  waveform: oclhls sim 'dir/my k.cl' --seed 3 --stall-prob 0.5 --max-latency 2 \
                 {filter}"
            )
        );
        // Ideal memory overrides the stall options; defaults given explicitly are left out.
        let words = [
            "k.cl",
            "--ideal-memory",
            "--stall-prob",
            "0.5",
            "--seed",
            "1",
            "-D",
            "N=4",
            "--max-cycles",
            "10",
            "--offline",
        ];
        assert_eq!(
            hint(&words),
            format!("  waveform: oclhls sim k.cl --ideal-memory --max-cycles 10 -DN=4 --offline {filter}")
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("dir/a.cl"), "dir/a.cl");
        assert_eq!(shell_quote("my file.cl"), "'my file.cl'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    fn sample() -> Vec<FileRecord> {
        let case = |name: &str, verdict| CaseRecord {
            name: name.to_string(),
            time: Duration::from_millis(1500),
            verdict,
            waveform: None,
        };
        vec![
            FileRecord {
                file: "kernels/a&b.cl".into(),
                cases: vec![
                    case("ok", Verdict::Passed("12 cycles".into())),
                    CaseRecord {
                        waveform: Some("  waveform: oclhls sim x.cl --trace waves".into()),
                        ..case(
                            "bad <1>",
                            Verdict::Failed(
                                "argument 0 (`out`, line 7): element 3: expected 4, got 5\n  \
                                 emulator: \"x\" \x1b[31m"
                                    .into(),
                            ),
                        )
                    },
                    case(
                        "later",
                        Verdict::Skipped("not yet built in hardware".into()),
                    ),
                ],
            },
            FileRecord {
                file: "kernels/c.cl".into(),
                cases: vec![],
            },
        ]
    }

    #[test]
    fn junit_counts_and_escapes() {
        let files = sample();
        assert_eq!(files[0].counts(), (1, 1, 1));
        let xml = junit(&files).unwrap();
        assert!(xml.starts_with("<?xml"), "{xml}");
        assert!(
            xml.contains(r#"<testsuites name="oclhls sim" tests="3" skipped="1" failures="1""#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testsuite name="kernels/a&amp;b.cl" tests="3""#),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<testcase name="bad &lt;1&gt;" classname="kernels/a&amp;b.cl" time="1.500">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<failure message="argument 0 (`out`, line 7): element 3: expected 4, got 5" type="#)
                || xml.contains(r#"<failure message="argument 0 (`out`, line 7): element 3: expected 4, got 5">"#),
            "{xml}"
        );
        assert!(xml.contains("waveform: oclhls sim x.cl"), "{xml}");
        assert!(!xml.contains('\x1b'), "ANSI escapes are dropped");
        assert!(
            xml.contains(r#"<skipped message="not yet built in hardware"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testsuite name="kernels/c.cl" tests="0""#),
            "{xml}"
        );
    }
}
