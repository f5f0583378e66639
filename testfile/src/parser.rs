//! The header parser: a section state machine over logical lines.
//!
//! Each logical line is a `[section]` or a `key: value`. Keys are dispatched by section
//! (`config_key`, `test_key`, and `keys::launch_key` for the keys both accept); argument lines
//! are decoded into bytes as soon as they are read, since each carries its own type. `[config]`
//! defaults are folded into the tests at the end, when every key is known. Problems are
//! collected, not returned at the first one, and parsing goes on with the next line.
//!
//! This module owns the state machine and the per-file state; the submodules own one concern
//! each: `keys` (which section accepts which key, and the launch keys both accept), `args`
//! (decoding `arg_in:`/`arg_out:` lines), `single` (assembling a single-kernel test), `multi`
//! (the multi-kernel lines and their resolution), `tokens` (values of single tokens) and
//! `suggest` (did-you-mean hints).

mod args;
mod keys;
mod multi;
mod single;
mod suggest;
mod tokens;

use std::collections::{BTreeMap, BTreeSet};

use super::header::{self, Header, Line};
use super::values::clip;
use super::{TestFile, TestFileError};
use args::ParsedArg;
use keys::{launch_key, LaunchKeys, CONFIG_ONLY_KEYS, TEST_ONLY_KEYS};
use suggest::{closest, unknown_key};
use tokens::{check_name, parse_bool, parse_version, split_key_value, words};

#[derive(Default)]
struct Config {
    /// Line of `[config]`, once seen.
    line: Option<u32>,
    seen: BTreeMap<String, u32>,
    name: Option<String>,
    clc_version_min: Option<u32>,
    clc_version_max: Option<u32>,
    build_options: Vec<String>,
    expect_build_fail: bool,
    require_device_extensions: Vec<String>,
    other: Vec<(String, String)>,
    launch: LaunchKeys,
}

struct TestSection {
    line: u32,
    /// 1-based position among the `[test]` sections.
    number: u32,
    seen: BTreeMap<String, u32>,
    name: Option<String>,
    launch: LaunchKeys,
    /// Every argument index named by an `arg_in`/`arg_out` line, including lines with errors
    /// (so that a typo in one line does not also report its argument as missing).
    mentioned: BTreeSet<u32>,
    ins: BTreeMap<u32, ParsedArg>,
    outs: BTreeMap<u32, ParsedArg>,
    /// `launch:`, `pipe:`, `buffer:`, `arg:`, `expect:` lines (a multi-kernel test).
    multi: multi::Lines,
}

enum State {
    /// Before the first section.
    Outside,
    Config,
    Test(usize),
    /// Inside a rejected section: its lines are skipped (already reported once).
    Skipped,
}

struct Parser<'a> {
    file: &'a str,
    header_line: u32,
    errors: Vec<TestFileError>,
    state: State,
    config: Config,
    tests: Vec<TestSection>,
    /// Argument bytes decoded so far, against [`args::MAX_FILE_BYTES`].
    allocated: u64,
    reported_missing_config: bool,
}

pub(crate) fn parse_header(
    file: &str,
    header: &Header<'_>,
) -> Result<TestFile, Vec<TestFileError>> {
    let mut p = Parser {
        file,
        header_line: header.line,
        errors: Vec::new(),
        state: State::Outside,
        config: Config::default(),
        tests: Vec::new(),
        allocated: 0,
        reported_missing_config: false,
    };
    for line in header::logical_lines(header) {
        p.line(&line);
    }
    p.finish()
}

impl Parser<'_> {
    fn error(&mut self, line: u32, message: impl Into<String>) {
        let mut message: String = message.into();
        // Quoted file text is clipped where it is quoted; this bounds what is left (a
        // megabyte-long token quoted whole) so no message floods a terminal.
        const MAX: usize = 500;
        if message.len() > MAX {
            let mut end = MAX;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push_str("...");
        }
        self.errors.push(TestFileError {
            file: self.file.to_string(),
            line,
            message,
        });
    }

    fn line(&mut self, l: &Line) {
        let shown = clip(&l.text);
        let text = l.text.as_str();
        if let Some(inner) = text.strip_prefix('[') {
            match inner.strip_suffix(']') {
                Some(name) if !name.trim().is_empty() => self.section(name.trim(), l.line),
                _ => self.error(
                    l.line,
                    format!("cannot read `{shown}`: a section header is `[config]` or `[test]`"),
                ),
            }
            return;
        }
        let Some((key, value)) = split_key_value(text) else {
            self.error(
                l.line,
                format!(
                    "cannot read `{shown}`: expected `key: value` or a `[section]` (text after `#` \
                     is a comment)"
                ),
            );
            return;
        };
        if value.is_empty() {
            self.error(
                l.line,
                format!("`{key}:` has no value; write `{key}: <value>`"),
            );
            return;
        }
        match self.state {
            State::Outside => self.error(
                l.line,
                format!(
                    "`{key}: {}` is outside any section; put it under [config] or [test]",
                    clip(value)
                ),
            ),
            State::Skipped => {}
            State::Config => self.config_key(key, value, l.line),
            State::Test(i) => self.test_key(i, key, value, l.line),
        }
    }

    fn section(&mut self, name: &str, line: u32) {
        match name {
            "config" => {
                if let Some(first) = self.config.line {
                    self.error(
                        line,
                        format!(
                            "second [config] section; the first is at line {first}: a header has \
                             one [config]"
                        ),
                    );
                    self.state = State::Skipped;
                } else if let Some(t) = self.tests.first() {
                    let first_test = t.line;
                    self.error(
                        line,
                        format!(
                            "[config] must come before the first [test] (line {first_test}): its \
                             keys are defaults for every test"
                        ),
                    );
                    self.reported_missing_config = true;
                    self.state = State::Skipped;
                } else {
                    self.config.line = Some(line);
                    self.state = State::Config;
                }
            }
            "test" => {
                if self.config.line.is_none() && !self.reported_missing_config {
                    self.reported_missing_config = true;
                    self.error(
                        line,
                        "[test] before any [config]: start the header with a [config] section (it \
                         may be empty), as piglit requires",
                    );
                }
                if self.config.expect_build_fail {
                    self.error(
                        line,
                        "no [test] section is allowed with `expect_build_fail: true`: the program \
                         is expected not to compile",
                    );
                }
                self.tests.push(TestSection {
                    line,
                    number: self.tests.len() as u32 + 1,
                    seen: BTreeMap::new(),
                    name: None,
                    launch: LaunchKeys::default(),
                    mentioned: BTreeSet::new(),
                    ins: BTreeMap::new(),
                    outs: BTreeMap::new(),
                    multi: multi::Lines::default(),
                });
                self.state = State::Test(self.tests.len() - 1);
            }
            "program source" | "program binary" => {
                self.error(
                    line,
                    format!(
                        "[{name}] is not supported in a kernel file's header: the program is the \
                         file itself"
                    ),
                );
                self.state = State::Skipped;
            }
            _ => {
                let hint = closest(name, &["config", "test"])
                    .map_or(String::new(), |c| format!(" (did you mean [{c}]?)"));
                self.error(
                    line,
                    format!("unknown section [{name}]{hint}; expected [config] or [test]"),
                );
                self.state = State::Skipped;
            }
        }
    }

    fn config_key(&mut self, key: &str, value: &str, line: u32) {
        if let Some(first) = self.config.seen.insert(key.to_string(), line) {
            self.error(
                line,
                format!("`{key}` is already given at line {first} in [config]"),
            );
            return;
        }
        let c = &mut self.config;
        let result = match key {
            "name" => check_name(value).map(|()| c.name = Some(value.to_string())),
            "clc_version_min" => parse_version(key, value).map(|v| c.clc_version_min = Some(v)),
            "clc_version_max" => parse_version(key, value).map(|v| c.clc_version_max = Some(v)),
            "build_options" => {
                c.build_options = words(value);
                Ok(())
            }
            "expect_build_fail" => parse_bool(key, value).map(|b| c.expect_build_fail = b),
            "require_device_extensions" => {
                c.require_device_extensions = words(value);
                Ok(())
            }
            "require_platform_extensions"
            | "require_device_features"
            | "platform_regex"
            | "device_regex"
            | "need_image_support" => {
                c.other.push((key.to_string(), value.to_string()));
                Ok(())
            }
            "program_source_file" | "program_binary_file" => Err(format!(
                "`{key}` is not supported in a kernel file's header: the program is the file \
                 itself"
            )),
            "arg_in" | "arg_out" | "launch" | "pipe" | "buffer" | "arg" | "expect" => Err(format!(
                "`{key}` belongs in a [test] section; [config] only holds defaults"
            )),
            _ => match launch_key(&mut c.launch, key, value, line, true) {
                Some(r) => r,
                None => Err(unknown_key(key, "[config]", CONFIG_ONLY_KEYS)),
            },
        };
        if let Err(e) = result {
            self.error(line, e);
        }
    }

    fn test_key(&mut self, i: usize, key: &str, value: &str, line: u32) {
        if key == "arg_in" || key == "arg_out" {
            self.arg(i, key == "arg_in", value, line);
            return;
        }
        if multi::KEYS.contains(&key) {
            self.multi_line(i, key, value, line);
            return;
        }
        let t = &mut self.tests[i];
        if let Some(first) = t.seen.insert(key.to_string(), line) {
            self.error(
                line,
                format!("`{key}` is already given at line {first} in this [test]"),
            );
            return;
        }
        let result = match key {
            "name" => check_name(value).map(|()| t.name = Some(value.to_string())),
            _ if CONFIG_ONLY_KEYS.contains(&key) => Err(format!(
                "`{key}` belongs in [config]: it applies to the whole program"
            )),
            _ => match launch_key(&mut t.launch, key, value, line, false) {
                Some(r) => r,
                None => Err(unknown_key(key, "[test]", TEST_ONLY_KEYS)),
            },
        };
        if let Err(e) = result {
            self.error(line, e);
        }
    }

    fn finish(mut self) -> Result<TestFile, Vec<TestFileError>> {
        if self.config.line.is_none() && !self.reported_missing_config {
            let line = self.header_line;
            self.error(
                line,
                "the test header has no [config] section; start it with `[config]` (piglit \
                 requires one, it may be empty)",
            );
        }
        let sections = std::mem::take(&mut self.tests);
        let mut tests = Vec::with_capacity(sections.len());
        for t in sections {
            if let Some(case) = self.finish_test(t) {
                tests.push(case);
            }
        }
        if !self.errors.is_empty() {
            let mut errors = self.errors;
            errors.sort_by_key(|e| e.line);
            errors.dedup();
            return Err(errors);
        }
        let c = self.config;
        Ok(TestFile {
            line: self.header_line,
            name: c.name,
            clc_version_min: c.clc_version_min,
            clc_version_max: c.clc_version_max,
            build_options: c.build_options,
            expect_build_fail: c.expect_build_fail,
            require_device_extensions: c.require_device_extensions,
            other_config: c.other,
            tests,
        })
    }
}
