//! What the API and the CLI tell about a ruleset: its listing, its options and its hooks.

use serde::Serialize;

use crate::ruleset::Target;

/// An option a ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OptionInfo {
    /// The option's id, as `options` names it.
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// What it changes.
    pub summary: String,
    /// Options it cannot be combined with.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts_with: Vec<String>,
}

/// An option the ruleset knows but refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RefusedOption {
    pub id: String,
    pub reason: String,
}

/// A target an option in force refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RefusedTarget {
    pub target: Target,
    pub option: String,
    pub reason: String,
}

/// A hook point in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HookInfo {
    /// The hook point: knock_limit, score_multiplier, match_layout, seating, record_result or next_dealer.
    pub point: String,
    /// The script file whose function of that name runs.
    pub script: String,
    /// The rule in words, as the YAML gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The ruleset or option that binds it.
    pub from: String,
}

/// A ruleset as `GET /v1/rulesets` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RulesetInfo {
    /// The ruleset's id, for `POST /v1/games`.
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// One sentence on what sets it apart.
    pub summary: String,
    /// How many players.
    pub seats: u8,
    /// The options it offers.
    pub options: Vec<OptionInfo>,
    /// The targets a match may be played to.
    pub targets: Vec<Target>,
    /// The target when a deal names none.
    pub default_target: Target,
}
