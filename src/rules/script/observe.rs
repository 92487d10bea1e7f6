//! Showing the contexts the engine builds to an observer: how `docs/hooks.md` and its test read
//! the contexts of real deals.

use std::cell::RefCell;

use rhai::Map;

use super::point::HookPoint;

type Observer = Box<dyn FnMut(HookPoint, &Map)>;

thread_local! {
    static OBSERVER: RefCell<Option<Observer>> = const { RefCell::new(None) };
}

/// Runs `run` with every hook context that [`ScriptHooks`](super::ScriptHooks) builds on this
/// thread shown to `observe` first, whether or not a script is bound to its point.
pub fn observe_contexts<R>(
    observe: impl FnMut(HookPoint, &Map) + 'static,
    run: impl FnOnce() -> R,
) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            OBSERVER.with(|o| o.replace(None));
        }
    }
    OBSERVER.with(|o| o.replace(Some(Box::new(observe))));
    let _reset = Reset;
    run()
}

/// Someone observes the contexts built on this thread.
pub(super) fn is_observed() -> bool {
    OBSERVER.with(|o| o.try_borrow().is_ok_and(|o| o.is_some()))
}

/// Shows `point`'s context to the observer, if any.
pub(super) fn show(point: HookPoint, ctx: &Map) {
    OBSERVER.with(|o| {
        if let Ok(mut o) = o.try_borrow_mut()
            && let Some(observe) = o.as_mut()
        {
            observe(point, ctx);
        }
    });
}

/// One step of a traced run ([`trace_hooks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookTrace {
    /// A sample game starts: which, in words.
    Game(String),
    /// A script is called with this context.
    Call { point: HookPoint, context: String },
    /// A script's `print` or `debug` line.
    Output(String),
    /// What the script returned (before the engine checks it), or how it failed.
    Returned {
        point: HookPoint,
        result: Result<String, String>,
    },
}

type Tracer = Box<dyn FnMut(HookTrace)>;

thread_local! {
    static TRACER: RefCell<Option<Tracer>> = const { RefCell::new(None) };
}

/// Runs `run` with every hook call on this thread, its context, its `print`/`debug` output and
/// its result shown to `trace` (`gin-rules check --trace`). Output is not cut to the lines a
/// budget allows.
pub fn trace_hooks<R>(trace: impl FnMut(HookTrace) + 'static, run: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            TRACER.with(|t| t.replace(None));
        }
    }
    TRACER.with(|t| t.replace(Some(Box::new(trace))));
    let _reset = Reset;
    run()
}

/// Someone traces the hook calls on this thread.
pub(crate) fn is_traced() -> bool {
    TRACER.with(|t| t.try_borrow().is_ok_and(|t| t.is_some()))
}

/// Shows `step` to the tracer, if any.
pub(crate) fn trace(step: impl FnOnce() -> HookTrace) {
    TRACER.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut()
            && let Some(tracer) = t.as_mut()
        {
            tracer(step());
        }
    });
}
