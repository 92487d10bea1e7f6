//! A ruleset with its `extends` chain applied, before options.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::script::{Binding, HookPoint};
use super::source::{HookOverlay, Source};
use super::spec::{Loc, OptionSpec, Sections, Written};

/// An option as the resolved ruleset offers it.
#[derive(Clone)]
pub(crate) struct OptionEntry {
    pub id: String,
    pub file: Arc<str>,
    pub spec: OptionSpec,
    pub hooks: HookOverlay,
    /// What of the leaf file the option may replace (its own `replaces`, or the leaf's
    /// amendment of an inherited option).
    pub replaces: Vec<Loc<String>>,
}

impl OptionEntry {
    /// The hook points and fields the option sets when chosen.
    pub fn writes(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .spec
            .sections()
            .written()
            .into_iter()
            .map(|w| w.key)
            .collect();
        keys.extend(self.hooks.iter().map(|(p, _)| p.name().to_string()));
        keys
    }
}

/// A ruleset with its `extends` chain applied, before options.
pub(crate) struct Base {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub file: Arc<str>,
    pub seats: Option<Loc<i64>>,
    pub sections: Sections,
    pub hooks: [Option<Binding>; HookPoint::COUNT],
    pub options: BTreeMap<String, OptionEntry>,
    /// The fields and hook points the leaf file itself sets, with their places in it.
    pub own: Vec<Written>,
}

/// Applies a hook overlay to a table of bindings.
pub(crate) fn apply_hooks(table: &mut [Option<Binding>; HookPoint::COUNT], overlay: &HookOverlay) {
    for (point, binding) in overlay {
        table[point.index()] = binding.clone();
    }
}

/// Applies a chain of sources, root first, over the defaults.
pub(crate) fn base_of(chain: &[&Source]) -> Option<Base> {
    let leaf = chain.last()?;
    let mut sections = Sections::default();
    let mut hooks: [Option<Binding>; HookPoint::COUNT] = Default::default();
    let mut options: BTreeMap<String, OptionEntry> = BTreeMap::new();
    let mut seats = None;
    for s in chain {
        sections.overlay(&s.spec.sections(), &s.file);
        apply_hooks(&mut hooks, &s.hooks);
        if let Some(n) = &s.spec.seats {
            seats = Some(n.clone().in_file(&s.file));
        }
        for (id, option) in s.spec.options.iter().flatten() {
            match option {
                None => {
                    options.remove(id);
                }
                Some(spec) if spec.only_replaces() && options.contains_key(id) => {
                    if let Some(entry) = options.get_mut(id) {
                        entry
                            .replaces
                            .clone_from(spec.replaces.as_ref().unwrap_or(&Vec::new()));
                        for r in &mut entry.replaces {
                            *r = r.clone().in_file(&s.file);
                        }
                    }
                }
                Some(spec) => {
                    options.insert(
                        id.clone(),
                        OptionEntry {
                            id: id.clone(),
                            file: s.file.clone(),
                            spec: spec.clone(),
                            hooks: s.option_hooks.get(id).cloned().unwrap_or_default(),
                            replaces: spec
                                .replaces
                                .iter()
                                .flatten()
                                .map(|r| r.clone().in_file(&s.file))
                                .collect(),
                        },
                    );
                }
            }
        }
    }
    let mut own: Vec<Written> = leaf.spec.sections().written();
    for (point, binding) in leaf.spec.hooks.iter().flat_map(|h| h.bindings()) {
        if let Some(Some(h)) = binding {
            own.push(Written::at(point.to_string(), &h.script));
        }
    }
    for w in &mut own {
        w.place = w.place.clone().in_file(&leaf.file);
    }
    Some(Base {
        id: leaf.spec.id.value.clone(),
        name: leaf.spec.name.value.trim().to_string(),
        summary: leaf
            .spec
            .summary
            .as_ref()
            .map(|s| s.value.trim().to_string())
            .unwrap_or_default(),
        file: leaf.file.clone(),
        seats,
        sections,
        hooks,
        options,
        own,
    })
}
