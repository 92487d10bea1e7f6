//! The engine threads: a fixed set of threads, started on first use, that run the engine work of
//! requests one job at a time each, at a lower priority than the workers.
//!
//! A fixed set, not a pool that grows on demand: actix's `web::block` hands work to each worker's
//! blocking pool, which starts a new thread whenever a job arrives while its threads are between
//! jobs, keeps every thread it started while work keeps coming, and lets each hold its own stack
//! and allocator caches; under steady load the server's threads and resident memory grew
//! without bound (6 to 54 threads, 13 to 62 MB in a minute at saturation).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::oneshot;

/// The stack of an engine thread (what tokio gives its blocking threads).
const STACK_BYTES: usize = 2 * 1024 * 1024;

/// The niceness of engine threads: when the CPUs are busy with engine work, the workers that
/// answer `/healthz` and read requests (niceness 0) still get them at once.
pub const ENGINE_NICENESS: i32 = 10;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A fixed number of engine threads, started when the first job comes; they end when the pool
/// is dropped.
#[derive(Debug)]
pub struct EnginePool {
    threads: usize,
    jobs: OnceLock<Result<Mutex<Sender<Job>>, String>>,
}

/// Why a job gave no result.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("the engine threads could not be started: {0}")]
    NotStarted(String),
    #[error("the engine work panicked")]
    Panicked,
}

impl EnginePool {
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            threads: threads.max(1),
            jobs: OnceLock::new(),
        }
    }

    /// Runs `work` on one of the engine threads (after the jobs sent before it) and waits for
    /// its result without blocking the caller's thread.
    pub async fn run<T, F>(&self, work: F) -> Result<T, PoolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            // A panic drops `tx` (and whatever `work` holds), so the caller learns of it.
            if let Ok(result) = catch_unwind(AssertUnwindSafe(work)) {
                let _ = tx.send(result);
            }
        });
        let jobs = self
            .jobs
            .get_or_init(|| start(self.threads).map(Mutex::new))
            .as_ref()
            .map_err(|e| PoolError::NotStarted(e.clone()))?;
        jobs.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .send(job)
            .map_err(|_| PoolError::NotStarted("the engine threads have ended".into()))?;
        rx.await.map_err(|_| PoolError::Panicked)
    }
}

/// Starts `n` engine threads taking jobs from one queue.
fn start(n: usize) -> Result<Sender<Job>, String> {
    let (tx, rx) = channel::<Job>();
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..n {
        let rx = Arc::clone(&rx);
        std::thread::Builder::new()
            .name(format!("gin-engine-{i}"))
            .stack_size(STACK_BYTES)
            .spawn(move || serve(&rx))
            .map_err(|e| e.to_string())?;
    }
    Ok(tx)
}

/// An engine thread: takes jobs until the pool is dropped.
fn serve(jobs: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let next = jobs
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .recv();
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Lowers the priority of the calling thread to [`ENGINE_NICENESS`].
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority and gettid take plain integers and touch no memory of ours;
        // on Linux, PRIO_PROCESS with a thread id sets that thread's niceness alone.
        let r = unsafe {
            libc::setpriority(
                libc::PRIO_PROCESS,
                libc::gettid() as libc::id_t,
                ENGINE_NICENESS,
            )
        };
        if r != 0 {
            tracing::debug!("engine thread niceness unchanged");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        actix_web::rt::System::new().block_on(f)
    }

    #[test]
    fn runs_jobs_on_its_own_threads_and_survives_a_panic() {
        let pool = EnginePool::new(2);
        let name = block_on(pool.run(|| std::thread::current().name().map(str::to_string)));
        assert!(
            name.as_ref()
                .is_ok_and(|n| n.as_deref().is_some_and(|n| n.starts_with("gin-engine-"))),
            "{name:?}"
        );
        let panicked = block_on(pool.run(|| -> u32 { panic!("a job that panics") }));
        assert!(matches!(panicked, Err(PoolError::Panicked)), "{panicked:?}");
        let mut names = std::collections::BTreeSet::new();
        for _ in 0..50 {
            if let Ok(Some(n)) =
                block_on(pool.run(|| std::thread::current().name().map(str::to_string)))
            {
                names.insert(n);
            }
        }
        assert!(names.len() <= 2, "more threads than asked for: {names:?}");
        assert_eq!(block_on(pool.run(|| 6 * 7)).ok(), Some(42));
    }
}
