//! What the tests that start real processes share: free ports, children ended with the test,
//! waiting for them, outside programs that may be missing, and one raw HTTP exchange.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_gin-rules");

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A child process that is ended when the test ends, however it ends.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits up to 20 s for `ready`.
pub fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what} did not come up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The first of `candidates` that runs with `arg` (e.g. `-v`); `None` when none does, so the test
/// is skipped, except under CI, where a missing program fails it (`setup` says what installs it).
pub fn program(candidates: &[&'static str], arg: &str, setup: &str) -> Option<&'static str> {
    let found = candidates.iter().copied().find(|p| {
        Command::new(p)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("{} is missing: {setup} installs it", candidates[0]);
        }
        eprintln!(
            "skipped: install {} ({setup}) to run this test",
            candidates[0]
        );
    }
    found
}

/// One HTTP exchange on a new connection closed after the answer: the status and the JSON body
/// (`Null` when the body is not JSON).
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = key
        .map(|k| format!("Authorization: Bearer {k}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n{auth}Connection: close\r\n\r\n{payload}",
        payload.len()
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}
