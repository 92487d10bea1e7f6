//! gin-rules: a Gin Rummy engine in which the rules are data.

pub mod allocation;
pub mod analysis;
pub mod api;
pub mod bot;
pub mod cards;
pub mod cli;
pub mod engine;
pub mod level;
pub mod melds;
pub mod role;
pub mod rules;
pub mod ruleset;
pub mod sample;
pub mod seat;
pub mod whole_number;
