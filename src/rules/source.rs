//! One ruleset file, parsed, with the hook scripts it binds compiled: what one file alone can
//! say is checked here (the YAML, the ids, the scripts and their bindings).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::echo::shown;
use super::error::{ErrorKind, RulesetError, at, in_file};
use super::limits::{self, is_script_name};
use super::parse::parse_spec_all;
use super::script::{Binding, HookPoint, Script, compile};
use super::spec::{HooksSpec, RulesetSpec};
use super::suggest::did_you_mean;

/// Hook bindings a ruleset or option writes: a binding, or `None` to remove an inherited one.
pub(crate) type HookOverlay = Vec<(HookPoint, Option<Binding>)>;

/// One parsed ruleset file with its scripts compiled.
pub(crate) struct Source {
    /// The file name shown in errors.
    pub file: Arc<str>,
    pub spec: RulesetSpec,
    pub hooks: HookOverlay,
    pub option_hooks: BTreeMap<String, HookOverlay>,
}

impl Source {
    pub fn id(&self) -> &str {
        &self.spec.id.value
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
}

/// Collects the hook bindings of one `hooks:` section, compiling scripts on first use.
fn bind_hooks(
    file: &Arc<str>,
    hooks: Option<&HooksSpec>,
    from: &str,
    scripts: &BTreeMap<String, String>,
    compiled: &mut BTreeMap<String, Option<Arc<Script>>>,
    bound: &mut BTreeSet<(String, HookPoint)>,
    errors: &mut Vec<RulesetError>,
) -> HookOverlay {
    let mut overlay = Vec::new();
    let Some(hooks) = hooks else {
        return overlay;
    };
    for (name, binding) in hooks.bindings() {
        let Some(point) = HookPoint::from_name(name) else {
            continue;
        };
        let Some(binding) = binding else {
            continue;
        };
        let Some(spec) = binding else {
            overlay.push((point, None));
            continue;
        };
        let script_name = &spec.script.value;
        if !is_script_name(script_name) {
            errors.push(at(
                &spec.script,
                file,
                ErrorKind::InvalidValue,
                format!(
                    "`hooks.{point}.script`: `{}` is not a script name; write the name of a `.rhai` file beside the ruleset (at most {} letters, digits, `-`, `_` and `.`), like `oklahoma.rhai`",
                    shown(script_name),
                    limits::MAX_SCRIPT_NAME
                ),
            ).on(format!("hooks.{point}.script")));
            continue;
        }
        let Some(text) = scripts.get(script_name) else {
            let hint = match did_you_mean(script_name, scripts.keys().map(String::as_str)) {
                Some(s) => format!("; did you mean `{s}`?"),
                None if scripts.is_empty() => " (no scripts were found)".to_string(),
                None => format!(
                    " (scripts found: {})",
                    scripts.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            };
            errors.push(
                at(
                    &spec.script,
                    file,
                    ErrorKind::Script,
                    format!(
                        "`hooks.{point}.script`: no script `{script_name}` beside the ruleset{hint}"
                    ),
                )
                .on(format!("hooks.{point}.script")),
            );
            continue;
        };
        let script = compiled
            .entry(script_name.clone())
            .or_insert_with(|| match compile(script_name, text) {
                Ok(s) => Some(Arc::new(s)),
                Err(mut e) => {
                    errors.append(&mut e);
                    None
                }
            })
            .clone();
        let Some(script) = script else {
            continue;
        };
        if !script.points.contains(&point) {
            errors.push(
                at(
                    &spec.script,
                    file,
                    ErrorKind::Script,
                    format!("`hooks.{point}`: `{script_name}` defines no function `{point}(ctx)`"),
                )
                .on(format!("hooks.{point}")),
            );
            continue;
        }
        bound.insert((script_name.clone(), point));
        overlay.push((
            point,
            Some(Binding {
                point,
                script,
                rule: spec.rule.as_ref().map(|r| r.value.clone()),
                from: from.to_string(),
            }),
        ));
    }
    overlay
}

/// Parses a ruleset file and compiles the scripts it binds. Checks what one file alone can say:
/// the YAML, the ids, the scripts and their bindings.
pub(crate) fn parse_source(
    file: &str,
    yaml: &str,
    scripts: &BTreeMap<String, String>,
) -> Result<Source, Vec<RulesetError>> {
    let (spec, errors, _) = parse_spec_all(file, yaml);
    let Some(spec) = spec.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    let errors = limits::check_spec(file, &spec);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut errors = Vec::new();
    let file: Arc<str> = Arc::from(file);
    if !is_id(&spec.id.value) {
        errors.push(at(
            &spec.id,
            &file,
            ErrorKind::InvalidValue,
            format!(
                "`id`: `{}` is not an id; use at most 64 lower-case letters, digits and dashes, like `straight-gin`",
                shown(&spec.id.value)
            ),
        ).on("id"));
    }
    if spec.name.value.trim().is_empty() {
        errors.push(
            at(
                &spec.name,
                &file,
                ErrorKind::InvalidValue,
                "`name` is empty",
            )
            .on("name"),
        );
    }
    let mut compiled = BTreeMap::new();
    let mut bound = BTreeSet::new();
    let hooks = bind_hooks(
        &file,
        spec.hooks.as_ref(),
        &spec.id.value,
        scripts,
        &mut compiled,
        &mut bound,
        &mut errors,
    );
    let mut option_hooks = BTreeMap::new();
    for (name, option) in spec.options.iter().flatten() {
        if !is_id(name) {
            errors.push(in_file(
                &file,
                ErrorKind::InvalidValue,
                format!(
                    "`options`: `{}` is not an option id; use at most 64 lower-case letters, digits and dashes",
                    shown(name)
                ),
            ).on("options"));
        }
        let Some(option) = option else { continue };
        let overlay = bind_hooks(
            &file,
            option.hooks.as_ref(),
            name,
            scripts,
            &mut compiled,
            &mut bound,
            &mut errors,
        );
        option_hooks.insert(name.clone(), overlay);
    }
    for (name, script) in &compiled {
        let Some(script) = script else { continue };
        for &point in &script.points {
            if !bound.contains(&(name.clone(), point)) {
                let text = scripts.get(name).map(String::as_str).unwrap_or("");
                let (line, column) = find_fn_line(text, point.name());
                errors.push(RulesetError {
                    path: name.clone(),
                    line,
                    column,
                    field: Some(format!("hooks.{point}")),
                    kind: ErrorKind::Script,
                    message: format!(
                        "`{point}` is defined here, but no `hooks:` entry of {file} binds it to {name}"
                    ),
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(Source {
            file,
            spec,
            hooks,
            option_hooks,
        })
    } else {
        Err(errors)
    }
}

fn find_fn_line(text: &str, name: &str) -> (Option<u32>, Option<u32>) {
    let needle = format!("fn {name}");
    text.lines()
        .enumerate()
        .find_map(|(i, l)| {
            l.find(&needle)
                .map(|c| (Some(i as u32 + 1), Some(c as u32 + 1)))
        })
        .unwrap_or((None, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_script_names() {
        assert!(is_id("straight-gin") && is_id("gin2"));
        assert!(!is_id("") && !is_id("-x") && !is_id("Gin") && !is_id("a_b"));
        assert!(is_script_name("oklahoma.rhai"));
        assert!(
            !is_script_name("../x.rhai") && !is_script_name(".rhai") && !is_script_name("x.lua")
        );
    }
}
