//! `gin-rules check FILE.yaml`: loads a ruleset file with the scripts beside it, plays a few sample
//! games of it (alone and with each option) so its hooks run, and prints its summary, or every
//! error as `file:line:column: message` (exit status 1).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::engine::NewGame;
use crate::rules::{Catalog, Variant};
use crate::ruleset::RulesetRef;
use crate::sample;

/// Sample games per option set, and the most actions each plays.
const SAMPLE_GAMES: u64 = 4;
const SAMPLE_STEPS: usize = 3_000;

/// Plays a few seeded matches of the ruleset, alone and with each option it offers, so that every
/// hook runs on contexts the engine really builds. Each failure (a script error, a misspelt
/// context field, a decision out of range, a runaway loop) once per option set, with its place.
pub fn exercise(catalog: &Catalog, v: &Variant) -> Vec<String> {
    let mut sets = vec![Vec::new()];
    sets.extend(v.allowed_options.iter().map(|o| vec![o.id.clone()]));
    // Each failure once: the first game it showed in, and the other option sets it showed in.
    let mut problems: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut report = |with: &str, what: String| match problems.iter_mut().find(|p| p.1 == what) {
        Some(p) => p.2.push(with.trim_start().to_string()),
        None => problems.push((with.to_string(), what, Vec::new())),
    };
    for options in sets {
        let with = match options.first() {
            Some(o) => format!(" with option `{o}`"),
            None => " without options".to_string(),
        };
        let reference = RulesetRef {
            id: v.reference.id.clone(),
            options,
            authored: v.reference.authored.clone(),
        };
        let variant = match catalog.resolve(&reference) {
            Ok(variant) => variant,
            Err(e) => {
                report(&with, e.to_string());
                continue;
            }
        };
        for seed in 0..SAMPLE_GAMES {
            let game = NewGame::seeded(reference.clone(), seed);
            let played = sample::play(
                &variant.ruleset,
                variant.hooks.as_ref(),
                game,
                SAMPLE_STEPS,
                seed % 2 == 1,
                |_, _| {},
            );
            if let Err(e) = played {
                report(&with, format!("(seed {seed}): {e}"));
                break;
            }
        }
    }
    problems
        .into_iter()
        .map(|(with, what, also)| {
            let also = match also.as_slice() {
                [] => String::new(),
                more => format!("; also {}", more.join(", ")),
            };
            format!("a sample game{with} {what}{also}")
        })
        .collect()
}

#[derive(Args, Clone, Debug, Default)]
pub struct CheckArgs {
    /// The ruleset file; the `.rhai` scripts it binds are read from its directory.
    pub file: PathBuf,
    /// Also load the rulesets of this directory (for `extends`).
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<PathBuf>,
}

/// The summary printed for a ruleset that loads.
pub fn summary(file: &str, v: &Variant) -> String {
    let r = &v.ruleset;
    let mut out = format!("{file}: ok\n{} ({})", r.name, r.id);
    if !r.summary.is_empty() {
        out.push_str(&format!(": {}", r.summary));
    }
    out.push('\n');
    let targets: Vec<String> = r
        .match_rules
        .targets
        .iter()
        .map(ToString::to_string)
        .collect();
    out.push_str(&format!(
        "  {} seats, {} cards each; targets {} (default {})\n",
        r.seats,
        r.hand_size,
        targets.join(", "),
        r.match_rules.default_target
    ));
    if !v.allowed_options.is_empty() {
        let ids: Vec<&str> = v.allowed_options.iter().map(|o| o.id.as_str()).collect();
        out.push_str(&format!("  options: {}\n", ids.join(", ")));
    }
    for h in &v.hook_points {
        out.push_str(&format!("  hook {}: {}\n", h.point, h.script));
    }
    out.push('\n');
    out.push_str(&super::rules::render(v));
    out
}

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let catalog = super::rules::catalog(args.rulesets.as_deref())?;
    let checked = catalog.check_file(&args.file).and_then(|v| {
        let file = args.file.display();
        let problems: Vec<_> = exercise(&catalog, &v)
            .into_iter()
            .map(|message| crate::rules::RulesetError {
                path: file.to_string(),
                line: None,
                column: None,
                field: None,
                kind: crate::rules::ErrorKind::Play,
                message,
            })
            .collect();
        if problems.is_empty() {
            Ok(v)
        } else {
            Err(problems)
        }
    });
    match checked {
        Ok(v) => {
            let mut out = std::io::stdout().lock();
            write!(out, "{}", summary(&args.file.display().to_string(), &v))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            let mut err = std::io::stderr().lock();
            for e in &errors {
                writeln!(err, "{e}")?;
            }
            let n = errors.len();
            writeln!(
                err,
                "{}: {n} error{}",
                args.file.display(),
                if n == 1 { "" } else { "s" }
            )?;
            Ok(ExitCode::FAILURE)
        }
    }
}
