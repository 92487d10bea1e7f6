//! Rhai hook scripts: the sandbox they run in, their limits, and the
//! [`Hooks`](crate::engine::hooks::Hooks) they implement.
//!
//! A script defines functions. Each public function must be a hook point ([`HookPoint`]) taking
//! one parameter, the context: a read-only object of a type registered with the sandbox
//! (`objects`), whose fields are properties (`ctx.dealer`, `ctx["default"]`) made into Rhai
//! values only when read; helpers are `private fn`. Nothing else may stand at the top of a script.
//! The YAML file binds each hook point to a script under `hooks:`.
//!
//! What each hook point's context holds, what it returns and what the engine checks is declared
//! once, in [`contexts::CONTEXTS`]; `docs/hooks.md` is generated from it
//! (`gin-rules docs hooks`), with the helpers every script may call.
//!
//! Each job has its file: `point` (the hook points), `limits`, `sandbox` (the engine and where
//! `print` goes) with `strings` (the string functions that check their size before they build),
//! `compile` (a script, compiled and checked once when its ruleset loads), `budget` (the time and
//! operations a call, or a request's calls together, may spend), `hooks` ([`ScriptHooks`], which
//! calls the scripts) with `decode` (reading their decisions) and `failure` (their failures in a
//! player's words), and `observe` (showing the contexts built to an observer).

mod budget;
mod compile;
pub mod contexts;
mod decode;
mod failure;
mod hooks;
mod limits;
mod objects;
mod observe;
mod point;
mod sandbox;
mod strings;

pub use budget::{Budget, budget_spent, time_left, unmetered, with_budget};
pub use compile::{Script, compile};
pub use hooks::{Binding, ScriptHooks};
pub use limits::{
    MAX_ARRAY, MAX_CALL_LEVELS, MAX_CALL_TIME, MAX_MAP, MAX_OPERATIONS, MAX_PRINT_CHARS,
    MAX_PRINT_LINES, MAX_SCRIPT_BYTES, MAX_STRING,
};
pub(crate) use observe::trace as trace_step;
pub use observe::{HookTrace, observe_contexts, trace_hooks};
pub use point::HookPoint;
