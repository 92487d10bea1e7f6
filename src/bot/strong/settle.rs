//! What a hand that goes out scores against the defender, by the ruleset's bonuses and ties.

use crate::ruleset::{Ruleset, Tie};

/// Whether the defender lays off against a hand that goes out with `deadwood`.
pub fn lays_off(rules: &Ruleset, deadwood: u32) -> bool {
    rules.lay_offs && (deadwood > 0 || rules.lay_off_after_gin)
}

/// What the player going out with `k` deadwood scores against a defender left with `after`
/// (negative when the defender undercuts), and whether it is an undercut.
pub fn settle(rules: &Ruleset, k: u32, after: u32) -> (f64, bool) {
    if k == 0 {
        (f64::from(after + rules.gin_bonus), false)
    } else if after < k || (after == k && rules.tie == Tie::Undercut) {
        (-f64::from(k - after + rules.undercut_bonus), true)
    } else if after > k || rules.tie == Tie::Knocker {
        (f64::from(after - k), false)
    } else {
        (0.0, false)
    }
}
