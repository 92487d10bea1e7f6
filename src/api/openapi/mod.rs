//! The OpenAPI 3.1 document: generated from the handlers and the wire types, completed with an
//! example for every schema and every error response each operation can give.
//!
//! `gin-rules openapi` prints it; `openapi/openapi.json` is that output, committed; the server
//! serves the same bytes at `/openapi.json`.

use std::sync::OnceLock;

use serde_json::{Value, json};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::engine::State;

use super::routes::routes;
use super::{bots, games, hands, health, rulesets};

mod errors;
mod examples;
mod unions;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gin-rules",
        license(name = "MIT OR Apache-2.0"),
    ),
    // The handlers of the route table (a test checks that the two name the same handlers).
    paths(
        games::create, games::step, games::view, bots::suggest, rulesets::list, rulesets::check,
        rulesets::get, hands::analyze, health::healthz,
        health::readyz, health::metrics, health::openapi_json, health::docs
    ),
    components(schemas(State, super::error::Problem)),
    modifiers(&SeatKeyScheme),
    tags(
        (name = "games", description = "Deal, play and view games"),
        (name = "rulesets", description = "The variants the server plays, and checking authored ones"),
        (name = "hands", description = "Hand analysis: melds, deadwood, best discards"),
        (name = "service", description = "Health, readiness, metrics, this document and its rendering"),
    )
)]
pub struct ApiDoc;

/// Declares the `seat_key` bearer scheme that `step` and `view` name.
struct SeatKeyScheme;

impl Modify for SeatKeyScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("gin-rules seat key")
                    .description(Some(
                        "A seat's key from the `seats` of the deal's answer, on servers started \
                         with --seat-keys (elsewhere no key is needed). It opens that seat of that \
                         game only.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The document's introduction, with the server's default limits.
fn description() -> String {
    format!(
        "Gin Rummy and its variants over HTTP, with the rules as data.\n\n\
The server keeps no game state: every snapshot carries `state`, which the client sends back \
verbatim with the next action. With a secret configured, `state` is an opaque sealed token; \
without one it is the plain state object, fully validated on every request.\n\n\
Every error is `application/problem+json` (RFC 9457) with a stable `type` code. Besides the \
codes listed per operation, any path may answer `404 not-found` or `405 method-not-allowed`, \
and any body over {body_kib} KiB is refused with `413 payload-too-large`. A body must be sent as \
`Content-Type: application/json` (`415 unsupported-media-type`) and arrive within the server's \
body timeout, {timeout} s by default (`408 request-timeout`). Engine work runs on a fixed number of \
threads: a request that waits too long for one gets `503 server-busy` with `Retry-After`, \
and the hooks of one request share one budget of time and operations (`422 script-error` \
beyond it).\n\n\
A server started with `--seat-keys` binds play to seats: the deal's answer holds one key per \
human seat (`seats`), `step`, `view` and `suggest` need `Authorization: Bearer <key>` (the \
`seat_key` scheme), and every answer shows only what the key's seat may see. Without seat keys no \
key is needed. A server with a replay guard refuses a state older than its game's latest (`409 \
stale-state`).\n\n\
Opponents: a deal may name `bots` (seat → level `random`, `basic` or `strong`); the server then \
plays those seats within every request, from their own seat's view, until a human seat must act \
or the match is over, and `events` include their actions. `POST /v1/games/suggest` answers what a \
bot of a level would play for the seat to act (a hint, or an opponent a client runs itself).",
        body_kib = super::BODY_LIMIT / 1024,
        timeout = super::limits::DEFAULT_BODY_TIMEOUT.as_secs(),
    )
}

/// The document as JSON, complete.
pub fn document() -> Value {
    let routes = routes();
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or(Value::Null);
    let real = examples::collect();
    add_union_examples(&mut doc, &real);
    unions::name_variants(&mut doc, &["Action"]);
    unions::lift_descriptions(&mut doc);
    unions::enum_of_tags(&mut doc, "SeatView/properties/phase", "Phase");
    match examples::fill(&mut doc, &real) {
        Ok(unreached) if unreached.is_empty() => {}
        Ok(unreached) => tracing::warn!(?unreached, "API document: schemas without a real example"),
        Err(e) => tracing::error!(error = %e, "the examples of the API document"),
    }
    errors::add_error_responses(&mut doc, &routes);
    doc["info"]["description"] = json!(description());
    // OpenAPI 3.1 names a license by its SPDX expression (generators ask for it).
    doc["info"]["license"]["identifier"] = json!("MIT OR Apache-2.0");
    add_links(&mut doc);
    add_bounds(&mut doc);
    doc
}

/// Every action, event and phase variant gets an example from a real game.
fn add_union_examples(doc: &mut Value, real: &examples::Examples) {
    for (schema, examples) in [
        ("Action", &real.actions),
        ("Event", &real.events),
        ("Phase", &real.phases),
    ] {
        if let Some(s) = doc.pointer_mut(&format!("/components/schemas/{schema}")) {
            s["examples"] = Value::Array(examples.values().cloned().collect());
        }
    }
    if let Some(s) = doc.pointer_mut("/components/schemas/Decision") {
        s["examples"] = Value::Array(real.decisions.values().cloned().collect());
    }
}

/// The document as served and committed: pretty JSON with a final newline.
pub fn document_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
        text.push('\n');
        text
    })
}

/// The OpenAPI links between operations: how a client (and a stateful tester) goes on from an
/// answer. By path, method and status: the link's name and its definition.
fn links() -> Vec<(String, &'static str, &'static str, &'static str, Value)> {
    let (create, step_path) = (path_of(games::create), path_of(games::step));
    let (list, get) = (path_of(rulesets::list), path_of(rulesets::get));
    let step = json!({
        "operationId": "step",
        "description": "Play the first legal action on the game this answer holds.",
        "requestBody": {
            "state": "$response.body#/state",
            "action": "$response.body#/legal_actions/0"
        }
    });
    let view = json!({
        "operationId": "view",
        "description": "The view of the first seat to act in the game this answer holds.",
        "requestBody": {
            "state": "$response.body#/state",
            "seat": "$response.body#/to_act/0"
        }
    });
    vec![
        (create.clone(), "post", "201", "step", step.clone()),
        (create, "post", "201", "view", view.clone()),
        (step_path.clone(), "post", "200", "step", step),
        (step_path, "post", "200", "view", view),
        (
            list,
            "get",
            "200",
            "ruleset",
            json!({
                "operationId": "get",
                "description": "The first ruleset of the list, resolved, with its rules table.",
                "parameters": {"path.id": "$response.body#/0/id"}
            }),
        ),
        (
            get,
            "get",
            "200",
            "deal",
            json!({
                "operationId": "create",
                "description": "Deal a game of this ruleset.",
                "requestBody": {"ruleset": "$response.body#/id"}
            }),
        ),
    ]
}

/// The path of a handler, as its route attribute writes it.
fn path_of<H: utoipa::Path>(_handler: H) -> String {
    H::path()
}

fn add_links(doc: &mut Value) {
    for (path, method, status, name, link) in links() {
        let pointer = format!(
            "/paths/{}/{method}/responses/{status}",
            path.replace('~', "~0").replace('/', "~1")
        );
        if let Some(response) = doc.pointer_mut(&pointer).and_then(Value::as_object_mut) {
            let links = response.entry("links").or_insert_with(|| json!({}));
            if let Some(links) = links.as_object_mut() {
                links.insert(name.into(), link);
            }
        }
    }
}

/// The range of each integer format the generated schemas name (`uint8` for a seat, `uint64` for
/// a seed, ...), which they give only as a lower bound of 0.
fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// Integers whose Rust type (`usize`) gets no format: their range, by pointer.
const UNFORMATTED: &[&str] = &[
    "/components/schemas/LayOffCard/properties/onto",
    "/components/schemas/LayOff/properties/onto",
    "/components/schemas/SeatView/properties/stock_count",
];

fn json_number(n: i128) -> Value {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => json!(n),
        (_, Ok(n)) => json!(n),
        _ => Value::Null,
    }
}

/// Gives every integer schema with a known format its whole range, keeping a tighter bound the
/// schema already has.
fn add_bounds(doc: &mut Value) {
    for pointer in UNFORMATTED {
        if let Some(schema) = doc.pointer_mut(pointer).and_then(Value::as_object_mut) {
            schema.insert("format".into(), json!("uint64"));
        }
    }
    bound_integers(doc);
}

fn bound_integers(v: &mut Value) {
    match v {
        Value::Object(map) => {
            // utoipa spells the unsigned formats `u-int8`, ...; the format registry `uint8`.
            if let Some(format) = map.get("format").and_then(Value::as_str)
                && let Some(rest) = format.strip_prefix("u-int")
            {
                let format = format!("uint{rest}");
                map.insert("format".into(), json!(format));
            }
            if let Some((lo, hi)) = map
                .get("format")
                .and_then(Value::as_str)
                .and_then(integer_range)
            {
                let given = |key: &str| {
                    let n = map.get(key)?;
                    n.as_i64()
                        .map(i128::from)
                        .or_else(|| n.as_u64().map(i128::from))
                };
                let lo = given("minimum").map_or(lo, |m| m.max(lo));
                let hi = given("maximum").map_or(hi, |m| m.min(hi));
                map.insert("minimum".into(), json_number(lo));
                map.insert("maximum".into(), json_number(hi));
            }
            map.values_mut().for_each(bound_integers);
        }
        Value::Array(items) => items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_has_a_description_and_an_example() {
        let doc = document();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let mut missing = Vec::new();
        for (name, s) in schemas {
            if s.get("description").is_none() {
                missing.push(format!("{name}: description"));
            }
            if s.get("example").is_none() && s.get("examples").is_none() {
                missing.push(format!("{name}: example"));
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }

    /// Every schema's example is a real value: none is left with a hand-written one.
    #[test]
    fn every_schema_is_reached_by_a_real_value() {
        let mut doc = document();
        let real = super::examples::collect();
        let unreached = super::examples::fill(&mut doc, &real).unwrap();
        assert!(unreached.is_empty(), "{unreached:?}");
    }

    #[test]
    fn every_example_exchange_is_answered() {
        let exchanges = super::examples::exchanges().unwrap();
        assert!(exchanges.len() >= 8);
    }

    #[test]
    fn every_link_is_in_the_document() {
        let doc = document();
        let operations: Vec<&str> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .filter_map(|op| op["operationId"].as_str())
            .collect();
        for (path, method, status, name, link) in links() {
            let placed = &doc["paths"][&path][method]["responses"][status]["links"][name];
            assert_eq!(placed, &link, "the link {name} of {method} {path} {status}");
            let target = link["operationId"].as_str().unwrap();
            assert!(operations.contains(&target), "no operation {target}");
        }
    }

    #[test]
    fn every_integer_has_its_range() {
        let doc = document();
        let mut integers = Vec::new();
        fn walk<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
            match v {
                Value::Object(m) => {
                    let typed = |t: &Value| {
                        t == "integer"
                            || t.as_array().is_some_and(|a| a.contains(&json!("integer")))
                    };
                    if m.get("type").is_some_and(typed) && m.contains_key("format") {
                        out.push((at.clone(), v));
                    }
                    for (k, v) in m {
                        walk(v, format!("{at}/{k}"), out);
                    }
                }
                Value::Array(a) => {
                    for (i, v) in a.iter().enumerate() {
                        walk(v, format!("{at}/{i}"), out);
                    }
                }
                _ => {}
            }
        }
        walk(&doc, String::new(), &mut integers);
        assert!(integers.len() > 50);
        for (at, schema) in integers {
            assert!(
                schema["minimum"].is_number() && schema["maximum"].is_number(),
                "{at}: {schema}"
            );
        }
        let seat = &doc["components"]["schemas"]["DrawAction"]["properties"]["seat"];
        assert_eq!(
            (&seat["minimum"], &seat["maximum"]),
            (&json!(0), &json!(255))
        );
        let seed = &doc["components"]["schemas"]["NewGameRequest"]["properties"]["seed"];
        assert_eq!(seed["maximum"], json!(u64::MAX));
        let target = &doc["components"]["schemas"]["Target"]["oneOf"][0];
        assert_eq!(
            (&target["minimum"], &target["maximum"]),
            (&json!(1), &json!(u32::MAX))
        );
    }
}
