//! The CPU time and operations a hook call may spend: its own limits, or, inside [`with_budget`],
//! one budget that every hook a request runs shares. The state is per thread.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use rhai::Dynamic;

use super::super::cpu_clock;
use super::limits::{MAX_CALL_TIME, MAX_OPERATIONS, MAX_PRINT_LINES};

/// One budget shared by every hook call of a request (or of anything run inside
/// [`with_budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// CPU time of the thread that all the calls together may use.
    pub time: Duration,
    /// Operations all the calls together may run (each call also stops at [`MAX_OPERATIONS`]).
    pub operations: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            time: Duration::from_millis(40),
            operations: 400_000,
        }
    }
}

/// What is left of the budget on this thread.
#[derive(Clone, Copy, Debug)]
struct Spending {
    budget: Budget,
    /// The thread's CPU time ([`cpu_clock`]) at which the budget is spent.
    deadline: Duration,
    operations_left: u64,
}

/// Why [`progress`] stopped a call.
const OUT_OF_TIME: &str = "out of time";
pub(super) const OUT_OF_OPERATIONS: &str = "out of operations";

thread_local! {
    /// The budget of the calls on this thread; `None`: each call has its own limits.
    static SPENDING: Cell<Option<Spending>> = const { Cell::new(None) };
    /// The running call's deadline and the operations it may run. A deadline of `None` is set
    /// at the call's first time check, [`MAX_CALL_TIME`] ahead: a call of fewer operations than
    /// a check's interval never reads the clock (a system call).
    static CALL_LIMIT: Cell<Option<(Option<Duration>, u64)>> = const { Cell::new(None) };
    /// Operations the running call has run so far.
    static CALL_OPERATIONS: Cell<u64> = const { Cell::new(0) };
    static PRINT_LINES_LEFT: Cell<u32> = const { Cell::new(MAX_PRINT_LINES) };
}

/// Runs `run` with one budget for every hook it calls on this thread: the calls share `budget`'s
/// time and operations (and [`MAX_PRINT_LINES`]), instead of each having its own limit. What a
/// request does runs inside one.
pub fn with_budget<R>(budget: Budget, run: impl FnOnce() -> R) -> R {
    struct Restore(Option<Spending>, u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            SPENDING.with(|s| s.set(self.0));
            PRINT_LINES_LEFT.with(|p| p.set(self.1));
        }
    }
    let before = SPENDING.with(|s| {
        s.replace(Some(Spending {
            budget,
            deadline: cpu_clock::now() + budget.time,
            operations_left: budget.operations,
        }))
    });
    let _restore = Restore(
        before,
        PRINT_LINES_LEFT.with(|p| p.replace(MAX_PRINT_LINES)),
    );
    run()
}

/// Whether the budget of the calls on this thread (inside [`with_budget`]) is spent: no
/// operations or time left. `false` outside [`with_budget`].
pub fn budget_spent() -> bool {
    SPENDING
        .with(Cell::get)
        .is_some_and(|s| s.operations_left == 0 || cpu_clock::now() > s.deadline)
}

/// The budget of this thread and the CPU time left to it; `None` outside [`with_budget`]. What
/// else a request spends (its bots) counts against it this way.
pub fn time_left() -> Option<(Duration, Budget)> {
    SPENDING.with(Cell::get).map(|s| {
        let left = s.deadline.saturating_sub(cpu_clock::now());
        (left, s.budget)
    })
}

/// Runs `run` off this thread's budget: the CPU time it takes moves the budget's deadline as far.
/// Loading an authored ruleset (compiling its scripts) is not what its hooks spend.
pub fn unmetered<R>(run: impl FnOnce() -> R) -> R {
    let start = cpu_clock::now();
    let result = run();
    let took = cpu_clock::now().saturating_sub(start);
    SPENDING.with(|c| {
        if let Some(mut s) = c.get() {
            s.deadline += took;
            c.set(Some(s));
        }
    });
    result
}

/// The engine's progress callback: counts the running call's operations and stops it, with the
/// reason, when it runs over its operations or its time.
pub(super) fn progress(ops: u64) -> Option<Dynamic> {
    CALL_OPERATIONS.with(|c| c.set(ops));
    let (deadline, allowed) = CALL_LIMIT.with(Cell::get)?;
    if ops > allowed {
        return Some(Dynamic::from(OUT_OF_OPERATIONS));
    }
    if ops.is_multiple_of(64) {
        let now = cpu_clock::now();
        match deadline {
            Some(deadline) if now > deadline => return Some(Dynamic::from(OUT_OF_TIME)),
            Some(_) => {}
            None => CALL_LIMIT.with(|c| c.set(Some((Some(now + MAX_CALL_TIME), allowed)))),
        }
    }
    None
}

/// Takes one of the `print` lines left to this call or budget; how many were left before.
pub(super) fn take_print_line() -> u32 {
    PRINT_LINES_LEFT.with(|p| {
        let left = p.get();
        p.set(left.saturating_sub(1));
        left
    })
}

/// What a metered call gives: what `run` returned (or its panic), and the budget it ran under
/// (`None`: its own limits).
pub(super) type Metered<T> = (std::thread::Result<T>, Option<Budget>);

/// Runs one hook call within the limits of this thread, catching a panic, and charges its
/// operations to the budget. The spent budget when there is nothing left to run it with.
pub(super) fn metered<T>(run: impl FnOnce() -> T) -> Result<Metered<T>, Budget> {
    let spending = SPENDING.with(Cell::get);
    let (deadline, allowed) = match spending {
        Some(s) => {
            if s.operations_left == 0 || cpu_clock::now() > s.deadline {
                return Err(s.budget);
            }
            (Some(s.deadline), s.operations_left)
        }
        None => {
            PRINT_LINES_LEFT.with(|p| p.set(MAX_PRINT_LINES));
            (None, MAX_OPERATIONS)
        }
    };
    let limited = || {
        CALL_LIMIT.with(|c| c.set(Some((deadline, allowed))));
        CALL_OPERATIONS.with(|c| c.set(0));
        let r = run();
        CALL_LIMIT.with(|c| c.set(None));
        r
    };
    let outcome = catch_unwind(AssertUnwindSafe(limited));
    CALL_LIMIT.with(|c| c.set(None));
    if let Some(mut s) = spending {
        let used = CALL_OPERATIONS.with(Cell::get);
        s.operations_left = s.operations_left.saturating_sub(used);
        SPENDING.with(|c| c.set(Some(s)));
    }
    Ok((outcome, spending.map(|s| s.budget)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn burn(d: Duration) {
        let start = cpu_clock::now();
        let mut x = 0u64;
        while cpu_clock::now() - start < d {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    #[test]
    fn unmetered_work_leaves_the_budget_as_it_was() {
        let budget = Budget {
            time: Duration::from_millis(30),
            operations: 1,
        };
        with_budget(budget, || {
            unmetered(|| burn(Duration::from_millis(40)));
            let (left, _) = time_left().unwrap();
            assert!(left > Duration::from_millis(20), "{left:?} left");
            burn(Duration::from_millis(35));
            assert_eq!(time_left().map(|(left, _)| left), Some(Duration::ZERO));
        });
        assert!(time_left().is_none());
    }
}
