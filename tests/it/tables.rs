//! Tables of three and four at one table (`oklahoma-three`, `oklahoma-four`): `gin-rules play`
//! plays them to the end of matches with every bot level, and each seat's view shows its own hand,
//! every opponent's hand size in turn order, and what each defender laid off.

use std::process::Command;

use gin_rules::bot::Level;
use gin_rules::engine::{Action, ActionKind, Game, NewGame, Phase};
use gin_rules::ruleset::{RulesetRef, Target};
use gin_rules::seat::Seat;
use serde_json::Value;

use crate::variants::variant;

#[test]
fn gin_rules_play_plays_tables_of_three_and_four_to_the_end_with_every_level() {
    for ruleset in ["oklahoma-three", "oklahoma-four"] {
        for level in Level::ALL {
            let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
                .args(["play", "--ruleset", ruleset, "--target", "100", "--hands", "2"])
                .args(["--bots", level.name(), "--json"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{ruleset} {level:?}: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let summary: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(summary["games"], 2, "{ruleset} {level:?}: {summary}");
            assert_eq!(summary["stalled"], 0, "{ruleset} {level:?}: {summary}");
            let wins: u64 = summary["wins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_u64().unwrap())
                .sum();
            assert_eq!(wins + summary["draws"].as_u64().unwrap(), 2, "{summary}");
            let seats = if ruleset == "oklahoma-three" { 3 } else { 4 };
            assert_eq!(summary["wins"].as_array().unwrap().len(), seats);
        }
    }
}

#[test]
fn every_seat_sees_its_own_hand_and_each_opponents_size_in_turn_order() {
    let v = variant("oklahoma-four", &[]);
    let mut deal = NewGame::seeded(RulesetRef::named("oklahoma-four"), 9);
    deal.target = Some(Target::Points(100));
    deal.dealer = Some(Seat::new(2));
    let game = Game::deal(&v.ruleset, v.hooks.as_ref(), deal).unwrap().game;
    let t = &game.tables[0];
    let order: Vec<u8> = t.seats.iter().map(|s| s.number()).collect();
    assert_eq!(order, [3, 0, 1, 2], "from the dealer's left, the dealer last");
    for seat in 0..4u8 {
        let view = game.view(Seat::new(seat)).unwrap();
        assert_eq!(view.hand.len(), 7);
        let others: Vec<u8> = view.players.iter().map(|p| p.seat.number()).collect();
        let expected: Vec<u8> = (1..4).map(|k| (seat + k) % 4).collect();
        assert_eq!(others, expected, "seat {seat}");
        assert!(view.players.iter().all(|p| p.hand_size == 7));
        let json = serde_json::to_string(&view).unwrap();
        for other in t.seats.iter().filter(|&&s| s != Seat::new(seat)) {
            let role = t.role(*other).unwrap();
            for card in t.hands[role] {
                assert!(
                    !json.contains(&format!("\"{card}\"")) || card == t.upcard,
                    "seat {seat} sees {card} of seat {other}"
                );
            }
        }
    }
    // The upcard goes round the table, then the first player draws from the stock.
    let mut game = game;
    for seat in [3, 0, 1, 2] {
        assert_eq!(game.to_act(), [Seat::new(seat)]);
        game = game
            .step(&Action::new(seat, ActionKind::Pass))
            .unwrap()
            .game;
    }
    assert!(matches!(
        game.tables[0].phase,
        Phase::Draw {
            stock_only: true,
            ..
        }
    ));
    assert_eq!(game.to_act(), [Seat::new(3)]);
}
