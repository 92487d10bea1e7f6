//! `gin-rules serve`: the HTTP server around [`configure`](crate::api::configure).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use actix_cors::Cors;
use actix_web::dev::Service as _;
use actix_web::middleware::{Condition, DefaultHeaders};
use actix_web::{App, HttpServer, http, web};
use anyhow::{Context, bail};
use tracing_subscriber::EnvFilter;

use crate::api::guard::{self, MemoryGuard, RedisGuard, ReplayGuard};
use crate::api::limits::{DEFAULT_BODY_TIMEOUT, DEFAULT_ENGINE_WAIT, DEFAULT_HEADER_TIMEOUT};
use crate::api::seal::Sealer;
use crate::api::{AppState, Catalog, Limits};
use crate::rules::script::Budget;

/// Where the server listens when neither `--addr` nor `GIN_RULES_ADDR` says.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// Options of `gin-rules serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT [env: GIN_RULES_ADDR] [default: 127.0.0.1:8080]
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// Add the *.yaml variants of DIR (with their .rhai files) to the built-in ones (repeatable)
    #[arg(long, value_name = "DIR")]
    pub rulesets: Vec<PathBuf>,
    /// Seal states with the secret in this file (at least 32 bytes; several lines are several
    /// secrets, newest first: a rotation); else env GIN_RULES_SECRET; else states are plain JSON
    #[arg(long, value_name = "PATH")]
    pub secret_file: Option<PathBuf>,
    /// Bind play to seats: keys per seat in the deal's answer, Authorization: Bearer <key> on
    /// step and view, answers reduced to the key's seat; needs a secret [env: GIN_RULES_SEAT_KEYS=1]
    #[arg(long)]
    pub seat_keys: bool,
    /// Refuse states older than their game's latest: `memory` (one instance) or
    /// `redis://HOST:PORT` (shared by every instance; Redis or Valkey) [env: GIN_RULES_REPLAY_GUARD]
    #[arg(long, value_name = "memory|redis://HOST:PORT")]
    pub replay_guard: Option<String>,
    /// How long the replay guard remembers a game after its last step: seconds, or a number
    /// with s, m, h or d [default: 24h]
    #[arg(long, value_name = "DURATION")]
    pub replay_guard_expiry: Option<String>,
    /// How many games the memory replay guard remembers at most
    #[arg(long, value_name = "N", default_value_t = guard::DEFAULT_CAPACITY)]
    pub replay_guard_capacity: usize,
    /// Allow browser calls from this origin, e.g. http://localhost:5173, or * for any (repeatable)
    #[arg(long, value_name = "ORIGIN")]
    pub cors_origin: Vec<String>,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Requests doing costly engine work (authored rulesets, hooks, strong bots, long logs) at
    /// once, each on a thread of its own, off the workers; cheap steps and views of built-in
    /// rulesets run on the worker that read them [default: one per core]
    #[arg(long, value_name = "N")]
    pub engine_threads: Option<usize>,
    /// How long a request waits for an engine thread before `503 server-busy`
    #[arg(long, value_name = "DURATION", default_value_t = Span(DEFAULT_ENGINE_WAIT))]
    pub engine_wait: Span,
    /// CPU time the hooks and bots of one request may use together, e.g. 40ms (bots decide at
    /// their level while half of it is left, then as `basic`)
    #[arg(long, value_name = "DURATION", default_value_t = Span(Budget::default().time))]
    pub script_budget: Span,
    /// How long a request body may take to arrive after its headers (`408 request-timeout`)
    #[arg(long, value_name = "DURATION", default_value_t = Span(DEFAULT_BODY_TIMEOUT))]
    pub body_timeout: Span,
    /// How long a client may take to send a request's headers
    #[arg(long, value_name = "DURATION", default_value_t = Span(DEFAULT_HEADER_TIMEOUT))]
    pub header_timeout: Span,
    /// Write logs as JSON lines instead of text (the level comes from RUST_LOG, default info)
    #[arg(long)]
    pub log_json: bool,
    /// Serve GET /metrics (Prometheus) on this address, HOST:PORT, instead of with the API, so
    /// that it need not face the internet [env: GIN_RULES_METRICS_ADDR] [default: with the API]
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics_addr: Option<String>,
}

impl ServeArgs {
    /// The options of a `gin-rules serve` given none (the environment still counts).
    pub fn defaults() -> ServeArgs {
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            args: ServeArgs,
        }
        <Only as clap::Parser>::parse_from(["gin-rules"]).args
    }
}

/// A time span given as an option: `250ms`, `2s`, `1m` (see [`parse_span`]), shown the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span(pub Duration);

impl std::str::FromStr for Span {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Span> {
        parse_span(text).map(Span)
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = self.0.as_millis();
        match ms {
            ms if ms % 60_000 == 0 => write!(f, "{}m", ms / 60_000),
            ms if ms % 1000 == 0 => write!(f, "{}s", ms / 1000),
            ms => write!(f, "{ms}ms"),
        }
    }
}

/// Reads the secrets: `--secret-file`, else `GIN_RULES_SECRET`, else none.
fn load_sealer(args: &ServeArgs) -> anyhow::Result<Option<Sealer>> {
    let (secret, from) = match &args.secret_file {
        Some(path) => (
            std::fs::read(path)
                .with_context(|| format!("cannot read the secret file {}", path.display()))?,
            path.display().to_string(),
        ),
        None => match std::env::var_os("GIN_RULES_SECRET") {
            Some(s) if !s.is_empty() => (s.into_encoded_bytes(), "GIN_RULES_SECRET".to_string()),
            _ => return Ok(None),
        },
    };
    match Sealer::new(&secret) {
        Ok(sealer) => Ok(Some(sealer)),
        Err(e) => bail!("the secrets in {from} cannot be used: {e}"),
    }
}

/// A flag given as an option or as an environment variable (`1`, `true`, `yes`, `on`).
fn flag(given: bool, env: &str) -> bool {
    given
        || std::env::var(env).is_ok_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        })
}

/// `text` as a whole number and the unit after it (`s` when none); `like` says what it should be.
fn number_and_unit<'t>(text: &'t str, like: &str) -> anyhow::Result<(u64, &'t str)> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let n = number
        .parse()
        .with_context(|| format!("{text:?} is not {like}"))?;
    Ok((n, unit))
}

/// A duration such as `90`, `90s`, `15m`, `24h` or `7d`.
pub fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let (n, unit) = number_and_unit(text, "a duration like 90s, 15m, 24h or 7d")?;
    let seconds = match unit {
        "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        "d" => n.saturating_mul(86_400),
        _ => bail!("{text:?} is not a duration like 90s, 15m, 24h or 7d"),
    };
    if seconds == 0 {
        bail!("a replay guard expiry of 0 would remember nothing");
    }
    Ok(Duration::from_secs(seconds))
}

/// A time span such as `250ms`, `2s` or `1m` (a bare number is seconds), more than zero.
pub fn parse_span(text: &str) -> anyhow::Result<Duration> {
    let (n, unit) = number_and_unit(text, "a time like 250ms, 2s or 1m")?;
    let span = match unit {
        "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        _ => bail!("{text:?} is not a time like 250ms, 2s or 1m"),
    };
    if span.is_zero() {
        bail!("{text:?} is no time at all");
    }
    Ok(span)
}

/// The limits against costly and slow requests the options ask for.
pub fn limits(args: &ServeArgs) -> anyhow::Result<Limits> {
    let mut limits = Limits::default();
    if let Some(n) = args.engine_threads {
        if n == 0 {
            bail!("--engine-threads must be at least 1");
        }
        limits.engine_threads = n;
    }
    limits.engine_wait = args.engine_wait.0;
    limits.script_budget.time = args.script_budget.0;
    limits.body_timeout = args.body_timeout.0;
    Ok(limits)
}

/// The replay guard the options ask for (connecting to Redis to check it answers).
fn load_guard(args: &ServeArgs) -> anyhow::Result<Option<ReplayGuard>> {
    let Some(spec) = args.replay_guard.clone().or_else(|| {
        std::env::var("GIN_RULES_REPLAY_GUARD")
            .ok()
            .filter(|v| !v.trim().is_empty())
    }) else {
        return Ok(None);
    };
    let expiry = match &args.replay_guard_expiry {
        Some(e) => parse_duration(e).context("--replay-guard-expiry")?,
        None => guard::DEFAULT_EXPIRY,
    };
    let spec = spec.trim();
    if spec == "memory" {
        let capacity = args.replay_guard_capacity;
        if capacity < 2 {
            bail!("--replay-guard-capacity must be at least 2");
        }
        return Ok(Some(ReplayGuard::Memory(MemoryGuard::new(
            expiry, capacity,
        ))));
    }
    if spec.starts_with("redis://") || spec.starts_with("valkey://") {
        let url = spec.replacen("valkey://", "redis://", 1);
        let guard = RedisGuard::connect(&url, expiry).context("--replay-guard")?;
        return Ok(Some(ReplayGuard::Redis(guard)));
    }
    bail!("--replay-guard {spec:?} is neither memory nor a redis://HOST:PORT URL")
}

fn init_logging(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi);
    // A second initialisation (tests) keeps the first subscriber.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// Builds the application state from the options: the catalog and the sealer.
pub fn app_state(args: &ServeArgs) -> anyhow::Result<AppState> {
    let lines = |errors: Vec<crate::rules::RulesetError>| {
        let lines: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
        lines.join("\n")
    };
    let mut catalog = Catalog::try_builtin()
        .map_err(|e| anyhow::anyhow!("a built-in ruleset does not load:\n{}", lines(e)))?;
    for dir in &args.rulesets {
        if let Err(errors) = catalog.add_dir(dir) {
            bail!(
                "the rulesets in {} do not load:\n{}",
                dir.display(),
                lines(errors)
            );
        }
    }
    let mut state = AppState::new(catalog, load_sealer(args)?).with_limits(limits(args)?);
    if flag(args.seat_keys, "GIN_RULES_SEAT_KEYS") {
        state = state
            .with_seat_keys()
            .context("--seat-keys (or GIN_RULES_SEAT_KEYS)")?;
    }
    if let Some(guard) = load_guard(args)? {
        state = state.with_guard(guard);
    }
    if metrics_addr(args).is_some() {
        state = state.with_metrics_elsewhere();
    }
    Ok(state)
}

/// `--metrics-addr`, else `GIN_RULES_METRICS_ADDR`, else none (the metrics are served with the
/// API).
fn metrics_addr(args: &ServeArgs) -> Option<String> {
    args.metrics_addr.clone().or_else(|| {
        std::env::var("GIN_RULES_METRICS_ADDR")
            .ok()
            .filter(|a| !a.trim().is_empty())
    })
}

/// The server of `GET /metrics` alone, on `addr` (`--metrics-addr`): one worker.
fn metrics_server(
    addr: &str,
    state: web::Data<AppState>,
) -> anyhow::Result<actix_web::dev::Server> {
    let server = HttpServer::new(move || {
        App::new().app_data(state.clone()).service(
            web::resource(crate::api::metrics::PATH)
                .route(web::get().to(crate::api::health::metrics_here)),
        )
    })
    .workers(1)
    .shutdown_timeout(1)
    .bind(addr)
    .with_context(|| format!("cannot listen on {addr} (--metrics-addr)"))?;
    Ok(server.run())
}

/// Runs the server until SIGINT or SIGTERM (then finishes the requests in flight).
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    init_logging(args.log_json);
    let addr = args
        .addr
        .clone()
        .or_else(|| {
            std::env::var("GIN_RULES_ADDR")
                .ok()
                .filter(|a| !a.is_empty())
        })
        .unwrap_or_else(|| DEFAULT_ADDR.to_string());
    for origin in &args.cors_origin {
        check_origin(origin)?;
    }
    let state = web::Data::new(app_state(args)?);
    let metrics_at = metrics_addr(args);
    let sealed = state.sealer.is_some();
    let seat_keys = state.seat_keys.is_some();
    let replay_guard = state.guard.as_ref().map(ReplayGuard::describe);
    if replay_guard.is_some() && !sealed {
        tracing::warn!(
            "the replay guard without a secret guards honest clients only: a plain state's move \
             can be edited"
        );
    }
    let rulesets = state.catalog.list().len();
    let limits = *state.limits();
    let metrics_state = state.clone();
    let header_timeout = args.header_timeout.0;
    let origins = args.cors_origin.clone();
    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .configure(crate::api::configure)
            .wrap(Condition::new(!origins.is_empty(), cors(&origins)))
            // The API's own answers carry it already; this reaches the CORS preflight answers,
            // which actix-cors gives before the API sees the request.
            .wrap(DefaultHeaders::new().add((http::header::X_CONTENT_TYPE_OPTIONS, "nosniff")))
            .wrap_fn(|req, srv| {
                let log = tracing::enabled!(target: "gin_rules::http", tracing::Level::INFO);
                let start = Instant::now();
                let line = log.then(|| (req.method().clone(), req.path().to_string()));
                let fut = srv.call(req);
                async move {
                    let res = fut.await?;
                    if let Some((method, path)) = line {
                        tracing::info!(
                            target: "gin_rules::http",
                            %method,
                            path,
                            status = res.status().as_u16(),
                            micros = start.elapsed().as_micros() as u64,
                            "request"
                        );
                    }
                    Ok(res)
                }
            })
    })
    .client_request_timeout(header_timeout)
    .shutdown_timeout(10);
    if let Some(n) = args.workers {
        server = server.workers(n.max(1));
    }
    let server = server
        .bind(&addr)
        .with_context(|| format!("cannot listen on {addr}"))?;
    tracing::info!(
        addr = %addr,
        rulesets,
        states = if sealed { "sealed" } else { "plain" },
        seat_keys,
        replay_guard = replay_guard.as_deref().unwrap_or("none"),
        engine_threads = limits.engine_threads,
        script_budget_ms = limits.script_budget.time.as_millis() as u64,
        metrics = metrics_at.as_deref().unwrap_or("/metrics"),
        "gin-rules listening on http://{addr} (play at /play, docs at /docs)"
    );
    actix_web::rt::System::new()
        .block_on(async move {
            if let Some(at) = &metrics_at {
                // It stops with the API's server: both answer SIGINT and SIGTERM.
                actix_web::rt::spawn(metrics_server(at, metrics_state)?);
            }
            server.run().await.map_err(anyhow::Error::from)
        })
        .context("the server stopped with an error")?;
    tracing::info!("gin-rules stopped");
    Ok(ExitCode::SUCCESS)
}

/// An origin actix-cors accepts: `*`, or `scheme://host[:port]`.
fn check_origin(origin: &str) -> anyhow::Result<()> {
    if origin == "*" {
        return Ok(());
    }
    match origin.parse::<http::Uri>() {
        Ok(uri)
            if uri.scheme().is_some()
                && uri.host().is_some()
                && uri
                    .path_and_query()
                    .is_none_or(|p| p.as_str() == "/" || p.as_str().is_empty())
                && !origin.ends_with('/') =>
        {
            Ok(())
        }
        _ => bail!("--cors-origin {origin:?} is not an origin like http://localhost:5173 (or *)"),
    }
}

fn cors(origins: &[String]) -> Cors {
    let mut cors = Cors::default()
        .allowed_methods([http::Method::GET, http::Method::POST])
        .allowed_headers([
            http::header::CONTENT_TYPE,
            http::header::ACCEPT,
            http::header::AUTHORIZATION,
        ])
        .max_age(3600);
    for origin in origins {
        cors = if origin == "*" {
            cors.allow_any_origin()
        } else {
            cors.allowed_origin(origin)
        };
    }
    cors
}

/// Prints the OpenAPI document (`gin-rules openapi`).
pub fn print_openapi() -> anyhow::Result<ExitCode> {
    use std::io::Write;
    std::io::stdout()
        .write_all(crate::api::openapi::document_text().as_bytes())
        .context("cannot write the document")?;
    Ok(ExitCode::SUCCESS)
}
