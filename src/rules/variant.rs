//! A resolved, playable ruleset.

use std::fmt;
use std::sync::Arc;

use crate::engine::hooks::Hooks;
use crate::ruleset::{Ruleset, RulesetRef, StockEnd, Target};

use super::content_hash::ContentHash;
use super::error::ResolveError;
use super::info::{HookInfo, OptionInfo, RefusedOption, RefusedTarget, RulesetInfo};
use super::script::HookPoint;

/// A resolved, playable ruleset: the rules, the hooks, and what a game state carries.
pub struct Variant {
    /// What a game state carries to resolve this variant again.
    pub reference: RulesetRef,
    pub ruleset: Arc<Ruleset>,
    /// [`NoHooks`](crate::engine::hooks::NoHooks) when the ruleset binds none.
    pub hooks: Arc<dyn Hooks>,
    /// Options the ruleset offers (whether or not in force).
    pub allowed_options: Vec<OptionInfo>,
    /// Options in force, in the order applied.
    pub options: Vec<OptionInfo>,
    /// Options the ruleset refuses, with the reason.
    pub refused_options: Vec<RefusedOption>,
    /// Targets the options in force refuse.
    pub refused_targets: Vec<RefusedTarget>,
    /// Hook points in force.
    pub hook_points: Vec<HookInfo>,
    /// The file the ruleset was read from.
    pub file: String,
    /// For an authored ruleset, the hash of its YAML and scripts (games from different
    /// authored rulesets with the same id are told apart by it).
    pub content_hash: Option<ContentHash>,
    /// Offered options that set the end of the stock, and to what (for the rules table).
    pub(super) option_stock_ends: Vec<(String, StockEnd)>,
    /// Offered options that replace hook points or fields the ruleset's own file sets, by its
    /// leave (`replaces`), and what (for the rules table).
    pub(super) option_replaces: Vec<(String, Vec<String>)>,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("reference", &self.reference)
            .field("ruleset", &self.ruleset)
            .field("hook_points", &self.hook_points)
            .finish_non_exhaustive()
    }
}

impl Variant {
    /// Checks a requested match target: refused by an option in force (`IncompatibleOptions`,
    /// e.g. Hollywood with a one-hand match) or not among the ruleset's targets.
    pub fn check_target(&self, target: Target) -> Result<(), ResolveError> {
        if let Some(r) = self.refused_targets.iter().find(|r| r.target == target) {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: self.ruleset.id.clone(),
                options: vec![r.option.clone()],
                reason: r.reason.clone(),
            });
        }
        if self.ruleset.match_rules.targets.contains(&target) {
            Ok(())
        } else {
            Err(ResolveError::TargetNotAllowed {
                ruleset: self.ruleset.name.clone(),
                target,
                allowed: self.ruleset.match_rules.targets.clone(),
            })
        }
    }

    /// The listing entry of this variant.
    pub fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: self.ruleset.id.clone(),
            name: self.ruleset.name.clone(),
            summary: self.ruleset.summary.clone(),
            seats: self.ruleset.seats,
            options: self.allowed_options.clone(),
            targets: self.ruleset.match_rules.targets.clone(),
            default_target: self.ruleset.match_rules.default_target,
        }
    }

    /// The hook bound to `point`, if any.
    pub fn hook(&self, point: HookPoint) -> Option<&HookInfo> {
        self.hook_points.iter().find(|h| h.point == point.name())
    }
}
