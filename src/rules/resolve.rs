//! Resolving a ruleset (its `extends` chain applied) with options into a playable [`Variant`]:
//! picking the options, applying them, building the rules and binding the hooks.

use std::sync::Arc;

use crate::engine::hooks::{Hooks, NoHooks};
use crate::ruleset::{AuthoredRuleset, Ruleset, RulesetRef};

use super::base::{Base, OptionEntry, apply_hooks};
use super::build::{self, build_ruleset};
use super::content_hash::ContentHash;
use super::echo::shown;
use super::error::{ErrorKind, ResolveError, RulesetError, at, in_file};
use super::info::{HookInfo, OptionInfo, RefusedOption, RefusedTarget};
use super::script::{Binding, ScriptHooks};
use super::suggest::did_you_mean;
use super::variant::Variant;

/// Checks that a base resolves alone and with each option it offers, each on its own: time
/// linear in the number of options.
pub(super) fn check_base(base: &Base) -> Result<(), Vec<RulesetError>> {
    let mut errors = check_option_specs(base);
    errors.extend(check_replacements(base));
    if let Err(e) = rules_with(base, &[]) {
        errors.extend(e);
    }
    for o in base.options.values() {
        if o.spec.incompatible.is_some() {
            continue;
        }
        if let Err(e) = rules_with(base, &[o]) {
            for mut e in e {
                e.message = format!("with option `{}`: {}", o.id, e.message);
                errors.push(e);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The rules of a base with `picked` options applied: the ruleset, its hook bindings and the
/// targets the options refuse.
fn rules_with(
    base: &Base,
    picked: &[&OptionEntry],
) -> Result<(Ruleset, Vec<Binding>, Vec<RefusedTarget>), Vec<RulesetError>> {
    let mut sections = base.sections.clone();
    let mut hooks = base.hooks.clone();
    let mut refused_targets = Vec::new();
    let mut errors = Vec::new();
    for o in picked {
        sections.overlay(&o.spec.sections(), &o.file);
        apply_hooks(&mut hooks, &o.hooks);
        match build::refused_targets(o) {
            Ok(ts) => {
                refused_targets.extend(ts.into_iter().map(|(target, reason)| RefusedTarget {
                    target,
                    option: o.id.clone(),
                    reason,
                }))
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    let mut ruleset = match build_ruleset(base, &sections, &hooks) {
        Ok(r) => r,
        Err(mut e) => {
            errors.append(&mut e);
            return Err(errors);
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let m = &mut ruleset.match_rules;
    m.targets
        .retain(|t| !refused_targets.iter().any(|r| r.target == *t));
    if let Some(r) = refused_targets
        .iter()
        .find(|r| r.target == m.default_target)
    {
        return Err(vec![
            in_file(
                &base.file,
                ErrorKind::Conflict,
                format!(
                    "option `{}` refuses the default target ({}); make another target the default",
                    r.option, m.default_target
                ),
            )
            .on("match.default_target"),
        ]);
    }
    Ok((
        ruleset,
        hooks.into_iter().flatten().collect(),
        refused_targets,
    ))
}

/// Resolves a base with options into a variant; `authored`: the text it was loaded from.
pub(super) fn variant_of(
    base: &Base,
    options: &[String],
    authored: Option<(Arc<AuthoredRuleset>, ContentHash)>,
) -> Result<Variant, ResolveError> {
    let picked = pick_options(base, options)?;
    let (ruleset, bindings, refused_targets) =
        rules_with(base, &picked).map_err(ResolveError::Invalid)?;
    let ruleset = Arc::new(ruleset);
    let hook_points = bindings
        .iter()
        .map(|b| HookInfo {
            point: b.point.name().to_string(),
            script: b.script.name.clone(),
            rule: b.rule.clone(),
            from: b.from.clone(),
        })
        .collect();
    let hooks: Arc<dyn Hooks> = if bindings.is_empty() {
        Arc::new(NoHooks)
    } else {
        Arc::new(ScriptHooks::new(ruleset.clone(), bindings))
    };
    let offered = || {
        base.options
            .values()
            .filter(|o| o.spec.incompatible.is_none())
    };
    let (authored, content_hash) = authored.unzip();
    Ok(Variant {
        reference: RulesetRef {
            id: base.id.clone(),
            options: options.to_vec(),
            authored,
        },
        ruleset,
        hooks,
        allowed_options: offered().map(option_info).collect(),
        options: picked.iter().map(|o| option_info(o)).collect(),
        refused_options: base
            .options
            .values()
            .filter_map(|o| {
                o.spec.incompatible.as_ref().map(|r| RefusedOption {
                    id: o.id.clone(),
                    reason: r.value.clone(),
                })
            })
            .collect(),
        refused_targets,
        hook_points,
        file: base.file.to_string(),
        content_hash,
        option_stock_ends: offered()
            .filter_map(|o| {
                let end = o.spec.stock.as_ref()?.end.as_ref()?.value;
                Some((o.id.clone(), end))
            })
            .collect(),
        option_replaces: offered()
            .filter(|o| !o.replaces.is_empty())
            .map(|o| {
                let keys = o.replaces.iter().map(|r| r.value.clone()).collect();
                (o.id.clone(), keys)
            })
            .collect(),
    })
}

fn option_info(o: &OptionEntry) -> OptionInfo {
    OptionInfo {
        id: o.id.clone(),
        name: o
            .spec
            .name
            .as_ref()
            .map_or_else(|| o.id.clone(), |n| n.value.trim().to_string()),
        summary: o
            .spec
            .summary
            .as_ref()
            .map(|s| s.value.trim().to_string())
            .unwrap_or_default(),
        conflicts_with: o
            .spec
            .conflicts_with
            .iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect(),
    }
}

/// Options compose in the open: an option defined by another file may replace a hook point or
/// field that the ruleset's own file sets only when that file lets it (`replaces`), and every
/// entry of `replaces` names something the option does set.
fn check_replacements(base: &Base) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    for o in base.options.values() {
        if o.spec.incompatible.is_some() {
            continue;
        }
        let writes = o.writes();
        let allowed = |key: &str| o.replaces.iter().any(|r| r.value == key);
        if *o.file != *base.file {
            for w in base.own.iter().filter(|w| writes.contains(&w.key)) {
                if allowed(&w.key) {
                    continue;
                }
                errors.push(
                    at(
                        &w.place,
                        &base.file,
                        ErrorKind::Conflict,
                        format!(
                            "option `{id}` replaces `{key}`, which this ruleset sets; if it may, write `options: {{{id}: {{replaces: [{key}]}}}}`, else refuse it (`options: {{{id}: null}}`)",
                            id = o.id,
                            key = w.key
                        ),
                    )
                    .on(w.key.clone()),
                );
            }
        }
        for r in o.replaces.iter().filter(|r| !writes.contains(&r.value)) {
            let field = format!("options.{}.replaces", o.id);
            errors.push(
                at(
                    r,
                    &base.file,
                    ErrorKind::UnknownReference,
                    format!(
                        "`{field}`: option `{}` does not set `{}` (it sets: {})",
                        o.id,
                        shown(&r.value),
                        writes.join(", ")
                    ),
                )
                .on(field),
            );
        }
    }
    errors
}

/// `conflicts_with` names options that exist.
fn check_option_specs(base: &Base) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    let known: Vec<&str> = base.options.keys().map(String::as_str).collect();
    for o in base.options.values() {
        for (other, reason) in o.spec.conflicts_with.iter().flatten() {
            if !base.options.contains_key(other) {
                let hint = match did_you_mean(other, known.iter().copied()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => String::new(),
                };
                let field = format!("options.{}.conflicts_with", o.id);
                errors.push(
                    at(
                        reason,
                        &o.file,
                        ErrorKind::UnknownReference,
                        format!("`{field}`: there is no option `{}`{hint}", shown(other)),
                    )
                    .on(field),
                );
            }
        }
    }
    errors
}

/// The options asked for, checked: known, not refused, not twice, not in conflict.
fn pick_options<'a>(
    base: &'a Base,
    options: &[String],
) -> Result<Vec<&'a OptionEntry>, ResolveError> {
    let mut picked: Vec<&OptionEntry> = Vec::new();
    for id in options {
        let Some(o) = base.options.get(id) else {
            return Err(ResolveError::UnknownOption {
                ruleset: base.id.clone(),
                option: id.clone(),
                known: base
                    .options
                    .values()
                    .filter(|o| o.spec.incompatible.is_none())
                    .map(|o| o.id.clone())
                    .collect(),
            });
        };
        if let Some(reason) = &o.spec.incompatible {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: base.id.clone(),
                options: vec![id.clone()],
                reason: reason.value.clone(),
            });
        }
        if picked.iter().any(|p| p.id == *id) {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: base.id.clone(),
                options: vec![id.clone()],
                reason: format!("option `{id}` is asked for twice"),
            });
        }
        for p in &picked {
            let reason = o
                .spec
                .conflicts_with
                .as_ref()
                .and_then(|c| c.get(&p.id))
                .or_else(|| p.spec.conflicts_with.as_ref().and_then(|c| c.get(id)));
            if let Some(reason) = reason {
                return Err(ResolveError::IncompatibleOptions {
                    ruleset: base.id.clone(),
                    options: vec![p.id.clone(), id.clone()],
                    reason: reason.value.clone(),
                });
            }
        }
        picked.push(o);
    }
    Ok(picked)
}
