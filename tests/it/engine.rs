//! The two-player hand and the match, rule by rule, with fixed decks.

use gin_rules::cards::{Card, CardSet, parse_cards, set};
use gin_rules::engine::{
    Action, ActionKind, DealError, Event, IllegalAction, LayOffCard, NewGame, Outcome, Phase,
    Source, State, StepError, apply, legal_actions, new_game, step, validate,
};
use gin_rules::hooks::NoHooks;
use gin_rules::role::Role;
use gin_rules::ruleset::{Ruleset, RulesetRef, StockEnd, Target};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// A deck in the API's deal order: the first player's ten, the dealer's ten, the upcard, then
/// the stock from the top (the rest of the cards follow in a fixed order).
fn deck(first: &str, dealer: &str, upcard: &str, stock_top: &str) -> Vec<Card> {
    let (a, b) = (cards(first), cards(dealer));
    assert_eq!((a.len(), b.len()), (10, 10));
    let mut d = Vec::new();
    for i in 0..10 {
        d.push(a[i]);
        d.push(b[i]);
    }
    d.push(card(upcard));
    d.extend(cards(stock_top));
    let used: CardSet = d.iter().copied().collect();
    d.extend(Card::all().filter(|c| !used.contains(*c)));
    assert_eq!(d.len(), 52, "deck has duplicates");
    d
}

fn reference() -> RulesetRef {
    RulesetRef {
        id: "standard".into(),
        options: vec![],
        authored: None,
    }
}

/// Seat 0 deals, so seat 1 plays first.
fn start_with(rules: &Ruleset, deck: Vec<Card>, target: Target) -> State {
    let game = NewGame {
        ruleset: reference(),
        seed: 1,
        target: Some(target),
        dealer: Some(0),
        decks: vec![deck],
    };
    new_game(rules, &NoHooks, game).unwrap().state
}

fn start(deck: Vec<Card>) -> State {
    start_with(&Ruleset::standard(), deck, Target::Points(100))
}

fn act_with(rules: &Ruleset, state: &State, seat: u8, kind: ActionKind) -> (State, Vec<Event>) {
    let action = Action::new(seat, kind);
    let legal = legal_actions(rules, state);
    let stepped =
        step(rules, &NoHooks, state, &action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    validate(rules, &NoHooks, &stepped.state).unwrap();
    if !matches!(
        action.kind,
        ActionKind::LayOff { .. } | ActionKind::Knock { melds: Some(_), .. }
    ) {
        assert!(
            legal.contains(&action),
            "{action:?} accepted but not listed"
        );
    }
    (stepped.state, stepped.events)
}

fn act(state: &State, seat: u8, kind: ActionKind) -> (State, Vec<Event>) {
    act_with(&Ruleset::standard(), state, seat, kind)
}

fn refuse_with(rules: &Ruleset, state: &State, seat: u8, kind: ActionKind) -> IllegalAction {
    let action = Action::new(seat, kind);
    assert!(!legal_actions(rules, state).contains(&action));
    match step(rules, &NoHooks, state, &action) {
        Err(StepError::Illegal(e)) => e,
        other => panic!("{action:?} should be refused, got {other:?}"),
    }
}

fn refuse(state: &State, seat: u8, kind: ActionKind) -> IllegalAction {
    refuse_with(&Ruleset::standard(), state, seat, kind)
}

fn draw(from: Source) -> ActionKind {
    ActionKind::Draw { from }
}

fn discard(c: &str) -> ActionKind {
    ActionKind::Discard { card: card(c) }
}

fn knock(c: &str) -> ActionKind {
    ActionKind::Knock {
        discard: card(c),
        melds: None,
    }
}

fn gin(c: Option<&str>) -> ActionKind {
    ActionKind::Gin {
        discard: c.map(card),
        melds: None,
    }
}

fn hand_over(events: &[Event]) -> gin_rules::engine::HandResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::HandOver(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the hand is over")
}

/// Both pass the upcard; seat 1 draws from the stock.
fn pass_pass_draw(state: &State) -> State {
    let (s, _) = act(state, 1, ActionKind::Pass);
    let (s, _) = act(&s, 0, ActionKind::Pass);
    act(&s, 1, draw(Source::Stock)).0
}

const KNOCKER: &str = "7C 7D 7H 7S AS 2S 3S 2C 3D 9H";
const JUNK: &str = "KC QD JH TS 9C 8D 6H 4S KH QS";

#[test]
fn deal_order_follows_the_api() {
    let d = deck(KNOCKER, JUNK, "5C", "5H");
    let state = start(d.clone());
    let t = &state.tables[0];
    assert_eq!(t.seats, [1, 0]);
    assert_eq!(t.hands[Role::First], set(KNOCKER));
    assert_eq!(t.hands[Role::Dealer], set(JUNK));
    assert_eq!(t.discard.as_slice(), &[card("5C")]);
    assert_eq!(t.stock.len(), 31);
    assert_eq!(t.stock.top(), Some(card("5H")));
    assert_eq!(t.stock.as_slice()[0], d[51]);
}

#[test]
fn knock_at_exactly_the_limit_is_allowed_and_scores_the_difference() {
    let state = pass_pass_draw(&start(deck(KNOCKER, JUNK, "5C", "5H")));
    assert_eq!(
        refuse(&state, 1, knock("5H")).to_string(),
        "deadwood 14 exceeds the knock limit 10"
    );
    let (s, events) = act(&state, 1, knock("9H"));
    assert!(matches!(events[0], Event::Knocked { deadwood: 10, .. }));
    assert!(matches!(s.tables[0].phase, Phase::LayOff { seat: 0, .. }));
    // The defender lays 4S off onto AS 2S 3S: 87 - 4 = 83 deadwood.
    let best = legal_actions(&Ruleset::standard(), &s);
    assert_eq!(best.len(), 2);
    let (_, events) = act(&s, 0, best[1].kind.clone());
    let r = hand_over(&events);
    assert_eq!(r.outcome, Outcome::Knock);
    assert_eq!(r.deadwood, vec![83, 10]);
    assert_eq!(r.points, vec![0, 73]);
    assert_eq!(r.laid_off.len(), 1);
}

#[test]
fn knock_over_the_limit_is_refused() {
    let state = pass_pass_draw(&start(deck(KNOCKER, JUNK, "5C", "6D")));
    assert_eq!(
        refuse(&state, 1, knock("9H")).to_string(),
        "deadwood 11 exceeds the knock limit 10"
    );
}

#[test]
fn a_tie_is_an_undercut_worth_25_and_the_loser_deals_next() {
    let knocker = "7C 7D 7H 7S AS 2S 3S 2C 3D KH";
    let defender = "4C 5C 6C 8H 8D 8S TC JC QC 9S";
    let state = pass_pass_draw(&start(deck(knocker, defender, "5S", "4H")));
    let (s, _) = act(&state, 1, knock("KH"));
    let (s, events) = act(&s, 0, ActionKind::LayOff { cards: vec![] });
    let r = hand_over(&events);
    assert_eq!(r.outcome, Outcome::Undercut);
    assert_eq!(r.winner, Some(0));
    assert_eq!(r.deadwood, vec![9, 9]);
    assert_eq!(r.points, vec![25, 0]);
    assert_eq!(s.scores().totals, vec![25, 0]);
    // Seat 1 lost the hand, so seat 1 deals the next.
    let (s, events) = act(&s, 1, ActionKind::NextHand);
    assert!(matches!(
        events[0],
        Event::Dealt {
            dealer: 1,
            seats: [0, 1],
            ..
        }
    ));
    assert_eq!(s.deal_number, 1);

    let rules = Ruleset {
        tie_is_undercut: false,
        ..Ruleset::standard()
    };
    let state = start_with(
        &rules,
        deck(knocker, defender, "5S", "4H"),
        Target::Points(100),
    );
    let (s, _) = act_with(&rules, &state, 1, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 0, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 1, draw(Source::Stock));
    let (s, _) = act_with(&rules, &s, 1, knock("KH"));
    let (_, events) = act_with(&rules, &s, 0, ActionKind::LayOff { cards: vec![] });
    let r = hand_over(&events);
    assert_eq!(
        (r.outcome, r.winner, r.points.clone()),
        (Outcome::Knock, Some(1), vec![0, 0])
    );
}

const GIN: &str = "AS 2S 3S 4S 7C 7D 7H TD JD QD";
const LOOSE: &str = "KC QH JS 9C 8H 5S 5C 4D 2H 3C";

#[test]
fn gin_scores_deadwood_plus_25_with_no_lay_off() {
    let state = pass_pass_draw(&start(deck(GIN, LOOSE, "6C", "5H")));
    let (s, events) = act(&state, 1, gin(Some("5H")));
    assert!(matches!(events[0], Event::WentGin { big_gin: false, .. }));
    let r = hand_over(&events);
    // 5S would lay off onto AS-4S, but nobody lays off against gin.
    assert_eq!(
        (r.outcome, r.deadwood.clone(), r.points.clone()),
        (Outcome::Gin, vec![66, 0], vec![0, 91])
    );
    assert!(matches!(s.tables[0].phase, Phase::Over { .. }));
    assert_eq!(
        refuse(&s, 0, ActionKind::LayOff { cards: vec![] }).to_string(),
        "the hand is over: deal the next hand"
    );
}

#[test]
fn a_knock_with_no_deadwood_is_gin() {
    let state = pass_pass_draw(&start(deck(GIN, LOOSE, "6C", "5H")));
    let (_, events) = act(&state, 1, knock("5H"));
    assert_eq!(hand_over(&events).outcome, Outcome::Gin);
}

#[test]
fn big_gin_scores_deadwood_plus_31() {
    let state = pass_pass_draw(&start(deck(GIN, LOOSE, "6C", "KD")));
    let legal = legal_actions(&Ruleset::standard(), &state);
    assert!(legal.contains(&Action::new(1, gin(None))));
    let (_, events) = act(&state, 1, gin(None));
    let r = hand_over(&events);
    assert_eq!(
        (r.outcome, r.points.clone()),
        (Outcome::BigGin, vec![0, 66 + 31])
    );

    let rules = Ruleset {
        big_gin_bonus: None,
        ..Ruleset::standard()
    };
    let s = start_with(&rules, deck(GIN, LOOSE, "6C", "KD"), Target::SingleHand);
    let (s, _) = act_with(&rules, &s, 1, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 0, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 1, draw(Source::Stock));
    assert!(matches!(
        refuse_with(&rules, &s, 1, gin(None)),
        IllegalAction::NoBigGin
    ));
}

#[test]
fn the_taken_upcard_may_not_be_discarded_at_once() {
    let state = start(deck(KNOCKER, JUNK, "4H", "5H"));
    let (s, events) = act(&state, 1, ActionKind::TakeUpcard);
    assert!(matches!(events[0], Event::TookUpcard { seat: 1, .. }));
    assert_eq!(
        refuse(&s, 1, discard("4H")).to_string(),
        "4H was just taken from the discard pile and may not be discarded this turn"
    );
    assert!(matches!(
        refuse(&s, 1, knock("4H")),
        IllegalAction::TakenCard(_)
    ));
    // Taking the upcard is the draw: the player may go out at once (2C 3D 4H = 9).
    let (s, _) = act(&s, 1, knock("9H"));
    assert!(matches!(s.tables[0].phase, Phase::LayOff { .. }));

    let rules = Ruleset {
        discard_taken_card: true,
        ..Ruleset::standard()
    };
    let s = start_with(&rules, deck(KNOCKER, JUNK, "4H", "5H"), Target::SingleHand);
    let (s, _) = act_with(&rules, &s, 1, ActionKind::TakeUpcard);
    act_with(&rules, &s, 1, discard("4H"));
}

#[test]
fn after_both_pass_the_first_player_draws_from_the_stock() {
    let state = start(deck(KNOCKER, JUNK, "5C", "5H"));
    assert_eq!(
        refuse(&state, 1, discard("9H")).to_string(),
        "first decide on the upcard: take it or pass"
    );
    assert!(matches!(
        refuse(&state, 0, ActionKind::Pass),
        IllegalAction::NotYourTurn { .. }
    ));
    let (s, _) = act(&state, 1, ActionKind::Pass);
    let (s, _) = act(&s, 0, ActionKind::Pass);
    assert_eq!(
        refuse(&s, 1, draw(Source::Discard)).to_string(),
        "both players passed the upcard: draw from the stock"
    );
    assert_eq!(
        refuse(&s, 1, discard("9H")).to_string(),
        "you must draw before you discard"
    );
    let (s, _) = act(&s, 1, draw(Source::Stock));
    assert_eq!(
        refuse(&s, 1, draw(Source::Stock)).to_string(),
        "you have already drawn: discard or go out"
    );
    assert_eq!(
        refuse(&s, 1, discard("QS")).to_string(),
        "QS is not in your hand"
    );
}

#[test]
fn a_dealer_who_takes_the_upcard_discards_and_the_first_player_goes_on() {
    let state = start(deck(KNOCKER, JUNK, "5C", "5H"));
    let (s, _) = act(&state, 1, ActionKind::Pass);
    let (s, _) = act(&s, 0, ActionKind::TakeUpcard);
    let (s, _) = act(&s, 0, discard("KH"));
    assert!(matches!(
        s.tables[0].phase,
        Phase::Draw {
            seat: 1,
            stock_only: false
        }
    ));
}

/// Both players draw from the stock and throw the card away until the hand ends.
fn run_down_the_stock(rules: &Ruleset, mut s: State) -> (State, Vec<Event>) {
    s = act_with(rules, &s, 1, ActionKind::Pass).0;
    s = act_with(rules, &s, 0, ActionKind::Pass).0;
    let mut seat = 1;
    loop {
        let (next, _) = act_with(rules, &s, seat, draw(Source::Stock));
        let Phase::Discard { .. } = next.tables[0].phase else {
            unreachable!()
        };
        let drawn = next.tables[0].hands[next.tables[0].role(seat).unwrap()]
            .minus(s.tables[0].hands[s.tables[0].role(seat).unwrap()])
            .first()
            .unwrap();
        let (next, events) = act_with(rules, &next, seat, ActionKind::Discard { card: drawn });
        if !matches!(next.tables[0].phase, Phase::Draw { .. }) {
            return (next, events);
        }
        s = next;
        seat = 1 - seat;
    }
}

#[test]
fn a_discard_that_leaves_two_stock_cards_kills_the_hand() {
    let rules = Ruleset::standard();
    let (s, events) = run_down_the_stock(
        &rules,
        start_with(&rules, deck(KNOCKER, JUNK, "5C", ""), Target::SingleHand),
    );
    assert_eq!(s.tables[0].stock.len(), 2);
    assert_eq!(hand_over(&events).outcome, Outcome::Dead);
    // A one-hand game ends in a draw.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::MatchOver { winners, .. } if winners.is_empty()))
    );
    assert!(s.is_over());

    // In a match the same dealer deals again.
    let (s, events) = run_down_the_stock(&rules, start(deck(KNOCKER, JUNK, "5C", "")));
    assert_eq!(hand_over(&events).outcome, Outcome::Dead);
    assert!(!s.is_over());
    let (_, events) = act(&s, 1, ActionKind::NextHand);
    assert!(matches!(
        events[0],
        Event::Dealt {
            dealer: 0,
            deal: 1,
            ..
        }
    ));
}

#[test]
fn the_last_discard_may_be_taken_only_to_go_out() {
    let rules = Ruleset {
        stock_end: StockEnd::LastDiscardToGoOut,
        ..Ruleset::standard()
    };
    let (s, _) = run_down_the_stock(
        &rules,
        start_with(&rules, deck(KNOCKER, JUNK, "5C", ""), Target::SingleHand),
    );
    let Phase::LastDiscard { seat } = s.tables[0].phase else {
        panic!(
            "expected the last-discard offer, got {:?}",
            s.tables[0].phase
        )
    };
    assert!(matches!(
        refuse_with(&rules, &s, seat, draw(Source::Stock)),
        IllegalAction::StockExhausted(2)
    ));
    let (_, events) = act_with(&rules, &s, seat, ActionKind::Pass);
    assert_eq!(hand_over(&events).outcome, Outcome::Dead);
}

#[test]
fn reshuffling_keeps_the_hand_going_and_loses_no_card() {
    let rules = Ruleset {
        stock_end: StockEnd::Reshuffle,
        stock_reserve: 0,
        ..Ruleset::standard()
    };
    let mut s = start_with(&rules, deck(KNOCKER, JUNK, "5C", ""), Target::SingleHand);
    s = act_with(&rules, &s, 1, ActionKind::Pass).0;
    s = act_with(&rules, &s, 0, ActionKind::Pass).0;
    let mut seat = 1;
    let mut reshuffled = false;
    for _ in 0..40 {
        let (next, events) = act_with(&rules, &s, seat, draw(Source::Stock));
        reshuffled |= events
            .iter()
            .any(|e| matches!(e, Event::Reshuffled { cards: 31, .. }));
        let r = next.tables[0].role(seat).unwrap();
        let drawn = next.tables[0].hands[r]
            .minus(s.tables[0].hands[r])
            .first()
            .unwrap();
        s = act_with(&rules, &next, seat, ActionKind::Discard { card: drawn }).0;
        seat = 1 - seat;
    }
    assert!(reshuffled);
    assert!(matches!(s.tables[0].phase, Phase::Draw { .. }));
}

#[test]
fn knocking_can_be_switched_off() {
    let rules = Ruleset {
        knock_limit: None,
        ..Ruleset::standard()
    };
    let s = start_with(&rules, deck(KNOCKER, JUNK, "5C", "5H"), Target::SingleHand);
    let (s, _) = act_with(&rules, &s, 1, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 0, ActionKind::Pass);
    let (s, _) = act_with(&rules, &s, 1, draw(Source::Stock));
    assert!(
        !legal_actions(&rules, &s)
            .iter()
            .any(|a| matches!(a.kind, ActionKind::Knock { .. }))
    );
    assert_eq!(
        refuse_with(&rules, &s, 1, knock("9H")).to_string(),
        "knocking is not allowed in this hand: only gin goes out"
    );
}

#[test]
fn a_chained_lay_off_goes_card_by_card() {
    let knocker = "5S 6S 7S 2C 2D 2H 9C 9D 9H AC";
    let defender = "8S 9S KC QD JH 4C 6D 3H 5H KD";
    let state = pass_pass_draw(&start(deck(knocker, defender, "TH", "KH")));
    let (s, _) = act(&state, 1, knock("KH"));
    let Phase::LayOff { knock, .. } = &s.tables[0].phase else {
        panic!("expected the lay-off")
    };
    let run = knock.melds.iter().position(|&m| m == set("5S 6S 7S"));
    let lay = |c: &str| LayOffCard {
        card: card(c),
        onto: run,
    };
    assert_eq!(
        refuse(
            &s,
            0,
            ActionKind::LayOff {
                cards: vec![lay("9S"), lay("8S")]
            }
        )
        .to_string(),
        format!("9S does not fit on meld {} (5S 6S 7S)", run.unwrap())
    );
    let (_, events) = act(
        &s,
        0,
        ActionKind::LayOff {
            cards: vec![lay("8S"), lay("9S")],
        },
    );
    let r = hand_over(&events);
    // 8+9+10+10+10+4+6+3+5+10 = 75, less 17 laid off.
    assert_eq!(r.deadwood, vec![58, 1]);
    assert_eq!(r.points, vec![0, 57]);
}

#[test]
fn explicit_melds_are_checked() {
    let state = pass_pass_draw(&start(deck(KNOCKER, JUNK, "5C", "5H")));
    let bad = ActionKind::Knock {
        discard: card("9H"),
        melds: Some(vec![cards("7C 7D 7H 7S"), cards("AS 2S 3D")]),
    };
    assert_eq!(refuse(&state, 1, bad).to_string(), "AS 2S 3D is not a meld");
    let partial = ActionKind::Knock {
        discard: card("9H"),
        melds: Some(vec![cards("7C 7D 7H 7S")]),
    };
    assert_eq!(
        refuse(&state, 1, partial).to_string(),
        "deadwood 16 exceeds the knock limit 10"
    );
    let ok = ActionKind::Knock {
        discard: card("9H"),
        melds: Some(vec![cards("3S 2S AS"), cards("7S 7C 7D 7H")]),
    };
    let (_, events) = act(&state, 1, ok);
    assert!(matches!(events[0], Event::Knocked { .. }));
}

#[test]
fn refused_actions_leave_the_state_playable() {
    let state = pass_pass_draw(&start(deck(KNOCKER, JUNK, "5C", "6D")));
    let before = state.clone();
    refuse(&state, 1, knock("9H"));
    refuse(&state, 0, discard("KC"));
    refuse(&state, 7, discard("KC"));
    assert_eq!(state, before);
    act(&state, 1, discard("9H"));
}

#[test]
fn a_match_ends_at_the_target() {
    let rules = Ruleset::standard();
    let mut state = start(deck(GIN, LOOSE, "6C", "5H"));
    state = pass_pass_draw(&state);
    let (s, events) = act(&state, 1, gin(Some("5H")));
    assert!(!s.is_over());
    assert!(!events.iter().any(|e| matches!(e, Event::MatchOver { .. })));
    // 91 points: one more hand won by anyone decides nothing yet unless it passes 100.
    let mut s = s;
    while !s.is_over() {
        let seat = s.to_act()[0];
        let a = gin_rules::bot::choose(&rules, &s, seat).unwrap();
        s = step(&rules, &NoHooks, &s, &a).unwrap().state;
    }
    let w = s.winners.clone().unwrap();
    assert_eq!(w.len(), 1);
    assert!(s.scores().totals[usize::from(w[0])] >= 100);
    assert!(legal_actions(&rules, &s).is_empty());
    assert!(matches!(
        step(&rules, &NoHooks, &s, &Action::new(0, ActionKind::NextHand)),
        Err(StepError::Illegal(IllegalAction::MatchOver))
    ));
}

#[test]
fn seeded_games_are_reproducible() {
    let rules = Ruleset::standard();
    let play = |seed| {
        let mut s = new_game(&rules, &NoHooks, NewGame::seeded(reference(), seed))
            .unwrap()
            .state;
        let mut n = 0;
        while !s.is_over() && n < 5000 {
            let seat = s.to_act()[0];
            let a = gin_rules::bot::choose(&rules, &s, seat).unwrap();
            s = step(&rules, &NoHooks, &s, &a).unwrap().state;
            n += 1;
        }
        serde_json::to_string(&s).unwrap()
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5), play(6));
}

/// Hooks whose `record_result` fails, as a broken script would.
struct FailingRecord;

impl gin_rules::hooks::Hooks for FailingRecord {
    fn record_result(
        &self,
        _: &gin_rules::hooks::RecordInfo,
    ) -> Result<Vec<gin_rules::hooks::ScoreEntry>, gin_rules::hooks::HookError> {
        Err(gin_rules::hooks::HookError {
            hook: "record_result".into(),
            message: "broken".into(),
        })
    }
}

#[test]
fn a_failing_hook_at_the_end_of_a_hand_changes_nothing_in_place() {
    let rules = Ruleset::standard();
    let state = pass_pass_draw(&start(deck(GIN, LOOSE, "6C", "5H")));
    let gin_out = Action::new(1, gin(Some("5H")));
    let mut in_place = state.clone();
    let mut events = Vec::new();
    let refused = apply(&rules, &FailingRecord, &mut in_place, &gin_out, &mut events);
    assert!(matches!(refused, Err(StepError::Hook(_))), "{refused:?}");
    assert_eq!(in_place, state);
    assert!(events.is_empty());
    assert!(step(&rules, &FailingRecord, &state, &gin_out).is_err());
    apply(&rules, &NoHooks, &mut in_place, &gin_out, &mut events).unwrap();
    assert!(matches!(events[0], Event::WentGin { .. }));
    assert!(matches!(in_place.tables[0].phase, Phase::Over { .. }));
}

/// A Rust hook is held to the same bounds as a script: a knock limit no hand can reach is refused
/// at the deal, rather than dealt into a state that `validate` would then reject.
#[test]
fn a_hooks_knock_limit_over_any_deadwood_is_refused_at_the_deal() {
    struct Lax;
    impl gin_rules::hooks::Hooks for Lax {
        fn knock_limit(
            &self,
            _: &gin_rules::hooks::DealInfo,
        ) -> Result<Option<u8>, gin_rules::hooks::HookError> {
            Ok(Some(200))
        }
    }
    let rules = Ruleset::standard();
    let game = NewGame::seeded(reference(), 1);
    match new_game(&rules, &Lax, game) {
        Err(DealError::Hook(e)) => {
            assert_eq!(e.hook, "knock_limit");
            assert!(e.message.contains("returned 200"), "{}", e.message);
        }
        other => panic!("dealt with knock limit 200: {other:?}"),
    }
}
