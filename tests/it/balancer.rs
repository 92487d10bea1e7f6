//! Faults behind a load balancer: two server processes with the same secret behind nginx (round
//! robin, no stickiness, a dead instance skipped), a match dealt through nginx, one instance
//! killed with SIGKILL in the middle of a hand, and the match finished through the other with
//! nothing lost.
//!
//! Needs `nginx` (Debian's package, `.ci/setup/nginx.sh`); without it the test prints "skipped:
//! install nginx", except under CI, where it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::api_support::{Rng, choose};
use crate::processes::{BIN, Running, free_port, http, program, wait_until};

const SECRET: &str = "the balancer test's secret, over thirty-two bytes long";

/// A directory removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "gin-rules-balancer-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One exchange with the server or balancer at `port`: status and JSON body.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    http(&format!("127.0.0.1:{port}"), method, path, None, body).expect("an answer")
}

fn healthy(port: u16) -> bool {
    http(&format!("127.0.0.1:{port}"), "GET", "/healthz", None, None).is_ok_and(|(s, _)| s == 200)
}

fn wait_healthy(what: &str, port: u16) {
    wait_until(what, || healthy(port));
}

fn instance(port: u16, secret: &Path) -> Running {
    let child = Command::new(BIN)
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "1",
        ])
        .arg("--secret-file")
        .arg(secret)
        .env_remove("GIN_RULES_SECRET")
        .env_remove("GIN_RULES_SEAT_KEYS")
        .env_remove("GIN_RULES_REPLAY_GUARD")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gin-rules");
    Running(child)
}

/// The same configuration as scripts/cluster.sh: round robin, no stickiness, a request that
/// finds an instance dead goes to the other. One process (`master_process off`): the test ends
/// nginx with SIGKILL, which would leave a master's worker running, holding every file the test
/// process had open (a `flock` on a lock file among them).
fn nginx_conf(dir: &Path, listen: u16, upstreams: [u16; 2]) -> String {
    let d = dir.display();
    format!(
        "user root;
worker_processes 1;
daemon off;
master_process off;
pid {d}/nginx.pid;
error_log {d}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    client_max_body_size 1m;
    client_body_buffer_size 512k;
    upstream gin_rules {{
        server 127.0.0.1:{a} max_fails=1 fail_timeout=5s;
        server 127.0.0.1:{b} max_fails=1 fail_timeout=5s;
    }}
    server {{
        listen 127.0.0.1:{listen};
        location / {{
            proxy_pass http://gin_rules;
            proxy_connect_timeout 1s;
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_next_upstream_tries 2;
        }}
    }}
}}
",
        a = upstreams[0],
        b = upstreams[1],
    )
}

fn hand_points(events: &Value) -> Vec<Vec<i64>> {
    events
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["type"] == "hand_over")
        .map(|e| {
            e["points"]
                .as_array()
                .expect("points")
                .iter()
                .map(|p| p.as_i64().expect("a number of points"))
                .collect()
        })
        .collect()
}

#[test]
fn a_match_survives_an_instance_killed_mid_hand() {
    let Some(nginx) = program(&["nginx", "/usr/sbin/nginx"], "-v", ".ci/setup/nginx.sh") else {
        return;
    };
    let dir = TempDir::new();
    let secret = dir.0.join("secret.txt");
    std::fs::write(&secret, SECRET).expect("write the secret");
    let (pa, pb, lb) = (free_port(), free_port(), free_port());
    let mut a = instance(pa, &secret);
    let _b = instance(pb, &secret);
    wait_healthy("instance A", pa);
    wait_healthy("instance B", pb);
    let conf = dir.0.join("nginx.conf");
    std::fs::write(&conf, nginx_conf(&dir.0, lb, [pa, pb])).expect("write nginx.conf");
    let _nginx = Running(
        Command::new(nginx)
            .arg("-p")
            .arg(&dir.0)
            .arg("-e")
            .arg(dir.0.join("nginx-error.log"))
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nginx"),
    );
    wait_healthy("nginx", lb);

    let (status, mut snap) = request(
        lb,
        "POST",
        "/v1/games",
        Some(&json!({"ruleset": "standard", "target": 100, "seed": 11})),
    );
    assert_eq!(status, 201, "{snap}");
    assert!(snap["state"].is_string(), "states are sealed");
    let game = snap["game"]["id"].clone();
    let mut moves = snap["game"]["move"].as_u64().expect("move");
    let mut rng = Rng(11);
    let mut totals = vec![0i64; 2];
    let (mut hands, mut steps_before, mut steps_after) = (0, 0, 0);
    let mut killed = false;
    for _ in 0..10_000 {
        if snap["status"] == "match_over" {
            break;
        }
        let phase = snap["views"][0]["phase"].as_str().unwrap_or("").to_string();
        if !killed && steps_before >= 6 && matches!(phase.as_str(), "draw" | "discard") {
            // SIGKILL: no goodbye, connections and all.
            a.0.kill().expect("kill instance A");
            a.0.wait().expect("instance A ended");
            killed = true;
        }
        let action = choose(&snap, &mut rng);
        let body = json!({"state": snap["state"], "action": action});
        let (status, next) = request(lb, "POST", "/v1/games/step", Some(&body));
        assert_eq!(
            status,
            200,
            "step {} (after the kill: {killed}) refused: {next}",
            steps_before + steps_after
        );
        assert_eq!(next["game"]["id"], game, "the same game");
        moves += 1;
        assert_eq!(next["game"]["move"], json!(moves), "one move further");
        for points in hand_points(&next["events"]) {
            hands += 1;
            for (t, p) in totals.iter_mut().zip(points) {
                *t += p;
            }
        }
        if killed {
            steps_after += 1;
        } else {
            steps_before += 1;
        }
        snap = next;
    }
    assert!(killed, "instance A was killed mid-hand");
    assert_eq!(snap["status"], "match_over", "the match ended: {snap}");
    assert!(
        steps_after > 20 && hands >= 1,
        "{steps_after} steps, {hands} hands"
    );
    assert_eq!(
        snap["scores"]["totals"],
        json!(totals),
        "the match's totals are the sum of its hands"
    );
    assert!(
        totals.iter().any(|&t| t >= 100),
        "somebody reached the target: {totals:?}"
    );
    assert!(!healthy(pa) && healthy(pb), "A is dead, B serves");
}
