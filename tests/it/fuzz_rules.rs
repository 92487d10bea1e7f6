//! Fuzzing the ruleset loader on stable Rust: proptest mutates valid rulesets (YAML and Rhai) with
//! byte flips, cuts, duplicated slices and hostile insertions (huge numbers, deep nesting, alias
//! bombs, many options, long names, runaway scripts), and sends each to the loader as
//! `POST /v1/rulesets/check` does. Whatever comes in, nothing panics, every refusal is a short,
//! bounded list, and every answer comes back within a generous budget.
//!
//! A few dozen cases run with the suite; for a long run by hand:
//!
//! ```sh
//! GIN_FUZZ_CASES=20000 cargo test --release --test it fuzz_rules -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use gin_rules::api::ApiError;
use gin_rules::rules::Catalog;
use gin_rules::rules::limits::{MAX_ECHO, MAX_ERRORS, MAX_MESSAGE};

use crate::api_support::*;

/// Cases per test: `GIN_FUZZ_CASES` (or `FUZZ_CASES`, which the state fuzzer reads), else a few
/// dozen.
fn cases(default: u32) -> u32 {
    ["GIN_FUZZ_CASES", "FUZZ_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok()?.parse().ok())
        .unwrap_or(default)
}

/// The most one check may take, in a test build on a loaded machine: far above what any case
/// needs, far below what the blow-ups this guards against took.
const BUDGET: Duration = Duration::from_secs(3);

/// The largest refusal: every listed problem at its longest, each character JSON-escaped.
const MAX_REFUSAL: usize =
    (MAX_ERRORS + 1) * (6 * (MAX_MESSAGE + 1) + 6 * (MAX_ECHO + 20) + 64) + 1024;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default()
}

/// Valid rulesets to start from: YAML and scripts.
fn seeds() -> Vec<(String, BTreeMap<String, String>)> {
    let scripts = |names: &[&str]| -> BTreeMap<String, String> {
        names
            .iter()
            .map(|n| (n.to_string(), read(&format!("rulesets/{n}"))))
            .collect()
    };
    vec![
        (read("examples/round-the-corner.yaml"), BTreeMap::new()),
        (
            read("rulesets/standard.yaml").replace("id: standard", "id: fuzz-standard"),
            scripts(&["oklahoma.rhai", "hollywood.rhai"]),
        ),
        (
            read("rulesets/four-player.yaml").replace("id: four-player", "id: fuzz-four"),
            scripts(&["four-player.rhai", "four-player-tournament.rhai"]),
        ),
        (
            "id: shrinking\nname: Shrinking\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: s.rhai\n    rule: one less each hand\n".into(),
            [(
                "s.rhai".to_string(),
                "fn knock_limit(ctx) {\n  let l = 10 - ctx.hand_number;\n  if l < 5 { 5 } else { l }\n}\n".to_string(),
            )]
            .into(),
        ),
    ]
}

/// Hostile text to insert.
fn snippets() -> Vec<String> {
    let lol = "[lol, lol, lol, lol, lol, lol, lol, lol, lol]";
    let mut bomb = format!("a: &a {lol}\n");
    for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
        .iter()
        .zip(["b", "c", "d", "e", "f", "g", "h", "i"])
    {
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 9].join(", ")
        ));
    }
    let many_options: String = std::iter::once("options:\n".to_string())
        .chain((0..80).map(|i| format!("  o{i}: {{}}\n")))
        .collect();
    vec![
        "gin_bonus: 99999999999999999999999999999\n".into(),
        "knock_limit: -9223372036854775808\n".into(),
        "seats: 1e400\n".into(),
        "  run_min: 18446744073709551616\n".into(),
        format!("summary: {}1{}\n", "[".repeat(64), "]".repeat(64)),
        format!("x: {}\n", "{a: ".repeat(40)),
        bomb,
        "options:\n  x: &x {summary: a}\n  y: *x\n  z: *x\n  w: {<<: *x}\n".into(),
        many_options,
        "hooks:\n  knock_limit:\n    script: oklahoma.rhai\n".into(),
        "hooks:\n  seating: {script: ../../etc/passwd.rhai}\n".into(),
        "extends: standard\n".into(),
        "extends: fuzz-standard\n".into(),
        "id: standard\n".into(),
        "\0\t\u{feff}\u{202e}".into(),
        "--- \n...\n---\n".into(),
        "!!binary aGVsbG8=\n".into(),
        "? [a, b]\n: c\n".into(),
        format!("name: {}\n", "n".repeat(5_000)),
        format!("  {}: 1\n", "k".repeat(3_000)),
        format!(
            "fn knock_limit(ctx) {{ {}1{} }}\n",
            "(".repeat(300),
            ")".repeat(300)
        ),
        "fn knock_limit(ctx) { let s = \"x\"; loop { s += s; } }\n".into(),
        "fn score_multiplier(ctx) { 9223372036854775807 * 2 }\n".into(),
        "private fn f(x) { f(x) }\nfn next_dealer(ctx) { f(1) }\n".into(),
        "fn knock_limit(ctx) { eval(\"1\") }\nimport \"x\" as y;\n".into(),
        format!("fn {}(ctx) {{ 1 }}\n", "h".repeat(2_000)),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        bits: u8,
    },
    Truncate {
        at: usize,
    },
    Duplicate {
        from: usize,
        len: usize,
        to: usize,
    },
    Delete {
        from: usize,
        len: usize,
    },
    Insert {
        at: usize,
        what: usize,
        line_start: bool,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), 1usize..4_000, any::<usize>())
            .prop_map(|(from, len, to)| Mutation::Duplicate { from, len, to }),
        (any::<usize>(), 1usize..200).prop_map(|(from, len)| Mutation::Delete { from, len }),
        (any::<usize>(), any::<usize>(), any::<bool>()).prop_map(|(at, what, line_start)| {
            Mutation::Insert {
                at,
                what,
                line_start,
            }
        }),
    ]
}

/// A seed, which of its texts to mutate (0: the YAML, k: its k-th script) and how.
fn case() -> impl Strategy<Value = (usize, usize, Vec<Mutation>)> {
    (
        any::<usize>(),
        any::<usize>(),
        prop::collection::vec(mutation(), 1..6),
    )
}

fn mutate(text: &str, mutations: &[Mutation], snippets: &[String]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in mutations {
        let n = b.len().max(1);
        match *m {
            Mutation::Flip { at, bits } => {
                if let Some(x) = b.get_mut(at % n) {
                    *x ^= bits;
                }
            }
            Mutation::Truncate { at } => b.truncate(at % n),
            Mutation::Duplicate { from, len, to } => {
                let from = from % n;
                let end = (from + len).min(b.len());
                let slice = b.get(from..end).unwrap_or_default().to_vec();
                let to = (to % n).min(b.len());
                b.splice(to..to, slice);
            }
            Mutation::Delete { from, len } => {
                let from = (from % n).min(b.len());
                let end = (from + len).min(b.len());
                b.drain(from..end);
            }
            Mutation::Insert {
                at,
                what,
                line_start,
            } => {
                let mut at = (at % n).min(b.len());
                if line_start {
                    at = b[..at]
                        .iter()
                        .rposition(|&c| c == b'\n')
                        .map_or(0, |p| p + 1);
                }
                let s = &snippets[what % snippets.len()];
                b.splice(at..at, s.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The mutated ruleset of a case.
fn build(
    seeds: &[(String, BTreeMap<String, String>)],
    snippets: &[String],
    (seed, target, mutations): &(usize, usize, Vec<Mutation>),
) -> (String, BTreeMap<String, String>) {
    let (yaml, scripts) = &seeds[seed % seeds.len()];
    let mut yaml = yaml.clone();
    let mut scripts = scripts.clone();
    let which = target % (scripts.len() + 1);
    if which == 0 {
        yaml = mutate(&yaml, mutations, snippets);
    } else if let Some(text) = scripts.values_mut().nth(which - 1) {
        *text = mutate(text, mutations, snippets);
    }
    (yaml, scripts)
}

/// Checks one mutated ruleset as `POST /v1/rulesets/check` would, and each option it offers;
/// `true` when it loads.
fn check_one(catalog: &Catalog, yaml: &str, scripts: &BTreeMap<String, String>) -> bool {
    let started = Instant::now();
    let loads = match catalog.check(yaml, scripts) {
        Ok(v) => {
            for o in &v.allowed_options {
                let mut r = v.reference.clone();
                r.options = vec![o.id.clone()];
                if let Err(e) = catalog.resolve(&r) {
                    let p = ApiError::from(e).problem();
                    assert_eq!(p.status, 422, "{p:?}");
                }
            }
            true
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            assert!(errors.len() <= MAX_ERRORS + 1, "{} problems", errors.len());
            for e in &errors {
                assert!(e.message.chars().count() <= MAX_MESSAGE + 1, "{e}");
            }
            let answer = serde_json::to_vec(&ApiError::invalid_ruleset(errors).problem())
                .unwrap_or_default();
            assert!(
                answer.len() <= MAX_REFUSAL,
                "an answer of {} bytes",
                answer.len()
            );
            false
        }
    };
    let took = started.elapsed();
    assert!(took < BUDGET, "the check took {took:?}");
    loads
}

#[test]
fn the_loader_takes_any_mutated_ruleset_in_its_stride() {
    let seeds = seeds();
    let snippets = snippets();
    // One catalog for every case, as one server: its cache sees them all.
    let catalog = Catalog::builtin().with_authored_cache_bytes(4 * 1024 * 1024);
    let mut runner = TestRunner::new(Config {
        cases: cases(48),
        failure_persistence: None,
        ..Config::default()
    });
    let loaded = std::cell::Cell::new(0u32);
    let result = runner.run(&case(), |c| {
        let (yaml, scripts) = build(&seeds, &snippets, &c);
        if check_one(&catalog, &yaml, &scripts) {
            loaded.set(loaded.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!(
        "fuzz_rules: {} mutated rulesets, {} of them load; cache {:?}",
        runner.config().cases,
        loaded.get(),
        catalog.authored_cache_usage()
    );
    assert!(catalog.authored_cache_usage().bytes <= 4 * 1024 * 1024);
}

/// The same through the HTTP app: status, media type and size of every answer.
#[actix_web::test]
async fn the_check_endpoint_answers_every_mutated_ruleset() {
    let seeds = seeds();
    let snippets = snippets();
    let app = Client::new(false).await;
    let mut runner = TestRunner::new(Config {
        cases: cases(16),
        ..Config::default()
    });
    for _ in 0..runner.config().cases {
        let c = match case().new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(e) => panic!("{e}"),
        };
        let (yaml, scripts) = build(&seeds, &snippets, &c);
        let body =
            serde_json::to_vec(&json!({"yaml": yaml, "scripts": scripts})).unwrap_or_default();
        let started = Instant::now();
        let a = app.post_bytes("/v1/rulesets/check", body).await;
        let took = started.elapsed();
        let what = format!(
            "case {c:?}: {} {}",
            a.status,
            a.text.chars().take(300).collect::<String>()
        );
        assert!(took < BUDGET, "{what}: took {took:?}");
        match a.status {
            200 => assert_eq!(a.content_type, "application/json", "{what}"),
            413 | 422 => {
                assert_eq!(a.content_type, "application/problem+json", "{what}");
                assert!(a.text.len() <= MAX_REFUSAL, "{what}");
            }
            _ => panic!("{what}"),
        }
    }
}
