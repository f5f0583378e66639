//! The keys of a header: which section accepts which key, and the launch keys that `[config]`
//! sets as defaults and a `[test]` may override (`LaunchKeys`, folded by `pick`).

use super::super::values::clip;
use super::super::Tolerance;
use super::tokens::{is_identifier, parse_bool, parse_int_in, parse_sizes, parse_tolerance};

pub(super) const CONFIG_ONLY_KEYS: &[&str] = &[
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

pub(super) const LAUNCH_KEYS: &[&str] = &[
    "kernel_name",
    "dimensions",
    "global_size",
    "local_size",
    "global_offset",
    "expect_test_fail",
    "tolerance",
];

pub(super) const TEST_ONLY_KEYS: &[&str] = &[
    "name", "arg_in", "arg_out", "launch", "pipe", "buffer", "arg", "expect",
];

/// A value and the line it came from.
#[derive(Clone)]
pub(super) struct At<T> {
    pub(super) value: T,
    pub(super) line: u32,
}

/// The values of the launch keys ([`LAUNCH_KEYS`]) one section gives: `[config]` sets them as
/// defaults and a `[test]` may override them (`pick` folds the two). Not a launch itself: the
/// public [`crate::TestCase`] and [`crate::LaunchDecl`] are.
#[derive(Default)]
pub(super) struct LaunchKeys {
    /// `Some(None)` is `kernel_name: NULL` in `[config]`.
    pub(super) kernel_name: Option<At<Option<String>>>,
    pub(super) dimensions: Option<At<u32>>,
    pub(super) global_size: Option<At<[u32; 3]>>,
    pub(super) local_size: Option<At<Option<[u32; 3]>>>,
    pub(super) global_offset: Option<At<[u32; 3]>>,
    pub(super) expect_test_fail: Option<At<bool>>,
    pub(super) tolerance: Option<At<Tolerance>>,
}

/// The section's own value of a launch key, or else the `[config]` default.
pub(super) fn pick<T: Clone>(own: &Option<At<T>>, default: &Option<At<T>>) -> Option<At<T>> {
    own.as_ref().or(default.as_ref()).cloned()
}

/// Handles a key that both `[config]` and `[test]` accept. `None` if `key` is not one.
pub(super) fn launch_key(
    l: &mut LaunchKeys,
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
