//! "Did you mean": the closest known name to a misspelt one.

/// The edit distance between two names (insertions, deletions, substitutions and swaps of two
/// neighbouring characters), ignoring case.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[n][m]
}

/// The known name closest to `name`, when it is close enough to be a typo: a third of the
/// name's length, at least one edit for names of three letters or more; case alone always counts.
/// Names over 64 characters are no typo of anything.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = name.chars().count();
    if len > 64 {
        return None;
    }
    let allowed = if len >= 3 { (len / 3).max(1) } else { 0 };
    known
        .into_iter()
        .filter(|k| *k != name)
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
    fn swaps_count_once() {
        assert_eq!(distance("rule", "rlue"), 1);
        assert_eq!(distance("", "abc"), 3);
    }
}
