//! Match forms: Hollywood columns, three players, four players in partnership and tournament.

use gin_rules::bot;
use gin_rules::cards::Card;
use gin_rules::cli::play::simulate;
use gin_rules::engine::hooks::{
    GameScore, HandOutcome, MatchLayout, RecordInfo, ScoreEntry, TableResult, TableSeating,
};
use gin_rules::engine::{
    Action, ActionKind, DealError, Event, Game, NewGame, State, shuffled_deck,
};
use gin_rules::role::{ByRole, Role};
use gin_rules::rules::Variant;
use gin_rules::ruleset::Target;
use gin_rules::seat::{Seat, TableNo};

use crate::common::seats;
use crate::variants;
use variants::variant;

fn start(v: &Variant, seed: u64, target: Target, dealer: Option<u8>) -> Game<'_> {
    let game = NewGame {
        ruleset: v.reference.clone(),
        seed,
        id: None,
        target: Some(target),
        dealer: dealer.map(Seat::new),
        decks: vec![],
    };
    Game::deal(&v.ruleset, v.hooks.as_ref(), game).unwrap().game
}

/// Bot moves until `stop` says so or the match ends; returns the events seen.
fn play_until<'v>(mut s: Game<'v>, stop: impl Fn(&State) -> bool) -> (Game<'v>, Vec<Event>) {
    let mut events = Vec::new();
    for _ in 0..100_000 {
        if s.is_over() || stop(&s) {
            break;
        }
        let seat = s.to_act()[0];
        let a = bot::choose(&s, seat).unwrap();
        let next = s.step(&a).unwrap();
        events.extend(next.events);
        s = next.game;
    }
    (s, events)
}

fn game(points: [i64; 2], closed: bool) -> GameScore {
    GameScore {
        points: points.to_vec(),
        hands_won: points.iter().map(|&p| u32::from(p > 0)).collect(),
        boxes: vec![0, 0],
        closed,
    }
}

fn win(seat: u8, points: u32) -> TableResult {
    TableResult {
        table: TableNo::new(0),
        seating: TableSeating {
            dealer: Seat::new(0),
            players: ByRole::new(Seat::new(1), Seat::new(0)),
        },
        outcome: HandOutcome::Knock,
        winner: Some(Seat::new(seat)),
        loser: Some(Seat::new(seat ^ 1)),
        points,
        multiplier: 1,
        parts: Vec::new(),
        boxes: 1,
    }
}

fn entries(v: &Variant, games: &[GameScore], results: &[TableResult]) -> Vec<(u8, u8, u32)> {
    let layout = MatchLayout {
        games: games.len() as u8,
        ..MatchLayout::individual(2)
    };
    let info = RecordInfo {
        hand_number: 3,
        target: Target::Points(100),
        layout: &layout,
        games,
        results,
    };
    v.hooks
        .record_result(&info)
        .unwrap()
        .into_iter()
        .map(
            |ScoreEntry {
                 game, side, points, ..
             }| (game, side.number(), points),
        )
        .collect()
}

#[test]
fn hollywood_enters_a_win_in_every_column_already_scored_plus_the_next() {
    let v = variant("standard", &["hollywood"]);
    let fresh = [
        game([0, 0], false),
        game([0, 0], false),
        game([0, 0], false),
    ];
    assert_eq!(entries(&v, &fresh, &[win(0, 20)]), vec![(0, 0, 20)]);
    let once = [
        game([20, 0], false),
        game([0, 0], false),
        game([0, 0], false),
    ];
    assert_eq!(
        entries(&v, &once, &[win(0, 15)]),
        vec![(0, 0, 15), (1, 0, 15)]
    );
    let twice = [
        game([35, 0], false),
        game([15, 0], false),
        game([0, 0], false),
    ];
    assert_eq!(
        entries(&v, &twice, &[win(0, 9)]),
        vec![(0, 0, 9), (1, 0, 9), (2, 0, 9)]
    );
    // Seat 1 was shut out of game 1, now closed: its first win goes to the next open game.
    let closed = [
        game([104, 0], true),
        game([60, 0], false),
        game([30, 0], false),
    ];
    assert_eq!(entries(&v, &closed, &[win(1, 25)]), vec![(1, 1, 25)]);
    // A dead hand enters nothing.
    let dead = TableResult {
        outcome: HandOutcome::Dead,
        winner: None,
        points: 0,
        ..win(0, 0)
    };
    assert!(entries(&v, &once, &[dead]).is_empty());
}

#[test]
fn a_hollywood_match_closes_its_columns_one_by_one() {
    let v = variant("standard", &["hollywood"]);
    let s = start(&v, 11, Target::Points(100), None);
    assert_eq!(s.scores().columns.map(|c| c.len()), Some(3));
    let some_closed = |s: &State| s.record.games.iter().any(|g| g.closed);
    let (s, _) = play_until(s, some_closed);
    assert!(!s.is_over(), "a column closed while the others go on");
    assert!(s.record.games.iter().any(|g| !g.closed));
    let (s, events) = play_until(s, |_| false);
    assert!(s.is_over());
    assert!(s.record.games.iter().all(|g| g.closed));
    for g in &s.record.games {
        assert!(g.points.iter().any(|&p| p >= 100));
    }
    let over = events.iter().rev().find_map(|e| match e {
        Event::MatchOver { totals, .. } => Some(totals.clone()),
        _ => None,
    });
    assert_eq!(
        over.map(|t| t.iter().sum::<i64>()),
        Some(s.scores().totals.iter().sum())
    );
}

#[test]
fn three_players_rotate_the_deal_and_the_dealer_sits_out() {
    let v = variant("three-player", &[]);
    let s = start(&v, 3, Target::Points(100), Some(0));
    let t = &s.tables[0];
    assert_eq!(
        (t.dealer, t.seats.as_slice()),
        (Seat::new(0), &seats([1, 2])[..])
    );
    assert!(s.legal_actions().iter().all(|a| a.seat == Seat::new(1)));
    let out = s.view(Seat::new(0)).unwrap();
    assert!(out.sitting_out && out.hand.is_empty() && out.legal_actions.is_empty());
    assert_eq!(out.players.len(), 2);
    assert!(out.players.iter().all(|p| p.hand_size == 10));
    assert!(s.step(&Action::new(0, ActionKind::Pass)).is_err());

    let (_, events) = play_until(s, |s| s.deal_number >= 6);
    let mut dealers = Vec::new();
    let mut dead = Vec::new();
    for e in &events {
        match e {
            Event::Dealt { dealer, .. } => dealers.push(*dealer),
            Event::HandOver(r) => dead.push(r.winner.is_none()),
            _ => {}
        }
    }
    let mut expected = 0u8;
    for (i, d) in dealers.iter().enumerate() {
        if i > 0 {
            expected = if dead[i - 1] {
                expected
            } else {
                (expected + 1) % 3
            };
        } else {
            expected = 1;
        }
        assert_eq!(
            d.number(),
            expected,
            "deal {i}: {dealers:?} after dead hands {dead:?}"
        );
    }
}

fn net(v: &Variant, results: &[TableResult]) -> Vec<(u8, u8, u32)> {
    let layout = MatchLayout {
        sides: vec![seats([0, 2]).to_vec(), seats([1, 3]).to_vec()],
        games: 1,
    };
    let games = [game([0, 0], false)];
    let info = RecordInfo {
        hand_number: 0,
        target: Target::Points(125),
        layout: &layout,
        games: &games,
        results,
    };
    v.hooks
        .record_result(&info)
        .unwrap()
        .into_iter()
        .map(|e| (e.game, e.side.number(), e.points))
        .collect()
}

#[test]
fn partnership_nets_the_two_tables() {
    let v = variant("four-player", &[]);
    // Team 0+2 wins 12 at one table and loses 10 at the other: it wins the deal by 2.
    assert_eq!(net(&v, &[win(0, 12), win(3, 10)]), vec![(0, 0, 2)]);
    assert_eq!(net(&v, &[win(1, 30), win(2, 5)]), vec![(0, 1, 25)]);
    // A dead table counts 0.
    let dead = TableResult {
        outcome: HandOutcome::Dead,
        winner: None,
        points: 0,
        ..win(0, 0)
    };
    assert_eq!(net(&v, &[dead.clone(), win(3, 15)]), vec![(0, 1, 15)]);
    assert!(net(&v, &[dead.clone(), dead]).is_empty());
    assert!(net(&v, &[win(0, 10), win(1, 10)]).is_empty());
}

#[test]
fn partnership_tables_play_at_once_and_opponents_alternate() {
    let v = variant("four-player", &[]);
    let decks: Vec<Vec<Card>> = vec![
        shuffled_deck(1, 0, TableNo::new(0)),
        shuffled_deck(2, 0, TableNo::new(0)),
    ];
    let game = NewGame {
        ruleset: v.reference.clone(),
        seed: 5,
        id: None,
        target: None,
        dealer: Some(Seat::new(0)),
        decks: decks.clone(),
    };
    let s = Game::deal(&v.ruleset, v.hooks.as_ref(), game.clone())
        .unwrap()
        .game;
    assert_eq!(s.target, Target::Points(125));
    assert_eq!(s.tables.len(), 2);
    assert_eq!(s.tables[0].seats, seats([1, 0]));
    assert_eq!(s.tables[1].seats, seats([3, 2]));
    assert_eq!(s.to_act(), seats([1, 3]));
    // Each table is dealt its own deck: the first card to the first player.
    assert!(s.tables[1].hands[Role::FIRST].contains(decks[1][0]));
    assert_eq!(
        s.scores().teams,
        Some(vec![seats([0, 2]).to_vec(), seats([1, 3]).to_vec()])
    );
    let one = NewGame {
        decks: vec![decks[0].clone()],
        ..game
    };
    assert!(matches!(
        Game::deal(&v.ruleset, v.hooks.as_ref(), one),
        Err(DealError::WrongDeckCount {
            needed: 2,
            given: 1
        })
    ));

    let (s, events) = play_until(s, |s| s.deal_number >= 1);
    let pairs: Vec<[Seat; 2]> = s
        .tables
        .iter()
        .map(|t| [t.seats[Role::FIRST], t.seats[Role::new(1)]])
        .collect();
    let mut sorted: Vec<[Seat; 2]> = pairs
        .iter()
        .map(|p| {
            let mut p = *p;
            p.sort();
            p
        })
        .collect();
    sorted.sort();
    assert_eq!(
        sorted,
        vec![seats([0, 3]), seats([1, 2])],
        "the second deal pairs 0-3 and 2-1"
    );
    let scored: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Scored { .. }))
        .collect();
    assert_eq!(
        scored.len(),
        1,
        "one entry per deal, when both tables are over"
    );
}

#[test]
fn tournament_rotates_opponents_round_robin() {
    let v = variant("four-player", &["tournament"]);
    let s = start(&v, 9, Target::Points(125), Some(0));
    assert_eq!(s.scores().teams, None);
    let mut rounds = Vec::new();
    let mut s = s;
    for deal in 0..3 {
        let mut pairs: Vec<[u8; 2]> = s
            .tables
            .iter()
            .map(|t| {
                let mut p = [t.seats[Role::FIRST], t.seats[Role::new(1)]].map(Seat::number);
                p.sort();
                p
            })
            .collect();
        pairs.sort();
        rounds.push(pairs);
        s = play_until(s, |s| s.deal_number > deal).0;
    }
    assert_eq!(
        rounds,
        vec![
            vec![[0, 1], [2, 3]],
            vec![[0, 2], [1, 3]],
            vec![[0, 3], [1, 2]]
        ]
    );
}

/// Seats named as winners of one match: both partners of a team.
fn seats_per_win(id: &str, options: &[&str]) -> u64 {
    if id == "four-player" && !options.contains(&"tournament") {
        2
    } else {
        1
    }
}

#[test]
fn every_form_finishes_and_its_scores_add_up() {
    let matches = std::env::var("FORM_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    for (id, options, target) in [
        ("standard", vec!["hollywood"], Target::Points(100)),
        (
            "standard",
            vec!["hollywood", "classic-bonuses"],
            Target::Points(100),
        ),
        ("three-player", vec![], Target::Points(100)),
        ("four-player", vec![], Target::Points(125)),
        ("four-player", vec!["tournament"], Target::Points(125)),
        ("oklahoma-three", vec![], Target::Points(100)),
        ("oklahoma-four", vec![], Target::Points(100)),
    ] {
        let v = variant(id, &options);
        let summary = simulate(
            &v.ruleset,
            v.hooks.as_ref(),
            &v.reference,
            1,
            matches,
            Some(target),
            |_| {},
        )
        .unwrap_or_else(|e| panic!("{id} {options:?}: {e}"));
        assert_eq!(summary.games, matches);
        assert_eq!(
            summary.wins.iter().sum::<u64>() + summary.draws,
            matches * seats_per_win(id, &options)
        );
    }
}

/// The dealer of the next deal by the rule of each form, worked out from the deal's results alone.
fn expected_next_dealer(
    id: &str,
    options: &[&str],
    dealer: u8,
    results: &[(Option<u8>, i64)],
) -> u8 {
    let seats: u8 = match id {
        "three-player" | "oklahoma-three" => 3,
        "four-player" | "oklahoma-four" => 4,
        _ => 2,
    };
    if results.iter().all(|(winner, _)| winner.is_none()) {
        return dealer;
    }
    match (id, options.contains(&"tournament")) {
        ("standard", _) => {
            let winner = results.iter().find_map(|r| r.0).unwrap_or(dealer);
            1 - winner
        }
        ("four-player", false) => {
            let net: i64 = results
                .iter()
                .filter_map(|&(w, p)| Some(if w? % 2 == 0 { p } else { -p }))
                .sum();
            match net.signum() {
                1 => 1,
                -1 => 0,
                _ => dealer,
            }
        }
        _ => (dealer + 1) % seats,
    }
}

/// Where the dealer of a deal sits in each form: dealing table 0 (two or three seats), dealing
/// the table they play at (tournament), or their team dealing both tables (partnership).
fn dealer_is_seated(id: &str, options: &[&str], dealer: u8, s: &State) -> bool {
    let dealers: Vec<u8> = s.tables.iter().map(|t| t.dealer.number()).collect();
    match (id, options.contains(&"tournament")) {
        ("four-player", true) => s
            .tables
            .iter()
            .any(|t| t.dealer.number() == dealer && t.seats.as_slice().contains(&t.dealer)),
        ("four-player", false) => dealers.iter().all(|d| d % 2 == dealer % 2),
        // One table where everyone plays: the dealer plays last.
        ("oklahoma-three" | "oklahoma-four", _) => {
            dealers == [dealer]
                && s.tables[0].seats.len() == s.seats()
                && s.tables[0].seats[s.tables[0].seats.dealer_role()].number() == dealer
        }
        _ => dealers == [dealer],
    }
}

/// The deal passes by the ruleset's rule in every form, from the seat whose deal it was, and a
/// deal with every table dead is dealt again by the same dealer.
#[test]
fn the_next_dealer_follows_the_rule_in_every_form() {
    let forms: [(&str, &[&str]); 6] = [
        ("standard", &[]),
        ("three-player", &[]),
        ("four-player", &[]),
        ("four-player", &["tournament"]),
        ("oklahoma-three", &[]),
        ("oklahoma-four", &[]),
    ];
    // Gin only, so that deals with every table dead come often.
    let gin_only = |options: &[&str]| {
        let yaml = "id: gin-only-four\nname: Gin-only four\nextends: four-player\nknocking: {allowed: false}\nmelds: {set_min: 4, run_min: 5}\n";
        let authored = gin_rules::ruleset::AuthoredRuleset {
            yaml: yaml.to_string(),
            scripts: Default::default(),
        };
        let reference = gin_rules::ruleset::RulesetRef {
            id: "gin-only-four".into(),
            options: options.iter().map(ToString::to_string).collect(),
            authored: Some(std::sync::Arc::new(authored)),
        };
        gin_rules::rules::Catalog::builtin()
            .resolve(&reference)
            .unwrap()
    };
    let mut variants: Vec<(&str, &[&str], std::sync::Arc<Variant>)> = forms
        .iter()
        .map(|&(id, options)| (id, options, variant(id, options)))
        .collect();
    variants.push(("four-player", &[], gin_only(&[])));
    variants.push(("four-player", &["tournament"], gin_only(&["tournament"])));
    for (id, options, v) in variants {
        let seats = v.ruleset.seats;
        let mut deals = 0;
        let mut dead_deals = 0;
        for seed in 0..12u64 {
            let first = (seed % u64::from(seats)) as u8;
            let mut s = start(&v, seed, Target::Points(250), Some(first));
            let mut dealer = first;
            while !s.is_over() && s.deal_number < 40 {
                let deal = s.deal_number;
                assert_eq!(
                    s.dealer.number(),
                    dealer,
                    "{id} {options:?} seed {seed} deal {deal}"
                );
                assert!(
                    dealer_is_seated(id, options, dealer, &s),
                    "{id} {options:?} seed {seed} deal {deal}: dealer {dealer}, tables {:?}",
                    s.tables
                        .iter()
                        .map(|t| t.dealer.number())
                        .collect::<Vec<_>>()
                );
                let (next, events) = play_until(s, |s| s.deal_number > deal);
                let results: Vec<(Option<u8>, i64)> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::HandOver(r) => Some((
                            r.winner.map(Seat::number),
                            r.winner.map_or(0, |w| r.points[w]),
                        )),
                        _ => None,
                    })
                    .collect();
                deals += 1;
                dead_deals += usize::from(results.iter().all(|r| r.0.is_none()));
                dealer = expected_next_dealer(id, options, dealer, &results);
                s = next;
            }
        }
        assert!(deals > 100, "{id} {options:?}: {deals} deals");
        if v.reference.id == "gin-only-four" {
            assert!(
                dead_deals > 0,
                "{id} {options:?}: no dead deal in {deals} deals"
            );
        }
    }
}
