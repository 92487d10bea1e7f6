//! `gin-rules check FILE.yaml`: loads a ruleset file with the scripts beside it, plays its sample
//! games (the check every authored ruleset passes, `rules::sample_check`), and prints its summary,
//! or every error as `file:line:column: message` (exit status 1).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::rules::Variant;
use crate::rules::script::{HookTrace, trace_hooks};

#[derive(Args, Clone, Debug, Default)]
pub struct CheckArgs {
    /// The ruleset file; the `.rhai` scripts it binds are read from its directory.
    pub file: PathBuf,
    /// Also load the rulesets of this directory (for `extends`).
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<PathBuf>,
    /// Print each hook call of the sample games: its context, the script's `print` and `debug`
    /// lines, and what it returned.
    #[arg(long)]
    pub trace: bool,
}

/// A traced step as `check --trace` prints it.
fn traced(step: HookTrace) -> String {
    match step {
        HookTrace::Game(game) => format!("== {game}"),
        HookTrace::Call { point, context } => format!("{point} <- {context}"),
        HookTrace::Output(line) => format!("  | {line}"),
        HookTrace::Returned { point, result } => match result {
            Ok(value) => format!("{point} -> {value}"),
            Err(e) => format!("{point} failed: {e}"),
        },
    }
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
        r.hand_size_at(usize::from(r.table_players)),
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
    let checked = if args.trace {
        trace_hooks(
            |step| {
                let _ = writeln!(std::io::stdout(), "{}", traced(step));
            },
            || catalog.check_file(&args.file),
        )
    } else {
        catalog.check_file(&args.file)
    };
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
