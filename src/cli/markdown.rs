//! Markdown for the generated pages: table cells and heading anchors.

/// A table cell: one line, pipes escaped.
pub fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The GitHub anchor of a heading: lower case, spaces to dashes, punctuation but `-` and `_`
/// dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_github() {
        assert_eq!(
            anchor("Standard Gin Rummy (standard)"),
            "standard-gin-rummy-standard"
        );
        assert_eq!(
            anchor("Four players (four-player)"),
            "four-players-four-player"
        );
    }

    #[test]
    fn cells_stay_on_one_line() {
        assert_eq!(cell("a |\n b"), "a \\| b");
    }
}
