//! "Did you mean": the closest known name to a misspelt one.

/// The edit distance between two names (insertions, deletions, substitutions and swaps of two
/// neighbouring characters), ignoring case. Time `a.len() * b.len()`, memory three rows.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let m = b.len();
    // Rows i-2, i-1 and i of the table.
    let mut before: Vec<usize> = vec![0; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut row: Vec<usize> = vec![0; m + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            row[j] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[m]
}

/// The longest name compared at all: longer ones are no typo of anything.
const LONGEST: usize = 64;

/// The known name closest to `name`, when it is close enough to be a typo: a third of the
/// name's length, at least one edit for names of three letters or more; case alone always counts.
/// Names over 64 characters are no typo of anything, and known names whose length alone differs
/// by more than the edits allowed are not compared, so the cost is bounded whatever either side is.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if name.chars().nth(LONGEST).is_some() {
        return None;
    }
    let len = name.chars().count();
    let allowed = if len >= 3 { (len / 3).max(1) } else { 0 };
    let longest_bytes = 4 * (len + allowed);
    known
        .into_iter()
        .filter(|k| *k != name && k.len() <= longest_bytes)
        .filter(|k| k.chars().count().abs_diff(len) <= allowed)
        .map(|k| (distance(name, k), k))
        .filter(|&(d, _)| d <= allowed)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_key() {
        let keys = ["allowed", "knock_limit"];
        assert_eq!(did_you_mean("knock_limt", keys), Some("knock_limit"));
        assert_eq!(did_you_mean("knok_limit", keys), Some("knock_limit"));
        assert_eq!(did_you_mean("alowed", keys), Some("allowed"));
        assert_eq!(did_you_mean("colour", keys), None);
    }

    #[test]
    fn short_names_match_only_by_case() {
        let ranks = ["A", "2", "T", "J"];
        assert_eq!(did_you_mean("a", ranks), Some("A"));
        assert_eq!(did_you_mean("1", ranks), None);
    }

    #[test]
    fn long_names_are_not_compared() {
        assert_eq!(did_you_mean(&"k".repeat(10_000), ["knock_limit"]), None);
    }

    #[test]
    fn long_known_names_are_not_compared() {
        let long = "k".repeat(200_000);
        assert_eq!(
            did_you_mean("knock", [long.as_str(), "knick"]),
            Some("knick")
        );
    }

    #[test]
    fn swaps_count_once() {
        assert_eq!(distance("rule", "rlue"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("ca", "abc"), 3);
    }
}
