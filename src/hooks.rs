//! The points where a variant's script may decide a rule. The engine calls them through this trait
//! and checks what they return; `rules::hooks` implements it with Rhai, `NoHooks` with the data alone.

use crate::cards::Card;
use crate::ruleset::Seat;

/// What a hook may read when a hand is dealt.
#[derive(Clone, Debug)]
pub struct DealInfo<'a> {
    /// The first upcard of the hand.
    pub upcard: Card,
    pub dealer: Seat,
    /// 0 for the first hand of the match.
    pub hand_number: u32,
    /// Match totals per seat before this hand.
    pub totals: &'a [i64],
    /// The ruleset's own knock limit (`None`: no knocking).
    pub knock_limit: Option<u8>,
}

/// A hook that failed, ran over its limits or returned something the engine refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hook {hook} failed: {message}")]
pub struct HookError {
    pub hook: String,
    pub message: String,
}

/// A variant's hooks. Every method has the default that the plain ruleset data gives.
pub trait Hooks: Send + Sync {
    /// The knock limit for this hand (`None`: only gin goes out).
    fn knock_limit(&self, deal: &DealInfo) -> Result<Option<u8>, HookError> {
        Ok(deal.knock_limit)
    }

    /// Every score of this hand is multiplied by this (at least 1).
    fn score_multiplier(&self, _deal: &DealInfo) -> Result<u32, HookError> {
        Ok(1)
    }
}

/// A ruleset with no hooks.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}
