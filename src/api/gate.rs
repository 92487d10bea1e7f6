//! What keeps one request from holding up the others: engine work that may be costly (authored
//! rulesets, hooks, strong bots, long logs) runs on a fixed set of engine threads behind as many
//! permits, never on the async workers that answer `/healthz`; only work cheap by construction
//! (see [`super::cost`]) runs where the request was read. The hooks of a request share one
//! budget.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::rules::script::{Budget, budget_spent, with_budget};

use super::ApiError;
pub use super::limits::{Limits, STATE_ROOM};
use super::metrics::EngineMetrics;
use super::pool::{EnginePool, PoolError};

/// The permits of engine work, shared by every worker.
#[derive(Clone, Debug)]
pub struct Gate {
    permits: Arc<Semaphore>,
    pool: Arc<EnginePool>,
    limits: Limits,
    metrics: EngineMetrics,
}

impl Gate {
    pub fn new(limits: Limits) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(limits.engine_threads)),
            pool: Arc::new(EnginePool::new(limits.engine_threads)),
            limits,
            metrics: EngineMetrics::default(),
        }
    }

    /// The same gate, reporting its waits, refusals and spent script budgets to `metrics`.
    pub fn observed_by(mut self, metrics: &EngineMetrics) -> Gate {
        self.metrics = metrics.clone();
        self
    }

    /// Engine permits taken now.
    pub fn busy(&self) -> usize {
        self.limits
            .engine_threads
            .saturating_sub(self.permits.available_permits())
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A permit of engine work: `503 server-busy` when none frees up within the wait.
    pub async fn acquire(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        let busy = || {
            ApiError::ServerBusy(format!(
                "the server is busy: all {} engine threads stayed taken for {} ms; try again \
                 shortly",
                self.limits.engine_threads,
                self.limits.engine_wait.as_millis()
            ))
        };
        let waiting = self.metrics.waiting();
        let permit = actix_web::rt::time::timeout(
            self.limits.engine_wait,
            self.permits.clone().acquire_owned(),
        )
        .await;
        drop(waiting);
        match permit {
            Ok(Ok(permit)) => Ok(permit),
            _ => {
                self.metrics.refused_busy();
                Err(busy())
            }
        }
    }

    /// Runs `work` on an engine thread once a permit is free, with one script budget for every
    /// hook it calls. The permit goes with the work: a request dropped while waiting for its
    /// answer frees it only when the work is done.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let permit = self.acquire().await?;
        let budget = self.limits.script_budget;
        let metrics = self.metrics.clone();
        self.pool
            .run(move || {
                let _permit = permit;
                budgeted(budget, &metrics, work)
            })
            .await
            .map_err(|e| failed(&e))?
    }

    /// Runs `work` on the calling thread (the worker that read the request), without a permit:
    /// for work that [`super::cost`] judged cheaper than the way to an engine thread and back.
    /// Such work runs no hook and no `strong` bot, so nothing in it would spend a script budget:
    /// it runs without one, as setting one reads the thread's CPU clock (a system call, about
    /// 1 µs, a tenth of such a request's engine work).
    pub fn run_here<T>(&self, work: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
        catch_unwind(AssertUnwindSafe(work)).map_err(|_| failed(&PoolError::Panicked))?
    }
}

/// Runs `work` with one script budget for every hook it calls, counting a budget it spends.
fn budgeted<T>(
    budget: Budget,
    metrics: &EngineMetrics,
    work: impl FnOnce() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    with_budget(budget, || {
        let done = work();
        if matches!(done, Err(ApiError::ScriptError(_))) && budget_spent() {
            metrics.budget_spent();
        }
        done
    })
}

/// The answer to engine work that gave no result.
fn failed(e: &PoolError) -> ApiError {
    tracing::error!(error = %e, "engine work failed");
    ApiError::Internal("the engine work of this request failed".into())
}
