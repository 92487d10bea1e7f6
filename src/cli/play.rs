//! `gin-rules play`: hands or whole matches between bots of any levels, with the outcome mix and
//! each level's match wins.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use serde::Serialize;

use crate::bot::{self, Level};
use crate::engine::hooks::Hooks;
use crate::engine::{Event, Game, Logging, NewGame, Outcome};
use crate::role::ByRole;
use crate::ruleset::{Ruleset, RulesetRef, Target};
use crate::seat::{Seat, TableNo};

#[derive(Args, Clone, Debug, Default)]
pub struct PlayArgs {
    /// Seed of the first game; game i is played with seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Hands to play (each a one-hand game), or matches with --target.
    #[arg(long, visible_alias = "matches", default_value_t = 1000)]
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
    /// Bot levels by seat (random, basic, strong), repeated round the table when fewer than the
    /// seats; match i moves every level i seats on, so each plays every seat in turn.
    #[arg(long, value_delimiter = ',', default_value = "basic")]
    pub bots: Vec<Level>,
}

fn parse_target(s: &str) -> Result<Target, String> {
    if s == "single_hand" || s == "1" {
        return Ok(Target::SingleHand);
    }
    s.parse::<u32>()
        .map(Target::Points)
        .map_err(|_| format!("{s:?} is not a number of points or \"single_hand\""))
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    /// Hands nobody scored (`tie: wash`, or a hook's decision).
    #[serde(skip_serializing_if = "is_zero")]
    pub wash: u64,
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
    /// Each level that played: its match wins and points.
    pub levels: Vec<LevelSummary>,
}

/// How one bot level did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelSummary {
    pub level: Level,
    /// Matches it played in (on any seat).
    pub matches: u64,
    /// Matches it won (a team of two of its seats counts once).
    pub wins: u64,
    pub win_rate: f64,
    /// The 95% (Wilson) interval of the win rate.
    pub interval: [f64; 2],
    /// Hands its seats played (a seat sitting a hand out does not count).
    pub hands: u64,
    pub points: i64,
    /// Points it scored per hand played.
    pub mean_points: f64,
}

impl LevelSummary {
    fn finish(&mut self) {
        self.win_rate = self.wins as f64 / self.matches.max(1) as f64;
        self.interval = wilson(self.wins, self.matches);
        self.mean_points = self.points as f64 / self.hands.max(1) as f64;
    }
}

/// The 95% Wilson score interval of `wins` successes in `n` trials.
pub fn wilson(wins: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (n as f64, wins as f64 / n as f64, 1.959_964);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    [
        ((centre - spread) / denom).max(0.0),
        ((centre + spread) / denom).min(1.0),
    ]
}

/// The level that plays `seat` in game `game`: the list round the table, moved on one seat a game.
pub fn level_of(levels: &[Level], seat: usize, game: u64) -> Level {
    match levels.len() {
        0 => Level::Basic,
        n => levels[(seat + (game % n as u64) as usize) % n],
    }
}

/// Steps after which a hand between bots is given up as stalled.
pub const MAX_HAND_STEPS: u64 = 20_000;

/// Plays `games` games between `basic` bots; `target` None plays one hand each.
pub fn simulate(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    reference: &RulesetRef,
    seed: u64,
    games: u64,
    target: Option<Target>,
    progress: impl FnMut(u64),
) -> anyhow::Result<Summary> {
    simulate_levels(
        rules,
        hooks,
        reference,
        seed,
        games,
        target,
        &[Level::Basic],
        progress,
    )
}

/// [`simulate`] between bots of `levels` (see [`level_of`]).
#[allow(clippy::too_many_arguments)]
pub fn simulate_levels(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    reference: &RulesetRef,
    seed: u64,
    games: u64,
    target: Option<Target>,
    levels: &[Level],
    mut progress: impl FnMut(u64),
) -> anyhow::Result<Summary> {
    let mut s = Summary {
        wins: vec![0; usize::from(rules.seats)],
        ..Summary::default()
    };
    let mut by_level: Vec<LevelSummary> = Vec::new();
    for &level in levels {
        if !by_level.iter().any(|l| l.level == level) {
            by_level.push(LevelSummary {
                level,
                ..LevelSummary::default()
            });
        }
    }
    let slot = |level: Level| by_level.iter().position(|l| l.level == level).unwrap_or(0);
    let slots: Vec<Vec<usize>> = (0..levels.len().max(1) as u64)
        .map(|g| {
            (0..usize::from(rules.seats))
                .map(|seat| slot(level_of(levels, seat, g)))
                .collect()
        })
        .collect();
    let mut points: i64 = 0;
    let mut events = Vec::new();
    for g in 0..games {
        let mut game = NewGame::seeded(reference.clone(), seed.wrapping_add(g));
        game.target = Some(target.unwrap_or(Target::SingleHand));
        // A simulation: no state leaves it, so none needs the log that proves a plain state.
        let dealt = Game::deal_with(rules, hooks, game, Logging::Off)?;
        let mut state = dealt.game;
        let mut recorded: Vec<Vec<i64>> = Vec::new();
        let mut hand_steps = 0u64;
        let seat_slot = &slots[(g % slots.len() as u64) as usize];
        for &i in seat_slot.iter().collect::<std::collections::BTreeSet<_>>() {
            by_level[i].matches += 1;
        }
        let mut at_table: Vec<ByRole<Seat>> = Vec::new();
        for e in &dealt.events {
            if let Event::Dealt { table, seats, .. } = e {
                set_table(&mut at_table, *table, *seats);
            }
        }
        while let Some(&seat) = state.to_act().first() {
            let level = by_level[seat_slot[seat.index()]].level;
            let Some(decision) = bot::decide_for(level, &state, seat) else {
                anyhow::bail!("seat {seat} is to act but has no legal action");
            };
            let action = decision.action;
            events.clear();
            state.apply(&action, &mut events)?;
            s.steps += 1;
            hand_steps += 1;
            if hand_steps > MAX_HAND_STEPS {
                s.stalled += 1;
                break;
            }
            for e in &events {
                match e {
                    Event::Dealt { table, seats, .. } => set_table(&mut at_table, *table, *seats),
                    Event::HandOver(r) => {
                        hand_steps = 0;
                        s.hands += 1;
                        points += r.points.iter().sum::<i64>();
                        if let Some(seats) = at_table.get(r.table.index()) {
                            for &p in seats {
                                let l = &mut by_level[seat_slot[p.index()]];
                                l.hands += 1;
                                l.points += r.points.get(p).copied().unwrap_or(0);
                            }
                        }
                        match r.outcome {
                            Outcome::Gin => s.gin += 1,
                            Outcome::BigGin => s.big_gin += 1,
                            Outcome::Knock => s.knock += 1,
                            Outcome::Undercut => s.undercut += 1,
                            Outcome::Wash => s.wash += 1,
                            Outcome::Dead => s.dead += 1,
                        }
                    }
                    Event::Scored { entries } => {
                        for e in entries {
                            let side = e.side.index();
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
                            s.wins[w.index()] += 1;
                        }
                        let won: std::collections::BTreeSet<usize> =
                            winners.iter().map(|&w| seat_slot[w.index()]).collect();
                        for i in won {
                            by_level[i].wins += 1;
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
    for l in &mut by_level {
        l.finish();
    }
    s.levels = by_level;
    Ok(s)
}

fn set_table(at_table: &mut Vec<ByRole<Seat>>, table: TableNo, seats: ByRole<Seat>) {
    let t = table.index();
    if at_table.len() <= t {
        at_table.resize(t + 1, seats);
    }
    at_table[t] = seats;
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
    let summary = simulate_levels(
        &rules,
        hooks.as_ref(),
        &reference,
        args.seed,
        args.hands,
        args.target,
        &args.bots,
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
            ("wash", summary.wash),
            ("dead", summary.dead),
        ] {
            if name == "wash" && n == 0 {
                continue;
            }
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
        if summary.levels.len() > 1 {
            writeln!(out, "  by level (seats alternated between matches):")?;
            for l in &summary.levels {
                writeln!(
                    out,
                    "    {:<7} won {:>6} of {:>6} matches: {:5.1}% (95% interval {:.1}% to {:.1}%), {:6.2} points per hand played",
                    l.level.name(),
                    l.wins,
                    l.matches,
                    100.0 * l.win_rate,
                    100.0 * l.interval[0],
                    100.0 * l.interval[1],
                    l.mean_points
                )?;
            }
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
    fn wilson_brackets_the_rate() {
        let [lo, hi] = wilson(60, 100);
        assert!(
            (lo - 0.502).abs() < 0.001 && (hi - 0.691).abs() < 0.001,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
        let [lo, hi] = wilson(100, 100);
        assert!(lo > 0.96 && hi == 1.0);
    }

    #[test]
    fn levels_move_round_the_table() {
        let l = [Level::Strong, Level::Basic];
        assert_eq!(level_of(&l, 0, 0), Level::Strong);
        assert_eq!(level_of(&l, 1, 0), Level::Basic);
        assert_eq!(level_of(&l, 0, 1), Level::Basic);
        assert_eq!(level_of(&l, 1, 1), Level::Strong);
        assert_eq!(level_of(&l, 2, 0), Level::Strong);
        assert_eq!(level_of(&[], 3, 7), Level::Basic);
    }

    #[test]
    fn the_rate_is_a_whole_number() {
        assert_eq!(rate_text(48_123.456_7), "48123 games/s");
        assert_eq!(rate_text(0.4), "0 games/s");
        assert_eq!(rate_text(f64::INFINITY), "0 games/s");
        assert_eq!(rate_text(f64::NAN), "0 games/s");
    }
}
