//! Reading a ruleset file's YAML into a [`RulesetSpec`], with budgets against alias bombs and
//! errors in a variant author's words at their line and column.

use serde_saphyr::Error as YamlError;

use super::echo::shown;
use super::error::{ErrorKind, RulesetError, in_file, nz};
use super::limits::{self, MAX_YAML_BYTES, MAX_YAML_DEPTH};
use super::spec::RulesetSpec;
use super::suggest::did_you_mean;

fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_documents: 1,
            max_depth: MAX_YAML_DEPTH,
            max_events: 50_000,
            max_nodes: 20_000,
            max_aliases: 64,
            max_anchors: 64,
            max_recorded_anchor_events: 5_000,
            max_recorded_anchor_bytes: 64 * 1024,
            max_total_scalar_bytes: MAX_YAML_BYTES,
            max_merge_keys: 64,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 5_000,
            max_replay_stack_depth: 8,
            max_alias_expansions_per_anchor: 32,
        },
    }
}

/// The key written on `line` of `yaml` before `column`, if the line reads `key: value`.
fn key_on_line(yaml: &str, line: u32, column: u32) -> Option<String> {
    let text = yaml.lines().nth(line.checked_sub(1)? as usize)?;
    let t = text.trim_start().trim_start_matches("- ");
    let (key, _) = t.split_once(':')?;
    let key = key.trim().trim_matches('"').trim_matches('\'');
    let key_end = text.find(':')? as u32 + 1;
    let ok =
        !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') && column > key_end;
    ok.then(|| key.to_string())
}

/// A problem of the text, and whether the text after it can still say more.
type Found = (RulesetError, bool);

/// Turns a serde-saphyr error into one in a variant author's words.
fn yaml_error(file: &str, yaml: &str, e: &YamlError) -> Found {
    let mut inner = e.without_snippet();
    while let YamlError::AliasError { error, .. } = inner {
        inner = error.without_snippet();
    }
    let loc = e.location().or_else(|| inner.location());
    let (line, column) = loc.map_or((0, 0), |l| {
        (
            u32::try_from(l.line()).unwrap_or(0),
            u32::try_from(l.column()).unwrap_or(0),
        )
    });
    let key = || key_on_line(yaml, line, column);
    let mut more = true;
    let (kind, field, message) = match inner {
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => {
            let message = match did_you_mean(field, expected.iter().copied()) {
                Some(s) => format!("unknown key `{}`; did you mean `{s}`?", shown(field)),
                None => format!(
                    "unknown key `{}` (expected one of: {})",
                    shown(field),
                    expected.join(", ")
                ),
            };
            (
                ErrorKind::UnknownField,
                Some(shown(field).into_owned()),
                message,
            )
        }
        YamlError::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            let field = key();
            let key = field
                .as_ref()
                .map(|k| format!(" for `{k}`"))
                .unwrap_or_default();
            let message = match did_you_mean(variant, expected.iter().copied()) {
                Some(s) => format!(
                    "unknown value `{}`{key}; did you mean `{s}`?",
                    shown(variant)
                ),
                None => format!(
                    "unknown value `{}`{key} (expected one of: {})",
                    shown(variant),
                    expected.join(", ")
                ),
            };
            (ErrorKind::InvalidValue, field, message)
        }
        YamlError::SerdeMissingField { field, .. } => {
            more = false;
            (
                ErrorKind::MissingField,
                Some(field.to_string()),
                format!("missing key `{field}`"),
            )
        }
        YamlError::Eof { .. } => (
            ErrorKind::MissingField,
            None,
            "the file is empty: a ruleset needs at least `id` and `name`".into(),
        ),
        YamlError::Budget { breach, .. } => match breach {
            serde_saphyr::budget::BudgetBreach::Depth { .. } => (
                ErrorKind::Limit,
                None,
                format!(
                    "the YAML nests deeper than {MAX_YAML_DEPTH} levels; a ruleset needs at most 5"
                ),
            ),
            _ => {
                more = false;
                (
                    ErrorKind::Limit,
                    None,
                    format!("the YAML is too large or too complex for a ruleset ({breach:?})"),
                )
            }
        },
        _ => {
            let text = inner.render_with_formatter(&serde_saphyr::UserMessageFormatter);
            let text = text
                .strip_suffix(&format!(" at line {line}, column {column}"))
                .unwrap_or(&text)
                .to_string();
            let text = match text.as_str() {
                t if t.starts_with("invalid i64") || t.starts_with("invalid u") => {
                    "expected a whole number".to_string()
                }
                t if t.starts_with("invalid boolean") => "expected `true` or `false`".to_string(),
                "expected mapping start" => "expected a mapping of keys and values".to_string(),
                "expected sequence start" => "expected a list".to_string(),
                "expected string scalar" => "expected a text".to_string(),
                _ => text,
            };
            let field = key();
            let message = match &field {
                Some(k) => format!("`{k}`: {text}"),
                None => text,
            };
            let alias_limit = matches!(
                inner,
                YamlError::AliasReplayCounterOverflow { .. }
                    | YamlError::AliasReplayLimitExceeded { .. }
                    | YamlError::AliasExpansionLimitExceeded { .. }
                    | YamlError::AliasReplayStackDepthExceeded { .. }
            );
            if alias_limit {
                more = false;
                (ErrorKind::Limit, field, message)
            } else {
                (ErrorKind::Syntax, field, message)
            }
        }
    };
    let error = RulesetError {
        path: file.to_string(),
        line: nz(line),
        column: nz(column),
        field,
        kind,
        message,
    };
    (error, more)
}

/// Parses YAML text into a ruleset spec.
fn parse_spec(file: &str, yaml: &str) -> Result<RulesetSpec, Found> {
    if yaml.len() > MAX_YAML_BYTES {
        let e = in_file(
            file,
            ErrorKind::Limit,
            format!(
                "the file is {} bytes; a ruleset may have at most {MAX_YAML_BYTES}",
                yaml.len()
            ),
        );
        return Err((e, false));
    }
    serde_saphyr::from_str_with_options::<RulesetSpec>(yaml, yaml_options()).map_err(|e| {
        // The spec is read as the text is scanned, so a value of the wrong type can be met
        // before a syntax error that explains it (`values: {A: 15` then the next key): the
        // syntax, read alone, comes first.
        let syntax =
            serde_saphyr::from_str_with_options::<serde::de::IgnoredAny>(yaml, yaml_options());
        match syntax.map_err(|s| yaml_error(file, yaml, &s)) {
            Err(found) if found.0.kind == ErrorKind::Syntax => found,
            _ => yaml_error(file, yaml, &e),
        }
    })
}

/// The text with the lines of its schema errors blanked (see [`parse_spec_all`]): what is left
/// parses, so the checks that follow parsing can report their errors in the same pass.
pub(crate) fn without_schema_errors(yaml: &str) -> String {
    parse_spec_all("", yaml).2
}

/// Every schema error of a file in one pass. After each error its line, and the lines nested
/// under it, are blanked (line numbers stay true) and the text parsed again. Also returns the
/// spec of what is left, and that text.
pub(crate) fn parse_spec_all(
    file: &str,
    yaml: &str,
) -> (Option<RulesetSpec>, Vec<RulesetError>, String) {
    let mut text = yaml.to_string();
    let mut errors: Vec<RulesetError> = Vec::new();
    while errors.len() < limits::MAX_ERRORS {
        match parse_spec(file, &text) {
            Ok(spec) => return (Some(spec), errors, text),
            Err((e, more)) => {
                let line = e.line;
                errors.push(e);
                match line {
                    Some(line) if more && blank_entry(&mut text, line) => {}
                    _ => break,
                }
            }
        }
    }
    (None, errors, text)
}

/// Blanks line `line` (1-based) and the more indented lines that follow it; false when there is
/// nothing left to blank there.
fn blank_entry(text: &mut String, line: u32) -> bool {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let Some(first) = (line as usize).checked_sub(1).filter(|&i| i < lines.len()) else {
        return false;
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let content = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    if !content(lines[first]) {
        return false;
    }
    let own = indent(lines[first]);
    let explicit_key = lines[first].trim_start().starts_with("? ");
    let mut end = first + 1;
    let nested = |l: &str| {
        !content(l)
            || indent(l) > own
            || (explicit_key && indent(l) == own && l.trim_start().starts_with(':'))
    };
    while end < lines.len() && nested(lines[end]) {
        end += 1;
    }
    for l in &mut lines[first..end] {
        *l = "";
    }
    *text = lines.join("\n");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_of_a_line_is_found_only_before_the_value() {
        let yaml = "id: x\nscoring:\n  gin_bonus: lots\n  - item: 3\n";
        assert_eq!(key_on_line(yaml, 3, 14).as_deref(), Some("gin_bonus"));
        assert_eq!(key_on_line(yaml, 3, 3), None);
        assert_eq!(key_on_line(yaml, 4, 11).as_deref(), Some("item"));
        assert_eq!(key_on_line(yaml, 9, 1), None);
        assert_eq!(key_on_line(yaml, 0, 1), None);
    }
}
