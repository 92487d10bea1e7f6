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
