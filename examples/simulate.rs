//! Two `basic` bots play one hand of standard Gin Rummy with the library: the built-in ruleset
//! (its YAML and hooks), a game dealt from a seed, each bot deciding from its own seat's view,
//! every move with the bot's reason, and how the hand ended.
//!
//! ```sh
//! cargo run --example simulate          # seed 1
//! cargo run --example simulate -- 42    # another deal
//! ```

use std::error::Error;

use gin_rules::bot::{self, Level};
use gin_rules::engine::{Event, Game, HandResult, NewGame};
use gin_rules::rules::Catalog;
use gin_rules::ruleset::{RulesetRef, Target};

/// What one hand was: each move as the game's log writes it with the bot's reason, how it ended,
/// and the match's points per seat after it.
struct Hand {
    moves: Vec<String>,
    result: HandResult,
    totals: Vec<i64>,
}

fn main() -> Result<(), Box<dyn Error>> {
    let seed = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 1,
    };
    let hand = play_hand(seed)?;
    for line in &hand.moves {
        println!("{line}");
    }
    let r = &hand.result;
    match r.winner {
        Some(winner) => println!(
            "{} by seat {winner}, deadwood {:?}",
            r.outcome.as_str(),
            r.deadwood.iter().collect::<Vec<_>>(),
        ),
        None => println!("a dead hand: nobody scores"),
    }
    println!("points per seat: {:?}", hand.totals);
    Ok(())
}

/// Deals one hand of standard rules from `seed` and lets two `basic` bots play it to its end.
fn play_hand(seed: u64) -> Result<Hand, Box<dyn Error>> {
    let standard = Catalog::builtin().resolve(&RulesetRef::named("standard"))?;
    let mut deal = NewGame::seeded(standard.reference.clone(), seed);
    deal.target = Some(Target::SingleHand);
    let mut game = Game::deal(&standard.ruleset, standard.hooks.as_ref(), deal)?.game;
    let mut moves = Vec::new();
    let mut result = None;
    while !game.is_over() {
        let seat = *game.to_act().first().ok_or("nobody is to act")?;
        let decision = bot::decide_for(Level::Basic, &game, seat).ok_or("the bot has no move")?;
        moves.push(format!(
            "{:<14} {}",
            decision.action.to_string(),
            decision.why
        ));
        let stepped = game.step(&decision.action)?;
        for event in stepped.events {
            if let Event::HandOver(r) = event {
                result = Some(*r);
            }
        }
        game = stepped.game;
    }
    Ok(Hand {
        moves,
        result: result.ok_or("the game ended without a hand result")?,
        totals: game.scores().totals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_play_a_hand_to_its_end_and_it_scores_as_it_ended() {
        for seed in 1..=5 {
            let hand = play_hand(seed).expect("a hand plays to its end");
            let points: Vec<i64> = hand.result.points.iter().copied().collect();
            assert_eq!(hand.totals, points, "seed {seed}: a one-hand match");
            match hand.result.winner {
                Some(w) => assert!(points[w.index()] > 0, "seed {seed}: {points:?}"),
                None => assert!(points.iter().all(|&p| p == 0), "seed {seed}: {points:?}"),
            }
            assert!(hand.moves.len() > 2, "seed {seed}: {:?}", hand.moves);
        }
    }
}
