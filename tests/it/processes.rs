//! What the tests that start real processes share: free ports, children ended with the test, a
//! `gin-rules serve` process, outside programs the test needs, and one raw HTTP exchange.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_gin-rules");

/// The server's own settings from the environment: a test says what it wants in arguments.
const SERVER_ENV: [&str; 5] = [
    "GIN_RULES_ADDR",
    "GIN_RULES_SECRET",
    "GIN_RULES_SEAT_KEYS",
    "GIN_RULES_REPLAY_GUARD",
    "GIN_RULES_METRICS_ADDR",
];

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A child process that is killed when the test ends, however it ends.
pub struct Running(Child);

impl Running {
    pub fn spawn(command: &mut Command) -> Running {
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?} did not start: {e}"));
        Running(child)
    }

    /// Ends it now with SIGKILL: no goodbye, connections and all.
    pub fn kill(&mut self) {
        self.0.kill().expect("kill the process");
        self.0.wait().expect("the killed process ends");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A `gin-rules serve` process on a free loopback port, answering when `start` returns; killed
/// when dropped.
pub struct Server {
    process: Running,
    pub addr: String,
}

impl Server {
    /// `gin-rules serve --addr 127.0.0.1:<free port> ARGS` with `env` added to the test's
    /// environment less the server's own settings; waits for `/healthz`.
    pub fn start(
        args: impl IntoIterator<Item = impl AsRef<OsStr>>,
        env: &[(&str, &str)],
    ) -> Server {
        let addr = format!("127.0.0.1:{}", free_port());
        let process = Running::spawn(
            serve(&addr, env)
                .args(args)
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null()),
        );
        let server = Server { process, addr };
        wait_until("gin-rules serve", || server.is_up());
        server
    }

    /// What `gin-rules serve ARGS` (with `env`) says on its standard error when it refuses to
    /// start, as it must.
    pub fn refusal(args: &[&str], env: &[(&str, &str)]) -> String {
        let out = serve(&format!("127.0.0.1:{}", free_port()), env)
            .args(args)
            .output()
            .expect("gin-rules runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "the server started: {err}");
        err
    }

    /// `GET /healthz` answers 200.
    pub fn is_up(&self) -> bool {
        is_healthy(&self.addr)
    }

    /// Ends the server now with SIGKILL.
    pub fn kill(&mut self) {
        self.process.kill();
    }
}

fn serve(addr: &str, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(BIN);
    command.args(["serve", "--addr", addr]);
    for name in SERVER_ENV {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    command
}

/// `GET /healthz` at `addr` answers 200.
pub fn is_healthy(addr: &str) -> bool {
    http(addr, "GET", "/healthz", None, None).is_ok_and(|(s, _)| s == 200)
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

/// The first of `candidates` that runs with `arg` (e.g. `-v`); the test fails when none does
/// (`setup` says what installs it).
pub fn program(candidates: &[&'static str], arg: &str, setup: &str) -> &'static str {
    candidates
        .iter()
        .copied()
        .find(|p| {
            Command::new(p)
                .arg(arg)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .unwrap_or_else(|| panic!("{} is missing: {setup} installs it", candidates[0]))
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

/// One exchange of raw HTTP/1.1 on a new connection closed after the answer: `head` is the
/// request line and headers (no `Host`, no `Connection`, no final blank line); the whole answer as
/// text.
pub fn exchange(addr: &str, head: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a read timeout");
    write!(s, "{head}\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    String::from_utf8_lossy(&raw).into_owned()
}
