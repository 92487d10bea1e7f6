//! The limits of the sandbox: what one call, or one script, may use.

use std::time::Duration;

/// Most operations one hook call may run.
pub const MAX_OPERATIONS: u64 = 100_000;
/// Deepest call nesting (script functions calling each other).
pub const MAX_CALL_LEVELS: usize = 32;
/// Longest string a script may build.
pub const MAX_STRING: usize = 8_192;
/// Largest array a script may build.
pub const MAX_ARRAY: usize = 1_024;
/// Largest map a script may build.
pub const MAX_MAP: usize = 256;
/// CPU time one hook call may take outside a [`with_budget`](super::with_budget) (the command
/// line).
pub const MAX_CALL_TIME: Duration = Duration::from_millis(250);
/// The longest `print` or `debug` line logged; the rest is cut.
pub const MAX_PRINT_CHARS: usize = 200;
/// The most `print` and `debug` lines logged per call, or per budget.
pub const MAX_PRINT_LINES: u32 = 20;
/// Longest script source.
pub const MAX_SCRIPT_BYTES: usize = 64 * 1024;
