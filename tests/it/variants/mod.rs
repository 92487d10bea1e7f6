//! Built-in variants by name, for the tests that play or describe them.
#![allow(dead_code)]

use std::sync::Arc;

use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::RulesetRef;

pub fn reference(id: &str, options: &[&str]) -> RulesetRef {
    RulesetRef::new(id, options.iter().copied())
}

/// A built-in ruleset with options, which must resolve.
pub fn variant(id: &str, options: &[&str]) -> Arc<Variant> {
    Catalog::builtin().resolve(&reference(id, options)).unwrap()
}

/// Every subset of `options`, each in the order the ruleset offers them.
pub fn option_subsets(options: &[String]) -> Vec<Vec<String>> {
    (0u32..(1 << options.len()))
        .map(|mask| {
            options
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, o)| o.clone())
                .collect()
        })
        .collect()
}
