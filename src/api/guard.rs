//! The replay guard: the latest `move` of each game, so that an older state of a game is refused
//! (`409 stale-state`) instead of giving a second try at a draw already seen.
//!
//! Every accepted step is a compare-and-set: it records `move + 1` only if nothing newer than
//! `move` is recorded, atomically, so of two requests from one state exactly one wins. The memory
//! guard serves one instance; a Redis (or Valkey) guard is shared by every instance.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::engine::{GameId, GameRef};

/// How long a game is remembered after its last accepted step when not told otherwise.
pub const DEFAULT_EXPIRY: Duration = Duration::from_secs(24 * 60 * 60);
/// How many games the memory guard remembers at most when not told otherwise.
pub const DEFAULT_CAPACITY: usize = 1_000_000;
/// How long the outcome of a readiness ping of Redis is reused: probes, however frequent, ping
/// it at most once a second.
pub const PING_REUSE: Duration = Duration::from_secs(1);

/// The guard could not answer (Redis unreachable or failing): the request is refused, not let
/// through unguarded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the replay guard does not answer: {0}")]
pub struct GuardError(pub String);

/// Where the latest moves are kept.
pub enum ReplayGuard {
    Memory(MemoryGuard),
    Redis(RedisGuard),
}

impl ReplayGuard {
    /// Records that the request from `from` was accepted and left the game at move `to` (`from.moves
    /// + 1` for one action; more when the server's bots played on), unless a newer state of the
    /// game than `from` is recorded: then `false`, and nothing changes.
    pub async fn advance(&self, from: GameRef, to: u32) -> Result<bool, GuardError> {
        match self {
            ReplayGuard::Memory(m) => Ok(m.advance(from, to, Instant::now())),
            ReplayGuard::Redis(r) => r.advance(from, to).await,
        }
    }

    /// Whether a newer state of the game than `at` is recorded.
    pub async fn is_stale(&self, at: GameRef) -> Result<bool, GuardError> {
        match self {
            ReplayGuard::Memory(m) => Ok(m.latest(at.id, Instant::now()) > Some(at.moves)),
            ReplayGuard::Redis(r) => r.is_stale(at).await,
        }
    }

    /// Whether the guard answers now: the memory guard always; Redis when it answers a `PING`
    /// (the outcome reused for [`PING_REUSE`]).
    pub async fn check(&self) -> Result<(), GuardError> {
        match self {
            ReplayGuard::Memory(_) => Ok(()),
            ReplayGuard::Redis(r) => r.ping().await,
        }
    }

    /// What the guard is, for the start-up log line.
    pub fn describe(&self) -> String {
        match self {
            ReplayGuard::Memory(m) => format!(
                "memory (up to {} games, {} s)",
                m.capacity,
                m.expiry.as_secs()
            ),
            ReplayGuard::Redis(r) => format!("{} ({} s)", r.url, r.expiry.as_secs()),
        }
    }
}

/// The latest moves in this process: two generations of a map, so that memory stays bounded
/// without a scan. Entries move to the current generation when touched; the older generation is
/// dropped whole once the current one has lived `expiry` or holds half the capacity. An entry
/// untouched for `expiry` is treated as absent at once, and gone from memory within twice that.
pub struct MemoryGuard {
    expiry: Duration,
    capacity: usize,
    maps: Mutex<Generations>,
    /// Games forgotten before their expiry because the guard was full, since it started.
    forgotten: AtomicU64,
}

struct Generations {
    current: HashMap<GameId, Entry>,
    previous: HashMap<GameId, Entry>,
    since: Instant,
}

#[derive(Clone, Copy)]
struct Entry {
    moves: u32,
    at: Instant,
}

impl MemoryGuard {
    pub fn new(expiry: Duration, capacity: usize) -> MemoryGuard {
        MemoryGuard {
            expiry,
            capacity: capacity.max(2),
            maps: Mutex::new(Generations {
                current: HashMap::new(),
                previous: HashMap::new(),
                since: Instant::now(),
            }),
            forgotten: AtomicU64::new(0),
        }
    }

    /// How many games it forgot before their expiry because it was full, since it started: a
    /// stale state of each of them would be accepted again.
    pub fn forgotten(&self) -> u64 {
        self.forgotten.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        // A panic while holding the lock leaves the maps consistent (no update is half-done).
        self.maps.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn latest(&self, id: GameId, now: Instant) -> Option<u32> {
        let g = self.lock();
        g.current
            .get(&id)
            .or_else(|| g.previous.get(&id))
            .filter(|e| now.saturating_duration_since(e.at) < self.expiry)
            .map(|e| e.moves)
    }

    fn advance(&self, from: GameRef, to: u32, now: Instant) -> bool {
        let mut g = self.lock();
        let recorded = g
            .current
            .get(&from.id)
            .or_else(|| g.previous.get(&from.id))
            .filter(|e| now.saturating_duration_since(e.at) < self.expiry)
            .map(|e| e.moves);
        if recorded > Some(from.moves) {
            return false;
        }
        if now.saturating_duration_since(g.since) >= self.expiry
            || g.current.len() >= self.capacity / 2
        {
            let current = std::mem::take(&mut g.current);
            let dropped = std::mem::replace(&mut g.previous, current);
            g.since = now;
            let young = dropped
                .values()
                .filter(|e| now.saturating_duration_since(e.at) < self.expiry)
                .count();
            if young > 0 {
                self.forgotten.fetch_add(young as u64, Ordering::Relaxed);
                tracing::warn!(
                    forgotten = young,
                    capacity = self.capacity,
                    "the memory replay guard is full: it forgot games before their expiry"
                );
            }
        }
        g.previous.remove(&from.id);
        g.current.insert(
            from.id,
            Entry {
                moves: to.max(from.moves),
                at: now,
            },
        );
        true
    }

    /// Games remembered now (both generations).
    pub fn len(&self) -> usize {
        let g = self.lock();
        g.current.len() + g.previous.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Records `ARGV[2]` unless a move newer than `ARGV[1]` is recorded, and sets the expiry.
const ADVANCE: &str = r"
local cur = redis.call('GET', KEYS[1])
if cur and tonumber(cur) > tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
";

/// A readiness ping of Redis: when, and what it found.
type Ping = (Instant, Result<(), GuardError>);

/// The latest moves in a Redis or Valkey server that every instance shares.
pub struct RedisGuard {
    url: String,
    client: redis::Client,
    expiry: Duration,
    script: redis::Script,
    /// Connected on first use, inside the server's runtime.
    conn: tokio::sync::OnceCell<ConnectionManager>,
    /// The last readiness ping (boxed: a guard would be mostly this).
    last_ping: Box<tokio::sync::Mutex<Option<Ping>>>,
}

impl RedisGuard {
    /// Checks that `url` (`redis://HOST:PORT[/DB]`) answers and runs scripts; the connection
    /// requests use is made later, on first use.
    pub fn connect(url: &str, expiry: Duration) -> Result<RedisGuard, GuardError> {
        let client = redis::Client::open(url)
            .map_err(|e| GuardError(format!("{url} is not a Redis URL: {e}")))?;
        let script = redis::Script::new(ADVANCE);
        let mut con = client
            .get_connection_with_timeout(Duration::from_secs(3))
            .map_err(|e| GuardError(format!("cannot reach {url}: {e}")))?;
        let _: String = script
            .prepare_invoke()
            .load(&mut con)
            .map_err(|e| GuardError(format!("{url} does not run the guard's script: {e}")))?;
        Ok(RedisGuard {
            url: url.to_string(),
            client,
            expiry: expiry.max(Duration::from_secs(1)),
            script,
            conn: tokio::sync::OnceCell::new(),
            last_ping: Box::new(tokio::sync::Mutex::new(None)),
        })
    }

    async fn conn(&self) -> Result<ConnectionManager, GuardError> {
        self.conn
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(Duration::from_secs(2)))
                    .set_response_timeout(Some(Duration::from_secs(2)))
                    .set_number_of_retries(2);
                ConnectionManager::new_with_config(self.client.clone(), config).await
            })
            .await
            .cloned()
            .map_err(|e| GuardError(format!("cannot reach {}: {e}", self.url)))
    }

    /// `PING`, or what the last one found if it is younger than [`PING_REUSE`]; concurrent
    /// callers wait for one ping.
    async fn ping(&self) -> Result<(), GuardError> {
        let mut last = self.last_ping.lock().await;
        if let Some((at, outcome)) = last.as_ref()
            && at.elapsed() < PING_REUSE
        {
            return outcome.clone();
        }
        let outcome = self.ping_now().await;
        *last = Some((Instant::now(), outcome.clone()));
        outcome
    }

    async fn ping_now(&self) -> Result<(), GuardError> {
        let mut con = self.conn().await?;
        redis::cmd("PING")
            .query_async::<String>(&mut con)
            .await
            .map(drop)
            .map_err(|e| GuardError(format!("{}: {e}", self.url)))
    }

    fn key(id: GameId) -> String {
        format!("gin-rules:latest:{id}")
    }

    async fn advance(&self, from: GameRef, to: u32) -> Result<bool, GuardError> {
        let mut con = self.conn().await?;
        let done: i64 = self
            .script
            .key(Self::key(from.id))
            .arg(from.moves)
            .arg(to.max(from.moves))
            .arg(self.expiry.as_secs())
            .invoke_async(&mut con)
            .await
            .map_err(|e| GuardError(format!("{}: {e}", self.url)))?;
        Ok(done == 1)
    }

    async fn is_stale(&self, at: GameRef) -> Result<bool, GuardError> {
        let mut con = self.conn().await?;
        let latest: Option<u32> = redis::cmd("GET")
            .arg(Self::key(at.id))
            .query_async(&mut con)
            .await
            .map_err(|e| GuardError(format!("{}: {e}", self.url)))?;
        Ok(latest > Some(at.moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(id: u8, moves: u32) -> GameRef {
        GameRef {
            id: GameId([id; 16]),
            moves,
        }
    }

    #[test]
    fn one_step_from_each_state_and_none_from_older_ones() {
        let g = MemoryGuard::new(DEFAULT_EXPIRY, 100);
        let now = Instant::now();
        assert!(g.advance(at(1, 0), 1, now));
        assert!(!g.advance(at(1, 0), 1, now), "a second step from move 0");
        assert!(g.advance(at(1, 1), 2, now));
        assert_eq!(g.latest(GameId([1; 16]), now), Some(2));
        assert!(!g.advance(at(1, 0), 1, now));
        // Another game is apart; a state newer than the record is accepted.
        assert!(g.advance(at(2, 5), 6, now));
        assert_eq!(g.latest(GameId([2; 16]), now), Some(6));
        // A request whose bots played on records the move it ended at.
        assert!(g.advance(at(3, 0), 7, now));
        assert_eq!(g.latest(GameId([3; 16]), now), Some(7));
        assert!(!g.advance(at(3, 6), 7, now), "a state the bots played past");
        assert!(g.advance(at(3, 7), 8, now));
    }

    #[test]
    fn games_are_forgotten_after_the_expiry_and_memory_stays_bounded() {
        let expiry = Duration::from_secs(60);
        let g = MemoryGuard::new(expiry, 10);
        let t0 = Instant::now();
        assert!(g.advance(at(1, 3), 4, t0));
        assert_eq!(g.latest(GameId([1; 16]), t0 + expiry), None);
        assert!(
            g.advance(at(1, 0), 1, t0 + expiry),
            "an expired game starts over"
        );
        for i in 2..200u8 {
            assert!(g.advance(at(i, 0), 1, t0 + expiry));
            assert!(g.len() <= 10, "{} games held", g.len());
        }
        // The most recent games are still guarded; the others were forgotten young, and counted.
        assert!(!g.advance(at(199, 0), 1, t0 + expiry));
        assert!(!g.advance(at(198, 0), 1, t0 + expiry));
        assert!(g.forgotten() >= 180, "{} forgotten", g.forgotten());
    }
}
