//! Tables of three and four at one table (`oklahoma-three`, `oklahoma-four`): `gin-rules play`
//! plays them to the end of matches with every bot level, and each seat's view shows its own hand,
//! every opponent's hand size in turn order, and what each defender laid off.

use std::process::Command;

use gin_rules::bot::Level;
use gin_rules::cards::{Card, CardSet, parse_cards};
use gin_rules::engine::{Action, ActionKind, Event, Game, LayOffCard, NewGame, Phase, Source};
use gin_rules::rules::Variant;
use gin_rules::ruleset::{RulesetRef, Target};
use gin_rules::seat::Seat;
use serde_json::Value;

use crate::variants::variant;

#[test]
fn gin_rules_play_plays_tables_of_three_and_four_to_the_end_with_every_level() {
    for ruleset in ["oklahoma-three", "oklahoma-four"] {
        for level in Level::ALL {
            let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
                .args([
                    "play",
                    "--ruleset",
                    ruleset,
                    "--target",
                    "100",
                    "--hands",
                    "2",
                ])
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
    assert_eq!(
        order,
        [3, 0, 1, 2],
        "from the dealer's left, the dealer last"
    );
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

/// The deal of the scenario `oklahoma-three-way-knock`: seat 1 knocks, seat 2 then seat 0 lay off.
fn three_way_knock(v: &Variant) -> Game<'_> {
    let hands = [
        "5C 6C 7C KD KS KH 4H",
        "2S 3S 4S QC QD QH 8C",
        "9C 2D 5D 6D 9S TS JC",
    ];
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
    let mut deck: Vec<Card> = (0..7)
        .flat_map(|i| hands.iter().map(move |h| h[i]))
        .collect();
    deck.extend(parse_cards("8H 9D").unwrap());
    let used: CardSet = deck.iter().copied().collect();
    deck.extend(Card::all().filter(|c| !used.contains(*c)));
    let mut deal = NewGame::seeded(RulesetRef::named("oklahoma-three"), 1);
    deal.target = Some(Target::Points(100));
    deal.dealer = Some(Seat::new(0));
    deal.decks = vec![deck];
    let mut game = Game::deal(&v.ruleset, v.hooks.as_ref(), deal).unwrap().game;
    for (seat, kind) in [
        (1, ActionKind::Pass),
        (2, ActionKind::Pass),
        (0, ActionKind::Pass),
        (
            1,
            ActionKind::Draw {
                from: Source::Stock,
            },
        ),
        (
            1,
            ActionKind::Knock {
                discard: parse_cards("9D").unwrap()[0],
                melds: None,
            },
        ),
    ] {
        game = game.step(&Action::new(seat, kind)).unwrap().game;
    }
    game
}

#[test]
fn each_defender_lays_off_in_turn_and_every_view_shows_what_was_laid_off() {
    let v = variant("oklahoma-three", &[]);
    let game = three_way_knock(&v);
    assert_eq!(
        game.to_act(),
        [Seat::new(2)],
        "the knocker's left lays off first"
    );
    let lay_off = |card: &str| ActionKind::LayOff {
        cards: vec![LayOffCard {
            card: parse_cards(card).unwrap()[0],
            onto: None,
        }],
    };
    // The dealer's 9C fits only once seat 2's 8C is on the run.
    assert!(game.step(&Action::new(2, lay_off("9C"))).is_err());
    let game = game.step(&Action::new(2, lay_off("8C"))).unwrap().game;
    assert_eq!(game.to_act(), [Seat::new(0)]);
    let dealer = game.view(Seat::new(0)).unwrap();
    let knock = dealer.knock.as_ref().unwrap();
    assert!(knock.melds.iter().any(|m| m.len() == 4), "{knock:?}");
    assert_eq!(knock.laid_off.len(), 1);
    assert_eq!(knock.laid_off[0].seat, Seat::new(2));
    let sizes: Vec<(u8, u32)> = dealer
        .players
        .iter()
        .map(|p| (p.seat.number(), p.hand_size))
        .collect();
    assert_eq!(
        sizes,
        [(1, 7), (2, 6)],
        "seat 2 holds what it did not lay off"
    );
    assert_eq!(game.view(Seat::new(2)).unwrap().hand.len(), 6);
    let stepped = game.step(&Action::new(0, lay_off("9C"))).unwrap();
    let over = stepped
        .events
        .iter()
        .find_map(|e| match e {
            Event::HandOver(r) => Some(gin_rules::engine::HandResult::clone(r)),
            _ => None,
        })
        .unwrap();
    assert_eq!(over.points, [0, 38, 29]);
    let parts: Vec<i64> = over.against.iter().map(|a| a.points).collect();
    assert_eq!(parts, [29, 38], "against seat 2, then seat 0");
}

#[test]
fn a_knocker_who_beats_every_opponent_has_won_one_hand() {
    let v = variant("oklahoma-three", &[]);
    let nothing = ActionKind::LayOff { cards: Vec::new() };
    let game = three_way_knock(&v);
    let game = game.step(&Action::new(2, nothing.clone())).unwrap().game;
    let game = game.step(&Action::new(0, nothing)).unwrap().game;
    let g = &game.record.games[0];
    assert!(
        g.points[1] > 0 && g.points[0] == 0 && g.points[2] == 0,
        "{g:?}"
    );
    assert_eq!(g.hands_won, [0, 1, 0], "one hand, two opponents beaten");
}
