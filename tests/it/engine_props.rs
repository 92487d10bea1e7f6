//! Properties of random legal play: what is listed is accepted, what is not listed is refused,
//! no card appears or disappears, and states survive a round trip through JSON.

use gin_rules::cards::Card;
use gin_rules::engine::hooks::{Hooks, NoHooks};
use gin_rules::engine::{
    Action, ActionKind, Event, Game, NewGame, Phase, Source, State, StepError, Stepped,
};
use gin_rules::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

use gin_rules::rules::Variant;

use gin_rules::sample::choose;
use gin_rules::seat::{Seat, TableNo};

use crate::variants::variant;

pub fn variants() -> Vec<Ruleset> {
    let s = Ruleset::standard;
    vec![
        s(),
        Ruleset {
            knock_limit: None,
            ..s()
        },
        Ruleset {
            stock_end: StockEnd::LastDiscardToGoOut,
            tie: gin_rules::ruleset::Tie::Knocker,
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
        // Two jokers, wild, and melds of two natural cards at least.
        Ruleset::clone(&variant("standard", &["jokers-wild"]).ruleset),
    ]
}

/// One table of three and one of four, with no hooks: the plain rules, and the stock's last
/// discard going round the table with lay-offs after gin.
pub fn tables_of_many() -> Vec<Ruleset> {
    [3u8, 4]
        .into_iter()
        .flat_map(|n| {
            let s = || Ruleset {
                seats: n,
                table_players: n,
                ..Ruleset::standard()
            };
            [
                s(),
                Ruleset {
                    stock_end: StockEnd::LastDiscardToGoOut,
                    lay_off_after_gin: true,
                    tie: gin_rules::ruleset::Tie::Wash,
                    ..s()
                },
            ]
        })
        .collect()
}

pub fn reference() -> RulesetRef {
    RulesetRef::named("test")
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
        for card in Card::deck_with(2) {
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
fn same_in_place(game: &Game, a: &Action, stepped: &Result<Stepped, StepError>) {
    let earlier = Event::Passed {
        table: TableNo::new(0),
        seat: Seat::new(0),
    };
    let mut in_place = game.clone();
    let mut events = vec![earlier.clone()];
    let applied = in_place.apply(a, &mut events);
    match stepped {
        Ok(next) => {
            assert!(applied.is_ok(), "{a:?}");
            assert_eq!(in_place.state(), next.game.state(), "{a:?}");
            assert_eq!(events[0], earlier);
            assert_eq!(events[1..], next.events[..], "{a:?}");
        }
        Err(e) => {
            assert_eq!(applied.err().map(|e| e.to_string()), Some(e.to_string()));
            assert_eq!(in_place.state(), game.state(), "{a:?}");
            assert_eq!(events, vec![earlier]);
        }
    }
}

/// Built-in forms whose hooks are scripts, so a hook failing during play is seen.
pub fn scripted() -> Vec<Arc<Variant>> {
    vec![
        variant("standard", &["oklahoma"]),
        variant("standard", &["hollywood"]),
        variant("four-player", &[]),
        variant("oklahoma-three", &[]),
        variant("oklahoma-four", &[]),
    ]
}

/// The shortest match `form` plays.
pub fn shortest_target(form: &Variant) -> Target {
    let target = form
        .ruleset
        .match_rules
        .targets
        .iter()
        .copied()
        .filter(|&t| form.check_target(t).is_ok())
        .min_by_key(|t| match t {
            Target::Points(p) => *p,
            Target::SingleHand => u32::MAX,
        });
    target.unwrap_or(Target::SingleHand)
}

/// About five times the longest match seen (4 382 steps over 96 seeds).
const MAX_STEPS: usize = 20_000;

/// Plays one game of random legal moves, checking every property at every step, and fails unless
/// the game ends.
fn random_game(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    seed: u64,
    target: Target,
    check_refusals: bool,
    finish_fast: bool,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = NewGame::seeded(reference(), seed);
    deal.target = Some(target);
    let mut game = Game::deal(rules, hooks, deal).unwrap().game;
    for _ in 0..MAX_STEPS {
        Game::from_state(rules, hooks, game.state().clone()).unwrap();
        let json = serde_json::to_string(game.state()).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, game.state());
        let legal = game.legal_actions();
        if game.is_over() {
            assert!(legal.is_empty());
            return;
        }
        assert!(!legal.is_empty(), "no legal action in {game:?}");
        if check_refusals && !in_lay_off(&game) {
            for a in candidates(&game) {
                let stepped = game.step(&a);
                same_in_place(&game, &a, &stepped);
                let accepted = stepped.is_ok();
                assert_eq!(
                    accepted,
                    legal.contains(&a),
                    "{a:?} in {:?}",
                    game.tables[0].phase
                );
            }
        }
        for a in &legal {
            if let Err(e) = game.step(a) {
                panic!("listed action {a:?} refused: {e}");
            }
        }
        // Uniform play seldom gets under a knock limit and almost never to gin, so a match of it
        // would take millions of steps: to finish one, most steps are a simple player's choice.
        let simple = if finish_fast && rng.random_bool(0.75) {
            choose(rules, &game, &legal, rng.random_bool(0.5))
        } else if rng.random_bool(0.5) {
            // Uniform play where the stock is reshuffled may not end a hand in any number of
            // steps: half the time, a way out that is open is taken.
            legal
                .iter()
                .find(|a| matches!(a.kind, ActionKind::Knock { .. } | ActionKind::Gin { .. }))
                .cloned()
        } else {
            None
        };
        let a = &simple.unwrap_or_else(|| legal[rng.random_range(0..legal.len())].clone());
        let next = game.step(a).unwrap();
        // The same action sent again on the state it made (a replay) is refused as illegal before
        // any hook sees it: a move is never taken twice.
        assert!(
            matches!(next.game.step(a), Err(StepError::Illegal(_))),
            "{a:?} replayed: {:?}",
            next.game.step(a).map(|s| s.events)
        );
        game = next.game;
    }
    panic!("the game has not ended after {MAX_STEPS} steps: {game:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_rule(seed in any::<u64>(), v in 0usize..6) {
        random_game(&variants()[v], &NoHooks, seed, Target::SingleHand, true, false);
    }

    #[test]
    fn random_matches_finish(seed in any::<u64>(), v in 0usize..6) {
        random_game(&variants()[v], &NoHooks, seed, Target::Points(100), false, true);
    }

    /// Jokers wild, every time: the lock-step checks on a deck of 54.
    #[test]
    fn random_play_with_jokers_keeps_every_rule(seed in any::<u64>()) {
        random_game(&variants()[5], &NoHooks, seed, Target::SingleHand, true, false);
    }

    #[test]
    fn random_matches_with_jokers_finish(seed in any::<u64>()) {
        random_game(&variants()[5], &NoHooks, seed, Target::Points(100), false, true);
    }

    #[test]
    fn random_play_at_tables_of_three_and_four_keeps_every_rule(seed in any::<u64>(), v in 0usize..4) {
        random_game(&tables_of_many()[v], &NoHooks, seed, Target::SingleHand, true, false);
    }

    #[test]
    fn random_matches_at_tables_of_three_and_four_finish(seed in any::<u64>(), v in 0usize..4) {
        random_game(&tables_of_many()[v], &NoHooks, seed, Target::Points(100), false, true);
    }

    #[test]
    fn random_scripted_matches_finish(seed in any::<u64>(), v in 0usize..5) {
        let form = &scripted()[v];
        random_game(&form.ruleset, form.hooks.as_ref(), seed, shortest_target(form), false, true);
    }
}
