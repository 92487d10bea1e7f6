//! `gin-rules analyze`: the least deadwood of hands read one per line.

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::analysis::HandAnalysis;
use crate::cards::Card;
use crate::ruleset::MeldRules;

/// What a run read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Hands analyzed.
    pub hands: u64,
    /// Lines refused (each reported on the error output).
    pub failed: u64,
}

#[derive(Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// One JSON object per hand, as POST /v1/hands/analyze answers.
    #[arg(long)]
    pub json: bool,
    /// The ruleset whose melds, card values and knock limit apply: an id or a ruleset file.
    #[arg(long, default_value = "standard")]
    pub ruleset: String,
    /// An option of the ruleset (repeatable, applied in order).
    #[arg(long = "option", value_name = "OPTION")]
    pub options: Vec<String>,
    /// Also load the rulesets of this directory.
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<PathBuf>,
}

/// `gin-rules analyze [--json] [--ruleset R]`: stdin to stdout under the ruleset's melds and its
/// own knock limit (a limit a hook sets per hand, as Oklahoma's, is not known without a deal);
/// failure if a line failed.
pub fn command(args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let catalog = super::rules::catalog(args.rulesets.as_deref())?;
    let variant = super::rules::variant_from_arg(&catalog, &args.ruleset, &args.options)?;
    let rules = &variant.ruleset;
    let summary = run_with(
        std::io::stdin().lock(),
        std::io::stdout().lock(),
        std::io::stderr().lock(),
        args.json,
        &rules.melds,
        rules.knock_limit,
    )?;
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Analyzes every hand of `input` into `out`, errors to stderr, with the standard knock limit of 10.
pub fn run(
    input: impl BufRead,
    out: impl Write,
    json: bool,
    rules: &MeldRules,
) -> anyhow::Result<Summary> {
    run_with(input, out, std::io::stderr().lock(), json, rules, Some(10))
}

/// Reads hands of 10 or 11 cards, one per line (blank lines skipped), and writes one line per hand:
/// the analysis object with `json`, else a line for people. A bad line is reported on `errors`
/// with its number, and the run goes on.
pub fn run_with(
    mut input: impl BufRead,
    out: impl Write,
    mut errors: impl Write,
    json: bool,
    rules: &MeldRules,
    knock_limit: Option<u8>,
) -> anyhow::Result<Summary> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut summary = Summary::default();
    let mut line = Vec::new();
    let mut cards: Vec<Card> = Vec::with_capacity(11);
    for number in 1u64.. {
        line.clear();
        if input
            .read_until(b'\n', &mut line)
            .context("reading the hands")?
            == 0
        {
            break;
        }
        let analysis = match std::str::from_utf8(&line) {
            Err(_) => Err("the line is not UTF-8 text".to_string()),
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => parse_line(text, &mut cards).and_then(|()| {
                HandAnalysis::of(rules, knock_limit, &[10], &cards).map_err(|e| e.to_string())
            }),
        };
        match analysis {
            Ok(a) => {
                summary.hands += 1;
                if json {
                    serde_json::to_writer(&mut out, &a).context("writing the analysis")?;
                    out.write_all(b"\n")
                } else {
                    write_text(&mut out, &a)
                }
                .context("writing the analysis")?;
            }
            Err(message) => {
                summary.failed += 1;
                writeln!(errors, "line {number}: {message}").context("writing an error")?;
            }
        }
    }
    out.flush().context("writing the analysis")?;
    Ok(summary)
}

fn parse_line(text: &str, cards: &mut Vec<Card>) -> Result<(), String> {
    cards.clear();
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        if !word.is_empty() {
            cards.push(word.parse().map_err(|e| format!("{e}"))?);
        }
    }
    Ok(())
}

/// `deadwood 10: [4S 5S 6S] [3C 4C 5C 6C] unmelded 2S 3D 5H`, after `discard 6D 5H: ` for 11 cards,
/// with `, gin` or `, big gin` at the end.
fn write_text(out: &mut impl Write, a: &HandAnalysis) -> std::io::Result<()> {
    if !a.best_discards.is_empty() {
        out.write_all(b"discard")?;
        for c in &a.best_discards {
            write!(out, " {c}")?;
        }
        out.write_all(b": ")?;
    }
    write!(out, "deadwood {}:", a.deadwood)?;
    for meld in &a.melds {
        out.write_all(b" [")?;
        for (i, c) in meld.iter().enumerate() {
            write!(out, "{}{c}", if i == 0 { "" } else { " " })?;
        }
        out.write_all(b"]")?;
    }
    if !a.unmelded.is_empty() {
        out.write_all(b" unmelded")?;
        for c in &a.unmelded {
            write!(out, " {c}")?;
        }
    }
    if a.big_gin {
        out.write_all(b", big gin")?;
    } else if a.gin {
        out.write_all(b", gin")?;
    }
    out.write_all(b"\n")
}
