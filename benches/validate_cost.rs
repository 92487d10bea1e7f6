//! What checking a plain state costs: `Game::from_state` (the first deal dealt again and every
//! action of the log played again) on mid-hand states of the standard, Hollywood and four-player
//! forms early and late in a match, on a hand of 20 000 actions, and the answer to the lay-off
//! state whose knocker shows the same melds 80 times (issue 10, item 1), in the engine and through
//! the app in-process (`POST /v1/games/view`, no network).
//!
//! ```sh
//! cargo bench --bench validate_cost
//! ```
//! prints microseconds per call: the best of 5 rounds.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use actix_web::{App, test, web};
use gin_rules::api::{self, AppState, Catalog};
use gin_rules::cards::{Card, CardSet, parse_cards};
use gin_rules::engine::{Action, ActionKind, Game, NewGame, Phase, Source, State};
use gin_rules::rules::Variant;
use gin_rules::ruleset::{RulesetRef, Target};
use gin_rules::seat::Seat;
use serde_json::json;

fn variant(catalog: &Catalog, id: &str, options: &[&str]) -> Arc<Variant> {
    let r = RulesetRef::new(id, options.iter().copied());
    catalog.resolve(&r).expect("a built-in ruleset")
}

fn act<'v>(s: &Game<'v>, a: &Action) -> Game<'v> {
    s.step(a).expect("a legal action").game
}

/// After `deals` whole deals (the first legal action each time, so that deals end) and `moves`
/// more actions of the next: a state in the middle of a hand.
fn mid_hand(v: &Variant, seed: u64, deals: u32, moves: usize) -> State {
    let mut s = Game::deal(
        &v.ruleset,
        v.hooks.as_ref(),
        NewGame::seeded(v.reference.clone(), seed),
    )
    .expect("deals")
    .game;
    while s.deal_number < deals && !s.is_over() {
        let a = s.legal_actions()[0].clone();
        s = act(&s, &a);
    }
    let mut k = 0;
    while k < moves {
        let legal = s.legal_actions();
        // Avoid going out, so that the hand goes on.
        let Some(a) = legal
            .iter()
            .find(|a| matches!(a.kind, ActionKind::Draw { .. } | ActionKind::Discard { .. }))
            .or_else(|| legal.first())
        else {
            break;
        };
        s = act(&s, a);
        k += 1;
    }
    s.into_state()
}

/// Issue 10, item 1: seat 1 knocked; its melds are then repeated `n` times.
fn repeated_melds(v: &Variant, n: usize) -> State {
    let cards = |s: &str| parse_cards(s).expect("cards");
    let (a, b) = (
        cards("5S 6S 7S 9H 9D 9C JC QC KC AD"),
        cards("2C 3D 4H 8S TD 4S 8H 3C 2H 4D"),
    );
    let mut deck = Vec::new();
    for i in 0..10 {
        deck.push(a[i]);
        deck.push(b[i]);
    }
    deck.extend(cards("KD 2D"));
    let used: CardSet = deck.iter().copied().collect();
    deck.extend(Card::all().filter(|c| !used.contains(*c)));
    let game = NewGame {
        ruleset: v.reference.clone(),
        seed: 1,
        id: None,
        target: Some(Target::Points(100)),
        dealer: Some(Seat::new(0)),
        decks: vec![deck],
    };
    let mut s = Game::deal(&v.ruleset, v.hooks.as_ref(), game)
        .expect("deals")
        .game;
    for a in [
        Action::new(1, ActionKind::Pass),
        Action::new(0, ActionKind::Pass),
        Action::new(
            1,
            ActionKind::Draw {
                from: Source::Stock,
            },
        ),
        Action::new(
            1,
            ActionKind::Knock {
                discard: "2D".parse().expect("a card"),
                melds: None,
            },
        ),
    ] {
        s = act(&s, &a);
    }
    let mut s = s.into_state();
    if let Phase::LayOff { knock, .. } = &mut s.tables[0].phase {
        knock.melds = knock.melds.repeat(n);
    }
    s
}

/// A hand that never ends: after both players pass, each turn takes the discard and throws back
/// another card, until the log holds `plays` actions (the largest a request can carry is about
/// 20 000).
fn long_hand(v: &Variant, plays: usize) -> State {
    let mut g = Game::deal(
        &v.ruleset,
        v.hooks.as_ref(),
        NewGame::seeded(v.reference.clone(), 7),
    )
    .expect("deals")
    .game;
    let mut events = Vec::new();
    while g.log.as_ref().map_or(0, |l| l.actions.len()) < plays {
        let t = &g.tables[0];
        let Some(seat) = t.to_act() else { break };
        let kind = match t.phase {
            Phase::UpcardOffer { .. } => ActionKind::Pass,
            Phase::Draw {
                stock_only: true, ..
            } => ActionKind::Draw {
                from: Source::Stock,
            },
            Phase::Draw { .. } => ActionKind::Draw {
                from: Source::Discard,
            },
            Phase::Discard { taken, .. } => {
                let hand = t.role(seat).map(|r| t.hands[r]).unwrap_or_default();
                let Some(card) = hand.iter().find(|&c| Some(c) != taken) else {
                    break;
                };
                ActionKind::Discard { card }
            }
            _ => break,
        };
        g.apply(&Action::new(seat, kind), &mut events)
            .expect("a legal action");
        events.clear();
    }
    g.into_state()
}

/// Microseconds per call of `f`: the best of 5 rounds of `n` calls.
fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn engine_figure(name: &str, v: &Variant, s: &State, n: u32) {
    let check = |s: &State| Game::from_state(&v.ruleset, v.hooks.as_ref(), s.clone()).is_ok();
    let accepted = check(s);
    let us = per_call(n, || {
        black_box(check(black_box(s)));
    });
    println!(
        "{name:<48} {:>9} {us:>9.1} µs  ({} actions)",
        if accepted { "accepted" } else { "refused" },
        s.log.as_ref().map_or(0, |l| l.actions.len())
    );
}

#[actix_web::main]
async fn main() {
    let catalog = Catalog::builtin();
    let standard = variant(&catalog, "standard", &[]);
    let hollywood = variant(&catalog, "standard", &["hollywood"]);
    let four = variant(&catalog, "four-player", &[]);
    println!("validate (engine), per state:");
    engine_figure(
        "standard, deal 0, mid-hand",
        &standard,
        &mid_hand(&standard, 7, 0, 12),
        20_000,
    );
    engine_figure(
        "standard, deal 2 (seeded deck), mid-hand",
        &standard,
        &mid_hand(&standard, 7, 2, 12),
        20_000,
    );
    engine_figure(
        "four-player, deal 0, mid-hand",
        &four,
        &mid_hand(&four, 7, 0, 12),
        2_000,
    );
    engine_figure(
        "four-player, deal 2 (seeded deck), mid-hand",
        &four,
        &mid_hand(&four, 7, 2, 12),
        2_000,
    );
    engine_figure(
        "standard, deal 0, late in the hand",
        &standard,
        &mid_hand(&standard, 7, 0, 50),
        20_000,
    );
    engine_figure(
        "standard, deal 8, mid-hand",
        &standard,
        &mid_hand(&standard, 7, 8, 12),
        2_000,
    );
    engine_figure(
        "standard + hollywood, deal 20, mid-hand",
        &hollywood,
        &mid_hand(&hollywood, 7, 20, 12),
        500,
    );
    let long = long_hand(&standard, 20_000);
    engine_figure("standard, a hand of 20 000 actions", &standard, &long, 50);
    let blow_up = repeated_melds(&standard, 80);
    engine_figure(
        "lay-off, knock melds repeated 80 times",
        &standard,
        &blow_up,
        20_000,
    );

    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::new(Catalog::builtin(), None)))
            .configure(api::configure),
    )
    .await;
    println!("POST /v1/games/view (the app in-process), per request:");
    for (name, state, n) in [
        (
            "standard, deal 2, mid-hand",
            mid_hand(&standard, 7, 2, 12),
            2_000,
        ),
        (
            "four-player, deal 2, mid-hand",
            mid_hand(&four, 7, 2, 12),
            500,
        ),
        (
            "standard + hollywood, deal 20, mid-hand",
            mid_hand(&hollywood, 7, 20, 12),
            200,
        ),
        (
            "lay-off, knock melds repeated 80 times",
            blow_up.clone(),
            2_000,
        ),
        ("standard, a hand of 20 000 actions", long.clone(), 20),
    ] {
        let body = serde_json::to_vec(&json!({"state": state, "seat": 0})).expect("json");
        let mut status = 0;
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            for _ in 0..n {
                let req = test::TestRequest::post()
                    .uri("/v1/games/view")
                    .insert_header(("content-type", "application/json"))
                    .set_payload(body.clone())
                    .to_request();
                let res = test::call_service(&app, req).await;
                status = res.status().as_u16();
                black_box(test::read_body(res).await);
            }
            times.push(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
        }
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "{name:<48} {status:>9} {best:>9.1} µs  ({} bytes of body)",
            body.len()
        );
    }
}
