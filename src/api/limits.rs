//! The limits of the server against costly or slow requests, and their defaults: the server's
//! options, the gate and the documents read them from here.

use std::time::Duration;

use crate::rules::script::Budget;

/// The limits of the server against costly or slow requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Requests doing engine work at once (each on a thread of its own).
    pub engine_threads: usize,
    /// How long a request waits for one of them before `503 server-busy`.
    pub engine_wait: Duration,
    /// What the hooks of one request may spend together.
    pub script_budget: Budget,
    /// How long a request body may take to arrive, from the end of its headers.
    pub body_timeout: Duration,
}

/// How long a request waits for an engine thread unless the server says otherwise.
pub const DEFAULT_ENGINE_WAIT: Duration = Duration::from_secs(2);

/// How long a client may take to send a request's headers unless the server says otherwise.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a request body may take to arrive unless the server says otherwise.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            engine_threads: std::thread::available_parallelism().map_or(2, usize::from),
            engine_wait: DEFAULT_ENGINE_WAIT,
            script_budget: Budget::default(),
            body_timeout: DEFAULT_BODY_TIMEOUT,
        }
    }
}

/// Room a state must leave under the body limit: the action of a step, and what a state gains in
/// a match (knock melds, bonuses, longer numbers), sealed.
pub const STATE_ROOM: usize = 8 * 1024;
