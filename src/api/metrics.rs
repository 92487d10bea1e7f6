//! The server's metrics, served by `GET /metrics` in the Prometheus text format (version 0.0.4):
//! requests by route and status and their latency, the engine threads' queue, waits and `503`s,
//! script-budget exhaustions, bot decisions, the replay guard's calls, errors, latency and
//! evictions, the authored-ruleset cache, and states or keys opened with an older secret.
//!
//! Every label takes its values from a fixed set (a route pattern of the route table, a method of
//! [`Verb`], an HTTP status), so no request can add a series of its own: an unknown path is the
//! route `unmatched`.

use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actix_web::http::Method;
use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue, LabelValueEncoder};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};

use crate::rules::CacheUsage;

pub use prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The path of the metrics page.
pub const PATH: &str = "/metrics";

/// The route label of a request whose path no route matches.
pub const UNMATCHED: &str = "unmatched";

/// An HTTP method, as a label: the methods the server answers, and every other one as `OTHER`.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Verb {
    Get,
    Post,
    Head,
    Options,
    Other,
}

impl Verb {
    fn of(method: &Method) -> Verb {
        match *method {
            Method::GET => Verb::Get,
            Method::POST => Verb::Post,
            Method::HEAD => Verb::Head,
            Method::OPTIONS => Verb::Options,
            _ => Verb::Other,
        }
    }
}

impl EncodeLabelValue for Verb {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> fmt::Result {
        encoder.write_str(match self {
            Verb::Get => "GET",
            Verb::Post => "POST",
            Verb::Head => "HEAD",
            Verb::Options => "OPTIONS",
            Verb::Other => "OTHER",
        })
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: Verb,
    route: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: Verb,
    route: &'static str,
}

/// What the replay guard was asked.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum GuardCall {
    /// Whether a state is older than its game's latest (a refused step, a view, a suggestion).
    Check,
    /// The compare-and-set of an accepted step.
    Advance,
    /// The readiness ping.
    Ping,
}

impl EncodeLabelValue for GuardCall {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> fmt::Result {
        encoder.write_str(match self {
            GuardCall::Check => "check",
            GuardCall::Advance => "advance",
            GuardCall::Ping => "ping",
        })
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GuardLabels {
    operation: GuardCall,
}

/// Who a bot decided for: a seat the server plays, or a suggestion asked for.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum BotWork {
    Play,
    Suggest,
}

impl EncodeLabelValue for BotWork {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> fmt::Result {
        encoder.write_str(match self {
            BotWork::Play => "play",
            BotWork::Suggest => "suggest",
        })
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BotLabels {
    mode: BotWork,
}

/// What was opened with a secret other than the newest (a rotation in use).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Sealed {
    State,
    SeatKey,
}

impl EncodeLabelValue for Sealed {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> fmt::Result {
        encoder.write_str(match self {
            Sealed::State => "state",
            Sealed::SeatKey => "seat_key",
        })
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SealedLabels {
    kind: Sealed,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Latencies from 0.5 ms to about 8 s.
fn request_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.0005, 2.0, 15))
}

/// Short waits and calls, from 0.1 ms to about 3 s.
fn short_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.0001, 2.0, 16))
}

/// What the engine threads report: their queue, waits and refusals.
#[derive(Clone, Debug)]
pub struct EngineMetrics {
    queued: Gauge,
    wait: Histogram,
    busy: Counter,
    budget_spent: Counter,
}

impl Default for EngineMetrics {
    fn default() -> EngineMetrics {
        EngineMetrics {
            queued: Gauge::default(),
            wait: short_buckets(),
            busy: Counter::default(),
            budget_spent: Counter::default(),
        }
    }
}

impl EngineMetrics {
    /// A request starts waiting for an engine thread; the wait ends when the returned value is
    /// dropped, and is then observed.
    pub fn waiting(&self) -> Waiting<'_> {
        self.queued.inc();
        Waiting {
            metrics: self,
            since: std::time::Instant::now(),
        }
    }

    /// A request was refused `503 server-busy`.
    pub fn refused_busy(&self) {
        self.busy.inc();
    }

    /// The hooks of a request ran out of the budget they share.
    pub fn budget_spent(&self) {
        self.budget_spent.inc();
    }
}

/// A request waiting for an engine thread (see [`EngineMetrics::waiting`]).
pub struct Waiting<'m> {
    metrics: &'m EngineMetrics,
    since: std::time::Instant,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.metrics.queued.dec();
        self.metrics
            .wait
            .observe(self.since.elapsed().as_secs_f64());
    }
}

/// A counter that follows a total kept elsewhere (a cache's evictions), read at each scrape.
#[derive(Debug, Default)]
struct Follower {
    counter: Counter,
    seen: AtomicU64,
}

impl Follower {
    /// Adds what `total` grew by since the largest total seen (concurrent scrapes add each
    /// increase once).
    fn follow(&self, total: u64) {
        let before = self.seen.fetch_max(total, Ordering::Relaxed);
        if total > before {
            self.counter.inc_by(total - before);
        }
    }
}

/// What is read from the server at each scrape rather than counted as it happens.
#[derive(Clone, Copy, Debug)]
pub struct Readings {
    pub cache: CacheUsage,
    /// Games the memory replay guard forgot young since it started (0 without one).
    pub guard_evictions: u64,
    pub engine_threads: usize,
    pub engine_threads_busy: usize,
}

/// Every metric of one server, and the registry that names them.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_time: Histograms<RouteLabels>,
    engine: EngineMetrics,
    engine_threads: Gauge,
    engine_threads_busy: Gauge,
    bot_decisions: Family<BotLabels, Counter>,
    bot_time: Histograms<BotLabels>,
    guard_calls: Family<GuardLabels, Counter>,
    guard_errors: Family<GuardLabels, Counter>,
    guard_time: Histograms<GuardLabels>,
    guard_stale: Counter,
    guard_evictions: Arc<Follower>,
    cache_entries: Gauge,
    cache_bytes: Gauge,
    cache_evictions: Arc<Follower>,
    older_secret: Family<SealedLabels, Counter>,
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut m = Metrics {
            registry: Registry::with_prefix("gin_rules"),
            requests: Family::default(),
            request_time: Family::new_with_constructor(request_buckets),
            engine: EngineMetrics::default(),
            engine_threads: Gauge::default(),
            engine_threads_busy: Gauge::default(),
            bot_decisions: Family::default(),
            bot_time: Family::new_with_constructor(short_buckets),
            guard_calls: Family::default(),
            guard_errors: Family::default(),
            guard_time: Family::new_with_constructor(short_buckets),
            guard_stale: Counter::default(),
            guard_evictions: Arc::default(),
            cache_entries: Gauge::default(),
            cache_bytes: Gauge::default(),
            cache_evictions: Arc::default(),
            older_secret: Family::default(),
        };
        let r = &mut m.registry;
        r.register(
            "http_requests",
            "HTTP requests answered, by method, route pattern (unmatched: no route) and status",
            m.requests.clone(),
        );
        r.register_with_unit(
            "http_request_duration",
            "Time from a request's arrival to its answer's headers, by method and route pattern",
            Unit::Seconds,
            m.request_time.clone(),
        );
        r.register(
            "engine_threads",
            "Engine threads (--engine-threads)",
            m.engine_threads.clone(),
        );
        r.register(
            "engine_threads_busy",
            "Engine threads doing a request's work now",
            m.engine_threads_busy.clone(),
        );
        r.register(
            "engine_queue_depth",
            "Requests waiting for an engine thread now",
            m.engine.queued.clone(),
        );
        r.register_with_unit(
            "engine_wait",
            "Time requests waited for an engine thread (those that gave up included)",
            Unit::Seconds,
            m.engine.wait.clone(),
        );
        r.register(
            "engine_busy_rejections",
            "Requests refused 503 server-busy: no engine thread within --engine-wait",
            m.engine.busy.clone(),
        );
        r.register(
            "script_budget_exhausted",
            "Requests whose hooks ran out of their shared budget (--script-budget): 422 script-error",
            m.engine.budget_spent.clone(),
        );
        r.register(
            "bot_decisions",
            "Bot decisions: actions of seats the server plays (play), suggestions (suggest)",
            m.bot_decisions.clone(),
        );
        r.register_with_unit(
            "bot_duration",
            "Time bots took: all the server's bot actions of one request (play), one suggestion (suggest)",
            Unit::Seconds,
            m.bot_time.clone(),
        );
        r.register(
            "replay_guard_calls",
            "Calls of the replay guard, by operation (check, advance, ping)",
            m.guard_calls.clone(),
        );
        r.register(
            "replay_guard_errors",
            "Calls of the replay guard that failed (Redis unreachable or failing), by operation",
            m.guard_errors.clone(),
        );
        r.register_with_unit(
            "replay_guard_duration",
            "Time of the replay guard's calls, by operation",
            Unit::Seconds,
            m.guard_time.clone(),
        );
        r.register(
            "replay_guard_stale",
            "States refused 409 stale-state: their game had moved on",
            m.guard_stale.clone(),
        );
        r.register(
            "replay_guard_evictions",
            "Games the memory replay guard forgot before their expiry because it was full",
            m.guard_evictions.counter.clone(),
        );
        r.register(
            "ruleset_cache_entries",
            "Authored rulesets held by the cache",
            m.cache_entries.clone(),
        );
        r.register_with_unit(
            "ruleset_cache",
            "Estimated size of the authored-ruleset cache",
            Unit::Bytes,
            m.cache_bytes.clone(),
        );
        r.register(
            "ruleset_cache_evictions",
            "Authored rulesets dropped from the cache to make room",
            m.cache_evictions.counter.clone(),
        );
        r.register(
            "older_secret_used",
            "Sealed states and seat keys opened with a secret other than the newest (a rotation in use)",
            m.older_secret.clone(),
        );
        m
    }

    /// What the engine threads report to.
    pub fn engine(&self) -> &EngineMetrics {
        &self.engine
    }

    /// An answered request: `route` is a route pattern, or [`UNMATCHED`].
    pub fn request(&self, method: &Method, route: &'static str, status: u16, took: Duration) {
        let method = Verb::of(method);
        self.requests
            .get_or_create(&RequestLabels {
                method,
                route,
                status,
            })
            .inc();
        self.request_time
            .get_or_create(&RouteLabels { method, route })
            .observe(took.as_secs_f64());
    }

    /// `decisions` bot decisions that took `took` together.
    pub fn bots(&self, mode: BotWork, decisions: usize, took: Duration) {
        if decisions == 0 {
            return;
        }
        let labels = BotLabels { mode };
        self.bot_decisions
            .get_or_create(&labels)
            .inc_by(decisions as u64);
        self.bot_time
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
    }

    /// A call of the replay guard that took `took` and failed or not.
    pub fn guard_call(&self, operation: GuardCall, failed: bool, took: Duration) {
        let labels = GuardLabels { operation };
        self.guard_calls.get_or_create(&labels).inc();
        if failed {
            self.guard_errors.get_or_create(&labels).inc();
        }
        self.guard_time
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
    }

    /// A state refused as stale.
    pub fn stale(&self) {
        self.guard_stale.inc();
    }

    /// A state or key opened with an older secret.
    pub fn older_secret(&self, kind: Sealed) {
        self.older_secret
            .get_or_create(&SealedLabels { kind })
            .inc();
    }

    /// The page: every metric, with the values read at scrape time taken from `now` first.
    pub fn render(&self, now: Readings) -> String {
        self.cache_entries.set(gauge(now.cache.rulesets));
        self.cache_bytes.set(gauge(now.cache.bytes));
        self.cache_evictions.follow(now.cache.evictions);
        self.guard_evictions.follow(now.guard_evictions);
        self.engine_threads.set(gauge(now.engine_threads));
        self.engine_threads_busy.set(gauge(now.engine_threads_busy));
        let mut text = String::new();
        if let Err(e) =
            prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)
        {
            tracing::error!(error = %e, "the metrics did not encode");
        }
        text
    }
}

fn gauge(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
