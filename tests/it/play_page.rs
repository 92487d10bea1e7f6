//! `GET /play`: the table in the browser is served from the binary, loads nothing from elsewhere
//! and talks to the server through the public API only. (Its play is tested in a real browser by
//! `.ci/stages/60-play.sh`.)

use actix_web::{App, test, web};

use gin_rules::api::{self, AppState};

/// Status, content type, Content-Security-Policy and body of a GET.
async fn get(path: &str) -> (u16, String, String, String) {
    send(test::TestRequest::get().uri(path)).await
}

async fn send(req: test::TestRequest) -> (u16, String, String, String) {
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::builtin()))
            .configure(api::configure),
    )
    .await;
    let res = test::call_service(&app, req.to_request()).await;
    let header = |name: &str| {
        res.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let (status, content_type, csp) = (
        res.status().as_u16(),
        header("content-type"),
        header("content-security-policy"),
    );
    let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    (status, content_type, csp, body)
}

/// The page and its two files: path, content type, text.
async fn the_page() -> Vec<(&'static str, String, String)> {
    let mut files = Vec::new();
    for (path, kind) in [
        ("/play", "text/html"),
        ("/play/play.js", "text/javascript"),
        ("/play/play.css", "text/css"),
    ] {
        let (status, content_type, csp, body) = get(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(csp.contains("default-src 'none'"), "{path}: CSP {csp:?}");
        assert!(
            !csp.contains("http") && !csp.contains('*'),
            "{path}: CSP {csp:?}"
        );
        files.push((path, content_type, body));
    }
    files
}

#[actix_web::test]
async fn play_answers_the_page_as_html() {
    let files = the_page().await;
    let html = &files[0].2;
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("name=\"viewport\""), "readable on a phone");
    assert!(html.contains("src=\"play/play.js\"") && html.contains("href=\"play/play.css\""));
    assert!(files[1].2.contains("v1/games/step"));
}

#[actix_web::test]
async fn the_page_references_no_external_url() {
    for (path, _, text) in the_page().await {
        let lower = text.to_ascii_lowercase();
        for scheme in ["http:", "https:", "ws:", "wss:", "ftp:", "@import"] {
            assert!(!lower.contains(scheme), "{path} names {scheme}");
        }
        // Protocol-relative URLs, in markup, strings and CSS.
        for quote in ["\"//", "'//", "`//", "(//", "=//"] {
            assert!(!text.contains(quote), "{path} holds {quote}");
        }
        for at in lower.match_indices("url(").map(|(i, _)| i) {
            assert!(
                lower[at + 4..].starts_with("data:"),
                "{path}: {}",
                &text[at..]
            );
        }
    }
}

/// Every request of the script goes to the public API (relative `v1/...`, so the page also works
/// mounted under a path prefix), through one `fetch`.
#[actix_web::test]
async fn the_script_calls_only_the_public_api() {
    let files = the_page().await;
    let js = &files[1].2;
    assert_eq!(
        js.matches("fetch(").count(),
        1,
        "one place talks to the server"
    );
    for word in [
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "import(",
        "sendBeacon",
    ] {
        assert!(!js.contains(word), "the script uses {word}");
    }
    let calls: Vec<&str> = js
        .match_indices("call(\"")
        .map(|(i, _)| &js[i..])
        .filter_map(|rest| rest.split('"').nth(3))
        .collect();
    assert!(calls.len() >= 5, "{calls:?}");
    for path in &calls {
        assert!(path.starts_with("v1/"), "the script calls {path}");
    }
    for needed in [
        "v1/rulesets",
        "v1/games",
        "v1/games/step",
        "v1/hands/analyze",
    ] {
        assert!(calls.contains(&needed), "the script never calls {needed}");
    }
}

/// The page is a client of the JSON API, not part of it: the OpenAPI document leaves it out.
#[actix_web::test]
async fn the_page_is_not_in_the_api_document() {
    let doc = gin_rules::api::openapi::document();
    let paths = doc["paths"].as_object().unwrap();
    assert!(
        paths.keys().all(|p| !p.starts_with("/play")),
        "{:?}",
        paths.keys()
    );
    let (status, content_type, _, body) = get("/play/nothing").await;
    assert_eq!(status, 404);
    assert!(
        content_type.starts_with("application/problem+json"),
        "{body}"
    );
}

#[actix_web::test]
async fn another_method_on_the_page_is_405() {
    let (status, content_type, _, body) = send(test::TestRequest::post().uri("/play")).await;
    assert_eq!(status, 405, "{body}");
    assert!(
        content_type.starts_with("application/problem+json"),
        "{body}"
    );
    assert!(body.contains("use GET"), "{body}");
}
