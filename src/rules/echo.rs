//! How much of a client's text a message repeats: a name or id sent with a request may be of
//! any length, and an answer that quotes it must not be.

use std::borrow::Cow;

/// Most characters of a name or id sent by a client that a message repeats.
pub const MAX_ECHO: usize = 64;

/// `s` as a message may repeat it: whole when short, else its first characters and its length.
pub fn shown(s: &str) -> Cow<'_, str> {
    if s.chars().nth(MAX_ECHO).is_none() {
        return Cow::Borrowed(s);
    }
    let head: String = s.chars().take(MAX_ECHO - 16).collect();
    Cow::Owned(format!("{head}… ({} bytes)", s.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_shown_cut_with_their_length() {
        assert_eq!(shown("oklahoma"), "oklahoma");
        let long = "é".repeat(100_000);
        let s = shown(&long);
        assert!(s.len() < 120, "{s}");
        assert!(s.ends_with("… (200000 bytes)"), "{s}");
        let exactly = "x".repeat(MAX_ECHO);
        assert_eq!(shown(&exactly), exactly.as_str());
    }
}
