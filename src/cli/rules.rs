//! `gin-rules rules ID [--option X]...`: the rules table of a ruleset, rendered from its data;
//! `gin-rules rules --list`: the rulesets, their names and options;
//! `gin-rules schema`: the JSON Schema of ruleset files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;

use crate::rules::{
    Catalog, ResolveError, RulesetError, Variant, did_you_mean, rules_table, schema_json,
};
use crate::ruleset::RulesetRef;

#[derive(Args, Clone, Debug, Default)]
pub struct RulesArgs {
    /// A ruleset id (`standard`, `straight-gin`, ...) or a ruleset YAML file.
    #[arg(required_unless_present = "list", conflicts_with = "list")]
    pub ruleset: Option<String>,
    /// List the rulesets instead: ids, names, seats, targets and options (with --json: as
    /// GET /v1/rulesets answers).
    #[arg(long, conflicts_with = "options")]
    pub list: bool,
    /// An option to apply (repeatable, applied in order).
    #[arg(long = "option", value_name = "OPTION")]
    pub options: Vec<String>,
    /// Also load the rulesets of this directory.
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<PathBuf>,
    /// Print the resolved ruleset and the table (or the list) as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Whether a `--ruleset` argument names a file rather than an id.
pub fn is_file_arg(arg: &str) -> bool {
    arg.ends_with(".yaml") || arg.ends_with(".yml") || arg.contains(['/', '\\'])
}

fn errors_text(errors: &[RulesetError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The catalog of the CLI: the built-ins, plus the rulesets of `dir`.
pub fn catalog(dir: Option<&Path>) -> anyhow::Result<Catalog> {
    let mut catalog = Catalog::try_builtin()
        .map_err(|e| anyhow::anyhow!("a built-in ruleset does not load:\n{}", errors_text(&e)))?;
    if let Some(dir) = dir {
        catalog
            .add_dir(dir)
            .map_err(|e| anyhow::anyhow!("{}", errors_text(&e)))
            .with_context(|| format!("the rulesets of {} do not load", dir.display()))?;
    }
    Ok(catalog)
}

/// Resolves a `--ruleset` argument (an id, or a YAML file with its scripts beside it) with
/// options. For `play` and `rules`.
pub fn variant_from_arg(
    catalog: &Catalog,
    ruleset: &str,
    options: &[String],
) -> anyhow::Result<Arc<Variant>> {
    let reference = if is_file_arg(ruleset) {
        let checked = catalog
            .check_file(Path::new(ruleset))
            .map_err(|e| anyhow::anyhow!("{}", errors_text(&e)))?;
        RulesetRef {
            options: options.to_vec(),
            ..checked.reference.clone()
        }
    } else {
        RulesetRef::new(ruleset, options)
    };
    catalog.resolve(&reference).map_err(|e| match e {
        ResolveError::Invalid(errors) => anyhow::anyhow!("{}", errors_text(&errors)),
        ResolveError::UnknownRuleset(id) => anyhow::anyhow!("{}", unknown_ruleset(catalog, &id)),
        other => anyhow::anyhow!("{other}"),
    })
}

/// "there is no ruleset `standrd`; did you mean `standard`?", or the ids there are.
pub fn unknown_ruleset(catalog: &Catalog, id: &str) -> String {
    let ids = catalog.ids();
    match did_you_mean(id, ids.iter().map(String::as_str)) {
        Some(s) => format!("there is no ruleset `{id}`; did you mean `{s}`?"),
        None => format!(
            "there is no ruleset `{id}` (rulesets: {}; a file name ends in .yaml)",
            ids.join(", ")
        ),
    }
}

/// The rulesets, one paragraph each: id and name, summary, seats and targets, options.
pub fn render_list(catalog: &Catalog) -> String {
    let mut out = String::new();
    for info in catalog.list() {
        out.push_str(&format!("{}  {}\n", info.id, info.name));
        if !info.summary.is_empty() {
            out.push_str(&format!("    {}\n", wrap(&info.summary, 100, 4)));
        }
        let targets: Vec<String> = info.targets.iter().map(ToString::to_string).collect();
        out.push_str(&format!(
            "    {} seats; targets {} (default {})\n",
            info.seats,
            targets.join(", "),
            info.default_target
        ));
        if info.options.is_empty() {
            out.push_str("    no options\n");
        }
        let width = info.options.iter().map(|o| o.id.len()).max().unwrap_or(0);
        for o in &info.options {
            let mut text = o.name.clone();
            if !o.summary.is_empty() {
                text.push_str(&format!(": {}", o.summary));
            }
            if !o.conflicts_with.is_empty() {
                text.push_str(&format!(" (not with {})", o.conflicts_with.join(", ")));
            }
            let prefix = format!("    --option {:<width$}  ", o.id);
            out.push_str(&prefix);
            out.push_str(&wrap(&text, 100, prefix.len()));
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Wraps `text` at `width` columns, continuation lines indented by `indent`.
fn wrap(text: &str, width: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut col = indent;
    for word in text.split_whitespace() {
        if col > indent && col + 1 + word.len() > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            col = indent;
        } else if col > indent {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
    out
}

/// The rules table as text: a heading, then one wrapped row per rule.
pub fn render(v: &Variant) -> String {
    let r = &v.ruleset;
    let mut out = format!("{} ({})", r.name, r.id);
    if !v.options.is_empty() {
        let names: Vec<&str> = v.options.iter().map(|o| o.id.as_str()).collect();
        out.push_str(&format!(" with {}", names.join(", ")));
    }
    out.push('\n');
    if !r.summary.is_empty() {
        out.push_str(&wrap(&r.summary, 100, 0));
        out.push('\n');
    }
    out.push('\n');
    const COL: usize = 24;
    for row in rules_table(v) {
        out.push_str(&format!("{:<COL$}", row.row));
        out.push_str(&wrap(&row.text, 100, COL));
        out.push('\n');
    }
    out
}

pub fn run(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    let catalog = catalog(args.rulesets.as_deref())?;
    let mut out = std::io::stdout().lock();
    let Some(ruleset) = &args.ruleset else {
        if args.json {
            serde_json::to_writer_pretty(&mut out, &catalog.list())?;
            writeln!(out)?;
        } else {
            write!(out, "{}", render_list(&catalog))?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let v = variant_from_arg(&catalog, ruleset, &args.options)?;
    if args.json {
        let doc = serde_json::json!({
            "ruleset": &*v.ruleset,
            "options": &v.options,
            "hooks": &v.hook_points,
            "rules": rules_table(&v),
        });
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", render(&v))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `gin-rules schema`: prints `rulesets/schema.json`.
pub fn print_schema() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(schema_json().as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole() {
        let w = wrap("one two three four", 12, 2);
        assert_eq!(w, "one two\n  three four");
    }

    #[test]
    fn the_table_names_the_ruleset_and_every_row() {
        let c = Catalog::builtin();
        let v = variant_from_arg(&c, "straight-gin", &["hollywood".into()]).unwrap();
        let text = render(&v);
        assert!(
            text.starts_with("Straight Gin (straight-gin) with hollywood\n"),
            "{text}"
        );
        for row in [
            "Knocking",
            "How a hand ends",
            "Hand score",
            "Lay-offs and undercuts",
            "End of the stock",
            "Other options",
            "Match",
            "Form",
        ] {
            assert!(text.contains(&format!("\n{row} ")), "{row}: {text}");
        }
        assert!(variant_from_arg(&c, "straight-gin", &["oklahoma".into()]).is_err());
    }

    #[test]
    fn an_unknown_id_gets_the_nearest_one() {
        let c = Catalog::builtin();
        let e = variant_from_arg(&c, "straigt-gin", &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "there is no ruleset `straigt-gin`; did you mean `straight-gin`?"
        );
        let e = variant_from_arg(&c, "canasta", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("(rulesets: standard, straight-gin,"), "{e}");
    }

    #[test]
    fn the_list_names_every_ruleset_and_option() {
        let c = Catalog::builtin();
        let text = render_list(&c);
        for info in c.list() {
            assert!(
                text.contains(&format!("{}  {}\n", info.id, info.name)),
                "{text}"
            );
            for o in &info.options {
                let line = text
                    .lines()
                    .find(|l| l.starts_with(&format!("    --option {} ", o.id)))
                    .unwrap_or_else(|| panic!("{}: {text}", o.id));
                assert!(line.contains(&format!("  {}", o.name)), "{line}");
            }
        }
    }
}
