//! A load driver that plays whole games, so that every step is from the latest state (a replay
//! guard refuses a state sent twice, which a fixed request body would be): `C` connections, each
//! dealing one-hand games and playing them to the end over keep-alive HTTP/1.1 as the seats' own
//! clients would (the seat to act fetches its view and legal actions, then steps, each with its
//! seat key when the server hands out keys). Loopback only; stops after the given seconds.
//!
//! ```sh
//! cargo bench --bench step_load -- 127.0.0.1:18080 16 10
//! ```
//! prints requests and whole games per second, the answers that were not 2xx, and latency
//! percentiles.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Conn {
    addr: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Conn {
    fn open(addr: &str) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        Ok(Conn {
            addr: addr.to_string(),
            reader: BufReader::new(s.try_clone()?),
            writer: s,
        })
    }

    fn post(
        &mut self,
        path: &str,
        key: Option<&str>,
        body: &Value,
    ) -> std::io::Result<(u16, Value)> {
        let payload = body.to_string();
        let auth = key
            .map(|k| format!("Authorization: Bearer {k}\r\n"))
            .unwrap_or_default();
        write!(
            self.writer,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n{auth}\r\n{payload}",
            self.addr,
            payload.len()
        )?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let mut length = 0usize;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((name, value)) = l.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut buf = vec![0u8; length];
        self.reader.read_exact(&mut buf)?;
        Ok((status, serde_json::from_slice(&buf).unwrap_or(Value::Null)))
    }
}

/// The action `seat` plays from its legal actions: going out first, then the rest in a fixed
/// order, so hands end.
fn choose(seat: u64, legal: &[Value]) -> Option<Value> {
    let mine: Vec<&Value> = legal.iter().filter(|a| a["seat"] == seat).collect();
    for kind in ["gin", "knock", "discard", "lay_off", "next_hand", "pass"] {
        if let Some(a) = mine.iter().find(|a| a["type"] == kind) {
            return Some((*a).clone());
        }
    }
    mine.iter()
        .find(|a| a["type"] == "draw" && a["from"] == "stock")
        .or_else(|| mine.first())
        .map(|a| (*a).clone())
}

struct Tally {
    requests: u64,
    failures: u64,
    games: u64,
    micros: Vec<u32>,
}

impl Tally {
    fn timed(
        &mut self,
        conn: &mut Conn,
        path: &str,
        key: Option<&str>,
        body: &Value,
    ) -> std::io::Result<(u16, Value)> {
        let start = Instant::now();
        let r = conn.post(path, key, body);
        self.micros.push(start.elapsed().as_micros() as u32);
        self.requests += 1;
        if !matches!(r, Ok((200..=299, _))) {
            self.failures += 1;
        }
        r
    }
}

/// Plays one-hand games until `until` as each seat's own client would: the seat to act asks for
/// its view (with its key, when the server hands out keys) whenever the latest answer was another
/// seat's, then steps with one of its legal actions. The same requests whether or not the server
/// binds seats, so the two runs compare.
fn drive(addr: &str, until: Instant) -> std::io::Result<Tally> {
    let mut conn = Conn::open(addr)?;
    let mut t = Tally {
        requests: 0,
        failures: 0,
        games: 0,
        micros: Vec::new(),
    };
    while Instant::now() < until {
        let (status, mut snap) = t.timed(
            &mut conn,
            "/v1/games",
            None,
            &json!({"ruleset": "standard", "target": "single_hand"}),
        )?;
        if status != 201 {
            eprintln!("deal refused ({status}): {snap}");
            continue;
        }
        let keys: Vec<String> = snap["seats"]
            .as_array()
            .map(|s| {
                s.iter()
                    .filter_map(|k| k["key"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        // Whose answer `snap` is: nobody's after the deal (the creator holds no seat).
        let mut answered: Option<u64> = None;
        while snap["status"] == "in_progress" && Instant::now() < until {
            let Some(seat) = snap["to_act"]
                .as_array()
                .and_then(|s| s.first())
                .and_then(Value::as_u64)
            else {
                break;
            };
            let key = keys.get(seat as usize).map(String::as_str);
            let legal = if answered == Some(seat) {
                snap["legal_actions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            } else {
                let body = json!({"state": snap["state"], "seat": seat});
                let (status, view) = t.timed(&mut conn, "/v1/games/view", key, &body)?;
                if status != 200 {
                    eprintln!("view refused ({status}): {view}");
                    break;
                }
                view["legal_actions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            };
            let Some(action) = choose(seat, &legal) else {
                eprintln!("seat {seat} has no legal action: {legal:?}");
                t.failures += 1;
                break;
            };
            let body = json!({"state": snap["state"], "action": action});
            let (status, next) = t.timed(&mut conn, "/v1/games/step", key, &body)?;
            if status != 200 {
                eprintln!("step refused ({status}): {next}");
                break;
            }
            snap = next;
            answered = Some(seat);
        }
        if snap["status"] != "in_progress" {
            t.games += 1;
        }
    }
    Ok(t)
}

fn main() {
    // `cargo bench` adds `--bench`.
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    // A plain `cargo bench` runs every bench without arguments: this one needs a server.
    let Some(addr) = args.get(1).cloned() else {
        println!(
            "step_load measures a server that is running: cargo bench --bench step_load -- \
             HOST:PORT [CONNECTIONS] [SECONDS] (scripts/load.sh starts one and runs it)"
        );
        return;
    };
    let connections: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(16);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    let start = Instant::now();
    let until = start + Duration::from_secs(seconds);
    let results: Vec<std::io::Result<Tally>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..connections)
            .map(|_| scope.spawn(|| drive(&addr, until)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a driver panicked")))
            })
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let mut all = Tally {
        requests: 0,
        failures: 0,
        games: 0,
        micros: Vec::new(),
    };
    for r in results {
        match r {
            Ok(t) => {
                all.requests += t.requests;
                all.failures += t.failures;
                all.games += t.games;
                all.micros.extend(t.micros);
            }
            Err(e) => {
                eprintln!("a connection failed: {e}");
                all.failures += 1;
            }
        }
    }
    all.micros.sort_unstable();
    let pct = |p: f64| -> f64 {
        let i = ((all.micros.len() as f64 - 1.0) * p).round() as usize;
        f64::from(all.micros.get(i).copied().unwrap_or(0)) / 1000.0
    };
    println!(
        "requests/s: {:.0}  games/s: {:.0}  requests: {}  not 2xx: {}  p50: {:.2} ms  p99: {:.2} ms",
        all.requests as f64 / elapsed,
        all.games as f64 / elapsed,
        all.requests,
        all.failures,
        pct(0.5),
        pct(0.99)
    );
    if all.failures > 0 {
        std::process::exit(1);
    }
}
