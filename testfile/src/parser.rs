//! The header parser: a section state machine over logical lines.
//!
//! Each logical line is a `[section]` or a `key: value`. Keys are dispatched by section
//! (`config_key`, `test_key`, and `launch_key` for the keys both accept); argument lines are
//! decoded into bytes as soon as they are read, since each carries its own type. `[config]`
//! defaults are folded into the tests at the end, when every key is known. Problems are
//! collected, not returned at the first one, and parsing goes on with the next line.

mod multi;

use std::collections::{BTreeMap, BTreeSet};

use super::header::{self, Header, Line};
use super::types::{ScalarType, ValueType};
use super::values::{self, clip, Values};
use super::{Arg, ArgKind, Expect, TestCase, TestFile, TestFileError, Tolerance};

/// Largest total of argument bytes one file may ask for (each argument is also limited to
/// [`values::MAX_BUFFER_BYTES`]).
const MAX_FILE_BYTES: u64 = 256 << 20;

const CONFIG_ONLY_KEYS: &[&str] = &[
    "name",
    "clc_version_min",
    "clc_version_max",
    "build_options",
    "expect_build_fail",
    "require_device_extensions",
    "require_platform_extensions",
    "require_device_features",
    "platform_regex",
    "device_regex",
    "need_image_support",
];
const LAUNCH_KEYS: &[&str] = &[
    "kernel_name",
    "dimensions",
    "global_size",
    "local_size",
    "global_offset",
    "expect_test_fail",
    "tolerance",
];
const TEST_ONLY_KEYS: &[&str] = &[
    "name", "arg_in", "arg_out", "launch", "pipe", "buffer", "arg", "expect",
];

/// A value and the line it came from.
#[derive(Clone)]
struct At<T> {
    value: T,
    line: u32,
}

/// Keys that `[config]` sets as defaults and a `[test]` may override.
#[derive(Default)]
struct Launch {
    /// `Some(None)` is `kernel_name: NULL` in `[config]`.
    kernel_name: Option<At<Option<String>>>,
    dimensions: Option<At<u32>>,
    global_size: Option<At<[u32; 3]>>,
    local_size: Option<At<Option<[u32; 3]>>>,
    global_offset: Option<At<[u32; 3]>>,
    expect_test_fail: Option<At<bool>>,
    tolerance: Option<At<Tolerance>>,
}

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
    launch: Launch,
}

struct TestSection {
    line: u32,
    /// 1-based position among the `[test]` sections.
    number: u32,
    seen: BTreeMap<String, u32>,
    name: Option<String>,
    launch: Launch,
    /// Every argument index named by an `arg_in`/`arg_out` line, including lines with errors
    /// (so that a typo in one line does not also report its argument as missing).
    mentioned: BTreeSet<u32>,
    ins: BTreeMap<u32, ParsedArg>,
    outs: BTreeMap<u32, ParsedArg>,
    /// `launch:`, `pipe:`, `buffer:`, `arg:`, `expect:` lines (a multi-kernel test).
    multi: multi::Lines,
}

/// One `arg_in:`/`arg_out:` line, decoded.
struct ParsedArg {
    line: u32,
    /// `arg_in: 1 buffer int[4]`, for messages.
    head: String,
    kind: ParsedKind,
}

enum ParsedKind {
    Value {
        ty: ValueType,
        bytes: Vec<u8>,
    },
    Buffer {
        ty: ValueType,
        len: u32,
        bytes: Vec<u8>,
        tolerance: Option<Tolerance>,
    },
    Null {
        ty: ValueType,
        len: u32,
    },
    Local {
        ty: ValueType,
        len: u32,
    },
}

impl ParsedKind {
    fn describe(&self) -> &'static str {
        match self {
            ParsedKind::Value { .. } => "a by-value argument",
            ParsedKind::Buffer { .. } => "a buffer",
            ParsedKind::Null { .. } => "a NULL buffer",
            ParsedKind::Local { .. } => "local memory",
        }
    }
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
    /// Argument bytes decoded so far, against [`MAX_FILE_BYTES`].
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
                    launch: Launch::default(),
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

    /// `arg_in:` / `arg_out:` in test `i`.
    fn arg(&mut self, i: usize, input: bool, value: &str, line: u32) {
        let key = if input { "arg_in" } else { "arg_out" };
        if let Some(index) = value
            .split_whitespace()
            .next()
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
        {
            self.tests[i].mentioned.insert(index);
        }
        match self.decode_arg(i, key, input, value, line) {
            Ok((index, arg)) => {
                let t = &mut self.tests[i];
                let map = if input { &mut t.ins } else { &mut t.outs };
                if let Some(first) = map.get(&index) {
                    let first = first.line;
                    self.error(
                        line,
                        format!(
                            "`{key}` for argument {index} is already given at line {first}; each \
                             argument has at most one arg_in and one arg_out line"
                        ),
                    );
                } else {
                    map.insert(index, arg);
                }
            }
            Err(e) => self.error(line, e),
        }
    }

    fn decode_arg(
        &mut self,
        i: usize,
        key: &str,
        input: bool,
        value: &str,
        line: u32,
    ) -> Result<(u32, ParsedArg), String> {
        let shown = clip(value);
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let (&index_tok, rest) = tokens
            .split_first()
            .ok_or_else(|| format!("`{key}:` has no value"))?;
        let index = if index_tok.bytes().all(|b| b.is_ascii_digit()) {
            index_tok.parse::<u32>().ok()
        } else {
            None
        }
        .ok_or_else(|| {
            format!(
                "`{key}: {shown}`: the argument index `{index_tok}` must be a number from 0 (the \
                 kernel's first argument)"
            )
        })?;
        let Some((&what, rest)) = rest.split_first() else {
            return Err(format!(
                "`{key}: {index}` needs a type and values, e.g. `{key}: {index} buffer int[4] 1 2 \
                 3 4` or `{key}: {index} int 5`"
            ));
        };
        // `random` without a seed draws from a seed fixed by the position of the argument, so
        // values do not change from run to run (documented in test-format.md).
        let default_seed = 1000 * self.tests[i].number as u64 + index as u64;
        let kind = match what {
            "buffer" | "local" => {
                let Some((&spec, values)) = rest.split_first() else {
                    return Err(format!(
                        "`{key}: {index} {what}` needs `<type>[<count>]`, e.g. `{key}: {index} \
                         {what} float[16]`"
                    ));
                };
                let (ty, len) = parse_array_spec(spec)?;
                let head = format!("{key}: {index} {what} {spec}");
                values::check_size(ty, len, &head)?;
                if what == "local" {
                    if !input {
                        return Err(format!(
                            "{head}: local memory cannot be an arg_out (the host cannot read \
                             it); use `arg_in: {index} local {spec}`"
                        ));
                    }
                    if !values.is_empty() {
                        return Err(format!(
                            "{head} takes no values: local memory starts undefined; found `{}`",
                            clip(&values.join(" "))
                        ));
                    }
                    return Ok((
                        index,
                        ParsedArg {
                            line,
                            head,
                            kind: ParsedKind::Local { ty, len },
                        },
                    ));
                }
                let (value_tokens, tolerance) = split_tolerance(values);
                let tolerance = match tolerance {
                    Some(_) if input => {
                        return Err(format!(
                            "{head}: a tolerance belongs on the arg_out line of the buffer"
                        ))
                    }
                    Some(t) => Some(
                        parse_tolerance(t, Some(ty.scalar)).map_err(|e| format!("{head}: {e}"))?,
                    ),
                    None => None,
                };
                let vals = Values::classify(value_tokens).map_err(|e| format!("{head}: {e}"))?;
                match vals {
                    Values::Null if input => ParsedKind::Null { ty, len },
                    Values::Null => {
                        return Err(format!(
                            "{head}: an arg_out buffer cannot be NULL; give the values the \
                             kernel must produce"
                        ))
                    }
                    Values::Random(_) if !input => {
                        return Err(format!(
                            "{head}: an arg_out buffer cannot be random; give the values the \
                             kernel must produce"
                        ))
                    }
                    _ => {
                        let bytes = self.decode_values(ty, len, &vals, &head, default_seed)?;
                        ParsedKind::Buffer {
                            ty,
                            len,
                            bytes,
                            tolerance,
                        }
                    }
                }
            }
            "image" | "sampler" => {
                return Err(format!(
                    "`{key}: {index} {what}`: {what} arguments are not supported (the device has \
                     no images); pass the data in a buffer"
                ))
            }
            type_name => {
                let Some(ty) = ValueType::parse(type_name) else {
                    return Err(format!(
                        "unknown type `{type_name}` in `{key}: {shown}`{}; expected `buffer \
                         <type>[<count>]`, `local <type>[<count>]`, or a by-value type such as \
                         int, uint4 or float",
                        suggest_type(type_name)
                    ));
                };
                if !input {
                    return Err(format!(
                        "`arg_out: {index} {type_name}`: arg_out takes only buffers, e.g. \
                         `arg_out: {index} buffer {type_name}[1] <values>`"
                    ));
                }
                let head = format!("{key}: {index} {type_name}");
                let (value_tokens, tolerance) = split_tolerance(rest);
                if tolerance.is_some() {
                    return Err(format!(
                        "{head}: a tolerance belongs on an arg_out buffer line"
                    ));
                }
                let vals = Values::classify(value_tokens).map_err(|e| format!("{head}: {e}"))?;
                match vals {
                    // piglit sets the argument to NULL with the type's size: local memory.
                    Values::Null => ParsedKind::Local { ty, len: 1 },
                    _ => ParsedKind::Value {
                        ty,
                        bytes: self.decode_values(ty, 1, &vals, &head, default_seed)?,
                    },
                }
            }
        };
        let head = match &kind {
            ParsedKind::Value { ty, .. } => format!("{key}: {index} {ty}"),
            ParsedKind::Buffer { ty, len, .. } | ParsedKind::Null { ty, len } => {
                format!("{key}: {index} buffer {ty}[{len}]")
            }
            ParsedKind::Local { ty, len } => format!("{key}: {index} local {ty}[{len}]"),
        };
        Ok((index, ParsedArg { line, head, kind }))
    }

    fn decode_values(
        &mut self,
        ty: ValueType,
        len: u32,
        vals: &Values<'_>,
        head: &str,
        default_seed: u64,
    ) -> Result<Vec<u8>, String> {
        let bytes = values::check_size(ty, len, head)?;
        if self.allocated + bytes > MAX_FILE_BYTES {
            return Err(format!(
                "{head}: the arguments of this file would need more than {} MiB; make the \
                 buffers smaller",
                MAX_FILE_BYTES >> 20
            ));
        }
        let out = values::fill(ty, len, vals, head, default_seed)?;
        self.allocated += bytes;
        Ok(out)
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

    /// Applies the `[config]` defaults to a test and checks it as a whole.
    fn finish_test(&mut self, t: TestSection) -> Option<TestCase> {
        if t.multi.first.is_some() {
            return self.finish_multi(t);
        }
        let d = &self.config.launch;
        let kernel_name = pick(&t.launch.kernel_name, &d.kernel_name).and_then(|k| k.value);
        let dimensions = pick(&t.launch.dimensions, &d.dimensions).map_or(1, |a| a.value);
        let mut global_size =
            pick(&t.launch.global_size, &d.global_size).map_or([1; 3], |a| a.value);
        let local = pick(&t.launch.local_size, &d.local_size);
        let mut global_offset =
            pick(&t.launch.global_offset, &d.global_offset).map_or([0; 3], |a| a.value);
        let expect_test_fail =
            pick(&t.launch.expect_test_fail, &d.expect_test_fail).is_some_and(|a| a.value);
        let tolerance =
            pick(&t.launch.tolerance, &d.tolerance).map_or(Tolerance::Exact, |a| a.value);

        let mut ok = true;
        if kernel_name.is_none() {
            let what = t
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" `{n}`"));
            self.error(
                t.line,
                format!(
                    "test{what} has no kernel_name; add `kernel_name: <kernel>` to this [test] or \
                     to [config]"
                ),
            );
            ok = false;
        }
        let mut local_size = local.as_ref().map_or(Some([1; 3]), |a| a.value);
        if let (Some(l), Some(at)) = (local_size.as_mut(), local.as_ref()) {
            if let Some(d0) = (0..dimensions as usize).find(|&k| l[k] == 0) {
                self.error(
                    at.line,
                    format!(
                        "local_size is 0 in dimension {d0}, which is used (dimensions: \
                         {dimensions}); a work-group has at least one work-item per dimension"
                    ),
                );
                ok = false;
            }
        }
        // Entries past `dimensions` are never read by the enqueue; make them neutral.
        for k in dimensions as usize..3 {
            global_size[k] = 1;
            global_offset[k] = 0;
            if let Some(l) = local_size.as_mut() {
                l[k] = 1;
            }
        }

        let mut ins = t.ins;
        let mut outs = t.outs;
        let indices = t.mentioned;
        let mut args = Vec::with_capacity(indices.len());
        for (expected, &index) in indices.iter().enumerate() {
            if expected as u32 != index {
                let given: Vec<String> = indices.iter().map(u32::to_string).collect();
                self.error(
                    t.line,
                    format!(
                        "argument {expected} is missing (this test gives arguments {}); every \
                         kernel argument needs an `arg_in:` or `arg_out:` line",
                        given.join(", ")
                    ),
                );
                ok = false;
                break;
            }
            let arg_in = ins.remove(&index);
            let arg_out = outs.remove(&index);
            match self.merge_arg(index, arg_in, arg_out, tolerance) {
                Some(a) => args.push(a),
                None => ok = false,
            }
        }
        let (Some(kernel_name), true) = (kernel_name, ok) else {
            return None;
        };
        let name = t
            .name
            .unwrap_or_else(|| format!("{kernel_name} #{}", t.number));
        Some(TestCase {
            name,
            line: t.line,
            kernel_name,
            dimensions,
            global_size,
            local_size,
            global_offset,
            build_options: self.config.build_options.clone(),
            expect_test_fail,
            args,
            multi: None,
        })
    }

    fn merge_arg(
        &mut self,
        index: u32,
        arg_in: Option<ParsedArg>,
        arg_out: Option<ParsedArg>,
        default_tolerance: Tolerance,
    ) -> Option<Arg> {
        let expect = |line: u32, ty: ValueType, bytes: Vec<u8>, own: Option<Tolerance>| Expect {
            line,
            bytes,
            // A default tolerance is for float results; integers stay exact unless their own
            // line says otherwise.
            tolerance: own.unwrap_or(if ty.scalar.is_float() {
                default_tolerance
            } else {
                Tolerance::Exact
            }),
        };
        let (line, kind) = match (arg_in, arg_out) {
            (None, None) => return None,
            (Some(a), None) => (
                a.line,
                match a.kind {
                    ParsedKind::Value { ty, bytes } => ArgKind::Scalar { ty, bytes },
                    ParsedKind::Buffer { ty, len, bytes, .. } => ArgKind::Buffer {
                        ty,
                        len,
                        input: Some(bytes),
                        expect: None,
                    },
                    ParsedKind::Null { ty, len } => ArgKind::NullBuffer { ty, len },
                    ParsedKind::Local { ty, len } => ArgKind::Local { ty, len },
                },
            ),
            (None, Some(b)) => match b.kind {
                ParsedKind::Buffer {
                    ty,
                    len,
                    bytes,
                    tolerance,
                } => (
                    b.line,
                    ArgKind::Buffer {
                        ty,
                        len,
                        input: None,
                        expect: Some(expect(b.line, ty, bytes, tolerance)),
                    },
                ),
                // arg_out lines are decoded as buffers only.
                _ => return None,
            },
            (Some(a), Some(b)) => {
                let ParsedKind::Buffer { bytes: input, .. } = a.kind else {
                    self.error(
                        b.line,
                        format!(
                            "`{}` is a buffer but `{}` (line {}) is {}; an argument given by both \
                             arg_in and arg_out is one buffer",
                            b.head,
                            a.head,
                            a.line,
                            a.kind.describe()
                        ),
                    );
                    return None;
                };
                let ParsedKind::Buffer {
                    ty,
                    len,
                    bytes,
                    tolerance,
                } = b.kind
                else {
                    return None;
                };
                if input.len() != bytes.len() {
                    self.error(
                        b.line,
                        format!(
                            "`{}` is {} bytes but `{}` (line {}) is {} bytes; an in/out buffer \
                             has one size",
                            b.head,
                            bytes.len(),
                            a.head,
                            a.line,
                            input.len()
                        ),
                    );
                    return None;
                }
                (
                    a.line.min(b.line),
                    ArgKind::Buffer {
                        ty,
                        len,
                        input: Some(input),
                        expect: Some(expect(b.line, ty, bytes, tolerance)),
                    },
                )
            }
        };
        Some(Arg { index, line, kind })
    }
}

fn pick<T: Clone>(own: &Option<At<T>>, default: &Option<At<T>>) -> Option<At<T>> {
    own.as_ref().or(default.as_ref()).cloned()
}

/// Handles a key that both `[config]` and `[test]` accept. `None` if `key` is not one.
fn launch_key(
    l: &mut Launch,
    key: &str,
    value: &str,
    line: u32,
    in_config: bool,
) -> Option<Result<(), String>> {
    let shown = clip(value);
    fn at<T>(value: T, line: u32) -> At<T> {
        At { value, line }
    }
    Some(match key {
        "kernel_name" => {
            if value == "NULL" || value == "null" {
                if in_config {
                    l.kernel_name = Some(at(None, line));
                    Ok(())
                } else {
                    Err(
                        "`kernel_name: NULL` is only meaningful in [config]; name the kernel this \
                         test runs"
                            .to_string(),
                    )
                }
            } else if is_identifier(value) {
                l.kernel_name = Some(at(Some(value.to_string()), line));
                Ok(())
            } else {
                Err(format!(
                    "`kernel_name: {shown}` is not a kernel name; give the name of a kernel \
                     function of this file"
                ))
            }
        }
        "dimensions" => match parse_int_in(value, 1, 3) {
            Some(d) => {
                l.dimensions = Some(at(d as u32, line));
                Ok(())
            }
            None => Err(format!(
                "`dimensions: {shown}`: give the number of work dimensions, 1, 2 or 3"
            )),
        },
        "global_size" => parse_sizes(key, value).map(|s| l.global_size = Some(at(s, line))),
        "local_size" if value == "NULL" || value == "null" => {
            l.local_size = Some(at(None, line));
            Ok(())
        }
        "local_size" => parse_sizes(key, value).map(|s| l.local_size = Some(at(Some(s), line))),
        "global_offset" if value == "NULL" || value == "null" => {
            l.global_offset = Some(at([0; 3], line));
            Ok(())
        }
        "global_offset" => parse_sizes(key, value).map(|s| l.global_offset = Some(at(s, line))),
        "expect_test_fail" => {
            parse_bool(key, value).map(|b| l.expect_test_fail = Some(at(b, line)))
        }
        "tolerance" => {
            let tokens: Vec<&str> = value.split_whitespace().collect();
            parse_tolerance(&tokens, None)
                .map(|t| l.tolerance = Some(at(t, line)))
                .map_err(|e| format!("`tolerance: {shown}`: {e}"))
        }
        _ => return None,
    })
}

/// Splits `key: value` (key of letters, digits and `_`). The value may be empty.
fn split_key_value(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once(':')?;
    let key = key.trim();
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    Some((key, value.trim()))
}

fn words(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_string).collect()
}

fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// piglit rejects `/` and `%` in names: it uses them in result paths and printf formats.
fn check_name(name: &str) -> Result<(), String> {
    match name.chars().find(|c| matches!(c, '/' | '%')) {
        Some(c) => Err(format!(
            "test name `{name}` contains `{c}`; names may not contain `/` or `%`"
        )),
        None => Ok(()),
    }
}

fn parse_bool(key: &str, value: &str) -> Result<bool, String> {
    let shown = clip(value);
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("`{key}: {shown}`: give true or false (or 1 or 0)")),
    }
}

fn parse_version(key: &str, value: &str) -> Result<u32, String> {
    let shown = clip(value);
    parse_int_in(value, 0, u32::MAX as i128)
        .map(|v| v as u32)
        .ok_or_else(|| {
            format!("`{key}: {shown}`: give the OpenCL C version times 10, e.g. 12 for 1.2")
        })
}

fn parse_int_in(tok: &str, lo: i128, hi: i128) -> Option<i128> {
    values::parse_int(tok)
        .ok()
        .filter(|v| (lo..=hi).contains(v))
}

/// Three sizes, one per dimension, as piglit requires.
fn parse_sizes(key: &str, value: &str) -> Result<[u32; 3], String> {
    let shown = clip(value);
    let tokens: Vec<&str> = value.split_whitespace().collect();
    let [a, b, c] = tokens[..] else {
        return Err(format!(
            "`{key}: {shown}`: give 3 numbers, one per dimension, e.g. `{key}: 64 1 1`; entries \
             past `dimensions` are ignored"
        ));
    };
    let mut out = [0u32; 3];
    for (slot, tok) in out.iter_mut().zip([a, b, c]) {
        *slot = parse_int_in(tok, 0, u32::MAX as i128).ok_or_else(|| {
            format!(
                "`{key}: {shown}`: `{}` is not a size from 0 to {} (size_t is 32 bits on \
                     this device)",
                clip(tok),
                u32::MAX
            )
        })? as u32;
    }
    Ok(out)
}

/// `int4[16]` → (int4, 16).
fn parse_array_spec(spec: &str) -> Result<(ValueType, u32), String> {
    let shape_error =
        || format!("expected `<type>[<count>]` such as `float[16]` or `int4[2]`, found `{spec}`");
    let (type_name, count) = spec
        .strip_suffix(']')
        .and_then(|s| s.split_once('['))
        .ok_or_else(shape_error)?;
    let ty = ValueType::parse(type_name).ok_or_else(|| {
        format!(
            "unknown type `{type_name}` in `{spec}`{}; expected an OpenCL type such as int, \
             uchar16 or float4",
            suggest_type(type_name)
        )
    })?;
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(shape_error());
    }
    let len = count
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= u32::MAX as u64)
        .ok_or_else(|| format!("`{spec}`: the count {count} is too large"))?;
    if len == 0 {
        return Err(format!("`{spec}`: a buffer holds at least 1 element"));
    }
    Ok((ty, len as u32))
}

/// Splits `values... tolerance <x> [ulp]` at the `tolerance` word.
fn split_tolerance<'a, 'b>(tokens: &'b [&'a str]) -> (&'b [&'a str], Option<&'b [&'a str]>) {
    match tokens.iter().position(|t| *t == "tolerance") {
        Some(i) => (&tokens[..i], Some(&tokens[i + 1..])),
        None => (tokens, None),
    }
}

/// `<x>` or `<x> ulp`. `scalar` is the buffer's type (`None` for the `tolerance:` key, which
/// applies to float outputs only).
fn parse_tolerance(tokens: &[&str], scalar: Option<ScalarType>) -> Result<Tolerance, String> {
    let is_int = scalar.is_some_and(|s| !s.is_float());
    match tokens {
        [x, "ulp"] => {
            if is_int {
                return Err(format!(
                    "`tolerance {x} ulp` is for float types; for integers write `tolerance <n>` \
                     (the largest allowed difference)"
                ));
            }
            parse_int_in(x, 0, u64::MAX as i128)
                .map(|n| Tolerance::Ulp(n as u64))
                .ok_or_else(|| format!("`tolerance {x} ulp`: give a whole number of ulps"))
        }
        [x] if is_int => parse_int_in(x, 0, u64::MAX as i128)
            .map(|n| Tolerance::Abs(n as f64))
            .ok_or_else(|| {
                format!("`tolerance {x}`: give the largest allowed difference, a whole number >= 0")
            }),
        [x] => match values::parse_float(x) {
            Ok(v) if v >= 0.0 => Ok(Tolerance::Abs(v)),
            _ => Err(format!(
                "`tolerance {x}`: give the largest allowed difference, a number >= 0, or \
                 `tolerance <n> ulp`"
            )),
        },
        _ => Err(format!(
            "cannot read `tolerance {}`; write `tolerance <x>` or `tolerance <n> ulp` after the \
             values",
            clip(&tokens.join(" "))
        )),
    }
}

fn unknown_key(key: &str, section: &str, own: &[&str]) -> String {
    let mut known: Vec<&str> = own.to_vec();
    known.extend_from_slice(LAUNCH_KEYS);
    format!(
        "unknown key `{key}` in {section}{}; expected one of {}",
        closest(key, &known).map_or(String::new(), |c| format!(" (did you mean `{c}`?)")),
        known.join(", ")
    )
}

/// The candidate closest to a misspelt `word`, if one is close.
fn closest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|&(d, c)| d > 0 && d <= 2.max(c.len() / 4))
        .min()
        .map(|(_, c)| c)
}

fn suggest_type(name: &str) -> String {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (base, digits) = name.split_at(split);
    let names: Vec<&str> = super::ScalarType::ALL.iter().map(|s| s.name()).collect();
    match names
        .iter()
        .map(|c| (edit_distance(base, c), *c))
        .filter(|&(d, _)| d > 0 && d <= 2)
        .min()
    {
        Some((_, c)) => format!(" (did you mean `{c}{digits}`?)"),
        None => String::new(),
    }
}

/// Levenshtein distance, for suggestions on short words (keys and type names).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
