//! Helpers of the API tests: the real app, JSON requests, and a greedy player that picks from
//! `legal_actions`.
#![allow(dead_code)]

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::{App, test, web};
use serde_json::{Value, json};

use gin_rules::api::{self, AppState, Catalog, Sealer};
use gin_rules::cards::{Card, CardSet};
use gin_rules::melds;
use gin_rules::ruleset::MeldRules;

pub const SECRET: &[u8] = b"an example secret of more than thirty-two bytes";
pub const OTHER_SECRET: &[u8] = b"another secret, also longer than thirty-two bytes";

pub struct Client<S> {
    app: S,
}

/// An answer: status, content type and the body as JSON (`Null` when it is not JSON).
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: Value,
    pub text: String,
}

pub async fn client_with(
    state: AppState,
) -> Client<
    impl Service<Request, Response = ServiceResponse<impl MessageBody>, Error = actix_web::Error>,
> {
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(state))
            .configure(api::configure),
    )
    .await;
    Client { app }
}

/// A server that also plays the ruleset `authored` (`{"yaml", "scripts"}`) by its id, added
/// without the sample games a check plays: for tests of hooks that fail in play.
pub fn state_with_unsampled(authored: &Value) -> AppState {
    let mut catalog = Catalog::builtin();
    let yaml = authored["yaml"].as_str().unwrap_or_default().to_string();
    let scripts = authored["scripts"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    if let Err(e) = catalog.add_files(&[("ruleset.yaml".to_string(), yaml)], &scripts) {
        panic!("{e:#?}");
    }
    AppState::new(catalog, None)
}

pub fn state_with_secret(secret: Option<&[u8]>) -> AppState {
    AppState::new(
        Catalog::builtin(),
        secret.map(|s| Sealer::new(s).expect("a long secret")),
    )
}

impl Client<()> {
    /// The app with the built-in rulesets; `sealed`: with [`SECRET`].
    pub async fn new(
        sealed: bool,
    ) -> Client<
        impl Service<Request, Response = ServiceResponse<impl MessageBody>, Error = actix_web::Error>,
    > {
        client_with(state_with_secret(sealed.then_some(SECRET))).await
    }
}

impl<S, B> Client<S>
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    /// Sends `req`; a problem answered must be documented for that route and status.
    pub async fn send(&self, req: Request) -> Answer {
        let method = req.method().as_str().to_ascii_lowercase();
        let path = req.path().to_string();
        let res = test::call_service(&self.app, req).await;
        let status = res.status().as_u16();
        let content_type = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = test::read_body(res).await;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if let Some(code) = body["type"].as_str()
            && content_type == "application/problem+json"
        {
            assert_documented(&method, &path, status, code);
        }
        Answer {
            status,
            content_type,
            body,
            text,
        }
    }

    pub async fn post_bytes(&self, path: &str, body: impl Into<Vec<u8>>) -> Answer {
        let req = test::TestRequest::post()
            .uri(path)
            .insert_header(("content-type", "application/json"))
            .set_payload(body.into())
            .to_request();
        self.send(req).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let a = self
            .post_bytes(path, serde_json::to_vec(body).unwrap())
            .await;
        if a.status >= 400 {
            assert_eq!(a.content_type, "application/problem+json", "{}", a.text);
        }
        (a.status, a.body)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let a = self
            .send(test::TestRequest::get().uri(path).to_request())
            .await;
        (a.status, a.body)
    }

    pub async fn get_text(&self, path: &str) -> Answer {
        self.send(test::TestRequest::get().uri(path).to_request())
            .await
    }

    /// Steps `snap` with `action`, which must be accepted.
    pub async fn step(&self, snap: &Value, action: &Value) -> Value {
        let (status, next) = self
            .post(
                "/v1/games/step",
                &json!({"state": snap["state"], "action": action}),
            )
            .await;
        assert_eq!(status, 200, "{action} refused: {next}");
        next
    }
}

/// Fails unless the OpenAPI document lists `code` among the `status` answers of the operation
/// at `method` `path`; `not-found` and `method-not-allowed`, which any path may answer, only where
/// no route has that path and method.
pub fn assert_documented(method: &str, path: &str, status: u16, code: &str) {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(api::openapi::document);
    let paths = doc["paths"].as_object().expect("paths");
    let matching: Vec<&String> = paths
        .keys()
        .filter(|t| actix_web::dev::ResourceDef::new(t.as_str()).is_match(path))
        .collect();
    let exact: Vec<&String> = matching
        .iter()
        .copied()
        .filter(|t| !t.contains('{'))
        .collect();
    let templates = if exact.is_empty() { matching } else { exact };
    let operation = templates
        .iter()
        .map(|t| &paths[t.as_str()][method])
        .find(|op| op.is_object());
    match (operation, code) {
        (None, "not-found" | "method-not-allowed") => {}
        (None, _) => panic!("{code} answered on {method} {path}, which is no operation"),
        (Some(_), "not-found" | "method-not-allowed") => {
            panic!("{code} answered on {method} {path}, which is an operation")
        }
        (Some(op), _) => {
            let examples = &op["responses"][status.to_string()]["content"]["application/problem+json"]
                ["examples"];
            assert!(
                examples[code].is_object(),
                "{method} {path} answered {status} {code}, which its documentation does not list"
            );
        }
    }
}

/// Plays greedily from `snap` until the match is over.
pub async fn play_to_end<S, B>(
    app: &Client<S>,
    mut snap: Value,
    seed: u64,
    max_steps: usize,
) -> Value
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut rng = Rng(seed);
    for _ in 0..max_steps {
        if snap["status"] == "match_over" {
            assert!(snap["legal_actions"].as_array().unwrap().is_empty());
            return snap;
        }
        let action = choose(&snap, &mut rng);
        snap = app.step(&snap, &action).await;
    }
    panic!("the match did not end in {max_steps} steps");
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0 ^ 0x9E37_79B9_7F4A_7C15;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn cards(v: &Value) -> CardSet {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str()?.parse::<Card>().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// A greedy player: goes out when it can, takes a discard that lowers its deadwood, discards to
/// keep the least deadwood, lays off the most. Always one of `legal_actions`, verbatim.
pub fn choose(snap: &Value, rng: &mut Rng) -> Value {
    let legal = snap["legal_actions"].as_array().expect("legal_actions");
    assert!(!legal.is_empty(), "nothing to do in {}", snap["status"]);
    let rules = MeldRules::standard();
    let score = |a: &Value| -> i64 {
        let seat = a["seat"].as_u64().unwrap_or(0) as usize;
        let view = &snap["views"][seat];
        let hand = cards(&view["hand"]);
        let now = i64::from(melds::least_deadwood(&rules, hand));
        let with_top = || {
            view["discard_top"]
                .as_str()
                .and_then(|c| c.parse::<Card>().ok())
                .map(|c| {
                    let a = melds::analyze_discards(&rules, hand.with(c));
                    let best = a
                        .after_discard
                        .iter()
                        .filter(|&&(d, _)| d != c)
                        .map(|&(_, dw)| i64::from(dw))
                        .min()
                        .unwrap_or(now);
                    now - best
                })
                .unwrap_or(0)
        };
        match a["type"].as_str().unwrap_or("") {
            "gin" => 2000,
            "knock" => 1000,
            "take_upcard" => {
                let gain = with_top();
                if gain > 0 { 10 + gain } else { -1 }
            }
            "draw" if a["from"] == "discard" => {
                let gain = with_top();
                if gain > 0 { 10 + gain } else { -1 }
            }
            "draw" => 1,
            "discard" => {
                let c: Card = a["card"].as_str().unwrap().parse().unwrap();
                500 - i64::from(melds::least_deadwood(&rules, hand.without(c)))
            }
            "lay_off" => a["cards"].as_array().map_or(0, |c| c.len() as i64),
            _ => 0,
        }
    };
    let best = legal.iter().map(score).max().unwrap_or(0);
    let top: Vec<&Value> = legal.iter().filter(|a| score(a) == best).collect();
    top[rng.below(top.len())].clone()
}

/// The option ids a listed ruleset offers (objects with an `id`, or plain strings).
pub fn option_ids(info: &Value) -> Vec<String> {
    info["options"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|o| o["id"].as_str().or(o.as_str()).map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub fn target_allowed(info: &Value, target: &Value) -> bool {
    match info["targets"].as_array() {
        Some(t) => t.contains(target),
        None => true,
    }
}

/// A fixed order of the 52 cards (not sorted, so hands differ from a sorted deal).
pub fn full_deck() -> Vec<String> {
    let mut all: Vec<String> = Card::all().map(|c| c.to_string()).collect();
    let mut rng = Rng(99);
    for i in (1..all.len()).rev() {
        let j = rng.below(i + 1);
        all.swap(i, j);
    }
    all
}

pub fn is_card(s: &str) -> bool {
    s.len() == 2 && s.parse::<Card>().is_ok()
}
