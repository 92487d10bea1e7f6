//! Faults behind a load balancer: two server processes with the same secret behind nginx
//! (scripts/nginx.conf.template: round robin, no stickiness, a dead instance skipped), a match
//! dealt through nginx, one instance killed with SIGKILL in the middle of a hand, and the match
//! finished through the other with nothing lost.
//!
//! Needs `nginx` (Debian's package, `.ci/setup/nginx.sh`): ignored by a plain `cargo test`,
//! run by `.ci/run` (`cargo test --test it -- --ignored`), where a missing nginx fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::api_support::{Rng, choose};
use crate::processes::{Running, Server, free_port, http, is_healthy, program, wait_until};

const SECRET: &str = "the balancer test's secret, over thirty-two bytes long";

const NGINX_CONF: &str = include_str!("../../scripts/nginx.conf.template");

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

/// One exchange with the balancer at `addr`: status and JSON body.
fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    http(addr, method, path, None, body).expect("an answer")
}

fn instance(secret: &Path) -> Server {
    let secret = secret.to_str().expect("a UTF-8 temporary path");
    Server::start(["--workers", "1", "--secret-file", secret], &[])
}

/// nginx in `dir` with the template rendered for `listen` and the instances, as
/// scripts/lib.sh's `start_nginx` runs it. One process (`master_process off`): the test ends
/// nginx with SIGKILL, which would leave a master's worker running.
fn nginx(dir: &Path, listen: &str, a: &str, b: &str) -> Running {
    let program = program(&["nginx", "/usr/sbin/nginx"], "-v", ".ci/setup/nginx.sh");
    let conf = NGINX_CONF
        .replace("@LISTEN@", listen)
        .replace("@INSTANCE_A@", a)
        .replace("@INSTANCE_B@", b);
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).expect("write nginx.conf");
    let running = Running::spawn(
        Command::new(program)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&file)
            .arg("-e")
            .arg(dir.join("nginx-error.log"))
            .args(["-g", "daemon off; master_process off; pid nginx.pid;"]),
    );
    wait_until("nginx", || is_healthy(listen));
    running
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
#[ignore = "needs nginx (.ci/setup/nginx.sh); .ci/run runs it"]
fn a_match_survives_an_instance_killed_mid_hand() {
    let dir = TempDir::new();
    let secret = dir.0.join("secret.txt");
    std::fs::write(&secret, SECRET).expect("write the secret");
    let mut a = instance(&secret);
    let b = instance(&secret);
    let lb = format!("127.0.0.1:{}", free_port());
    let _nginx = nginx(&dir.0, &lb, &a.addr, &b.addr);

    let (status, mut snap) = request(
        &lb,
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
            a.kill();
            killed = true;
        }
        let action = choose(&snap, &mut rng);
        let body = json!({"state": snap["state"], "action": action});
        let (status, next) = request(&lb, "POST", "/v1/games/step", Some(&body));
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
    assert!(!a.is_up() && b.is_up(), "A is dead, B serves");
}
