//! Health, the OpenAPI document (committed = generated = served) and the docs page.

use gin_rules::api::problem::ProblemCode;

use crate::api_support::*;

const REGENERATE: &str = "cargo run -- openapi > openapi/openapi.json";

#[test]
fn the_committed_openapi_document_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = gin_rules::api::openapi::document_text();
    if committed != generated {
        panic!(
            "openapi/openapi.json is stale or missing; regenerate it with\n\n    {REGENERATE}\n"
        );
    }
}

#[actix_web::test]
async fn the_served_document_is_the_committed_one() {
    let app = Client::new(false).await;
    let a = app.get_text("/openapi.json").await;
    assert_eq!(a.status, 200);
    assert!(a.content_type.starts_with("application/json"));
    assert_eq!(a.text, gin_rules::api::openapi::document_text());
    assert_eq!(a.body["openapi"], "3.1.0");
}

#[actix_web::test]
async fn health_and_docs() {
    let app = Client::new(false).await;
    let (status, body) = app.get("/healthz").await;
    assert_eq!((status, body), (200, serde_json::json!({"status": "ok"})));
    let a = app.get_text("/docs").await;
    assert_eq!(a.status, 200);
    assert!(a.content_type.starts_with("text/html"));
    assert!(a.text.contains("/openapi.json"));
    // Self-contained: nothing loaded from elsewhere.
    for attr in [
        "src=\"http",
        "href=\"http",
        "@import",
        "src='http",
        "href='http",
    ] {
        assert!(!a.text.contains(attr), "the docs page loads {attr}...");
    }
}

/// The committed document's operations are exactly the routes the server registers, each
/// answering every problem code the route declares, under that code's status, with an example
/// whose body is a problem of that code and status.
#[test]
fn every_route_is_documented_with_its_errors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let routes = gin_rules::api::routes::routes();
    let mut operations = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        operations += item.as_object().unwrap().len();
    }
    assert_eq!(operations, routes.len(), "one operation per route");
    for route in &routes {
        let at = format!("{} {}", route.method_name(), route.path);
        let op = &doc["paths"][&route.path][route.method_key()];
        assert!(op.is_object(), "{at} is not documented");
        let mut documented = Vec::new();
        for (status, response) in op["responses"].as_object().unwrap() {
            let Some(examples) =
                response["content"]["application/problem+json"]["examples"].as_object()
            else {
                continue;
            };
            for (key, example) in examples {
                let code = ProblemCode::ALL
                    .iter()
                    .find(|c| c.as_str() == key)
                    .unwrap_or_else(|| panic!("{at}: {key} is no problem code"));
                let value = &example["value"];
                assert_eq!(value["type"], key.as_str(), "{at} {status}");
                assert_eq!(status, &code.status().as_str(), "{at}: the status of {key}");
                assert_eq!(value["status"], code.status().as_u16(), "{at} {key}");
                assert_eq!(value["title"], code.title(), "{at} {key}");
                documented.push(*code);
            }
        }
        documented.sort_unstable();
        let mut declared = route.errors.clone();
        declared.sort_unstable();
        assert_eq!(documented, declared, "{at}");
        // A route that reads a body or does engine work can fail; only the service routes
        // (health, this document, the docs page) answer no error of their own.
        let reads_input = op["requestBody"].is_object() || op["parameters"].is_array();
        assert!(
            !reads_input || !route.errors.is_empty(),
            "{at} takes input but lists no error"
        );
    }
}

/// The table of problem codes in docs/http.md is the one `gin-rules docs problems` prints;
/// `UPDATE_DOCS=1` rewrites it.
#[test]
fn docs_http_md_lists_every_problem_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/http.md");
    let page = std::fs::read_to_string(path).unwrap();
    let table = gin_rules::api::problem::problems_markdown();
    let (start, end) = ("<!-- problems: begin -->\n", "<!-- problems: end -->");
    let (Some(a), Some(b)) = (page.find(start), page.find(end)) else {
        panic!("docs/http.md has no {start:?} ... {end:?}");
    };
    let committed = &page[a + start.len()..b];
    if committed != table {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            let page = format!("{}{table}{}", &page[..a + start.len()], &page[b..]);
            std::fs::write(path, page).unwrap();
        } else {
            panic!(
                "the problem table of docs/http.md is stale: put `cargo run -- docs problems` \
                 between its markers (or run `UPDATE_DOCS=1 cargo test --test it documents::`)"
            );
        }
    }
}

/// docs/http.md names every route.
#[test]
fn docs_http_md_names_every_route() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/http.md")).unwrap();
    for route in gin_rules::api::routes::routes() {
        let named = format!("{} {}", route.method_name(), route.path);
        assert!(page.contains(&named), "docs/http.md does not name {named}");
    }
}
