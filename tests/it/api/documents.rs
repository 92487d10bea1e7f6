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
