//! The `strong` level against `strong` as it was at commit `f7245c5`, matches to 100 in this
//! project's own rules: the measure of the goal "at least 60 % against the previous `strong`".
//! The two differ only in their weights ([`Tuning`]), so both play in one binary.
//!
//! ```sh
//! cargo run --release --example versus_previous -- standard 2000 1            # ruleset, matches, seed
//! cargo run --release --example versus_previous -- standard+oklahoma 2000 1   # with an option
//! cargo run --release --example versus_previous -- standard 2000 1 danger=8    # other weights for today's
//! ```
//!
//! Match `g` is dealt from seed `seed + g`, as `gin-rules play` deals it, with today's `strong` in
//! seat `g % 2`, so each plays each seat in turn and the seats' own edge cancels.

use std::error::Error;

use gin_rules::bot::{self, Tuning};
use gin_rules::engine::{Event, Game, Logging, NewGame};
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::{RulesetRef, Target};

/// `strong` as it was at `f7245c5`: before commit `61d7ea6` (a card left unmelded costs more when
/// a knock may leave deadwood; playing on keeps the whole of the knock's value) and before it read
/// the opponent's last discard, played its next turn and played its best discards out.
const PREVIOUS: Tuning = Tuning {
    per_card_knock: 0,
    play_on_keeps: 0.5,
    reading: 0,
    their_turn: false,
    rollouts: 0,
    ..Tuning::STRONG
};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut names = args.first().map_or("standard", String::as_str).split('+');
    let reference = RulesetRef {
        id: names.next().unwrap_or("standard").to_string(),
        options: names.map(str::to_string).collect(),
        authored: None,
    };
    let matches: u64 = args.get(1).map_or(Ok(2000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let today = Tuning::STRONG.with(args.get(3).map_or("", String::as_str))?;
    let variant = Catalog::builtin()
        .resolve(&reference)
        .map_err(|e| format!("{}: {e}", args.first().map_or("standard", String::as_str)))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let won = std::thread::scope(|s| -> Result<u64, String> {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (variant, today) = (&variant, &today);
                s.spawn(move || -> Result<u64, String> {
                    let mut won = 0;
                    for g in (t..matches).step_by(threads as usize) {
                        won += u64::from(today_wins(variant, today, seed.wrapping_add(g), g % 2)?);
                    }
                    Ok(won)
                })
            })
            .collect();
        let mut won = 0;
        for w in workers {
            won += w
                .join()
                .map_err(|_| "a thread playing matches panicked")??;
        }
        Ok(won)
    })?;
    let [lo, hi] = gin_rules::cli::play::wilson(won, matches);
    println!(
        "{}: today's strong won {won} of {matches} matches to 100 against the strong of f7245c5: {:.1} % ({:.1}-{:.1} %)",
        args.first().map_or("standard", String::as_str),
        100.0 * won as f64 / matches.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
    );
    Ok(())
}

/// Plays one match to 100 dealt from `seed`, today's `strong` in seat `ours`: whether it won.
fn today_wins(variant: &Variant, today: &Tuning, seed: u64, ours: u64) -> Result<bool, String> {
    let rules = &variant.ruleset;
    let mut new = NewGame::seeded(variant.reference.clone(), seed);
    new.target = Some(Target::Points(100));
    let mut game = Game::deal_with(rules, variant.hooks.as_ref(), new, Logging::Off)
        .map_err(|e| e.to_string())?
        .game;
    let mut events = Vec::new();
    while let Some(&seat) = game.to_act().first() {
        let tuning = if u64::from(seat.number()) == ours {
            today
        } else {
            &PREVIOUS
        };
        let view = game.play_view(seat).ok_or("no view for the seat to act")?;
        let decision = bot::decide_strong(tuning, rules, &view).ok_or("no legal action")?;
        events.clear();
        game.apply(&decision.action, &mut events)
            .map_err(|e| e.to_string())?;
        for e in &events {
            if let Event::MatchOver { winners, .. } = e {
                return Ok(winners.iter().any(|w| u64::from(w.number()) == ours));
            }
        }
    }
    Err(format!("match {seed} ended without a winner"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every match between the two reaches its end with a winner.
    #[test]
    fn both_tunings_finish_their_matches() {
        let variant = Catalog::builtin()
            .resolve(&RulesetRef {
                id: "standard".into(),
                options: Vec::new(),
                authored: None,
            })
            .map_err(|e| e.to_string());
        let Ok(variant) = variant else {
            panic!("standard does not resolve: {variant:?}");
        };
        let won: Vec<bool> = (0..4)
            .map(|g| today_wins(&variant, &Tuning::STRONG, g, g % 2))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(won.len(), 4);
    }
}
