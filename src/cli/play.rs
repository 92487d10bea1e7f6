//! `gin-rules play`: hands or whole matches between bots, with the outcome mix.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use serde::Serialize;

use crate::bot;
use crate::engine::{Event, NewGame, Outcome, State, apply, new_game};
use crate::hooks::Hooks;
use crate::ruleset::{Ruleset, RulesetRef, Target};

#[derive(Args, Clone, Debug, Default)]
pub struct PlayArgs {
    /// Seed of the first game; game i is played with seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Hands to play (each a one-hand game), or matches with --target.
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// Play whole matches to this many points (or "single_hand").
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// A built-in ruleset id, or a ruleset file (its scripts beside it).
    #[arg(long, default_value = "standard")]
    pub ruleset: String,
    /// An option of the ruleset; repeat for several, applied in order.
    #[arg(long = "option", value_name = "OPTION")]
    pub options: Vec<String>,
    /// Also load the rulesets of this directory.
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<std::path::PathBuf>,
}

fn parse_target(s: &str) -> Result<Target, String> {
    if s == "single_hand" || s == "1" {
        return Ok(Target::SingleHand);
    }
    s.parse::<u32>()
        .map(Target::Points)
        .map_err(|_| format!("{s:?} is not a number of points or \"single_hand\""))
}

/// Counts over many games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    pub hands: u64,
    pub gin: u64,
    pub big_gin: u64,
    pub knock: u64,
    pub undercut: u64,
    pub dead: u64,
    /// Points scored per hand, over all hands.
    pub mean_points: f64,
    /// Matches each seat won (matches only).
    pub wins: Vec<u64>,
    /// Matches that ended without a winner (a dead one-hand game).
    pub draws: u64,
    pub steps: u64,
    /// Games given up after `MAX_HAND_STEPS` steps in one hand (bots that cannot end a hand, e.g.
    /// passing cards round a reshuffled stock for ever).
    pub stalled: u64,
}

/// Steps after which a hand between bots is given up as stalled.
pub const MAX_HAND_STEPS: u64 = 20_000;

/// Plays `games` games between bots; `target` None plays one hand each.
pub fn simulate(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    reference: &RulesetRef,
    seed: u64,
    games: u64,
    target: Option<Target>,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<Summary> {
    let mut s = Summary {
        wins: vec![0; usize::from(rules.seats)],
        ..Summary::default()
    };
    let mut points: i64 = 0;
    let mut events = Vec::new();
    for g in 0..games {
        let mut game = NewGame::seeded(reference.clone(), seed.wrapping_add(g));
        game.target = Some(target.unwrap_or(Target::SingleHand));
        let dealt = new_game(rules, hooks, game)?;
        let mut state: State = dealt.state;
        let mut recorded: Vec<Vec<i64>> = Vec::new();
        let mut hand_steps = 0u64;
        while let Some(&seat) = state.to_act().first() {
            let Some(action) = bot::choose(rules, &state, seat) else {
                anyhow::bail!("seat {seat} is to act but has no legal action");
            };
            events.clear();
            apply(rules, hooks, &mut state, &action, &mut events)?;
            s.steps += 1;
            hand_steps += 1;
            if hand_steps > MAX_HAND_STEPS {
                s.stalled += 1;
                break;
            }
            for e in &events {
                match e {
                    Event::HandOver(r) => {
                        hand_steps = 0;
                        s.hands += 1;
                        points += r.points.iter().sum::<i64>();
                        match r.outcome {
                            Outcome::Gin => s.gin += 1,
                            Outcome::BigGin => s.big_gin += 1,
                            Outcome::Knock => s.knock += 1,
                            Outcome::Undercut => s.undercut += 1,
                            Outcome::Dead => s.dead += 1,
                        }
                    }
                    Event::Scored { entries } => {
                        for e in entries {
                            let side = usize::from(e.side);
                            let game = usize::from(e.game);
                            if recorded.len() <= game {
                                recorded.resize(game + 1, Vec::new());
                            }
                            if recorded[game].len() <= side {
                                recorded[game].resize(side + 1, 0);
                            }
                            recorded[game][side] += i64::from(e.points);
                        }
                    }
                    Event::MatchOver { winners, .. } => {
                        if winners.is_empty() {
                            s.draws += 1;
                        }
                        for &w in winners {
                            s.wins[usize::from(w)] += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
        for (g, game) in state.record.games.iter().enumerate() {
            for (side, &points) in game.points.iter().enumerate() {
                let sum = recorded
                    .get(g)
                    .and_then(|r| r.get(side))
                    .copied()
                    .unwrap_or(0);
                if sum != points {
                    anyhow::bail!(
                        "game {} (seed {}): side {side} has {points} points in game {g}, but its recorded results add up to {sum}",
                        s.games,
                        seed.wrapping_add(s.games)
                    );
                }
            }
        }
        s.games += 1;
        progress(g + 1);
    }
    s.mean_points = if s.hands == 0 {
        0.0
    } else {
        points as f64 / s.hands as f64
    };
    Ok(s)
}

/// The progress rate as players read it: a whole number of games a second.
pub fn rate_text(per_sec: f64) -> String {
    let rate = if per_sec.is_finite() {
        per_sec.max(0.0)
    } else {
        0.0
    };
    format!("{rate:.0} games/s")
}

pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let catalog = super::rules::catalog(args.rulesets.as_deref())?;
    let variant = super::rules::variant_from_arg(&catalog, &args.ruleset, &args.options)?;
    let reference = variant.reference.clone();
    if let Some(t) = args.target {
        variant
            .check_target(t)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let rules = variant.ruleset.clone();
    let hooks = variant.hooks.clone();
    let bar = if args.hands >= 10_000 {
        let bar = ProgressBar::new(args.hands);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {rate}, eta {eta}")
        {
            bar.set_style(style.with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate_text(state.per_sec()));
                },
            ));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = std::time::Instant::now();
    let summary = simulate(
        &rules,
        hooks.as_ref(),
        &reference,
        args.seed,
        args.hands,
        args.target,
        |n| {
            if n % 1000 == 0 {
                bar.set_position(n);
            }
        },
    )?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        let pct = |n: u64| 100.0 * n as f64 / summary.hands.max(1) as f64;
        let options = if args.options.is_empty() {
            String::new()
        } else {
            format!(" with {}", args.options.join(", "))
        };
        writeln!(
            out,
            "ruleset {}{options}: {} games, {} hands",
            rules.id, summary.games, summary.hands
        )?;
        for (name, n) in [
            ("gin", summary.gin),
            ("big gin", summary.big_gin),
            ("knock", summary.knock),
            ("undercut", summary.undercut),
            ("dead", summary.dead),
        ] {
            writeln!(out, "  {name:<9} {n:>9}  {:5.1}%", pct(n))?;
        }
        writeln!(out, "  mean points per hand {:.2}", summary.mean_points)?;
        if summary.stalled > 0 {
            writeln!(
                out,
                "  {} games given up: a hand ran past {MAX_HAND_STEPS} steps",
                summary.stalled
            )?;
        }
        if args.target.is_some() {
            let wins: Vec<String> = summary.wins.iter().map(u64::to_string).collect();
            writeln!(
                out,
                "  match wins by seat {}, draws {}",
                wins.join(" / "),
                summary.draws
            )?;
        }
        writeln!(
            out,
            "  {:.2} s, {:.0} hands/s",
            secs,
            summary.hands as f64 / secs.max(1e-9)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_a_whole_number() {
        assert_eq!(rate_text(48_123.456_7), "48123 games/s");
        assert_eq!(rate_text(0.4), "0 games/s");
        assert_eq!(rate_text(f64::INFINITY), "0 games/s");
        assert_eq!(rate_text(f64::NAN), "0 games/s");
    }
}
