//! How a hand ended.

use serde::{Deserialize, Serialize};

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Gin,
    BigGin,
    Knock,
    Undercut,
    /// The hand ended but nobody scores (a tie under `tie: wash`, or a hook's decision).
    Wash,
    Dead,
}

impl Outcome {
    /// The word a script sees: `"gin"`, `"big_gin"`, `"knock"`, `"undercut"`, `"wash"`, `"dead"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Gin => "gin",
            Outcome::BigGin => "big_gin",
            Outcome::Knock => "knock",
            Outcome::Undercut => "undercut",
            Outcome::Wash => "wash",
            Outcome::Dead => "dead",
        }
    }
}
