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
use gin_rules::seat::{Seat, Side};
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
        dealer: Some(Seat::new(0)),
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
        refused(&v, &s, "at /tables/0/phase/knock/melds it has");
    }
}

#[test]
fn knock_melds_must_be_real_and_disjoint() {
    let v = variant("standard", &[]);
    let good = lay_off_state(&v);
    for melds in [
        // Two melds sharing 9C.
        vec![set("5S 6S 7S"), set("9H 9D 9C"), set("9C JC QC KC")],
        // A card the knocker does not hold.
        vec![set("5S 6S 7S"), set("9H 9D 9C"), set("TC JC QC KC")],
        // Not a meld.
        vec![set("5S 6S"), set("9H 9D 9C"), set("JC QC KC")],
        vec![CardSet::EMPTY, set("9H 9D 9C"), set("JC QC KC")],
        // Fewer melds, more deadwood.
        vec![set("5S 6S 7S"), set("9H 9D 9C")],
    ] {
        let mut s = good.clone();
        knock_of(&mut s).melds = melds;
        refused(&v, &s, "/tables/0/phase/knock/melds");
    }
    // The deadwood must be the knocker's real one.
    let mut s = good.clone();
    knock_of(&mut s).deadwood = 31;
    refused(
        &v,
        &s,
        "at /tables/0/phase/knock/deadwood it has 31, where the log's 4 actions give 1",
    );
}

#[test]
fn a_real_lay_off_state_is_viewed_and_stepped() {
    let v = variant("standard", &[]);
    let s = lay_off_state(&v);
    let game = game(&v, &s);
    assert!(game.view(Seat::new(0)).is_some());
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
    let s = act(v, &s, 1, draw_stock());
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
fn scores_that_no_hand_gave_are_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    let g = &mut record_of(&mut s).games[0];
    g.points = vec![99, 5];
    g.hands_won = vec![1, 1];
    refused(
        &v,
        &s,
        "at /record/games/0/hands_won it has [1,1], where the log's 4 actions give [0,0]",
    );
    let mut s = over_state(&v);
    record_of(&mut s).games[0].points = vec![99, 5];
    refused(&v, &s, "at /record/games/0/points it has [99,5]");
}

#[test]
fn a_knock_limit_the_ruleset_does_not_give_is_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.tables[0].knock_limit = Some(98);
    refused(&v, &s, "at /tables/0/knock_limit it has 98");
    // Oklahoma: the upcard decides (KD: 10), a hook-chosen limit is checked the same way.
    let ok = variant("standard", &["oklahoma"]);
    let mut s = lay_off_state(&ok);
    check(&ok, &s).unwrap();
    s.tables[0].knock_limit = Some(9);
    refused(&ok, &s, "at /tables/0/knock_limit it has 9, where");
    let mut s = lay_off_state(&ok);
    s.tables[0].multiplier = 2;
    refused(&ok, &s, "at /tables/0/multiplier it has 2, where");
}

#[test]
fn a_lay_off_after_a_dead_hand_or_gin_is_refused() {
    let v = variant("standard", &[]);
    for outcome in [Outcome::Dead, Outcome::Gin] {
        let mut s = lay_off_state(&v);
        knock_of(&mut s).outcome = outcome;
        refused(&v, &s, "at /tables/0/phase/knock/outcome it has");
    }
}

#[test]
fn results_that_the_cards_do_not_give_are_refused() {
    let v = variant("standard", &[]);
    let mut s = gin_state(&v);
    assert_eq!(result_of(&mut s).outcome, Outcome::Gin);
    result_of(&mut s).deadwood[Seat::new(1)] = 10;
    refused(
        &v,
        &s,
        "at /tables/0/phase/result/deadwood it has [36,10], where the log's 4 actions give [36,0]",
    );
    // A knock relabelled gin: the knocker's cards leave 1.
    let mut s = over_state(&v);
    result_of(&mut s).outcome = Outcome::Gin;
    refused(&v, &s, "at /tables/0/phase/result/outcome it has \"gin\"");
    // Points that are not what the cards score.
    let mut s = gin_state(&v);
    result_of(&mut s).points[Seat::new(1)] += 1;
    refused(&v, &s, "at /tables/0/phase/result/points it has");
}

#[test]
fn a_knock_in_straight_gin_is_refused() {
    let standard = variant("standard", &[]);
    let straight = variant("straight-gin", &[]);
    let mut s = lay_off_state(&standard);
    s.ruleset = Arc::new(straight.reference.clone());
    refused(
        &straight,
        &s,
        "log entry 4 (\"1 knock 2D\") cannot be played there",
    );
}

#[test]
fn winners_that_are_not_seats_are_refused() {
    let v = variant("standard", &[]);
    let mut s = over_state(&v);
    result_of(&mut s).winner = Some(Seat::new(200));
    refused(&v, &s, "at /tables/0/phase/result/winner it has 200");
    let mut s = over_state(&v);
    s.winners = Some(vec![Seat::new(200)]);
    refused(&v, &s, "at /winners it has [200], where");
    // A real seat that did not win.
    let mut s = over_state(&v);
    result_of(&mut s).winner = Some(Seat::new(0));
    refused(&v, &s, "at /tables/0/phase/result/winner it has 0, where");
}

#[test]
fn a_changed_upcard_is_refused() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.tables[0].upcard = "5S".parse().unwrap();
    refused(&v, &s, "at /tables/0/upcard it has \"5S\", where");
    // A later deal's upcard comes from the seed.
    let mut s = second_deal(&v);
    let real = s.tables[0].upcard;
    let swap = s.tables[0].hands[Role::FIRST].first().unwrap();
    s.tables[0].hands[Role::FIRST].remove(swap);
    s.tables[0].hands[Role::FIRST].insert(real);
    s.tables[0].discard = gin_rules::engine::Pile::from_bottom_up(&[swap]).unwrap();
    s.tables[0].upcard = swap;
    refused(&v, &s, "at /tables/0/discard it has");
}

#[test]
fn a_later_deal_is_the_seeded_one() {
    let v = variant("standard", &[]);
    let s = second_deal(&v);
    let mut bad = s.clone();
    bad.tables[0].hands.swap(Role::FIRST, Role::new(1));
    refused(&v, &bad, "at /tables/0/hands/0/0 it has");
    // The first deal's deck is the log's.
    let mut bad = lay_off_state(&v);
    bad.log.as_mut().unwrap().decks[0].swap(0, 1);
    refused(
        &v,
        &bad,
        "log entry 4 (\"1 knock 2D\") cannot be played there: deadwood 16 exceeds",
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
    refused(&v, &dropped, "at /tables it has");
    let mut repaired = s.clone();
    record_of(&mut repaired).layout.sides = vec![
        vec![Seat::new(0), Seat::new(1)],
        vec![Seat::new(2), Seat::new(3)],
    ];
    refused(
        &v,
        &repaired,
        "at /record/layout/sides/0 it has [0,1], where",
    );
    let mut swapped = s.clone();
    swapped.tables.swap(0, 1);
    refused(&v, &swapped, "at /tables/0/");
}

#[test]
fn bonuses_that_were_not_awarded_are_refused() {
    let v = variant("standard", &[]);
    for winner in [7, 1] {
        let mut s = over_state(&v);
        record_of(&mut s).bonuses.push(GameBonus {
            game: 0,
            winner: Side::new(winner),
            game_bonus: vec![0, 100],
            boxes: vec![0, 25],
            shutout: 1,
            totals: vec![0, 125],
        });
        refused(&v, &s, "at /record/bonuses it has");
    }
}

#[test]
fn targets_ids_and_moves_must_match_the_game() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.target = Target::Points(0);
    refused(&v, &s, "this game is not played to 0 points");
    let mut s = over_state(&v);
    result_of(&mut s).game.id = gin_rules::engine::GameId::from_seed(99);
    refused(&v, &s, "at /tables/0/phase/result/game/id it has");
    for moves in [1, 6] {
        let mut s = over_state(&v);
        s.game.moves = moves;
        refused(
            &v,
            &s,
            &format!("at /game/move it has {moves}, where the log's 5 actions give 5"),
        );
    }
    let mut s = second_deal(&v);
    s.deal_number = 3;
    refused(&v, &s, "at /deal_number it has 3, where");
}

#[test]
fn numbers_near_their_limits_are_refused_and_never_wrap() {
    let v = variant("standard", &[]);
    let mut s = second_deal(&v);
    record_of(&mut s).games[0].points[1] = i64::MAX - 1;
    refused(
        &v,
        &s,
        "at /record/games/0/points it has [0,9223372036854775806]",
    );
    let mut s = lay_off_state(&v);
    record_of(&mut s).games[0].hands_won[1] = u32::MAX;
    refused(&v, &s, "at /record/games/0/hands_won it has [0,4294967295]");
    let mut s = over_state(&v);
    s.deal_number = u32::MAX;
    refused(&v, &s, "at /deal_number it has 4294967295");
    let mut s = over_state(&v);
    s.game.moves = u32::MAX;
    refused(&v, &s, "at /game/move it has 4294967295");
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
        p["detail"]
            .as_str()
            .unwrap()
            .contains("at /record/games/0/hands_won it has [1,1], where the log's 0 actions"),
        "{p}"
    );
    // A log entry that is not one names itself.
    let mut bad = snap["state"].clone();
    bad["log"]["actions"] = json!(["0 fly"]);
    let (status, p) = app
        .post("/v1/games/view", &json!({"state": bad, "seat": 0}))
        .await;
    assert_eq!(status, 422, "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("\"0 fly\" is not a log entry"),
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

#[test]
fn whose_turn_and_the_move_count_follow_the_log() {
    let v = variant("standard", &[]);
    let s = deal_deck(
        &v,
        deck(KNOCKER, DEFENDER, "KD", "2D 3S"),
        Target::Points(100),
    );
    let s = act(&v, &s, 1, ActionKind::Pass);
    let passed = act(&v, &s, 0, ActionKind::Pass);

    // Both passed: the first player draws, from the stock only.
    for (seat, stock_only, at) in [(0, true, "seat"), (1, false, "stock_only")] {
        let mut s = passed.clone();
        s.tables[0].phase = Phase::Draw {
            seat: Seat::new(seat),
            stock_only,
        };
        refused(&v, &s, &format!("at /tables/0/phase/{at} it has"));
    }

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
    for moves in [3, 5, 6, 8] {
        let mut s = one_turn.clone();
        s.game.moves = moves;
        refused(&v, &s, &format!("at /game/move it has {moves}, where"));
    }
}

#[test]
fn the_log_must_lead_to_the_cards() {
    let v = variant("standard", &[]);
    let s = lay_off_state(&v);
    let log = serde_json::to_value(&s.log).unwrap();
    assert_eq!(
        log["actions"],
        json!(["1 pass", "0 pass", "1 stock", "1 knock 2D"])
    );
    assert_eq!(log["dealer"], 0);

    let with = |actions: &[&str]| {
        let mut bad = s.clone();
        bad.log.as_mut().unwrap().actions = actions.iter().map(|a| a.parse().unwrap()).collect();
        bad
    };
    // A draw from the pile where only the stock may be drawn.
    refused(
        &v,
        &with(&["1 pass", "0 pass", "1 pile", "1 knock 2D"]),
        "log entry 3 (\"1 pile\") cannot be played there",
    );
    // An entry left out, or one added.
    refused(
        &v,
        &with(&["1 pass", "1 stock", "1 knock 2D"]),
        "log entry 2 (\"1 stock\") cannot be played there",
    );
    refused(
        &v,
        &with(&["1 pass", "0 pass", "1 stock", "1 knock 2D", "0 lay_off"]),
        "at /game/move it has 4, where the log's 5 actions give 5",
    );
    // Another first dealer.
    let mut bad = s.clone();
    bad.log.as_mut().unwrap().dealer = Seat::new(1);
    refused(&v, &bad, "log entry 1 (\"1 pass\") cannot be played there");

    // The discard pile's order is what the play leaves: with the upcard under the knocker's
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
    refused(&v, &bad, "at /tables/0/discard it has");
}

/// A match of several deals, each hand played with the first legal action: every earlier
/// deal's play is in the log, so scores, dealers and hook outputs of earlier deals are checked
/// exactly, not only bounded.
#[test]
fn earlier_deals_are_played_again_exactly() {
    for (id, options) in [("standard", &[][..]), ("standard", &["hollywood"][..])] {
        let v = variant(id, options);
        let mut g = Game::deal(
            &v.ruleset,
            v.hooks.as_ref(),
            NewGame::seeded(v.reference.clone(), 11),
        )
        .unwrap()
        .game;
        let mut events = Vec::new();
        while g.deal_number < 3 && !g.is_over() {
            let a = g.legal_actions()[0].clone();
            g.apply(&a, &mut events).unwrap();
        }
        assert_eq!(g.deal_number, 3, "{id} {options:?}");
        let s = g.into_state();
        check(&v, &s).unwrap();
        // Points moved from one side to the other, the hands won kept: every bound holds.
        let mut bad = s.clone();
        let points = &mut record_of(&mut bad).games[0].points;
        points.swap(0, 1);
        if points[0] != points[1] {
            refused(&v, &bad, "at /record/games/0/points it has");
        }
        // Another dealer of this deal.
        let mut bad = s.clone();
        bad.tables[0].dealer = bad.tables[0].dealer.after(1, 2);
        refused(&v, &bad, "at /tables/0/dealer it has");
    }
}

#[test]
fn a_reshuffled_stock_is_the_one_the_seed_shuffles() {
    let v = variant("standard", &["reshuffle-stock"]);
    let mut s = deal_deck(&v, deck(KNOCKER, DEFENDER, "KD", ""), Target::Points(100));
    s = act(&v, &s, 1, ActionKind::Pass);
    s = act(&v, &s, 0, ActionKind::Pass);
    let mut seat = 1;
    while s.tables[0].reshuffles == 0 {
        let next = act(&v, &s, seat, draw_stock());
        let t = &next.tables[0];
        let r = t.role(Seat::new(seat)).unwrap();
        let drawn = t.hands[r].minus(s.tables[0].hands[r]).first().unwrap();
        s = act(&v, &next, seat, ActionKind::Discard { card: drawn });
        seat = 1 - seat;
    }
    // One card moved from the pile back into the stock.
    let mut moved = s.clone();
    let t = &mut moved.tables[0];
    let top = t.discard.pop().unwrap();
    t.stock.push(top);
    refused(&v, &moved, "at /tables/0/discard it has");
    // Two cards of the new stock swapped.
    let mut moved = s.clone();
    let mut stock = moved.tables[0].stock.as_slice().to_vec();
    stock.swap(0, 1);
    moved.tables[0].stock = gin_rules::engine::Pile::from_bottom_up(&stock).unwrap();
    refused(&v, &moved, "at /tables/0/stock/0 it has");
}

/// Both players take the discard and throw back another card, turn after turn: hands that end
/// only dead, at their turn limit, dealt again and again, whose plays grow until the state no
/// longer fits a request. That step is refused, and the state before it still plays.
#[actix_web::test]
async fn a_match_too_long_to_carry_is_refused_at_the_step() {
    use gin_rules::api::BODY_LIMIT;
    use gin_rules::api::gate::STATE_ROOM;

    let v = variant("standard", &[]);
    let mut s = deal_deck(&v, deck(KNOCKER, DEFENDER, "KD", ""), Target::Points(100));
    s = act(&v, &s, 1, ActionKind::Pass);
    s = act(&v, &s, 0, ActionKind::Pass);
    let mut g = game(&v, &s);
    let mut events = Vec::new();
    let room = (BODY_LIMIT - STATE_ROOM) as u64;
    let size = |g: &Game| serde_json::to_vec(g.state()).unwrap().len() as u64;
    // Nobody goes out: each takes the discard and throws back another card, until the hand ends
    // dead at its turn limit; then the same dealer deals again, and so on.
    let next = |g: &Game| {
        if g.is_between_hands() {
            return Action::new(0, ActionKind::NextHand);
        }
        let t = &g.tables[0];
        let seat = t.to_act().unwrap();
        let r = t.role(seat).unwrap();
        let kind = match t.phase {
            Phase::UpcardOffer { .. } => ActionKind::Pass,
            Phase::Draw {
                stock_only: true, ..
            } => draw_stock(),
            Phase::Draw { .. } => ActionKind::Draw {
                from: Source::Discard,
            },
            Phase::Discard { taken, .. } => ActionKind::Discard {
                card: t.hands[r].iter().find(|&c| Some(c) != taken).unwrap(),
            },
            ref other => panic!("not a phase of this play: {other:?}"),
        };
        Action::new(seat.index() as u8, kind)
    };
    // Many actions, checking the size now and then, until a few are left.
    while size(&g) + 2_000 < room {
        for _ in 0..40 {
            g.apply(&next(&g), &mut events).unwrap();
        }
        events.clear();
    }
    // Single actions, until the next one would not fit.
    let (last, action) = loop {
        let action = next(&g);
        let before = g.clone();
        g.apply(&action, &mut events).unwrap();
        if size(&g) > room {
            break (before, action);
        }
    };
    let plays = last.log.as_ref().unwrap().actions.len();
    assert!(plays > 15_000, "{plays} actions");
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

/// A plain state proves itself with its log; a sealed one needs no proof, so its token does not
/// grow with the actions of the match.
#[actix_web::test]
async fn plain_states_carry_their_log_and_sealed_ones_do_not() {
    let v = variant("standard", &[]);
    let mut s = lay_off_state(&v);
    s.log = None;
    refused(&v, &s, "the state has no log");

    let app = Client::new(true).await;
    let (status, mut snap) = app
        .post("/v1/games", &json!({"ruleset": "standard", "seed": 5}))
        .await;
    assert_eq!(status, 201);
    let first = snap["state"].as_str().unwrap().len();
    // Pass, pass, then draw and discard until 30 actions were played.
    for _ in 0..30 {
        let action = snap["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| ["pass", "draw", "discard"].contains(&a["type"].as_str().unwrap()))
            .unwrap()
            .clone();
        let (status, next) = app
            .post(
                "/v1/games/step",
                &json!({"state": snap["state"], "action": action}),
            )
            .await;
        assert_eq!(status, 200, "{next}");
        snap = next;
    }
    let last = snap["state"].as_str().unwrap().len();
    // A log would have added about 400 bytes of token.
    assert!(
        last < first + 120,
        "the sealed token grew from {first} to {last} bytes"
    );
}
