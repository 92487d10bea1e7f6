//! Examples of every action and event, and of the bots' decisions, for the OpenAPI document, taken
//! from real games of the built-in rulesets (seeded, so the document is the same at every build),
//! never written by hand.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde_json::{Map, Value, json};

use crate::api::secrets::Secrets;
use crate::api::{ApiError, AppState, games, hands, health, rulesets};
use crate::bot::{Level, decide_for};
use crate::engine::GameId;
use crate::engine::{Game as Checked, NewGame};
use crate::rules::Catalog;
use crate::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
use crate::sample;
use crate::seat::Seat;

/// One real example of each action, event and phase, by its tag.
pub struct Examples {
    pub actions: BTreeMap<String, Value>,
    pub events: BTreeMap<String, Value>,
    pub phases: BTreeMap<String, Value>,
    /// States and views of the first games, by schema name: where the nested schemas find
    /// their examples.
    pub values: Vec<(&'static str, Value)>,
    /// What the `strong` bot plays, one decision per kind of action.
    pub decisions: BTreeMap<String, Value>,
}

/// The games the examples come from: enough forms for every event and phase to occur (the fifth
/// plays Standard with the stock's end rule that no built-in ruleset uses; a table of three shows
/// each opponent's score and lay-offs; jokers wild shows wild cards in melds).
type Game = (
    &'static str,
    &'static [&'static str],
    Option<u32>,
    Option<StockEnd>,
);
const GAMES: [Game; 7] = [
    ("standard", &[], None, None),
    ("standard", &["classic-bonuses"], Some(100), None),
    ("standard", &["reshuffle-stock"], None, None),
    ("standard", &["hollywood"], Some(100), None),
    ("standard", &[], None, Some(StockEnd::LastDiscardToGoOut)),
    ("oklahoma-three", &[], Some(100), None),
    ("standard", &["jokers-wild"], None, None),
];

/// The first seeds of each form whose states and views are searched for examples.
const SEEDS_WALKED: u64 = 2;

pub fn collect() -> Examples {
    let catalog = Catalog::builtin();
    let mut out = Examples {
        actions: BTreeMap::new(),
        events: BTreeMap::new(),
        phases: BTreeMap::new(),
        values: Vec::new(),
        decisions: BTreeMap::new(),
    };
    for (id, options, target, stock_end) in GAMES {
        let reference = RulesetRef::new(id, options.iter().copied());
        let Ok(variant) = catalog.resolve(&reference) else {
            continue;
        };
        let mut rules = Ruleset::clone(&variant.ruleset);
        if let Some(end) = stock_end {
            rules.stock_end = end;
        }
        for seed in 0..40 {
            let mut game = NewGame::seeded(reference.clone(), seed);
            game.target = Some(target.map_or(Target::SingleHand, Target::Points));
            let _ = sample::play(
                &rules,
                variant.hooks.as_ref(),
                game,
                5_000,
                seed % 2 == 1,
                |at, legal| {
                    record_events(&mut out, &at.events);
                    if seed < SEEDS_WALKED {
                        out.values.push(("State", to_value(at.game.state())));
                        for seat in Seat::all(at.game.seats()) {
                            if let Some(v) = at.game.view(seat) {
                                out.values.push(("SeatView", to_value(&v)));
                            }
                        }
                        for event in &at.events {
                            out.values.push(("Event", to_value(event)));
                        }
                    }
                    for table in &at.game.tables {
                        let value = serde_json::to_value(&table.phase).unwrap_or(Value::Null);
                        if let Some(name) = value.get("name").and_then(Value::as_str) {
                            out.phases.entry(name.to_string()).or_insert(value);
                        }
                    }
                    for action in legal {
                        out.actions
                            .entry(action.type_name().to_string())
                            .or_insert_with(|| serde_json::to_value(action).unwrap_or(Value::Null));
                    }
                    ControlFlow::Continue(())
                },
            );
        }
    }
    record_decisions(&catalog, &mut out);
    out
}

/// Hands of Standard where the `strong` bot plays every seat, its decisions kept by kind of action.
fn record_decisions(catalog: &Catalog, out: &mut Examples) {
    let reference = RulesetRef::named("standard");
    let Ok(variant) = catalog.resolve(&reference) else {
        return;
    };
    let (rules, hooks) = (&variant.ruleset, variant.hooks.as_ref());
    for seed in 0..20 {
        let mut game = NewGame::seeded(reference.clone(), seed);
        game.target = Some(Target::SingleHand);
        let Ok(dealt) = Checked::deal(rules, hooks, game) else {
            continue;
        };
        let mut state = dealt.game;
        let mut events = Vec::new();
        while !state.is_between_hands() {
            let Some(&seat) = state.to_act().first() else {
                break;
            };
            let Some(decision) = decide_for(Level::Strong, &state, seat) else {
                break;
            };
            out.decisions
                .entry(decision.action.type_name().to_string())
                .or_insert_with(|| serde_json::to_value(&decision).unwrap_or(Value::Null));
            if state.apply(&decision.action, &mut events).is_err() {
                break;
            }
        }
    }
}

fn record_events(out: &mut Examples, events: &[crate::engine::Event]) {
    for event in events {
        let value = serde_json::to_value(event).unwrap_or(Value::Null);
        if let Some(kind) = value.get("type").and_then(Value::as_str) {
            out.events.entry(kind.to_string()).or_insert(value);
        }
    }
}

/// The game id of the document's example game.
pub const EXAMPLE_GAME: GameId = GameId(*b"gin-rules-sample");

/// The authored ruleset of the examples: `examples/round-the-corner.yaml`.
pub const AUTHORED_YAML: &str = include_str!("../../../examples/round-the-corner.yaml");

/// An authored ruleset that does not load, for the examples of `invalid-ruleset`.
pub const BROKEN_YAML: &str =
    "id: my-gin\nname: My Gin\nextends: standard\nknocking:\n  limit: ten\nseats: 9\n";

/// The server's answer to checking [`BROKEN_YAML`].
pub fn broken_ruleset() -> Option<ApiError> {
    let app = AppState::builtin();
    let request = parse(&json!({"yaml": BROKEN_YAML})).ok()?;
    rulesets::check_authored(&app, request).err()
}

/// One request of the document's examples, with the server's own answer to it.
pub struct Exchange {
    /// The schema of the request body (`None`: a request without body).
    pub request_schema: Option<&'static str>,
    pub request: Value,
    pub answer_schema: &'static str,
    pub answer: Value,
}

/// The requests the document shows, answered by the code behind each route (no HTTP, the same
/// functions), on the built-in rulesets, plain states, and a fixed game id.
pub fn exchanges() -> Result<Vec<Exchange>, ApiError> {
    let app = AppState::builtin();
    let mut out = Vec::new();
    let deal_request = json!({"ruleset": "standard", "target": 100, "seed": 42});
    let authored_request = json!({
        "ruleset": {"yaml": AUTHORED_YAML, "scripts": {}},
        "target": "single_hand",
        "seed": 7
    });
    let with_bot = json!({
        "ruleset": "straight-gin",
        "target": "single_hand",
        "seed": 42,
        "bots": {"1": "strong"}
    });
    let mut dealt = Value::Null;
    for request in [deal_request, authored_request, with_bot] {
        let answer = answer(games::deal(&app, parse(&request)?, EXAMPLE_GAME)?)?;
        if dealt.is_null() {
            dealt = answer.clone();
        }
        out.push(exchange(
            Some("NewGameRequest"),
            request,
            "Snapshot",
            answer,
        ));
    }
    let step_request = json!({"state": dealt["state"], "action": dealt["legal_actions"][0]});
    let stepped = match games::apply(&app, None, parse(&step_request)?)? {
        games::Applied::Stepped { answer: a, .. } => answer(a)?,
        games::Applied::Refused { error, .. } => return Err(error),
    };
    out.push(exchange(
        Some("StepRequest"),
        step_request,
        "Snapshot",
        stepped,
    ));
    let view_request = json!({"state": dealt["state"], "seat": dealt["to_act"][0]});
    let (_, seen) = games::see(&app, None, parse(&view_request)?)?;
    let seen = answer(seen?)?;
    let mut cards = seen["hand"].as_array().cloned().unwrap_or_default();
    cards.push(seen["discard_top"].clone());
    out.push(exchange(
        Some("ViewRequest"),
        view_request,
        "SeatView",
        seen,
    ));
    let suggest_request =
        json!({"state": dealt["state"], "seat": dealt["to_act"][0], "level": "strong"});
    let (_, decision) = crate::api::bots::advise(&app, None, parse(&suggest_request)?)?;
    out.push(exchange(
        Some("SuggestRequest"),
        suggest_request,
        "Decision",
        answer(decision?)?,
    ));
    let analyze_request = json!({"cards": cards, "ruleset": "standard", "options": ["oklahoma"]});
    let analysis = answer(hands::analysis(&app, parse(&analyze_request)?)?)?;
    out.push(exchange(
        Some("AnalyzeRequest"),
        analyze_request,
        "HandAnalysis",
        analysis,
    ));
    let check_request = json!({"yaml": AUTHORED_YAML, "scripts": {}, "options": ["hollywood"]});
    let checked = answer(rulesets::check_authored(&app, parse(&check_request)?)?)?;
    out.push(exchange(
        Some("CheckRequest"),
        check_request,
        "RulesetDetail",
        checked,
    ));
    let variant = app.resolve(&RulesetRef::new("standard", ["oklahoma"]))?;
    let detail = to_value(&rulesets::RulesetDetail::of(&variant));
    out.push(exchange(None, Value::Null, "RulesetDetail", detail));
    let wild = app.resolve(&RulesetRef::new("standard", ["jokers-wild"]))?;
    let detail = to_value(&rulesets::RulesetDetail::of(&wild));
    out.push(exchange(None, Value::Null, "RulesetDetail", detail));
    for info in app.catalog.list() {
        out.push(exchange(None, Value::Null, "RulesetInfo", to_value(&info)));
    }
    let refused = json!({
        "state": dealt["state"],
        "action": {"seat": dealt["to_act"][0], "type": "knock", "discard": seen_card(&dealt)}
    });
    if let games::Applied::Refused { error, .. } = games::apply(&app, None, parse(&refused)?)? {
        out.push(exchange(
            None,
            Value::Null,
            "Problem",
            to_value(&error.problem()),
        ));
    }
    // A plain state whose stock lost its top card: `invalid-state`, with its problems.
    let mut broken = dealt["state"].clone();
    if let Some(stock) = broken
        .pointer_mut("/tables/0/stock")
        .and_then(Value::as_array_mut)
    {
        stock.pop();
    }
    let refused = json!({"state": broken, "seat": 0});
    if let Err(error) = games::see(&app, None, parse(&refused)?) {
        out.push(exchange(
            None,
            Value::Null,
            "Problem",
            to_value(&error.problem()),
        ));
    }
    if let Err(error) = rulesets::check_authored(&app, parse(&json!({"yaml": BROKEN_YAML}))?) {
        out.push(exchange(
            None,
            Value::Null,
            "Problem",
            to_value(&error.problem()),
        ));
    }
    out.push(exchange(
        None,
        Value::Null,
        "Health",
        to_value(&health::Health::OK),
    ));
    // Seat keys as a server with this (published, so never to be used) secret issues them.
    if let Ok(secrets) = Secrets::parse(b"the example secret of the API document, never a real one")
    {
        let keys = crate::api::SeatKeys::new(std::sync::Arc::new(secrets))
            .issue(EXAMPLE_GAME, &[Seat::new(0), Seat::new(1)]);
        for key in keys {
            out.push(exchange(None, Value::Null, "SeatKey", to_value(&key)));
        }
    }
    Ok(out)
}

/// A card of the hand of the first seat to act.
fn seen_card(snapshot: &Value) -> Value {
    let seat = snapshot["to_act"][0].as_u64().unwrap_or(0);
    let seat = usize::try_from(seat).unwrap_or(0);
    snapshot["views"][seat]["hand"][0].clone()
}

fn exchange(
    request_schema: Option<&'static str>,
    request: Value,
    answer_schema: &'static str,
    answer: Value,
) -> Exchange {
    Exchange {
        request_schema,
        request,
        answer_schema,
        answer,
    }
}

/// A request as the server reads it (from text, as `state` is kept raw).
fn parse<T: serde::de::DeserializeOwned>(request: &Value) -> Result<T, ApiError> {
    serde_json::from_str(&request.to_string()).map_err(|e| ApiError::from_serde(&e))
}

fn answer(bytes: Vec<u8>) -> Result<Value, ApiError> {
    serde_json::from_slice(&bytes).map_err(|e| ApiError::Internal(e.to_string()))
}

fn to_value(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Gives every schema of `doc` reached by a real value (the exchanges' requests and answers,
/// then the states, views and events of the sample games) that value as its example. Unions
/// keep their examples (one per variant); request schemas get every request of the exchanges.
/// Answers the schemas no real value reached.
pub fn fill(doc: &mut Value, games: &Examples) -> Result<Vec<String>, ApiError> {
    let exchanges = exchanges()?;
    let Some(schemas) = doc.pointer("/components/schemas").cloned() else {
        return Ok(Vec::new());
    };
    let mut found: BTreeMap<String, Value> = BTreeMap::new();
    let mut requests: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for x in &exchanges {
        if let Some(name) = x.request_schema {
            requests.entry(name).or_default().push(x.request.clone());
            walk(&schemas, &reference(name), &x.request, &mut found);
        }
        walk(&schemas, &reference(x.answer_schema), &x.answer, &mut found);
    }
    for (name, value) in &games.values {
        walk(&schemas, &reference(name), value, &mut found);
    }
    for (name, values) in [
        ("Action", &games.actions),
        ("Event", &games.events),
        ("Phase", &games.phases),
    ] {
        for value in values.values() {
            walk(&schemas, &reference(name), value, &mut found);
        }
    }
    let Some(out) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return Ok(Vec::new());
    };
    // A union's variants have their examples from the games already (one per tag).
    let variants: Vec<String> = out
        .values()
        .filter_map(|s| s.pointer("/discriminator/mapping")?.as_object())
        .flat_map(|m| {
            m.values()
                .filter_map(|r| r.as_str()?.strip_prefix("#/components/schemas/"))
        })
        .map(str::to_string)
        .collect();
    let unreached = out
        .iter()
        .filter(|(name, schema)| {
            let from_games = variants.contains(name) && schema.get("examples").is_some();
            !found.contains_key(*name) && !from_games
        })
        .map(|(name, _)| name.clone())
        .collect();
    for (at, value) in &found {
        if let Some((name, key)) = at.split_once('.') {
            property_example(out, name, key, value);
        }
    }
    for (name, value) in found {
        if let Some(schema) = out.get_mut(&name).and_then(Value::as_object_mut)
            && !schema.contains_key("discriminator")
        {
            schema.remove("example");
            schema.insert("examples".into(), json!([value]));
        }
    }
    for (name, values) in requests {
        if let Some(schema) = out.get_mut(name).and_then(Value::as_object_mut) {
            schema.insert("examples".into(), Value::Array(values));
        }
    }
    Ok(unreached)
}

/// The longest example (as JSON text) a property gets of its own: larger values are shown by
/// the example of the property's schema.
const PROPERTY_EXAMPLE_LEN: usize = 240;

/// Gives property `key` of schema `name` the real value `value` as its example, unless it has
/// one, or is a reference (its schema shows an example), or the value is long.
fn property_example(schemas: &mut Map<String, Value>, name: &str, key: &str, value: &Value) {
    let Some(property) = schemas
        .get_mut(name)
        .and_then(|s| s.get_mut("properties"))
        .and_then(|p| p.get_mut(key))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let given = ["example", "examples", "$ref"]
        .iter()
        .any(|k| property.contains_key(*k));
    if given || value.to_string().len() > PROPERTY_EXAMPLE_LEN {
        return;
    }
    property.insert("examples".into(), json!([value]));
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// Records `value` as an example of every named schema it is an instance of, along `schema`.
fn walk(schemas: &Value, schema: &Value, value: &Value, found: &mut BTreeMap<String, Value>) {
    if let Some(name) = ref_name(schema) {
        found
            .entry(name.to_string())
            .or_insert_with(|| value.clone());
        // Each property's first real value, under `Schema.property` (for the properties' own
        // examples).
        for (key, v) in value.as_object().into_iter().flatten() {
            if !v.is_null() {
                found
                    .entry(format!("{name}.{key}"))
                    .or_insert_with(|| v.clone());
            }
        }
        walk(schemas, &schemas[name], value, found);
        return;
    }
    for part in schema["allOf"].as_array().into_iter().flatten() {
        walk(schemas, part, value, found);
    }
    if let Some(tag) = schema
        .pointer("/discriminator/propertyName")
        .and_then(Value::as_str)
    {
        if let Some(target) = value[tag]
            .as_str()
            .and_then(|t| schema["discriminator"]["mapping"][t].as_str())
        {
            walk(schemas, &json!({"$ref": target}), value, found);
        }
    } else {
        for key in ["oneOf", "anyOf"] {
            let mut branches = schema[key].as_array().into_iter().flatten();
            if let Some(branch) = branches.find(|b| fits(schemas, b, value)) {
                walk(schemas, branch, value, found);
            }
        }
    }
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if let Some(p) = schema["properties"].get(key) {
                    walk(schemas, p, v, found);
                } else if schema["additionalProperties"].is_object() {
                    walk(schemas, &schema["additionalProperties"], v, found);
                }
            }
        }
        Value::Array(items) if schema["items"].is_object() => {
            for item in items {
                walk(schemas, &schema["items"], item, found);
            }
        }
        _ => {}
    }
}

fn ref_name(schema: &Value) -> Option<&str> {
    schema["$ref"]
        .as_str()?
        .strip_prefix("#/components/schemas/")
}

/// Whether `value` has the shape of `schema` (type, enum, required properties): enough to tell
/// the branches of the document's untagged unions apart.
fn fits(schemas: &Value, schema: &Value, value: &Value) -> bool {
    if let Some(name) = ref_name(schema) {
        return fits(schemas, &schemas[name], value);
    }
    if let Some(branches) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
        return branches.iter().any(|b| fits(schemas, b, value));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let typed = types.is_empty()
        || types.iter().any(|t| match *t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => false,
        });
    let listed = schema["enum"]
        .as_array()
        .is_none_or(|values| values.contains(value));
    let complete = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|key| value.get(key).is_some());
    typed && listed && (!value.is_object() || complete)
}
