//! Compiling a hook script, once, when its ruleset loads: it may define only hook points (each
//! taking one parameter, the context) and `private fn` helpers, so a misspelt hook is a load error
//! rather than a silent no-op.

use std::collections::BTreeSet;
use std::fmt;

use rhai::{AST, FnAccess};

use super::super::suggest::did_you_mean;
use super::super::{ErrorKind, RulesetError};
use super::limits::MAX_SCRIPT_BYTES;
use super::point::HookPoint;
use super::sandbox::ENGINE;

/// A compiled hook script.
pub struct Script {
    /// The file name beside the YAML file (`oklahoma.rhai`).
    pub name: String,
    pub(super) ast: AST,
    /// The hook points it defines.
    pub points: BTreeSet<HookPoint>,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Script")
            .field("name", &self.name)
            .field("points", &self.points)
            .finish()
    }
}

fn script_error(
    name: &str,
    line: Option<u32>,
    column: Option<u32>,
    message: String,
) -> RulesetError {
    RulesetError {
        path: name.to_string(),
        line,
        column,
        field: None,
        kind: ErrorKind::Script,
        message,
    }
}

/// Where `fn NAME` is written in `text`, 1-based.
fn find_fn(text: &str, name: &str) -> (Option<u32>, Option<u32>) {
    let needle = format!("fn {name}");
    for (i, line) in text.lines().enumerate() {
        if let Some(col) = line.find(&needle) {
            let after = line[col + needle.len()..].chars().next();
            if after.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
                return (Some(i as u32 + 1), Some(col as u32 + 1));
            }
        }
    }
    (None, None)
}

/// The first line at the top level of `text` that is not a function, a comment or blank.
fn first_statement(text: &str) -> Option<u32> {
    let mut depth = 0i32;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if depth == 0
            && !t.is_empty()
            && !t.starts_with("//")
            && !t.starts_with("/*")
            && !t.starts_with('*')
            && !t.starts_with("fn ")
            && !t.starts_with("private fn ")
            && !t.starts_with('}')
        {
            return Some(i as u32 + 1);
        }
        depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
    }
    None
}

/// Compiles a hook script, checking that it defines only hook points and private helpers.
pub fn compile(name: &str, text: &str) -> Result<Script, Vec<RulesetError>> {
    if text.len() > MAX_SCRIPT_BYTES {
        return Err(vec![script_error(
            name,
            None,
            None,
            format!(
                "the script is {} bytes; the limit is {MAX_SCRIPT_BYTES}",
                text.len()
            ),
        )]);
    }
    let mut ast = match ENGINE.compile(text) {
        Ok(ast) => ast,
        Err(e) => {
            let pos = e.position();
            return Err(vec![script_error(
                name,
                pos.line().map(|l| l as u32),
                pos.position().map(|c| c as u32),
                format!("syntax error: {}", e.err_type()),
            )]);
        }
    };
    ast.set_source(name.to_string());
    let mut errors = Vec::new();
    let body: &[_] = ast.as_ref();
    if !body.is_empty() {
        errors.push(script_error(
            name,
            first_statement(text),
            first_statement(text).map(|_| 1),
            "a hook script may only define functions (hook points, and `private fn` helpers); \
             move this statement into a function"
                .into(),
        ));
    }
    let mut points = BTreeSet::new();
    let names: Vec<&str> = HookPoint::ALL.iter().map(|p| p.name()).collect();
    for f in ast.iter_functions() {
        if f.access == FnAccess::Private {
            continue;
        }
        let (line, column) = find_fn(text, f.name);
        match HookPoint::from_name(f.name) {
            None => {
                let hint = match did_you_mean(f.name, names.iter().copied()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => format!(" (hook points: {})", names.join(", ")),
                };
                errors.push(script_error(
                    name,
                    line,
                    column,
                    format!(
                        "function `{}` is not a hook point{hint} (write `private fn` for a helper)",
                        f.name
                    ),
                ));
            }
            Some(p) if f.params.len() != 1 => errors.push(script_error(
                name,
                line,
                column,
                format!(
                    "hook `{p}` takes one parameter (the context), not {}",
                    f.params.len()
                ),
            )),
            Some(p) => {
                points.insert(p);
            }
        }
    }
    if errors.is_empty() {
        Ok(Script {
            name: name.to_string(),
            ast,
            points,
        })
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_lists_its_hook_points() {
        let s = compile(
            "o.rhai",
            "// c\nfn knock_limit(ctx) { 1 }\nfn score_multiplier(ctx) { helper() }\nprivate fn helper() { 2 }\n",
        )
        .unwrap();
        assert_eq!(
            s.points.iter().copied().collect::<Vec<_>>(),
            [HookPoint::KnockLimit, HookPoint::ScoreMultiplier]
        );
    }

    #[test]
    fn a_hook_takes_one_parameter() {
        let e = compile("o.rhai", "fn seating(a, b) { [] }").unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "o.rhai:1:1: hook `seating` takes one parameter (the context), not 2"
        );
    }

    #[test]
    fn places_in_the_script_text() {
        let text = "// x\nfn knock_limitx(c) {}\n  fn knock_limit(c) {\n  }\nlet y = 2;\n";
        assert_eq!(find_fn(text, "knock_limit"), (Some(3), Some(3)));
        assert_eq!(first_statement(text), Some(5));
    }
}
