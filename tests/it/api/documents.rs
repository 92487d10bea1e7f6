//! Health, the OpenAPI document (committed = generated = served) and the docs page.

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

/// The document's operations are exactly the routes the server registers, each with its errors.
#[test]
fn every_route_is_documented_with_its_errors() {
    let doc = gin_rules::api::openapi::document();
    let routes = gin_rules::api::routes::routes();
    let mut operations = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        operations += item.as_object().unwrap().len();
    }
    assert_eq!(operations, routes.len(), "one operation per route");
    for route in &routes {
        let op = &doc["paths"][&route.path][route.method_key()];
        assert!(
            op.is_object(),
            "{} {} is not documented",
            route.method_name(),
            route.path
        );
        let mut documented: Vec<&str> = op["responses"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(|r| r["content"]["application/problem+json"]["examples"].as_object())
            .flat_map(|e| e.keys().map(String::as_str))
            .collect();
        documented.sort_unstable();
        let mut declared = route.errors.clone();
        declared.sort_unstable();
        assert_eq!(
            documented,
            declared,
            "{} {}",
            route.method_name(),
            route.path
        );
        // A route that reads a body or does engine work can fail; only the service routes
        // (health, this document, the docs page) answer no error of their own.
        let reads_input = op["requestBody"].is_object() || op["parameters"].is_array();
        assert!(
            !reads_input || !route.errors.is_empty(),
            "{} {} takes input but lists no error",
            route.method_name(),
            route.path
        );
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
