//! Name helpers shared by board lookup and the LPF writer: "did you mean" suggestions and the
//! identifier rules that LPF files and Yosys scripts can carry safely.

/// Levenshtein distance over chars (names are short; O(n·m) is fine).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to `max` candidates that look like `query` (case-insensitive): a small edit distance, or
/// one name containing the other (`clk` vs `clk_25mhz`). Closest first, then alphabetical, so
/// messages are deterministic.
pub(crate) fn close_matches<'a>(
    query: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let q = query.to_ascii_lowercase();
    let qn = normalised(&q);
    let limit = (q.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .filter_map(|c| {
            let lc = c.to_ascii_lowercase();
            let d = edit_distance(&q, &lc);
            // Containment, also with separators ignored (`clk25` in `clk_25mhz`); very short
            // queries would contain-match everything.
            let cn = normalised(&lc);
            let contains = (q.len() >= 2 && (lc.contains(&q) || q.contains(&lc)))
                || (qn.len() >= 3 && cn.len() >= 3 && (cn.contains(&qn) || qn.contains(&cn)));
            (d <= limit || contains)
                .then(|| (if contains { d.min(limit) } else { d }, c.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c).collect()
}

/// Lower-case letters and digits only.
fn normalised(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// "; did you mean `a`, `b`?" or nothing.
pub(crate) fn did_you_mean(close: &[String]) -> String {
    if close.is_empty() {
        return String::new();
    }
    let list: Vec<String> = close.iter().map(|c| format!("`{c}`")).collect();
    format!("; did you mean {}?", list.join(", "))
}

/// A plain Verilog identifier: `[A-Za-z_][A-Za-z0-9_$]*`.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Splits `name[3]` into (`name`, Some(3)) and `name` into (`name`, None). `None` if the text
/// is neither (bad brackets, no digits, a bad base name).
pub(crate) fn split_index(s: &str) -> Option<(&str, Option<u32>)> {
    match s.find('[') {
        None => is_identifier(s).then_some((s, None)),
        Some(open) => {
            let base = &s[..open];
            let digits = s[open + 1..].strip_suffix(']')?;
            if !is_identifier(base)
                || digits.is_empty()
                || !digits.chars().all(|c| c.is_ascii_digit())
            {
                return None;
            }
            Some((base, Some(digits.parse().ok()?)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("led", "leds"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggestions_are_close_and_ordered() {
        let cands = ["clk_25mhz", "sdram_clk", "led[0]", "led[1]", "btn[0]"];
        assert_eq!(
            close_matches("clk", cands, 5),
            vec!["clk_25mhz", "sdram_clk"]
        );
        assert_eq!(close_matches("led[9]", cands, 5), vec!["led[0]", "led[1]"]);
        assert!(close_matches("zzzzzz", cands, 5).is_empty());
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(
            did_you_mean(&["a".into(), "b".into()]),
            "; did you mean `a`, `b`?"
        );
    }

    #[test]
    fn identifiers_and_indices() {
        assert!(is_identifier("clk_25mhz"));
        assert!(!is_identifier("2x"));
        assert!(!is_identifier("a b"));
        assert_eq!(split_index("led[7]"), Some(("led", Some(7))));
        assert_eq!(split_index("led"), Some(("led", None)));
        assert_eq!(split_index("led[]"), None);
        assert_eq!(split_index("led[x]"), None);
        assert_eq!(split_index("led[1"), None);
        assert_eq!(split_index("[1]"), None);
        assert_eq!(split_index("led[99999999999]"), None);
    }
}
