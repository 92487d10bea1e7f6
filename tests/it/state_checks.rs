//! Plain states from outside: a state is accepted only when legal play from a deal reaches it.
//! Each test starts from a real state and changes one thing a client could change.

use std::sync::Arc;

use gin_rules::cards::{Card, CardSet, parse_cards, set};
use gin_rules::engine::Game;
use gin_rules::engine::{
    Action, ActionKind, GameBonus, InvalidState, NewGame, Outcome, Phase, Source, State,
};
use gin_rules::role::Role;
use gin_rules::rules::Variant;
use gin_rules::ruleset::Target;
use serde_json::json;

use crate::api_support::Client;

use crate::variants;
use variants::variant;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

/// A deck in the API's deal order: the first player's ten, the dealer's ten, the upcard, then
/// the stock from the top (the rest of the cards follow in a fixed order).
fn deck(first: &str, dealer: &str, upcard: &str, stock_top: &str) -> Vec<Card> {
    let (a, b) = (cards(first), cards(dealer));
    let mut d = Vec::new();
    for i in 0..10 {
        d.push(a[i]);
        d.push(b[i]);
    }
    d.push(upcard.parse().unwrap());
    d.extend(cards(stock_top));
    let used: CardSet = d.iter().copied().collect();
    d.extend(Card::all().filter(|c| !used.contains(*c)));
    assert_eq!(d.len(), 52, "deck has duplicates");
    d
}

/// Seat 0 deals a fixed deck; seat 1 plays first.
fn deal_deck(v: &Variant, deck: Vec<Card>, target: Target) -> State {
    let game = NewGame {
        ruleset: v.reference.clone(),
        seed: 1,
        target: Some(target),
        id: None,
        dealer: Some(0),
        decks: vec![deck],
    };
    Game::deal(&v.ruleset, v.hooks.as_ref(), game)
        .unwrap()
        .game
        .into_state()
}

fn act(v: &Variant, s: &State, seat: u8, kind: ActionKind) -> State {
    let a = Action::new(seat, kind);
    let next = game(v, s)
        .step(&a)
        .unwrap_or_else(|e| panic!("{a:?} refused: {e}"))
        .game
        .into_state();
    check(v, &next).unwrap_or_else(|e| panic!("a reached state is refused: {e}"));
    next
}

fn game<'v>(v: &'v Variant, s: &State) -> Game<'v> {
    Game::from_state(&v.ruleset, v.hooks.as_ref(), s.clone()).unwrap_or_else(|e| panic!("{e}"))
}

fn check(v: &Variant, s: &State) -> Result<(), InvalidState> {
    Game::from_state(&v.ruleset, v.hooks.as_ref(), s.clone()).map(drop)
}

/// Refused, and the answer names the problem.
fn refused(v: &Variant, s: &State, words: &str) {
    match check(v, s) {
        Ok(()) => panic!("accepted, though it should be refused for {words:?}"),
        Err(e) => assert!(
            e.problems.iter().any(|p| p.contains(words)),
            "no problem mentions {words:?}: {:?}",
            e.problems
        ),
    }
}

const KNOCKER: &str = "5S 6S 7S 9H 9D 9C JC QC KC AD";
const DEFENDER: &str = "2C 3D 4H 8S TD 4S 8H 3C 2H 4D";

/// Standard: seat 1 knocks with 1 (AD), seat 0 is to lay off.
fn lay_off_state(v: &Variant) -> State {
    let s = deal_deck(v, deck(KNOCKER, DEFENDER, "KD", "2D"), Target::Points(100));
    let s = act(v, &s, 1, ActionKind::Pass);
    let s = act(v, &s, 0, ActionKind::Pass);
    let s = act(
        v,
        &s,
        1,
        ActionKind::Draw {
            from: Source::Stock,
        },
    );
    act(
        v,
        &s,
        1,
        ActionKind::Knock {
            discard: "2D".parse().unwrap(),
            melds: None,
        },
    )
}

fn knock_of(s: &mut State) -> &mut gin_rules::engine::Knock {
    match &mut s.tables[0].phase {
        Phase::LayOff { knock, .. } => knock,
        p => panic!("not a lay-off: {p:?}"),
    }
}

#[test]
fn repeated_knock_melds_are_refused_before_any_search() {
    let v = variant("standard", &[]);
    let good = lay_off_state(&v);
    assert_eq!(knock_of(&mut good.clone()).melds.len(), 3);
    for n in [2, 40, 80] {
        let mut s = good.clone();
        let k = knock_of(&mut s);
        k.melds = [set("5S 6S 7S"), set("9H 9D 9C"), set("JC QC KC")].repeat(n);
        refused(&v, &s, "melds");
    }
}

#[test]
fn knock_melds_must_be_real_and_disjoint() {
    let v = variant("standard", &[]);
    let good = lay_off_state(&v);
    let mut cases: Vec<(Vec<CardSet>, &str)> = vec![
        // Two melds sharing 9C.
        (
            vec![set("5S 6S 7S"), set("9H 9D 9C"), set("9C JC QC KC")],
            "melds",
        ),
        // A card the knocker does not hold.
        (
            vec![set("5S 6S 7S"), set("9H 9D 9C"), set("TC JC QC KC")],
            "melds",
        ),
        // Not a meld.
        (
            vec![set("5S 6S"), set("9H 9D 9C"), set("JC QC KC")],
            "melds",
        ),
        (
            vec![CardSet::EMPTY, set("9H 9D 9C"), set("JC QC KC")],
            "melds",
        ),
    ];
    for (melds, words) in cases.drain(..) {
        let mut s = good.clone();
        knock_of(&mut s).melds = melds;
        refused(&v, &s, words);
    }
    // Fewer melds, more deadwood: the deadwood must be the knocker's real one.
    let mut s = good.clone();
    knock_of(&mut s).melds = vec![set("5S 6S 7S"), set("9H 9D 9C")];
    refused(&v, &s, "deadwood");
    knock_of(&mut s).deadwood = 31;
    refused(&v, &s, "knock limit");
}

#[test]
fn a_real_lay_off_state_is_viewed_and_stepped() {
    let v = variant("standard", &[]);
    let s = lay_off_state(&v);
    let game = game(&v, &s);
    assert!(game.view(0).is_some());
    assert_eq!(game.legal_actions().len(), 2);
}

// Issue 10, item 9: impossible plain states that were accepted, each from a real state changed in
// one field.

/// The lay-off state with nothing laid off: the hand is over (seat 1 knocked with 1, seat 0
/// keeps 26), deal 0 of a match to 100.
fn over_state(v: &Variant) -> State {
    let s = lay_off_state(v);
    act(v, &s, 0, ActionKind::LayOff { cards: vec![] })
}

/// Seat 1 draws TC and goes gin (discarding AD); the hand is over.
fn gin_state(v: &Variant) -> State {
    let s = deal_deck(v, deck(KNOCKER, DEFENDER, "KD", "TC"), Target::Points(100));
    let s = act(v, &s, 1, ActionKind::Pass);
    let s = act(v, &s, 0, ActionKind::Pass);
    let s = act(
        v,
        &s,
        1,
        ActionKind::Draw {
            from: Source::Stock,
        },
    );
    act(
        v,
        &s,
        1,
        ActionKind::Gin {
            discard: Some("AD".parse().unwrap()),
            melds: None,
        },
    )
}

/// The second deal, dealt from the seed, before anyone acts.
fn second_deal(v: &Variant) -> State {
    let s = over_state(v);
    act(v, &s, 0, ActionKind::NextHand)
}

fn result_of(s: &mut State) -> &mut gin_rules::engine::HandResult {
    match &mut s.tables[0].phase {
        Phase::Over { result } => result,
        p => panic!("not over: {p:?}"),
    }
}

fn record_of(s: &mut State) -> &mut gin_rules::engine::MatchRecord {
    Arc::make_mut(&mut s.record)
}

#[test]
fn the_real_states_of_these_checks_are_accepted() {
    let v = variant("standard", &[]);
    for s in [
        lay_off_state(&v),
        over_state(&v),
        gin_state(&v),
        second_deal(&v),
    ] {
        check(&v, &s).unwrap();
    }
    let four = variant("four-player", &[]);
    let s = Game::deal(
        &four.ruleset,
        four.hooks.as_ref(),
        NewGame::seeded(four.reference.clone(), 5),
    )
    .unwrap()
    .game
    .into_state();
    check(&four, &s).unwrap();
}

#[test]
fn scores_before_the_first_hand_is_over_are_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    let g = &mut record_of(&mut s).games[0];
    g.points = vec![99, 5];
    g.hands_won = vec![1, 1];
    refused(&v, &s, "nothing is scored before the first hand is over");
    // Once the first hand is over, the scores are exactly what its result scores.
    let mut s = over_state(&v);
    record_of(&mut s).games[0].points = vec![99, 5];
    refused(
        &v,
        &s,
        "the scores are not what the first hand's results score",
    );
}

#[test]
fn a_knock_limit_the_ruleset_does_not_give_is_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.tables[0].knock_limit = Some(98);
    refused(&v, &s, "the knock limit of this hand is 10, not 98");
    // Oklahoma: the upcard decides (KD: 10), a hook-chosen limit is checked the same way.
    let ok = variant("standard", &["oklahoma"]);
    let mut s = lay_off_state(&ok);
    check(&ok, &s).unwrap();
    s.tables[0].knock_limit = Some(9);
    refused(&ok, &s, "the knock limit of this hand is 10, not 9");
    let mut s = lay_off_state(&ok);
    s.tables[0].multiplier = 2;
    refused(&ok, &s, "the score multiplier of this hand is 1, not 2");
}

#[test]
fn a_lay_off_after_a_dead_hand_or_gin_is_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    knock_of(&mut s).outcome = Outcome::Dead;
    refused(&v, &s, "a lay-off phase after outcome dead is not played");
    let mut s = lay_off_state(&v);
    knock_of(&mut s).outcome = Outcome::Gin;
    refused(&v, &s, "a lay-off phase after outcome gin is not played");
}

#[test]
fn gin_with_deadwood_is_refused() {
    let v = variant("standard", &[]);
    let mut s = gin_state(&v);
    assert_eq!(result_of(&mut s).outcome, Outcome::Gin);
    result_of(&mut s).deadwood[1] = 10;
    refused(&v, &s, "played again, they give a different deadwood");
    // A knock relabelled gin: the knocker's cards leave 1.
    let mut s = over_state(&v);
    result_of(&mut s).outcome = Outcome::Gin;
    refused(&v, &s, "played again, they give a different outcome");
    // Points that are not what the cards score.
    let mut s = gin_state(&v);
    result_of(&mut s).points[1] += 1;
    refused(&v, &s, "played again, they give a different score");
}

#[test]
fn a_lay_off_phase_in_straight_gin_is_refused() {
    let standard = variant("standard", &[]);
    let straight = variant("straight-gin", &[]);
    let mut s = lay_off_state(&standard);
    s.ruleset = Arc::new(straight.reference.clone());
    refused(
        &straight,
        &s,
        "a lay-off phase after outcome knock is not played",
    );
}

#[test]
fn winners_that_are_not_seats_are_refused() {
    let v = variant("standard", &[]);
    let mut s = over_state(&v);
    result_of(&mut s).winner = Some(200);
    refused(&v, &s, "played again, they give a different winner");
    let mut s = over_state(&v);
    s.winners = Some(vec![200]);
    refused(&v, &s, "a winner is not a seat of this game");
    // A real seat that did not win.
    let mut s = over_state(&v);
    result_of(&mut s).winner = Some(0);
    refused(&v, &s, "played again, they give a different winner");
}

#[test]
fn a_changed_upcard_is_refused() {
    let v = variant("standard", &[]);
    // To a card the knocker holds without having taken it.
    let mut s = lay_off_state(&v);
    s.tables[0].upcard = "5S".parse().unwrap();
    refused(&v, &s, "holds the upcard 5S without having taken it");
    // To a card of the stock.
    let mut s = lay_off_state(&v);
    s.tables[0].upcard = s.tables[0].stock.top().unwrap();
    refused(&v, &s, "is in the stock");
    // A later deal's upcard comes from the seed.
    let mut s = second_deal(&v);
    let real = s.tables[0].upcard;
    let other = s.tables[0].discard.as_slice()[0];
    assert_eq!(real, other);
    let swap = s.tables[0].hands[Role::First].first().unwrap();
    s.tables[0].hands[Role::First].remove(swap);
    s.tables[0].hands[Role::First].insert(real);
    s.tables[0].discard = gin_rules::engine::Pile::from_bottom_up(&[swap]).unwrap();
    s.tables[0].upcard = swap;
    refused(&v, &s, "the upcard of deal 1 is");
}

#[test]
fn a_later_deal_is_the_seeded_one() {
    let v = variant("standard", &[]);
    let s = second_deal(&v);
    // A card of the stock swapped with one of a hand.
    let mut bad = s.clone();
    let t = &mut bad.tables[0];
    let from_hand = t.hands[Role::First].first().unwrap();
    let from_stock = t.stock.as_slice()[0];
    t.hands[Role::First].remove(from_hand);
    t.hands[Role::First].insert(from_stock);
    t.stock.as_mut_slice()[0] = from_hand;
    refused(
        &v,
        &bad,
        "the cards of deal 1 are not the ones the match's seed deals",
    );
    // The two hands swapped.
    let mut bad = s.clone();
    bad.tables[0].hands.swap();
    refused(
        &v,
        &bad,
        "the cards of deal 1 are not the ones the match's seed deals",
    );
}

#[test]
fn a_four_player_state_keeps_its_tables_and_teams() {
    let v = variant("four-player", &[]);
    let s = Game::deal(
        &v.ruleset,
        v.hooks.as_ref(),
        NewGame::seeded(v.reference.clone(), 5),
    )
    .unwrap()
    .game
    .into_state();
    let mut dropped = s.clone();
    dropped.tables.pop();
    refused(
        &v,
        &dropped,
        "the tables are not seated as this game seats deal 0",
    );
    let mut repaired = s.clone();
    record_of(&mut repaired).layout.sides = vec![vec![0, 1], vec![2, 3]];
    refused(
        &v,
        &repaired,
        "the sides or games of the match are not the ones this game plays",
    );
    let mut swapped = s.clone();
    swapped.tables.swap(0, 1);
    refused(&v, &swapped, "not seated");
}

#[test]
fn bonuses_that_were_not_awarded_are_refused() {
    let v = variant("standard", &[]);
    let mut s = over_state(&v);
    record_of(&mut s).bonuses.push(GameBonus {
        game: 0,
        winner: 7,
        game_bonus: vec![0, 100],
        boxes: vec![0, 25],
        shutout: 1,
        totals: vec![0, 125],
    });
    refused(
        &v,
        &s,
        "a game bonus (game 0, winner side 7) does not fit the match",
    );
    let mut s = over_state(&v);
    record_of(&mut s).bonuses.push(GameBonus {
        game: 0,
        winner: 1,
        game_bonus: vec![0, 100],
        boxes: vec![0, 25],
        shutout: 1,
        totals: vec![0, 125],
    });
    refused(
        &v,
        &s,
        "the game bonuses are not what the first hand's results award",
    );
}

#[test]
fn targets_ids_and_moves_must_match_the_game() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.target = Target::Points(0);
    refused(&v, &s, "this game is not played to 0 points");
    let mut s = over_state(&v);
    result_of(&mut s).game.id = gin_rules::engine::GameId::from_seed(99);
    refused(&v, &s, "the hand result is of game");
    let mut s = over_state(&v);
    s.game.moves = 1;
    refused(&v, &s, "too early");
    let mut s = over_state(&v);
    s.game.moves += 1;
    refused(&v, &s, "the last hand ended at move");
    let mut s = second_deal(&v);
    s.deal_number = 3;
    refused(&v, &s, "deal 3");
}

#[test]
fn numbers_near_their_limits_are_refused_and_never_wrap() {
    let v = variant("standard", &[]);
    // Points near i64::MAX: no hand scores that much.
    let mut s = second_deal(&v);
    record_of(&mut s).games[0].points[1] = i64::MAX - 1;
    refused(&v, &s, "points from 1 hands won");
    // Such states are refused before any play: a `Game` is only made from a checked state.
    let mut s = lay_off_state(&v);
    record_of(&mut s).games[0].points[1] = i64::MAX - 1;
    assert!(check(&v, &s).is_err());
    let mut s = lay_off_state(&v);
    record_of(&mut s).games[0].hands_won[1] = u32::MAX;
    refused(&v, &s, "nothing is scored");
    let mut s = over_state(&v);
    s.deal_number = u32::MAX;
    refused(&v, &s, "too early");
}

#[actix_web::test]
async fn an_impossible_plain_state_is_invalid_state_over_http() {
    let app = Client::new(false).await;
    let (status, snap) = app
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 3}))
        .await;
    assert_eq!(status, 201);
    let (status, _) = app
        .post(
            "/v1/games/view",
            &json!({"state": snap["state"], "seat": 0}),
        )
        .await;
    assert_eq!(status, 200);
    let mut bad = snap["state"].clone();
    bad["record"]["games"][0]["points"] = json!([99, 5]);
    bad["record"]["games"][0]["hands_won"] = json!([1, 1]);
    let (status, p) = app
        .post("/v1/games/view", &json!({"state": bad, "seat": 0}))
        .await;
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["type"], "invalid-state");
    assert!(
        p["detail"].as_str().unwrap().contains("nothing is scored"),
        "{p}"
    );
    // A target an option in force refuses.
    let (_, snap) = app
        .post(
            "/v1/games",
            &json!({"ruleset": "standard", "options": ["hollywood"], "seed": 3}),
        )
        .await;
    let mut bad = snap["state"].clone();
    bad["target"] = json!("single_hand");
    let (status, p) = app
        .post("/v1/games/view", &json!({"state": bad, "seat": 0}))
        .await;
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["type"], "invalid-state");
}

fn draw_stock() -> ActionKind {
    ActionKind::Draw {
        from: Source::Stock,
    }
}

fn set_turn(s: &mut State, seat: u8) {
    match &mut s.tables[0].phase {
        Phase::Draw { seat: to_draw, .. } => *to_draw = seat,
        p => panic!("not a draw: {p:?}"),
    }
}

#[test]
fn whose_turn_and_the_move_count_follow_the_plays() {
    let v = variant("standard", &[]);
    let s = deal_deck(
        &v,
        deck(KNOCKER, DEFENDER, "KD", "2D 3S"),
        Target::Points(100),
    );
    let s = act(&v, &s, 1, ActionKind::Pass);
    let passed = act(&v, &s, 0, ActionKind::Pass);

    // Both passed: the first player draws, from the stock only.
    let mut s = passed.clone();
    s.tables[0].phase = Phase::Draw {
        seat: 0,
        stock_only: false,
    };
    refused(&v, &s, "played again, they give a different phase");
    let mut s = passed.clone();
    s.tables[0].phase = Phase::Draw {
        seat: 1,
        stock_only: false,
    };
    refused(&v, &s, "played again, they give a different phase");

    // One turn played: the dealer draws, at move 4 and at no other.
    let s = act(&v, &passed, 1, draw_stock());
    let one_turn = act(
        &v,
        &s,
        1,
        ActionKind::Discard {
            card: "2D".parse().unwrap(),
        },
    );
    let mut s = one_turn.clone();
    set_turn(&mut s, 1);
    refused(&v, &s, "played again, they give a different phase");
    let mut s = one_turn.clone();
    s.game.moves = 3;
    refused(&v, &s, "the tables record 4 plays, more than the 3 moves");
    for moves in [5, 6, 8] {
        let mut s = one_turn.clone();
        s.game.moves = moves;
        refused(&v, &s, &format!("move {moves} of the first deal"));
    }

    // Seat 0 takes 2D from the pile and discards TD: 6 moves, and no other count.
    let s = act(
        &v,
        &one_turn,
        0,
        ActionKind::Draw {
            from: Source::Discard,
        },
    );
    let took = act(
        &v,
        &s,
        0,
        ActionKind::Discard {
            card: "TD".parse().unwrap(),
        },
    );
    for (moves, fits) in [(4, false), (5, false), (6, true), (7, false)] {
        let mut s = took.clone();
        s.game.moves = moves;
        assert_eq!(check(&v, &s).is_ok(), fits, "move {moves}");
    }
}

#[test]
fn the_plays_must_lead_to_the_cards() {
    let v = variant("standard", &[]);
    let s = lay_off_state(&v);
    let plays: Vec<String> = s.tables[0].plays.iter().map(|p| p.to_string()).collect();
    assert_eq!(plays, ["pass", "pass", "stock 2D", "knock 2D"]);

    // A different card drawn from the stock than the one on top.
    let mut bad = s.clone();
    bad.tables[0].plays[2] = "stock 3S".parse().unwrap();
    refused(
        &v,
        &bad,
        "the plays recorded for this hand do not lead to it",
    );
    // A play left out, or one added.
    let mut bad = s.clone();
    bad.tables[0].plays.remove(1);
    refused(
        &v,
        &bad,
        "the plays recorded for this hand do not lead to it",
    );
    let mut bad = s.clone();
    bad.tables[0].plays.insert(0, "take".parse().unwrap());
    refused(
        &v,
        &bad,
        "the plays recorded for this hand do not lead to it",
    );

    // The discard pile's order is what the plays leave: with the upcard under the knocker's
    // discard, the two swapped are refused though every count fits.
    let mut bad = s.clone();
    let pile: Vec<Card> = bad.tables[0]
        .discard
        .as_slice()
        .iter()
        .rev()
        .copied()
        .collect();
    assert_eq!(pile.len(), 2);
    bad.tables[0].discard = gin_rules::engine::Pile::from_bottom_up(&pile).unwrap();
    refused(
        &v,
        &bad,
        "is not where knock 2D left it on the discard pile",
    );
}

#[test]
fn a_reshuffled_stock_keeps_the_counts_of_a_dealt_one() {
    let v = variant("standard", &["reshuffle-stock"]);
    let mut s = deal_deck(&v, deck(KNOCKER, DEFENDER, "KD", ""), Target::Points(100));
    s = act(&v, &s, 1, ActionKind::Pass);
    s = act(&v, &s, 0, ActionKind::Pass);
    let mut seat = 1;
    while s.tables[0].reshuffles == 0 {
        let next = act(&v, &s, seat, draw_stock());
        let t = &next.tables[0];
        let r = t.role(seat).unwrap();
        let drawn = t.hands[r].minus(s.tables[0].hands[r]).first().unwrap();
        s = act(&v, &next, seat, ActionKind::Discard { card: drawn });
        seat = 1 - seat;
    }
    // One card moved from the pile back into the stock.
    let mut moved = s.clone();
    let t = &mut moved.tables[0];
    let top = t.discard.pop().unwrap();
    t.stock.push(top);
    refused(&v, &moved, "the stock was reshuffled at a draw");
    // The whole pile put back under the stock.
    let mut moved = s.clone();
    let t = &mut moved.tables[0];
    while let Some(c) = t.discard.pop() {
        t.stock.push(c);
    }
    refused(&v, &moved, "more than the 31 it was dealt");
}

/// Both players take the discard and throw back another card, turn after turn: a hand that never
/// ends, whose plays grow until its state no longer fits a request. That step is refused, and the
/// state before it still plays.
#[actix_web::test]
async fn a_hand_too_long_to_carry_is_refused_at_the_step() {
    use gin_rules::api::BODY_LIMIT;
    use gin_rules::api::gate::STATE_ROOM;

    let v = variant("standard", &[]);
    let mut s = deal_deck(&v, deck(KNOCKER, DEFENDER, "KD", ""), Target::Points(100));
    s = act(&v, &s, 1, ActionKind::Pass);
    s = act(&v, &s, 0, ActionKind::Pass);
    let mut g = game(&v, &s);
    let mut events = Vec::new();
    g.apply(&Action::new(1, draw_stock()), &mut events).unwrap();
    let room = (BODY_LIMIT - STATE_ROOM) as u64;
    let size = |g: &Game| serde_json::to_vec(g.state()).unwrap().len() as u64;
    // Whole turns, checking the size now and then, until a few turns are left.
    let mut seat = 1;
    let turn = |g: &mut Game, seat: u8, events: &mut Vec<_>| {
        let t = &g.tables[0];
        let r = t.role(seat).unwrap();
        let Phase::Discard { taken, .. } = t.phase else {
            panic!("not a discard: {:?}", t.phase)
        };
        let card = t.hands[r].iter().find(|&c| Some(c) != taken).unwrap();
        g.apply(&Action::new(seat, ActionKind::Discard { card }), events)
            .unwrap();
        let from = Source::Discard;
        g.apply(&Action::new(1 - seat, ActionKind::Draw { from }), events)
            .unwrap();
    };
    while size(&g) + 2_000 < room {
        for _ in 0..20 {
            turn(&mut g, seat, &mut events);
            seat = 1 - seat;
        }
        events.clear();
    }
    // Single actions, until the next one would not fit.
    let (last, action) = loop {
        let t = &g.tables[0];
        let r = t.role(seat).unwrap();
        let action = match t.phase {
            Phase::Discard { taken, .. } => {
                let card = t.hands[r].iter().find(|&c| Some(c) != taken).unwrap();
                Action::new(seat, ActionKind::Discard { card })
            }
            _ => Action::new(
                seat,
                ActionKind::Draw {
                    from: Source::Discard,
                },
            ),
        };
        let before = g.clone();
        g.apply(&action, &mut events).unwrap();
        if matches!(action.kind, ActionKind::Discard { .. }) {
            seat = 1 - seat;
        }
        if size(&g) > room {
            break (before, action);
        }
    };
    let plays = last.tables[0].plays.len();
    assert!(plays > 15_000, "{plays} plays");
    let app = Client::new(false).await;
    let state = serde_json::to_value(last.state()).unwrap();
    let (status, p) = app
        .post("/v1/games/step", &json!({"state": state, "action": action}))
        .await;
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["type"], "state-too-large");
    assert!(
        p["detail"].as_str().unwrap().contains("played too long"),
        "{p}"
    );
    // The state before the refused step is still good: it is viewed as it was.
    let (status, _) = app
        .post("/v1/games/view", &json!({"state": state, "seat": 0}))
        .await;
    assert_eq!(status, 200);
}
