//! Authored rulesets over HTTP: snapshots name the ruleset (with a content hash for authored
//! ones), built-in ids are refused, and refusals stay small whatever the request repeats.

use serde_json::{Value, json};

use crate::api_support::*;

const QUICK: &str = "id: quick\nname: Quick\nextends: standard\nknocking:\n  knock_limit: 7\n";

fn authored(yaml: &str) -> Value {
    json!({"yaml": yaml, "scripts": {}})
}

fn assert_invalid_ruleset(status: u16, p: &Value) {
    assert_eq!(
        (status, p["type"].as_str()),
        (422, Some("invalid-ruleset")),
        "{p}"
    );
}

#[actix_web::test]
async fn snapshots_name_the_ruleset_and_an_authored_one_by_its_content() {
    for sealed in [false, true] {
        let app = Client::new(sealed).await;
        let (status, snap) = app
            .post(
                "/v1/games",
                &json!({"ruleset": "standard", "options": ["oklahoma"], "seed": 1}),
            )
            .await;
        assert_eq!(status, 201, "{snap}");
        assert_eq!(
            snap["ruleset"],
            json!({"id": "standard", "options": ["oklahoma"]})
        );

        let (status, checked) = app.post("/v1/rulesets/check", &authored(QUICK)).await;
        assert_eq!(status, 200, "{checked}");
        let hash = checked["content_hash"]
            .as_str()
            .expect("a content hash")
            .to_string();
        assert_eq!(hash.len(), 64);
        assert!(
            hash.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );

        let deal = json!({"ruleset": authored(QUICK), "seed": 3, "target": "single_hand"});
        let (status, snap) = app.post("/v1/games", &deal).await;
        assert_eq!(status, 201, "{snap}");
        assert_eq!(
            snap["ruleset"],
            json!({"id": "quick", "options": [], "content_hash": hash})
        );
        // A step names it the same (from a sealed state too).
        let action = snap["legal_actions"][0].clone();
        let next = app.step(&snap, &action).await;
        assert_eq!(next["ruleset"], snap["ruleset"]);

        // Same id, other text: another hash.
        let other = format!("{QUICK}scoring:\n  gin_bonus: 30\n");
        let deal = json!({"ruleset": authored(&other), "seed": 3});
        let (status, snap) = app.post("/v1/games", &deal).await;
        assert_eq!(status, 201, "{snap}");
        assert_eq!(snap["ruleset"]["id"], "quick");
        assert_ne!(snap["ruleset"]["content_hash"], json!(hash));
    }
}

#[actix_web::test]
async fn an_authored_ruleset_may_not_take_a_built_in_id() {
    let app = Client::new(true).await;
    let yaml = "id: standard\nname: Standard\nscoring:\n  gin_bonus: 5000\n";
    for (path, body) in [
        ("/v1/rulesets/check", authored(yaml)),
        ("/v1/games", json!({"ruleset": authored(yaml)})),
    ] {
        let (status, p) = app.post(path, &body).await;
        assert_invalid_ruleset(status, &p);
        let message = p["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("`standard` is the id of a ruleset this server already has"),
            "{p}"
        );
    }
}

/// Refusals of requests that repeat long names stay small.
#[actix_web::test]
async fn refusals_repeat_little_of_the_request() {
    let app = Client::new(false).await;
    let huge = format!("{}.rhai", "a".repeat(200 * 1024));
    let mut yaml = String::from("id: names\nname: Names\nhooks: &h\n");
    for p in [
        "knock_limit",
        "score_multiplier",
        "match_layout",
        "seating",
        "record_result",
        "next_dealer",
    ] {
        yaml.push_str(&format!("  {p}: {{script: k.rhai}}\n"));
    }
    yaml.push_str("options:\n");
    for i in 0..10 {
        yaml.push_str(&format!("  o{i}: {{hooks: *h}}\n"));
    }
    let body = json!({"yaml": yaml, "scripts": {huge: "fn knock_limit(ctx) { 5 }"}});
    let a = app
        .post_bytes("/v1/rulesets/check", serde_json::to_vec(&body).unwrap())
        .await;
    assert_invalid_ruleset(a.status, &a.body);
    assert!(a.text.len() < 2048, "{} bytes", a.text.len());

    let long = "z".repeat(100_000);
    let a = app
        .post_bytes(
            "/v1/games",
            serde_json::to_vec(&json!({"ruleset": long})).unwrap(),
        )
        .await;
    assert_eq!(
        (a.status, a.body["type"].as_str()),
        (404, Some("unknown-ruleset")),
        "{}",
        a.text
    );
    assert!(a.text.len() < 1024, "{} bytes", a.text.len());

    let a = app
        .post_bytes(
            "/v1/games",
            serde_json::to_vec(&json!({"ruleset": "standard", "options": [long]})).unwrap(),
        )
        .await;
    assert_eq!(
        (a.status, a.body["type"].as_str()),
        (422, Some("unknown-option")),
        "{}",
        a.text
    );
    assert!(a.text.len() < 1024, "{} bytes", a.text.len());
}

/// A `record_result` that fails at the end of every hand (the seven-up).
const SEVEN_UP: &str = "id: seven-up\nname: Seven up\nextends: standard\noptions:\n  hollywood:\n    replaces: [record_result]\nhooks:\n  record_result:\n    script: seven-up.rhai\n";
const SEVEN_UP_RHAI: &str = "fn record_result(ctx) {\n    let sevens = 0;\n    let bonus = 70 / sevens;\n    ctx[\"default\"]\n}\n";

fn seven_up() -> Value {
    json!({"yaml": SEVEN_UP, "scripts": {"seven-up.rhai": SEVEN_UP_RHAI}})
}

fn assert_division_by_zero(status: u16, p: &Value) {
    assert_invalid_ruleset(status, p);
    let message = p["errors"][0]["message"].as_str().unwrap_or_default();
    assert_eq!(p["errors"][0]["kind"], "play", "{p}");
    assert!(
        message.starts_with("a sample game without options (seed 0): hook record_result failed: seven-up.rhai:3:20: Division by zero"),
        "{p}"
    );
}

#[actix_web::test]
async fn a_hook_that_fails_in_play_is_refused_by_the_check_and_by_a_deal() {
    let app = Client::new(false).await;
    let (status, p) = app.post("/v1/rulesets/check", &seven_up()).await;
    assert_division_by_zero(status, &p);
    // A server that never saw the check refuses the first deal the same way.
    let app = Client::new(false).await;
    let (status, p) = app
        .post("/v1/games", &json!({"ruleset": seven_up(), "seed": 1}))
        .await;
    assert_division_by_zero(status, &p);
    // Fixed, it is dealt.
    let fixed = SEVEN_UP_RHAI.replace("70 / sevens", "70 * sevens");
    let ruleset = json!({"yaml": SEVEN_UP, "scripts": {"seven-up.rhai": fixed}});
    let (status, snap) = app
        .post("/v1/games", &json!({"ruleset": ruleset, "seed": 1}))
        .await;
    assert_eq!(status, 201, "{snap}");
}

#[actix_web::test]
async fn an_option_may_replace_the_authors_hook_only_when_the_file_says_so() {
    let app = Client::new(false).await;
    let script = "fn record_result(ctx) { ctx[\"default\"] }\n";
    let bound = "hooks:\n  record_result:\n    script: mine.rhai\n";
    let ruleset = |options: &str| {
        json!({
            "yaml": format!("id: mine\nname: Mine\nextends: standard\n{options}{bound}"),
            "scripts": {"mine.rhai": script},
        })
    };
    // Hollywood would replace the author's `record_result` without a word: refused.
    let (status, p) = app.post("/v1/rulesets/check", &ruleset("")).await;
    assert_invalid_ruleset(status, &p);
    let e = &p["errors"][0];
    assert_eq!(
        (e["kind"].as_str(), e["line"].as_u64(), e["field"].as_str()),
        (Some("conflict"), Some(6), Some("record_result")),
        "{p}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("option `hollywood` replaces `record_result`, which this ruleset sets"),
        "{p}"
    );
    // Said so: the option keeps its definition and wins when chosen.
    let allowed = ruleset("options:\n  hollywood:\n    replaces: [record_result]\n");
    let (status, detail) = app.post("/v1/rulesets/check", &allowed).await;
    assert_eq!(status, 200, "{detail}");
    assert!(
        option_ids(&json!({"options": detail["allowed_options"]}))
            .contains(&"hollywood".to_string()),
        "{detail}"
    );
    let table = detail["rules_table"].to_string();
    assert!(
        table.contains("Option `hollywood` replaces this ruleset's `record_result` by the ruleset's leave (when chosen, its definition wins)."),
        "{table}"
    );
    let mut with = allowed.clone();
    with["options"] = json!(["hollywood"]);
    let (status, detail) = app.post("/v1/rulesets/check", &with).await;
    assert_eq!(status, 200, "{detail}");
    let record = detail["hooks"]
        .as_array()
        .and_then(|h| h.iter().find(|h| h["point"] == "record_result"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(record["script"], "hollywood.rhai", "{detail}");
    assert!(
        detail["rules_table"]
            .to_string()
            .contains("(in force, its definition wins)"),
        "{detail}"
    );
    // A `replaces` entry the option does not set is named.
    let wrong = ruleset("options:\n  hollywood:\n    replaces: [next_dealer]\n");
    let (status, p) = app.post("/v1/rulesets/check", &wrong).await;
    assert_invalid_ruleset(status, &p);
    let text = p.to_string();
    assert!(
        text.contains("`options.hollywood.replaces`: option `hollywood` does not set `next_dealer` (it sets: match_layout, record_result)"),
        "{p}"
    );
}
