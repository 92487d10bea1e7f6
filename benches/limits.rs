//! What authored rulesets cost the server: the figures of docs/performance.md's "Authored rulesets" table.
//! Every case runs the real handlers (`POST /v1/rulesets/check`, `POST /v1/games`) in-process, in
//! a fresh child process of its own so that its peak memory is its own.
//!
//! ```sh
//! cargo bench --bench limits            # every case
//! cargo bench --bench limits -- names   # one case
//! ```

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use actix_web::{App, test, web};
use serde_json::{Value, json};

use gin_rules::api::{self, AppState};

const CASES: &[(&str, &str)] = &[
    ("options-4000", "check a ruleset of 4 000 options `oN: {}`"),
    (
        "options-1000-deal",
        "deal from a ruleset of 1 000 options, 20 times",
    ),
    (
        "deal",
        "deal from one authored ruleset with a hook: first and then cached",
    ),
    (
        "distinct-1000",
        "deal from 1 000 distinct authored rulesets of 57 KB (LIMITS_YAML_KB)",
    ),
    (
        "names",
        "one 200 KB script name bound by 6 hooks, 10 options sharing them",
    ),
];

fn main() {
    // `cargo bench` adds `--bench`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let [case] = args.as_slice() {
        web_main(case);
        return;
    }
    let exe = std::env::current_exe().expect("the program's own path");
    for (case, what) in CASES {
        if !args.is_empty() && !args.iter().any(|a| a == case) {
            continue;
        }
        println!("## {case}: {what}");
        let status = Command::new(&exe).arg(case).status();
        if !matches!(status, Ok(s) if s.success()) {
            println!("   (the case failed: {status:?})");
        }
    }
}

fn web_main(case: &str) {
    actix_web::rt::System::new().block_on(run(case));
}

/// Resident and peak memory of this process, in MB.
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn many_options(n: usize) -> String {
    let mut yaml = String::from("id: many\nname: Many\noptions:\n");
    for i in 0..n {
        yaml.push_str(&format!("  o{i}: {{}}\n"));
    }
    yaml
}

const HOOKED_YAML: &str = "id: shrinking-knock\nname: Shrinking Knock\nextends: standard\nhooks:\n  knock_limit:\n    script: shrinking.rhai\n    rule: 10 in the first hand, one less each hand after, never below 5\n";
const HOOKED_SCRIPT: &str = "fn knock_limit(ctx) {\n    let limit = 10 - ctx.hand_number;\n    if limit < 5 { 5 } else { limit }\n}\n";

async fn run(case: &str) {
    let app = test::init_service(
        App::new()
            .app_data(web::Data::new(AppState::builtin()))
            .configure(api::configure),
    )
    .await;
    let post = |uri: &str, body: Value| {
        test::TestRequest::post()
            .uri(uri)
            .insert_header(("content-type", "application/json"))
            .set_payload(serde_json::to_vec(&body).unwrap_or_default())
            .to_request()
    };
    // Status, body bytes, time.
    macro_rules! call {
        ($uri:expr, $body:expr) => {{
            let req = post($uri, $body);
            let started = Instant::now();
            let res = test::call_service(&app, req).await;
            let status = res.status().as_u16();
            let bytes = test::read_body(res).await;
            (status, bytes, started.elapsed())
        }};
    }
    let (rss0, _) = memory();
    match case {
        "options-4000" => {
            let yaml = many_options(4000);
            let (status, body, took) = call!("/v1/rulesets/check", json!({"yaml": yaml}));
            println!(
                "   request {} KB: {status} in {}, answer {} bytes",
                yaml.len() / 1024,
                ms(took),
                body.len()
            );
            println!("   answer starts: {}", first_chars(&body, 300));
        }
        "options-1000-deal" => {
            let yaml = many_options(1000);
            let mut times = Vec::new();
            let mut status = 0;
            for seed in 0..20 {
                let (s, _, took) = call!(
                    "/v1/games",
                    json!({"ruleset": {"yaml": yaml, "scripts": {}}, "seed": seed})
                );
                status = s;
                times.push(took);
            }
            println!(
                "   status {status}; first {}, then median {}",
                ms(times[0]),
                ms(median(&mut times[1..].to_vec()))
            );
        }
        "deal" => {
            let body = |seed: u64| json!({"ruleset": {"yaml": HOOKED_YAML, "scripts": {"shrinking.rhai": HOOKED_SCRIPT}}, "seed": seed});
            let (status, _, first) = call!("/v1/games", body(0));
            let mut times = Vec::new();
            for seed in 1..=1000 {
                let (_, _, took) = call!("/v1/games", body(seed));
                times.push(took);
            }
            let mut builtin = Vec::new();
            for seed in 1..=1000 {
                let (_, _, took) = call!("/v1/games", json!({"ruleset": "standard", "seed": seed}));
                builtin.push(took);
            }
            println!(
                "   status {status}; first (uncached) {}, then median {} over 1 000 deals (built-in standard: median {})",
                ms(first),
                ms(median(&mut times)),
                ms(median(&mut builtin))
            );
        }
        "distinct-1000" => {
            let data = web::Data::new(AppState::builtin());
            let addr = serve(data.clone());
            let (rss_served, _) = memory();
            // LIMITS_YAML_KB=190 for rulesets of 190 KB (the server refuses them since the limits).
            let kb: usize = std::env::var("LIMITS_YAML_KB")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(57);
            let padding: String = (0..kb * 1024 / 96)
                .map(|i| format!("# {i:03} {}\n", "x".repeat(90)))
                .collect();
            let started = Instant::now();
            let mut statuses = BTreeMap::new();
            for i in 0..1000 {
                let yaml = format!("{padding}{HOOKED_YAML}")
                    .replace("shrinking-knock", &format!("shrinking-{i}"));
                if i == 0 {
                    println!("   each YAML {} KB", yaml.len() / 1024);
                }
                let body = json!({"ruleset": {"yaml": yaml, "scripts": {"shrinking.rhai": HOOKED_SCRIPT}}, "seed": i});
                let s = http_post(&addr, "/v1/games", &body);
                *statuses.entry(s).or_insert(0) += 1;
                if i == 99 {
                    let (rss, _) = memory();
                    println!("   after 100: RSS {rss:.1} MB");
                }
            }
            let (rss, peak) = memory();
            println!(
                "   a server of 2 workers: statuses {statuses:?} in {:.1} s; RSS {rss_served:.1} MB before, {rss:.1} MB after (peak {peak:.1} MB)",
                started.elapsed().as_secs_f64()
            );
            println!("   cache: {:?}", data.catalog.authored_cache_usage());
        }
        "names" => {
            // The script sent has a 200 KB name; the 6 hooks name another, absent one, and 10
            // options bind the same hooks (one YAML alias each).
            let name = format!("{}.rhai", "a".repeat(200 * 1024));
            let points = [
                "knock_limit",
                "score_multiplier",
                "match_layout",
                "seating",
                "record_result",
                "next_dealer",
            ];
            let mut yaml = String::from("id: names\nname: Names\nhooks: &h\n");
            for p in points {
                yaml.push_str(&format!("  {p}: {{script: k.rhai}}\n"));
            }
            yaml.push_str("options:\n");
            for i in 0..10 {
                yaml.push_str(&format!("  o{i}: {{hooks: *h}}\n"));
            }
            let request = json!({"yaml": yaml, "scripts": {name: "fn knock_limit(ctx) { 5 }"}});
            let size = serde_json::to_vec(&request).map_or(0, |b| b.len());
            let (status, body, took) = call!("/v1/rulesets/check", request);
            let (_, peak) = memory();
            println!(
                "   request {} KB: {status} in {}, answer {} bytes, peak RSS {peak:.1} MB (RSS {rss0:.1} MB at start)",
                size / 1024,
                ms(took),
                body.len()
            );
            println!("   answer starts: {}", first_chars(&body, 300));
        }
        other => println!("no case {other}"),
    }
}

/// Starts the API on a loopback port in a server of 2 workers, on a thread of its own.
fn serve(data: web::Data<AppState>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("its address").to_string();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = actix_web::HttpServer::new(move || {
                App::new().app_data(data.clone()).configure(api::configure)
            })
            .workers(2)
            .listen(listener);
            if let Ok(server) = server {
                let _ = server.run().await;
            }
        });
    });
    std::thread::sleep(Duration::from_millis(300));
    addr
}

/// One request on a connection of its own: the answer's status.
fn http_post(addr: &str, path: &str, body: &Value) -> u16 {
    use std::io::{Read, Write};
    let body = serde_json::to_vec(body).unwrap_or_default();
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return 0;
    };
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(&body))
        .is_err()
    {
        return 0;
    }
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn first_chars(body: &[u8], n: usize) -> String {
    String::from_utf8_lossy(body).chars().take(n).collect()
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}
