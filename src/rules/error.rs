//! The two errors of rulesets: a problem at its place in a file ([`RulesetError`]), and why a
//! reference does not resolve to a playable variant ([`ResolveError`]).

use std::fmt;

use serde::Serialize;

use crate::ruleset::Target;

use super::echo::shown;
use super::spec::Loc;
use super::suggest::did_you_mean;

/// One problem with a ruleset, at its place: `path:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RulesetError {
    /// The file: the YAML file, or the script the problem is in.
    pub path: String,
    /// 1-based; `None` when the problem has no single place.
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The YAML key the problem concerns (`melds.set_min`), when there is one.
    pub field: Option<String>,
    pub kind: ErrorKind,
    pub message: String,
}

/// What kind of problem a ruleset has, so that a program can act on it without reading the
/// message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
#[schema(example = "out-of-range")]
pub enum ErrorKind {
    /// The text is not YAML, or a value is not of its field's type.
    Syntax,
    /// A key the ruleset format does not have.
    UnknownField,
    /// A required key is missing.
    MissingField,
    /// A value its field does not allow: an unknown word, a malformed id or target, an empty name.
    InvalidValue,
    /// A number outside its field's range.
    OutOfRange,
    /// Values that contradict each other.
    Conflict,
    /// An id or a target given twice.
    Duplicate,
    /// A ruleset or option named that does not exist (`extends`, `conflicts_with`).
    UnknownReference,
    /// An option asked for that the ruleset does not offer.
    UnknownOption,
    /// A hook binding or its script: a missing or invalid script, a missing or unbound function.
    Script,
    /// More than a ruleset may have: bytes, nesting, options, hooks, scripts, characters.
    Limit,
    /// A file that cannot be read.
    Unreadable,
    /// The ruleset loads but fails when games are played with it (`gin-rules check`).
    Play,
}

impl RulesetError {
    /// The same error, about the YAML key `field`.
    pub(crate) fn on(mut self, field: impl Into<String>) -> RulesetError {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RulesetError {}

/// Why a ruleset reference does not resolve to a playable variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No ruleset with that id (API `unknown-ruleset`).
    #[error("there is no ruleset `{}`", shown(.0))]
    UnknownRuleset(String),
    /// The ruleset does not offer that option (API `unknown-option`).
    #[error(
        "{ruleset} has no option `{}`{}",
        shown(option),
        option_hint(option, known)
    )]
    UnknownOption {
        ruleset: String,
        option: String,
        /// The options it offers.
        known: Vec<String>,
    },
    /// Options that exclude each other, or that the ruleset refuses (API `incompatible-options`);
    /// `reason` is the sentence a player reads.
    #[error("{reason}")]
    IncompatibleOptions {
        ruleset: String,
        options: Vec<String>,
        reason: String,
    },
    /// A target the ruleset does not play to (API: `invalid-target`, 422).
    #[error(
        "{ruleset} is not played to {target}; choose {}",
        list_targets(allowed)
    )]
    TargetNotAllowed {
        ruleset: String,
        target: Target,
        allowed: Vec<Target>,
    },
    /// The ruleset does not load (API `invalid-ruleset`, with every error).
    #[error("the ruleset does not load: {}", first_error(.0))]
    Invalid(Vec<RulesetError>),
}

fn option_hint(option: &str, known: &[String]) -> String {
    match did_you_mean(option, known.iter().map(String::as_str)) {
        Some(s) => format!("; did you mean `{s}`?"),
        None if known.is_empty() => " (it offers none)".into(),
        None => format!(" (options: {})", known.join(", ")),
    }
}

fn list_targets(targets: &[Target]) -> String {
    targets
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn first_error(errors: &[RulesetError]) -> String {
    match errors {
        [] => "no details".into(),
        [e] => e.to_string(),
        [e, rest @ ..] => format!("{e} (and {} more)", rest.len()),
    }
}

impl ResolveError {
    /// The stable problem code of the HTTP API.
    pub fn code(&self) -> &'static str {
        match self {
            ResolveError::UnknownRuleset(_) => "unknown-ruleset",
            ResolveError::UnknownOption { .. } => "unknown-option",
            ResolveError::IncompatibleOptions { .. } => "incompatible-options",
            ResolveError::TargetNotAllowed { .. } => "invalid-target",
            ResolveError::Invalid(_) => "invalid-ruleset",
        }
    }
}

/// An error at the place `loc` was written (or in `file` when it carries no file).
pub(crate) fn at<T>(
    loc: &Loc<T>,
    file: &str,
    kind: ErrorKind,
    message: impl Into<String>,
) -> RulesetError {
    RulesetError {
        path: loc.file.as_deref().unwrap_or(file).to_string(),
        line: nz(loc.line),
        column: nz(loc.column),
        field: None,
        kind,
        message: message.into(),
    }
}

/// An error in `file` with no single place.
pub(crate) fn in_file(file: &str, kind: ErrorKind, message: impl Into<String>) -> RulesetError {
    RulesetError {
        path: file.to_string(),
        line: None,
        column: None,
        field: None,
        kind,
        message: message.into(),
    }
}

/// A 1-based position, `None` for 0 (unknown).
pub(crate) fn nz(n: u32) -> Option<u32> {
    (n > 0).then_some(n)
}
