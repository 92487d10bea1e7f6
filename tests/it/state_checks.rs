//! Plain states from outside: a state is accepted only when legal play from a deal reaches it.
//! Each test starts from a real state and changes one thing a client could change.

use gin_rules::cards::{Card, CardSet, parse_cards, set};
use gin_rules::engine::{
    Action, ActionKind, InvalidState, NewGame, Phase, Source, State, legal_actions, new_game, step,
    validate, view,
};
use gin_rules::rules::Variant;
use gin_rules::ruleset::Target;

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
        dealer: Some(0),
        decks: vec![deck],
    };
    new_game(&v.ruleset, v.hooks.as_ref(), game).unwrap().state
}

fn act(v: &Variant, s: &State, seat: u8, kind: ActionKind) -> State {
    let a = Action::new(seat, kind);
    let next = step(&v.ruleset, v.hooks.as_ref(), s, &a)
        .unwrap_or_else(|e| panic!("{a:?} refused: {e}"))
        .state;
    check(v, &next).unwrap_or_else(|e| panic!("a reached state is refused: {e}"));
    next
}

fn check(v: &Variant, s: &State) -> Result<(), InvalidState> {
    validate(&v.ruleset, s)
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
    check(&v, &s).unwrap();
    assert!(view(&v.ruleset, &s, 0).is_some());
    assert_eq!(legal_actions(&v.ruleset, &s).len(), 2);
}
