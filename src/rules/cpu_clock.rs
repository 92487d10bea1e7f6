//! The CPU time the calling thread has used. A script's time limit counts this rather than the
//! wall clock, so a busy machine, which keeps a thread waiting without its running any script,
//! cannot make a legitimate hook run out of time, while a costly script still stops in time.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// CPU time used by the calling thread so far (the wall clock where the system has no such clock).
pub fn now() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec into `t`, which is valid and ours alone.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        if r == 0
            && let (Ok(s), Ok(n)) = (u64::try_from(t.tv_sec), u32::try_from(t.tv_nsec))
        {
            return Duration::new(s, n);
        }
    }
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::now;
    use std::time::Duration;

    #[test]
    fn counts_work_and_not_waiting() {
        let before = now();
        std::thread::sleep(Duration::from_millis(60));
        let slept = now() - before;
        let mut x = 0u64;
        let start = now();
        while now() - start < Duration::from_millis(5) {
            x = x.wrapping_add(1);
        }
        assert!(x > 0);
        assert!(
            slept < Duration::from_millis(30),
            "sleeping counted {slept:?}"
        );
    }
}
