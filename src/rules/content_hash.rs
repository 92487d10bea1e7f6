//! The content hash of an authored ruleset: what the cache keeps it by and what a resolved
//! variant carries.

use std::collections::BTreeMap;
use std::fmt;

use sha2::{Digest, Sha256};

/// SHA-256 of an authored ruleset's YAML and scripts: the same text gives the same hash on any
/// server.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentHash([u8; 32]);

impl ContentHash {
    /// The hash of `yaml` and `scripts`: each part length-prefixed, scripts in name order.
    pub fn of(yaml: &str, scripts: &BTreeMap<String, String>) -> ContentHash {
        let mut h = Sha256::new();
        let mut part = |bytes: &[u8]| {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        };
        part(b"gin-rules authored ruleset 1");
        part(yaml.as_bytes());
        for (name, text) in scripts {
            part(name.as_bytes());
            part(text.as_bytes());
        }
        ContentHash(h.finalize().into())
    }

    /// Lower-case hex, 64 digits.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", self.hex())
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripts(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn the_hash_covers_every_part_and_its_boundaries() {
        let a = ContentHash::of("id: a", &scripts(&[("x.rhai", "fn f(c) {1}")]));
        assert_eq!(
            a,
            ContentHash::of("id: a", &scripts(&[("x.rhai", "fn f(c) {1}")]))
        );
        assert_ne!(
            a,
            ContentHash::of("id: b", &scripts(&[("x.rhai", "fn f(c) {1}")]))
        );
        assert_ne!(
            a,
            ContentHash::of("id: a", &scripts(&[("y.rhai", "fn f(c) {1}")]))
        );
        // Moving bytes from the name to the text changes it.
        assert_ne!(
            ContentHash::of("", &scripts(&[("ab", "c")])),
            ContentHash::of("", &scripts(&[("a", "bc")]))
        );
        assert_eq!(a.hex().len(), 64);
    }
}
