//! Authored rulesets, checked once and kept by content hash.
//!
//! A game dealt from an authored ruleset sends its YAML and scripts with every request, so the
//! server would load them again each time. The cache keeps, per content hash, the outcome of
//! loading them (the resolved ruleset, or its problems) and the variants resolved from it with
//! options. The text is held once, behind an `Arc` the variants share. The cache is bounded by
//! the bytes its entries hold, measured as loading allocated them ([`allocation::retained`],
//! where the binary counts allocations; else a conservative estimate from the text), and drops
//! the oldest entries first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::allocation;
use crate::ruleset::AuthoredRuleset;

use super::base::Base;
use super::content_hash::ContentHash;
use super::error::RulesetError;
use super::variant::Variant;

/// The default bound of the cache, in bytes its entries hold.
pub const DEFAULT_CACHE_BYTES: usize = 32 * 1024 * 1024;
/// Most variants (option lists) kept per authored ruleset.
const MAX_VARIANTS_PER_ENTRY: usize = 16;

/// What loading an authored ruleset gave: the ruleset, or its problems (the text of a ruleset
/// that does not load is not kept), and the bytes loading left allocated for it, when measured.
pub(crate) struct Entry {
    pub loaded: Result<Loaded, Vec<RulesetError>>,
    pub held: Option<usize>,
}

/// A ruleset that loads: its text, its base (before options) and its variant without options.
pub(crate) struct Loaded {
    pub authored: Arc<AuthoredRuleset>,
    pub base: Base,
    pub plain: Arc<Variant>,
}

impl Entry {
    /// Loads an entry with `load`, measuring what it holds.
    pub fn load(load: impl FnOnce() -> Result<Loaded, Vec<RulesetError>>) -> Entry {
        let (loaded, held) = allocation::retained(load);
        Entry { loaded, held }
    }

    /// What the entry holds: as measured, plus its text (which the request may have allocated
    /// before loading); else estimated from the text.
    fn bytes(&self) -> usize {
        let text = match &self.loaded {
            Ok(l) => {
                let a = &l.authored;
                a.yaml.len()
                    + a.scripts
                        .iter()
                        .map(|(n, t)| n.len() + t.len())
                        .sum::<usize>()
            }
            Err(errors) => errors
                .iter()
                .map(|e| e.path.len() + e.field.as_ref().map_or(0, String::len) + e.message.len())
                .sum(),
        };
        match (self.held, &self.loaded) {
            (Some(held), _) => held + text + SLOT_BYTES,
            (None, Ok(l)) => {
                let a = &l.authored;
                let scripts: usize = a.scripts.values().map(String::len).sum();
                YAML_FACTOR * a.yaml.len()
                    + SCRIPT_FACTOR * scripts
                    + l.base.options.len() * OPTION_BYTES
                    + ENTRY_BYTES
            }
            (None, Err(errors)) => text + errors.len() * 64 + SLOT_BYTES,
        }
    }
}

/// Bytes of the cache's own bookkeeping per entry (its slot, hash and place in the order).
const SLOT_BYTES: usize = 256;
/// Unmeasured: bytes per byte of YAML (the parsed file, the base and the variant's lists).
const YAML_FACTOR: usize = 16;
/// Unmeasured: bytes per byte of script. Compiled Rhai holds up to about 70 times its text (a
/// 64 KiB script of nested calls, 4.4 MB; see docs/performance.md), and the allocator more.
const SCRIPT_FACTOR: usize = 256;
/// Unmeasured: bytes of one option in the base and a variant's lists.
const OPTION_BYTES: usize = 4 * 1024;
/// Unmeasured: bytes of an entry apart from its text and options.
const ENTRY_BYTES: usize = 24 * 1024;

/// Bytes of a variant resolved with options, apart from the shared text: as measured
/// (`held`), else estimated.
fn variant_bytes(v: &Variant, held: Option<usize>) -> usize {
    held.map_or(
        ENTRY_BYTES / 2 + v.allowed_options.len() * OPTION_BYTES / 2,
        |held| held + SLOT_BYTES,
    )
}

struct Slot {
    entry: Arc<Entry>,
    variants: HashMap<Vec<String>, Arc<Variant>>,
    bytes: usize,
}

#[derive(Default)]
struct Inner {
    slots: HashMap<ContentHash, Slot>,
    /// Oldest first.
    order: VecDeque<ContentHash>,
    bytes: usize,
    /// Entries dropped to make room, since the start.
    evictions: u64,
    /// Entries kept, since the start.
    insertions: u64,
}

impl Inner {
    /// Drops the oldest entries until `room` more bytes fit under `max`; what it dropped.
    fn evict_until(&mut self, room: usize, max: usize) -> Vec<Slot> {
        let mut dropped = Vec::new();
        while self.bytes + room > max {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(s) = self.slots.remove(&old) {
                self.bytes -= s.bytes;
                self.evictions += 1;
                dropped.push(s);
            }
        }
        dropped
    }
}

/// The cache of authored rulesets. `Send + Sync`; one per catalog, shared by every worker.
pub(crate) struct AuthoredCache {
    max_bytes: usize,
    inner: Mutex<Inner>,
}

impl AuthoredCache {
    pub fn new(max_bytes: usize) -> AuthoredCache {
        AuthoredCache {
            max_bytes,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The cache holds no invariant a panic elsewhere could break halfway.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn get(&self, hash: &ContentHash) -> Option<Arc<Entry>> {
        self.lock().slots.get(hash).map(|s| s.entry.clone())
    }

    /// Keeps `entry`, dropping the oldest entries to make room; one larger than the whole cache is
    /// not kept.
    pub fn insert(&self, hash: ContentHash, entry: Arc<Entry>) {
        let bytes = entry.bytes();
        if bytes > self.max_bytes {
            return;
        }
        let mut inner = self.lock();
        if inner.slots.contains_key(&hash) {
            return;
        }
        let dropped = inner.evict_until(bytes, self.max_bytes);
        inner.bytes += bytes;
        inner.insertions += 1;
        inner.order.push_back(hash);
        inner.slots.insert(
            hash,
            Slot {
                entry,
                variants: HashMap::new(),
                bytes,
            },
        );
        drop(inner);
        // Freed outside the lock: dropping a compiled script takes a while.
        drop(dropped);
    }

    pub fn variant(&self, hash: &ContentHash, options: &[String]) -> Option<Arc<Variant>> {
        self.lock().slots.get(hash)?.variants.get(options).cloned()
    }

    /// Keeps a variant of a cached entry, while the entry has room for one more.
    pub fn insert_variant(
        &self,
        hash: &ContentHash,
        options: &[String],
        variant: Arc<Variant>,
        held: Option<usize>,
    ) {
        let bytes = variant_bytes(&variant, held);
        let mut inner = self.lock();
        let max = self.max_bytes;
        let Some(slot) = inner.slots.get(hash) else {
            return;
        };
        if slot.variants.len() >= MAX_VARIANTS_PER_ENTRY || inner.bytes + bytes > max {
            return;
        }
        inner.bytes += bytes;
        if let Some(slot) = inner.slots.get_mut(hash) {
            slot.bytes += bytes;
            slot.variants.insert(options.to_vec(), variant);
        }
    }

    pub fn clear(&self) {
        let mut inner = self.lock();
        *inner = Inner {
            evictions: inner.evictions,
            insertions: inner.insertions,
            ..Inner::default()
        };
    }

    /// Entries held and their estimated bytes.
    pub fn usage(&self) -> CacheUsage {
        let inner = self.lock();
        CacheUsage {
            rulesets: inner.slots.len(),
            variants: inner.slots.values().map(|s| s.variants.len()).sum(),
            bytes: inner.bytes,
            max_bytes: self.max_bytes,
            insertions: inner.insertions,
            evictions: inner.evictions,
        }
    }
}

/// What the authored-ruleset cache holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheUsage {
    /// Authored rulesets (each loaded once, whether or not it loads).
    pub rulesets: usize,
    /// Variants with options, beyond each ruleset's own.
    pub variants: usize,
    /// What they hold, in bytes (measured where the binary counts allocations).
    pub bytes: usize,
    /// The bound of `bytes`.
    pub max_bytes: usize,
    /// Authored rulesets kept since the start.
    pub insertions: u64,
    /// Authored rulesets dropped since the start to make room for others.
    pub evictions: u64,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// An entry of problems whose text takes about `bytes`.
    fn entry(bytes: usize) -> Arc<Entry> {
        Arc::new(Entry {
            loaded: Err(vec![RulesetError {
                path: "ruleset.yaml".into(),
                line: None,
                column: None,
                field: None,
                kind: crate::rules::ErrorKind::Limit,
                message: "x".repeat(bytes),
            }]),
            held: None,
        })
    }

    #[test]
    fn the_oldest_entries_make_room_and_the_bound_holds() {
        let one = entry(1000).bytes();
        let cache = AuthoredCache::new(3 * one);
        let hashes: Vec<ContentHash> = (0..5)
            .map(|i| ContentHash::of(&i.to_string(), &BTreeMap::new()))
            .collect();
        for h in &hashes {
            cache.insert(*h, entry(1000));
            assert!(cache.usage().bytes <= 3 * one);
        }
        assert_eq!(cache.usage().rulesets, 3);
        assert_eq!((cache.usage().insertions, cache.usage().evictions), (5, 2));
        assert!(cache.get(&hashes[0]).is_none() && cache.get(&hashes[1]).is_none());
        assert!(cache.get(&hashes[4]).is_some());
        // Too large for the whole cache: not kept, nothing dropped for it.
        cache.insert(hashes[0], entry(10 * one));
        assert_eq!(cache.usage().rulesets, 3);
        cache.clear();
        assert_eq!(cache.usage().bytes, 0);
    }
}
