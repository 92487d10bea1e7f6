//! gin-rules: a Gin Rummy engine in which the rules are data.

pub mod cards;
pub mod engine;
pub mod hooks;
pub mod melds;
pub mod ruleset;
