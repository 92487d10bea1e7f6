//! A ruleset with its `extends` chain applied, before options.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::script::{Binding, HookPoint};
use super::source::{HookOverlay, Source};
use super::spec::{Loc, OptionSpec, Sections};

/// An option as the resolved ruleset offers it.
#[derive(Clone)]
pub(crate) struct OptionEntry {
    pub id: String,
    pub file: Arc<str>,
    pub spec: OptionSpec,
    pub hooks: HookOverlay,
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
                Some(spec) => {
                    options.insert(
                        id.clone(),
                        OptionEntry {
                            id: id.clone(),
                            file: s.file.clone(),
                            spec: spec.clone(),
                            hooks: s.option_hooks.get(id).cloned().unwrap_or_default(),
                        },
                    );
                }
            }
        }
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
    })
}
