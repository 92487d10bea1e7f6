//! The engine around the rules: the deal order, refusals that change nothing, a match to its end,
//! seeded replays and failing hooks. Rule examples are fixtures in `scenarios/`.

use gin_rules::cards::{Card, CardSet, parse_cards, set};
use gin_rules::engine::hooks::NoHooks;
use gin_rules::engine::{
    Action, ActionKind, DealError, Event, IllegalAction, NewGame, Phase, Source, State, StepError,
};
use gin_rules::engine::{Game, Stepped};
use gin_rules::role::Role;
use gin_rules::ruleset::{Ruleset, RulesetRef, Target};
use gin_rules::seat::Seat;

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
    RulesetRef::named("standard")
}

/// Seat 0 deals, so seat 1 plays first.
fn start_with(rules: &Ruleset, deck: Vec<Card>, target: Target) -> State {
    let game = NewGame {
        ruleset: reference(),
        seed: 1,
        target: Some(target),
        id: None,
        dealer: Some(Seat::new(0)),
        decks: vec![deck],
    };
    Game::deal(rules, &NoHooks, game).unwrap().game.into_state()
}

/// The game of a state built here, checked as a server checks what it is sent.
fn game<'r>(rules: &'r Ruleset, state: &State) -> Game<'r> {
    Game::from_state(rules, &NoHooks, state.clone()).unwrap_or_else(|e| panic!("{e}"))
}

fn legal_actions(rules: &Ruleset, state: &State) -> Vec<Action> {
    game(rules, state).legal_actions()
}

fn step<'r>(rules: &'r Ruleset, state: &State, action: &Action) -> Result<Stepped<'r>, StepError> {
    game(rules, state).step(action)
}

fn start(deck: Vec<Card>) -> State {
    start_with(&Ruleset::standard(), deck, Target::Points(100))
}

fn act_with(rules: &Ruleset, state: &State, seat: u8, kind: ActionKind) -> (State, Vec<Event>) {
    let action = Action::new(seat, kind);
    let legal = legal_actions(rules, state);
    let stepped = step(rules, state, &action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    let next = game(rules, stepped.game.state());
    if !matches!(
        action.kind,
        ActionKind::LayOff { .. } | ActionKind::Knock { melds: Some(_), .. }
    ) {
        assert!(
            legal.contains(&action),
            "{action:?} accepted but not listed"
        );
    }
    (next.into_state(), stepped.events)
}

fn act(state: &State, seat: u8, kind: ActionKind) -> (State, Vec<Event>) {
    act_with(&Ruleset::standard(), state, seat, kind)
}

fn refuse_with(rules: &Ruleset, state: &State, seat: u8, kind: ActionKind) -> IllegalAction {
    let action = Action::new(seat, kind);
    assert!(!legal_actions(rules, state).contains(&action));
    match step(rules, state, &action) {
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
    assert_eq!(t.seats, [Seat::new(1), Seat::new(0)]);
    assert_eq!(t.hands[Role::FIRST], set(KNOCKER));
    assert_eq!(t.hands[Role::new(1)], set(JUNK));
    assert_eq!(t.discard.as_slice(), &[card("5C")]);
    assert_eq!(t.stock.len(), 31);
    assert_eq!(t.stock.top(), Some(card("5H")));
    assert_eq!(t.stock.as_slice()[0], d[51]);
}

const GIN: &str = "AS 2S 3S 4S 7C 7D 7H TD JD QD";
const LOOSE: &str = "KC QH JS 9C 8H 5S 5C 4D 2H 3C";

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
    let mut s = game(&rules, &s);
    while !s.is_over() {
        let seat = s.to_act()[0];
        let a = gin_rules::bot::choose(&s, seat).unwrap();
        s = s.step(&a).unwrap().game;
    }
    let w = s.winners.clone().unwrap();
    assert_eq!(w.len(), 1);
    assert!(s.scores().totals[w[0].index()] >= 100);
    assert!(s.legal_actions().is_empty());
    assert!(matches!(
        s.step(&Action::new(0, ActionKind::NextHand)),
        Err(StepError::Illegal(IllegalAction::MatchOver))
    ));
}

#[test]
fn seeded_games_are_reproducible() {
    let rules = Ruleset::standard();
    let play = |seed| {
        let mut s = Game::deal(&rules, &NoHooks, NewGame::seeded(reference(), seed))
            .unwrap()
            .game;
        let mut n = 0;
        while !s.is_over() && n < 5000 {
            let seat = s.to_act()[0];
            let a = gin_rules::bot::choose(&s, seat).unwrap();
            s = s.step(&a).unwrap().game;
            n += 1;
        }
        serde_json::to_string(s.state()).unwrap()
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5), play(6));
}

/// Hooks whose `record_result` fails, as a broken script would.
struct FailingRecord;

impl gin_rules::engine::hooks::Hooks for FailingRecord {
    fn record_result(
        &self,
        _: &gin_rules::engine::hooks::RecordInfo,
    ) -> Result<Vec<gin_rules::engine::hooks::ScoreEntry>, gin_rules::engine::hooks::HookError>
    {
        Err(gin_rules::engine::hooks::HookError {
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
    let mut in_place = Game::from_state(&rules, &FailingRecord, state.clone()).unwrap();
    let mut events = Vec::new();
    let refused = in_place.apply(&gin_out, &mut events);
    assert!(matches!(refused, Err(StepError::Hook(_))), "{refused:?}");
    assert_eq!(in_place.state(), &state);
    assert!(events.is_empty());
    assert!(in_place.step(&gin_out).is_err());
    let mut in_place = game(&rules, in_place.state());
    in_place.apply(&gin_out, &mut events).unwrap();
    assert!(matches!(events[0], Event::WentGin { .. }));
    assert!(matches!(in_place.tables[0].phase, Phase::Over { .. }));
}

/// A Rust hook is held to the same bounds as a script: a knock limit no hand can reach is refused
/// at the deal, rather than dealt into a state that `validate` would then reject.
#[test]
fn a_hooks_knock_limit_over_any_deadwood_is_refused_at_the_deal() {
    struct Lax;
    impl gin_rules::engine::hooks::Hooks for Lax {
        fn knock_limit(
            &self,
            _: &gin_rules::engine::hooks::DealInfo,
        ) -> Result<Option<u8>, gin_rules::engine::hooks::HookError> {
            Ok(Some(200))
        }
    }
    let rules = Ruleset::standard();
    let game = NewGame::seeded(reference(), 1);
    match Game::deal(&rules, &Lax, game) {
        Err(DealError::Hook(e)) => {
            assert_eq!(e.hook, "knock_limit");
            assert!(e.message.contains("returned 200"), "{}", e.message);
        }
        other => panic!("dealt with knock limit 200: {other:?}"),
    }
}
