//! What one `POST /v1/games/step` costs, piece by piece: the request that `scripts/load.sh`
//! sends (a plain Standard state mid-hand, a draw from the stock) taken apart as the handler
//! takes it: the body read, the state read and its ruleset resolved, the state checked (its log
//! played again), the action applied, the answer's snapshot (legal actions, views, the state
//! written once) and the answer written as JSON; then the whole request through the app
//! in-process (middleware included, no network).
//!
//! ```sh
//! cargo bench --bench step_cost
//! ```
//! prints microseconds per call: the best of 5 rounds.

use std::hint::black_box;
use std::time::Instant;

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::ContentType;
use actix_web::{App, test, web};
use gin_rules::api::answer::to_json;
use gin_rules::api::games::StepRequest;
use gin_rules::api::snapshot::Snapshot;
use gin_rules::api::{self, AppState, Audience};
use gin_rules::engine::{Action, ActionKind, Game, NewGame, Source};
use gin_rules::ruleset::RulesetRef;
use gin_rules::seat::Seat;
use serde_json::json;

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

fn figure(name: &str, n: u32, f: impl FnMut()) {
    println!("{name:<58} {:>8.2} µs", per_call(n, f));
}

/// The body `scripts/load.sh` steps with: a Standard game (seed 42, seat 1 deals) played with
/// passes, draws from the stock and the first discard for 16 actions and up to the next draw,
/// and that draw from the stock.
fn load_body(app: &AppState) -> Vec<u8> {
    let variant = app
        .resolve(&RulesetRef::new("standard", Vec::<String>::new()))
        .expect("standard");
    let new = NewGame {
        dealer: Some(Seat::of(1, 2).expect("seat 1")),
        ..NewGame::seeded(variant.reference.clone(), 42)
    };
    let mut game = Game::deal(&variant.ruleset, variant.hooks.as_ref(), new)
        .expect("deals")
        .game;
    let pick = |g: &Game| -> Action {
        let legal = g.legal_actions();
        let wanted = [
            |k: &ActionKind| matches!(k, ActionKind::Pass),
            |k: &ActionKind| {
                matches!(
                    k,
                    ActionKind::Draw {
                        from: Source::Stock
                    }
                )
            },
            |k: &ActionKind| matches!(k, ActionKind::Discard { .. }),
        ];
        wanted
            .iter()
            .find_map(|want| legal.iter().find(|a| want(&a.kind)))
            .unwrap_or(&legal[0])
            .clone()
    };
    let mut events = Vec::new();
    let mut turns = 0;
    while turns < 16 || !matches!(pick(&game).kind, ActionKind::Draw { .. }) {
        let action = pick(&game);
        game.apply(&action, &mut events).expect("a legal action");
        turns += 1;
    }
    let action = pick(&game);
    serde_json::to_vec(&json!({"state": game.into_state(), "action": action})).expect("JSON")
}

/// Microseconds per `POST /v1/games/step` of `body` through `service`: the best of 5 rounds.
async fn through<S, B>(service: &S, body: &[u8]) -> f64
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let n = 20_000;
        let t = Instant::now();
        for _ in 0..n {
            let req = test::TestRequest::post()
                .uri("/v1/games/step")
                .insert_header(ContentType::json())
                .set_payload(body.to_vec())
                .to_request();
            let res = test::call_service(service, req).await;
            assert!(res.status().is_success(), "{}", res.status());
            black_box(test::read_body(res).await);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
    }
    best
}

#[actix_web::main]
async fn main() {
    let app = AppState::builtin();
    let body = load_body(&app);
    println!(
        "the step request of scripts/load.sh ({} bytes):",
        body.len()
    );
    let parse = || serde_json::from_slice::<StepRequest>(&body).expect("a step request");
    figure(
        "read the body (the state kept as raw JSON)",
        200_000,
        || {
            black_box(parse());
        },
    );
    let request = parse();
    figure("read the state", 100_000, || {
        black_box(app.read_state(&request.state).expect("reads"));
    });
    figure("read the state and resolve its ruleset", 100_000, || {
        black_box(app.open_state(&request.state).expect("opens"));
    });
    figure("... and check it (its log played again)", 100_000, || {
        let opened = app.open_state(&request.state).expect("opens");
        black_box(opened.play(|_, game| Ok(game.game)).expect("checks"));
    });
    let answer = |write: bool| {
        let opened = app.open_state(&request.state).expect("opens");
        opened
            .play(|variant, mut game| {
                let mut events = Vec::new();
                game.apply(&request.action, &mut events)
                    .expect("a legal action");
                let snapshot = Snapshot::new(&app, variant, game, events, Audience::Everyone)?;
                Ok(if write {
                    to_json(&snapshot)?.len()
                } else {
                    snapshot.legal_actions.len()
                })
            })
            .expect("steps")
    };
    figure(
        "... apply the action and make the snapshot",
        100_000,
        || {
            black_box(answer(false));
        },
    );
    figure("... and write the answer as JSON", 100_000, || {
        black_box(answer(true));
    });
    println!("   (the answer: {} bytes)", answer(true));

    let app = web::Data::new(AppState::builtin());
    let whole =
        test::init_service(App::new().app_data(app.clone()).configure(api::configure)).await;
    let bare = test::init_service(
        App::new()
            .app_data(app)
            .app_data(api::dispatch::json_config())
            .service(api::games::step),
    )
    .await;
    println!(
        "{:<58} {:>8.2} µs",
        "the route alone through actix in-process",
        through(&bare, &body).await
    );
    println!(
        "{:<58} {:>8.2} µs",
        "the whole request through the app in-process",
        through(&whole, &body).await
    );
}
