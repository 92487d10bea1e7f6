//! What a piece of work leaves allocated: [`Counting`], a global allocator wrapper that keeps,
//! per thread, the bytes allocated less the bytes freed, and [`retained`], which reads it around
//! the work. The binary installs it (`#[global_allocator]`); where it is not installed,
//! [`retained`] says it cannot tell.
//!
//! The authored-ruleset cache counts what its entries hold this way: a compiled Rhai script holds
//! from a few times its text to some seventy times, which no estimate from the text bounds well.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

thread_local! {
    /// Bytes allocated less bytes freed on this thread since it started (wrapping).
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// Counts, per thread, the bytes `A` allocates and frees. The cost is one thread-local add per
/// call.
pub struct Counting<A>(pub A);

fn add(bytes: isize) {
    // `try_with`: a thread being torn down has no counter left, and nothing to count.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
}

fn size(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// SAFETY: every call goes to `A` unchanged; the wrapper only counts, and counting allocates
// nothing (a const-initialised thread-local `Cell` of an integer, which needs no destructor).
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `A`'s.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            add(size(layout));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `A`'s.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            add(size(layout));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is `A`'s.
        unsafe { self.0.dealloc(ptr, layout) };
        add(-size(layout));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is `A`'s.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(isize::try_from(new_size).unwrap_or(isize::MAX) - size(layout));
        }
        p
    }
}

fn net() -> isize {
    NET.with(Cell::get)
}

/// Whether [`Counting`] is the global allocator: a probe allocation moves the counter.
fn counting() -> bool {
    let before = net();
    let probe = std::hint::black_box(Box::new([0u8; 64]));
    let moved = net().wrapping_sub(before) >= 64;
    drop(probe);
    moved
}

/// Runs `work` and tells the bytes it left allocated on this thread (what it allocated and did
/// not free: what its result holds, unless it freed memory allocated before it or kept some
/// elsewhere); `None` when [`Counting`] is not the global allocator.
pub fn retained<R>(work: impl FnOnce() -> R) -> (R, Option<usize>) {
    if !counting() {
        return (work(), None);
    }
    let before = net();
    let result = work();
    let held = net().wrapping_sub(before);
    (result, Some(usize::try_from(held).unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_allocator_it_cannot_tell() {
        // The unit tests run on the system allocator.
        let (v, held) = retained(|| vec![1u8; 1000]);
        assert_eq!((v.len(), held), (1000, None));
    }
}
