//! Did-you-mean hints for misspelt keys, sections and type names.

use super::super::types::ScalarType;
use super::keys::LAUNCH_KEYS;

/// The message for a key `section` does not accept: the closest known key and all of them.
pub(super) fn unknown_key(key: &str, section: &str, own: &[&str]) -> String {
    let mut known: Vec<&str> = own.to_vec();
    known.extend_from_slice(LAUNCH_KEYS);
    format!(
        "unknown key `{key}` in {section}{}; expected one of {}",
        closest(key, &known).map_or(String::new(), |c| format!(" (did you mean `{c}`?)")),
        known.join(", ")
    )
}

/// The candidate closest to a misspelt `word`, if one is close.
pub(super) fn closest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|&(d, c)| d > 0 && d <= 2.max(c.len() / 4))
        .min()
        .map(|(_, c)| c)
}

/// ` (did you mean `int4`?)` for a misspelt type name, or nothing.
pub(super) fn suggest_type(name: &str) -> String {
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    let (base, digits) = name.split_at(split);
    let names: Vec<&str> = ScalarType::ALL.iter().map(|s| s.name()).collect();
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
