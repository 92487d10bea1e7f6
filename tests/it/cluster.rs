//! The replay guard across real server processes: two instances sharing a real Redis server
//! (started here on a free loopback port), one instance with the memory guard, and a clear
//! refusal to start when Redis cannot be reached.
//!
//! The Redis test needs `redis-server` (Debian's package, `.ci/setup/redis.sh`): ignored by a
//! plain `cargo test`, run by `.ci/run` (`cargo test --test it -- --ignored`), where a missing
//! redis-server fails it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::Barrier;

use serde_json::{Value, json};

use crate::processes::{Running, Server, free_port, http, program, wait_until};

const SECRET: &str = "the cluster test's secret, over thirty-two bytes";

/// A Redis server on a free loopback port, and its URL.
fn redis() -> (Running, String) {
    let port = free_port();
    (redis_on(port), format!("redis://127.0.0.1:{port}"))
}

/// A Redis server (no persistence) on loopback `port`, answering when this returns.
pub fn redis_on(port: u16) -> Running {
    redis_with(port, &["--save", "", "--appendonly", "no"])
}

/// A Redis server on loopback `port` started with `options` (a configuration file first, if
/// any), answering when this returns.
pub fn redis_with(port: u16, options: &[&str]) -> Running {
    let program = program(&["redis-server"], "--version", ".ci/setup/redis.sh");
    let running = Running::spawn(Command::new(program).args(options).args([
        "--port",
        &port.to_string(),
        "--bind",
        "127.0.0.1",
    ]));
    wait_until("redis-server", || {
        TcpStream::connect(("127.0.0.1", port))
            .and_then(|mut s| {
                s.write_all(b"PING\r\n")?;
                let mut buf = [0u8; 7];
                s.read_exact(&mut buf)?;
                Ok(&buf == b"+PONG\r\n")
            })
            .unwrap_or(false)
    });
    running
}

/// A gin-rules server with seat keys and the given replay guard.
fn server(guard: &str) -> Server {
    Server::start(
        ["--seat-keys", "--replay-guard", guard, "--workers", "2"],
        &[("GIN_RULES_SECRET", SECRET)],
    )
}

fn post(addr: &str, path: &str, key: Option<&str>, body: &Value) -> (u16, Value) {
    http(addr, "POST", path, key, Some(body)).expect("the server answers")
}

/// A new game: its state, the seat offered the upcard and each seat's key.
fn deal(addr: &str) -> (Value, u64, Vec<String>) {
    let (status, snap) = post(addr, "/v1/games", None, &json!({"ruleset": "standard"}));
    assert_eq!(status, 201, "{snap}");
    let keys = snap["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap().to_string())
        .collect();
    (
        snap["state"].clone(),
        snap["to_act"][0].as_u64().unwrap(),
        keys,
    )
}

/// `n` requests of one step at once, spread over `addrs`: the statuses.
fn race(addrs: &[&str], n: usize, key: &str, body: &Value) -> Vec<u16> {
    let barrier = Barrier::new(n);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let addr = addrs[i % addrs.len()];
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    post(addr, "/v1/games/step", Some(key), body).0
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a request thread"))
            .collect()
    })
}

fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|&&s| s == status).count()
}

#[test]
#[ignore = "needs redis-server (.ci/setup/redis.sh); .ci/run runs it"]
fn two_instances_sharing_redis_accept_each_state_once() {
    let (_redis, url) = redis();
    let (first_server, second_server) = (server(&url), server(&url));
    let (a, b) = (first_server.addr.as_str(), second_server.addr.as_str());
    let (s0, seat, keys) = deal(a);
    let key = keys[seat as usize].as_str();
    let pass = json!({"seat": seat, "type": "pass"});
    let (status, first) = post(
        a,
        "/v1/games/step",
        Some(key),
        &json!({"state": s0, "action": pass}),
    );
    assert_eq!(status, 200, "{first}");

    // The same state replayed on the other instance, with the same or another action.
    for action in [pass.clone(), json!({"seat": seat, "type": "take_upcard"})] {
        let (status, p) = post(
            b,
            "/v1/games/step",
            Some(key),
            &json!({"state": s0, "action": action}),
        );
        assert_eq!(
            (status, p["type"].as_str()),
            (409, Some("stale-state")),
            "{p}"
        );
    }
    let (status, _) = post(
        b,
        "/v1/games/view",
        Some(key),
        &json!({"state": s0, "seat": seat}),
    );
    assert_eq!(status, 409);

    // 50 requests from the latest state at once, over both instances: exactly one wins.
    let s1 = first["state"].clone();
    let next = first["to_act"][0].as_u64().unwrap();
    let body = json!({"state": s1, "action": {"seat": next, "type": "pass"}});
    let statuses = race(&[a, b], 50, &keys[next as usize], &body);
    assert_eq!(count(&statuses, 200), 1, "{statuses:?}");
    assert_eq!(count(&statuses, 409), 49, "{statuses:?}");

    // Another game is not affected by this one.
    let (t0, seat, keys) = deal(b);
    let (status, _) = post(
        a,
        "/v1/games/step",
        Some(&keys[seat as usize]),
        &json!({"state": t0, "action": {"seat": seat, "type": "pass"}}),
    );
    assert_eq!(status, 200);
}

#[test]
fn one_instance_with_the_memory_guard_accepts_each_state_once() {
    let instance = server("memory");
    let addr = instance.addr.as_str();
    let (s0, seat, keys) = deal(addr);
    let body = json!({"state": s0, "action": {"seat": seat, "type": "pass"}});
    let statuses = race(&[addr], 50, &keys[seat as usize], &body);
    assert_eq!(count(&statuses, 200), 1, "{statuses:?}");
    assert_eq!(count(&statuses, 409), 49, "{statuses:?}");
}

#[test]
fn an_unreachable_redis_stops_the_server_at_start_with_a_clear_error() {
    let url = format!("redis://127.0.0.1:{}", free_port());
    let secret = [("GIN_RULES_SECRET", SECRET)];
    let err = Server::refusal(&["--seat-keys", "--replay-guard", &url], &secret);
    assert!(err.contains("cannot reach") && err.contains(&url), "{err}");

    for (args, needle) in [
        (vec!["--replay-guard", "postgres://x"], "neither memory nor"),
        (
            vec!["--replay-guard", "memory", "--replay-guard-expiry", "soon"],
            "duration",
        ),
    ] {
        let err = Server::refusal(&args, &[]);
        assert!(err.contains(needle), "{err}");
    }
    // Seat keys without a secret.
    let err = Server::refusal(&["--seat-keys"], &[]);
    assert!(err.contains("need a secret"), "{err}");
}
