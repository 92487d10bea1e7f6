//! What a ruleset may declare, and how much of its problems an answer repeats.
//!
//! An authored ruleset arrives with a request, so everything the loader does with it must cost a
//! bounded amount of time and memory, and so must the answer that lists its problems. The limits
//! are generous for a real variant (the built-ins use a fraction of each) and each refusal names
//! the limit.

use std::collections::{BTreeMap, BTreeSet};

pub use super::echo::{MAX_ECHO, shown};
use super::error::{ErrorKind, RulesetError, in_file};
use super::spec::{OptionSpec, RulesetSpec};

/// Longest ruleset file (YAML), in bytes.
pub const MAX_YAML_BYTES: usize = 64 * 1024;
/// Deepest nesting of YAML collections (the deepest a ruleset needs is 5).
pub const MAX_YAML_DEPTH: usize = 10;
/// Most script files sent with an authored ruleset.
pub const MAX_SCRIPTS: usize = 16;
/// Most bytes of all the scripts sent with an authored ruleset together.
pub const MAX_SCRIPTS_BYTES: usize = 64 * 1024;
/// Longest script file name, in bytes (`.rhai` included).
pub const MAX_SCRIPT_NAME: usize = 64;
/// Most options a ruleset file declares.
pub const MAX_OPTIONS: usize = 64;
/// Most hook bindings a ruleset file writes (its own and all its options' together).
pub const MAX_HOOK_BINDINGS: usize = 64;
/// Most targets in a `match.targets` list, and most entries in a `refuses_targets` map.
pub const MAX_TARGETS: usize = 16;
/// Longest text a player reads (`name`, `summary`, a hook's `rule`, a reason), in characters.
pub const MAX_TEXT: usize = 1_000;
/// Most problems one answer lists; the rest are counted in a last entry.
pub const MAX_ERRORS: usize = 50;
/// Longest message of one problem, in characters.
pub const MAX_MESSAGE: usize = 512;

/// A problem list an answer can carry: duplicates dropped (the first place kept), each message
/// at most [`MAX_MESSAGE`] characters, at most [`MAX_ERRORS`] problems and then one that counts
/// the rest.
pub fn bounded(errors: Vec<RulesetError>) -> Vec<RulesetError> {
    let mut seen = BTreeSet::new();
    let mut out: Vec<RulesetError> = Vec::new();
    let mut more = 0usize;
    for mut e in errors {
        if !seen.insert((e.path.clone(), e.line, e.column, e.message.clone())) {
            continue;
        }
        if out.len() >= MAX_ERRORS {
            more += 1;
            continue;
        }
        if e.message.chars().count() > MAX_MESSAGE {
            e.message = e.message.chars().take(MAX_MESSAGE).collect::<String>() + "…";
        }
        if e.path.len() > MAX_ECHO {
            e.path = shown(&e.path).into_owned();
        }
        out.push(e);
    }
    if more > 0 {
        let path = out.first().map(|e| e.path.clone()).unwrap_or_default();
        out.push(in_file(
            &path,
            ErrorKind::Limit,
            format!(
                "and {more} more problem{} (an answer lists the first {MAX_ERRORS})",
                if more == 1 { "" } else { "s" }
            ),
        ));
    }
    out
}

/// A script file name: letters, digits, `-`, `_` and `.`, ending in `.rhai`, not starting with a
/// dot, at most [`MAX_SCRIPT_NAME`] bytes.
pub fn is_script_name(s: &str) -> bool {
    s.len() > ".rhai".len()
        && s.len() <= MAX_SCRIPT_NAME
        && s.ends_with(".rhai")
        && !s.starts_with('.')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The script files sent with an authored ruleset: how many, how large, how named. Checked before
/// anything reads them.
pub(crate) fn check_scripts(file: &str, scripts: &BTreeMap<String, String>) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    if scripts.len() > MAX_SCRIPTS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "{} scripts were sent; a ruleset may have at most {MAX_SCRIPTS}",
                scripts.len()
            ),
        ));
    }
    let total: usize = scripts.iter().map(|(n, t)| n.len() + t.len()).sum();
    if total > MAX_SCRIPTS_BYTES {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "the scripts take {total} bytes together; a ruleset's scripts may take at most {MAX_SCRIPTS_BYTES}"
            ),
        ));
    }
    for name in scripts.keys() {
        if !is_script_name(name) {
            errors.push(in_file(
                file,
                ErrorKind::InvalidValue,
                format!(
                    "`scripts`: `{}` is not a script name: use at most {MAX_SCRIPT_NAME} letters, digits, `-`, `_` and `.`, ending in `.rhai`, like `oklahoma.rhai`",
                    shown(name)
                ),
            ));
        }
        if errors.len() > MAX_ERRORS {
            break;
        }
    }
    errors
}

/// How many things a ruleset file declares, against the limits: checked right after parsing, so
/// that nothing costs more than the limits allow.
pub(crate) fn check_spec(file: &str, spec: &RulesetSpec) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    let options = spec.options.as_ref().map_or(0, BTreeMap::len);
    if options > MAX_OPTIONS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "`options` declares {options} options; a ruleset may declare at most {MAX_OPTIONS}"
            ),
        ));
    }
    let hooks = |h: &Option<super::spec::HooksSpec>| {
        h.as_ref().map_or(0, |h| {
            h.bindings().iter().filter(|(_, b)| b.is_some()).count()
        })
    };
    let bindings = hooks(&spec.hooks)
        + spec
            .options
            .iter()
            .flatten()
            .filter_map(|(_, o)| o.as_ref())
            .map(|o| hooks(&o.hooks))
            .sum::<usize>();
    if bindings > MAX_HOOK_BINDINGS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "`hooks` of the ruleset and its options bind {bindings} hooks; a ruleset may bind at most {MAX_HOOK_BINDINGS}"
            ),
        ));
    }
    if !errors.is_empty() {
        return errors;
    }
    let mut text = |what: String, value: Option<&String>| {
        if let Some(v) = value {
            let n = v.chars().count();
            if n > MAX_TEXT {
                errors.push(
                    in_file(
                        file,
                        ErrorKind::Limit,
                        format!("`{what}` is {n} characters long; the limit is {MAX_TEXT}"),
                    )
                    .on(what),
                );
            }
        }
    };
    text("name".into(), Some(&spec.name.value));
    text("summary".into(), spec.summary.as_ref().map(|s| &s.value));
    for (point, rule) in rules_of(spec.hooks.as_ref()) {
        text(format!("hooks.{point}.rule"), Some(rule));
    }
    for (id, o) in spec.options.iter().flatten() {
        let Some(o) = o else { continue };
        let id = shown(id);
        text(
            format!("options.{id}.name"),
            o.name.as_ref().map(|s| &s.value),
        );
        text(
            format!("options.{id}.summary"),
            o.summary.as_ref().map(|s| &s.value),
        );
        text(
            format!("options.{id}.incompatible"),
            o.incompatible.as_ref().map(|s| &s.value),
        );
        for (point, rule) in rules_of(o.hooks.as_ref()) {
            text(format!("options.{id}.hooks.{point}.rule"), Some(rule));
        }
        for (other, reason) in o.conflicts_with.iter().flatten() {
            text(
                format!("options.{id}.conflicts_with.{}", shown(other)),
                Some(&reason.value),
            );
        }
        for (target, reason) in o.refuses_targets.iter().flatten() {
            text(
                format!("options.{id}.refuses_targets.{}", shown(target)),
                Some(&reason.value),
            );
        }
    }
    for (id, o) in spec.options.iter().flatten() {
        let Some(o) = o else { continue };
        errors.extend(check_option_counts(file, id, o));
    }
    let targets = [&spec.match_]
        .into_iter()
        .chain(
            spec.options
                .iter()
                .flatten()
                .filter_map(|(_, o)| o.as_ref())
                .map(|o| &o.match_),
        )
        .filter_map(|m| m.as_ref()?.targets.as_ref())
        .map(|t| t.value.len())
        .max()
        .unwrap_or(0);
    if targets > MAX_TARGETS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!("`match.targets` lists {targets} targets; the limit is {MAX_TARGETS}"),
        ));
    }
    errors
}

fn check_option_counts(file: &str, id: &str, o: &OptionSpec) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    let conflicts = o.conflicts_with.as_ref().map_or(0, BTreeMap::len);
    if conflicts > MAX_OPTIONS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "`options.{}.conflicts_with` names {conflicts} options; a ruleset has at most {MAX_OPTIONS}",
                shown(id)
            ),
        ));
    }
    let refused = o.refuses_targets.as_ref().map_or(0, BTreeMap::len);
    if refused > MAX_TARGETS {
        errors.push(in_file(
            file,
            ErrorKind::Limit,
            format!(
                "`options.{}.refuses_targets` lists {refused} targets; the limit is {MAX_TARGETS}",
                shown(id)
            ),
        ));
    }
    errors
}

fn rules_of(hooks: Option<&super::spec::HooksSpec>) -> Vec<(&'static str, &String)> {
    hooks
        .map(|h| {
            h.bindings()
                .into_iter()
                .filter_map(|(point, b)| {
                    let rule = b.as_ref()?.as_ref()?.rule.as_ref()?;
                    Some((point, &rule.value))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(message: &str) -> RulesetError {
        in_file("r.yaml", ErrorKind::Syntax, message.to_string())
    }

    #[test]
    fn lists_are_cut_and_counted() {
        let errors: Vec<_> = (0..120).map(|i| error(&format!("problem {i}"))).collect();
        let out = bounded(errors);
        assert_eq!(out.len(), MAX_ERRORS + 1);
        assert_eq!(out[49].message, "problem 49");
        assert_eq!(
            out[50].message,
            "and 70 more problems (an answer lists the first 50)"
        );
        let out = bounded(vec![
            error("same"),
            error("same"),
            error(&"m".repeat(5_000)),
        ]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].message.chars().count(), MAX_MESSAGE + 1);
    }

    #[test]
    fn script_names() {
        assert!(is_script_name("oklahoma.rhai") && is_script_name("Four_Player.v2.rhai"));
        for bad in [
            "../x.rhai",
            ".rhai",
            ".x.rhai",
            "x.lua",
            "a b.rhai",
            "x\\y.rhai",
        ] {
            assert!(!is_script_name(bad), "{bad}");
        }
        assert!(!is_script_name(&format!("{}.rhai", "a".repeat(60))));
        assert!(is_script_name(&format!("{}.rhai", "a".repeat(59))));
    }
}
