//! Properties of random legal play: what is listed is accepted, what is not listed is refused,
//! no card appears or disappears, and states survive a round trip through JSON.

use gin_rules::cards::Card;
use gin_rules::engine::{
    Action, ActionKind, Event, NewGame, Phase, Source, State, StepError, Stepped, apply,
    legal_actions, new_game, step, validate,
};
use gin_rules::hooks::NoHooks;
use gin_rules::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn variants() -> Vec<Ruleset> {
    let s = Ruleset::standard;
    vec![
        s(),
        Ruleset {
            knock_limit: None,
            ..s()
        },
        Ruleset {
            stock_end: StockEnd::LastDiscardToGoOut,
            tie_is_undercut: false,
            ..s()
        },
        Ruleset {
            stock_end: StockEnd::Reshuffle,
            stock_reserve: 0,
            discard_taken_card: true,
            ..s()
        },
        Ruleset {
            upcard_offer: false,
            big_gin_bonus: None,
            lay_off_after_gin: true,
            ..s()
        },
    ]
}

fn reference() -> RulesetRef {
    RulesetRef {
        id: "test".into(),
        options: vec![],
        authored: None,
    }
}

/// Every well-formed action without explicit melds that a seat could send.
fn candidates(state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    for seat in 0..state.seats() as u8 {
        let mut push = |kind| out.push(Action::new(seat, kind));
        push(ActionKind::TakeUpcard);
        push(ActionKind::Pass);
        push(ActionKind::NextHand);
        push(ActionKind::Draw {
            from: Source::Stock,
        });
        push(ActionKind::Draw {
            from: Source::Discard,
        });
        push(ActionKind::Gin {
            discard: None,
            melds: None,
        });
        for card in Card::all() {
            push(ActionKind::Discard { card });
            push(ActionKind::Knock {
                discard: card,
                melds: None,
            });
            push(ActionKind::Gin {
                discard: Some(card),
                melds: None,
            });
        }
    }
    out
}

fn in_lay_off(state: &State) -> bool {
    state
        .tables
        .iter()
        .any(|t| matches!(t.phase, Phase::LayOff { .. }))
}

/// `apply` does in place what `step` does, and on a refusal changes neither state nor events.
fn same_in_place(rules: &Ruleset, state: &State, a: &Action, stepped: &Result<Stepped, StepError>) {
    let earlier = Event::Passed { table: 0, seat: 0 };
    let mut in_place = state.clone();
    let mut events = vec![earlier.clone()];
    let applied = apply(rules, &NoHooks, &mut in_place, a, &mut events);
    match stepped {
        Ok(next) => {
            assert!(applied.is_ok(), "{a:?}");
            assert_eq!(in_place, next.state, "{a:?}");
            assert_eq!(events[0], earlier);
            assert_eq!(events[1..], next.events[..], "{a:?}");
        }
        Err(e) => {
            assert_eq!(applied.err().map(|e| e.to_string()), Some(e.to_string()));
            assert_eq!(&in_place, state, "{a:?}");
            assert_eq!(events, vec![earlier]);
        }
    }
}

/// Plays one game of random legal moves, checking every property at every step.
fn random_game(rules: &Ruleset, seed: u64, target: Target, check_refusals: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = NewGame::seeded(reference(), seed);
    game.target = Some(target);
    let mut state = new_game(rules, &NoHooks, game).unwrap().state;
    for _ in 0..3000 {
        validate(rules, &NoHooks, &state).unwrap();
        let json = serde_json::to_string(&state).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(back, state);
        let legal = legal_actions(rules, &state);
        if state.is_over() {
            assert!(legal.is_empty());
            return;
        }
        assert!(!legal.is_empty(), "no legal action in {state:?}");
        if check_refusals && !in_lay_off(&state) {
            for a in candidates(&state) {
                let stepped = step(rules, &NoHooks, &state, &a);
                same_in_place(rules, &state, &a, &stepped);
                let accepted = stepped.is_ok();
                assert_eq!(
                    accepted,
                    legal.contains(&a),
                    "{a:?} in {:?}",
                    state.tables[0].phase
                );
            }
        }
        for a in &legal {
            if let Err(e) = step(rules, &NoHooks, &state, a) {
                panic!("listed action {a:?} refused: {e}");
            }
        }
        let a = &legal[rng.random_range(0..legal.len())];
        let next = step(rules, &NoHooks, &state, a).unwrap();
        assert!(!matches!(
            step(rules, &NoHooks, &next.state, a),
            Err(StepError::Hook(_))
        ));
        state = next.state;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_rule(seed in any::<u64>(), v in 0usize..5) {
        random_game(&variants()[v], seed, Target::SingleHand, true);
    }

    #[test]
    fn random_matches_finish(seed in any::<u64>(), v in 0usize..5) {
        random_game(&variants()[v], seed, Target::Points(100), false);
    }
}
