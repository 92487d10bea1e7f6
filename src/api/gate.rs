//! What keeps one request from holding up the others: engine work (rulesets, hooks, the meld
//! solver) runs on a fixed set of engine threads behind as many permits, never on the async
//! workers that answer `/healthz`; the hooks of a request share one budget.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::rules::script::with_budget;

use super::ApiError;
pub use super::limits::{Limits, STATE_ROOM};
use super::pool::EnginePool;

/// The permits of engine work, shared by every worker.
#[derive(Clone, Debug)]
pub struct Gate {
    permits: Arc<Semaphore>,
    pool: Arc<EnginePool>,
    limits: Limits,
}

impl Gate {
    pub fn new(limits: Limits) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(limits.engine_threads)),
            pool: Arc::new(EnginePool::new(limits.engine_threads)),
            limits,
        }
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
        match actix_web::rt::time::timeout(
            self.limits.engine_wait,
            self.permits.clone().acquire_owned(),
        )
        .await
        {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(busy()),
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
        self.pool
            .run(move || {
                let _permit = permit;
                with_budget(budget, work)
            })
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "engine work failed");
                ApiError::Internal("the engine work of this request failed".into())
            })?
    }
}
