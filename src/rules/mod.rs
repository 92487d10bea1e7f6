//! Rulesets as data: YAML files with optional Rhai hooks, resolved into the core
//! [`Ruleset`](crate::ruleset::Ruleset) the engine reads and a
//! [`Hooks`](crate::engine::hooks::Hooks) implementation ([`script`]).
//!
//! A [`Catalog`] holds the built-in rulesets (embedded in the binary) and any loaded from a
//! directory. [`Catalog::resolve`] turns a [`RulesetRef`] (an id and options, or an authored
//! ruleset sent with a request) into a playable [`Variant`]; it is cheap after the first call,
//! since resolved variants are cached. [`Catalog::check`] loads an authored ruleset and reports
//! every problem with its place.
//!
//! ```
//! use gin_rules::rules::Catalog;
//! use gin_rules::ruleset::RulesetRef;
//!
//! let catalog = Catalog::builtin();
//! let variant = catalog
//!     .resolve(&RulesetRef::new("standard", ["oklahoma"]))
//!     .unwrap();
//! assert_eq!(variant.ruleset.knock_limit, Some(10));
//! ```

mod authored;
mod base;
mod build;
mod builtin;
mod cache;
mod catalog;
mod content_hash;
mod cpu_clock;
mod describe;
mod echo;
mod error;
mod fields;
mod files;
mod info;
pub mod limits;
mod parse;
mod resolve;
mod sample_check;
pub mod script;
mod source;
pub mod spec;
mod suggest;
mod variant;

pub use authored::AUTHORED_FILE;
pub use cache::{CacheUsage, DEFAULT_CACHE_BYTES};
pub use catalog::Catalog;
pub use content_hash::ContentHash;
pub use describe::{RulesRow, rules_table};
pub use error::{ErrorKind, ResolveError, RulesetError};
pub use info::{HookInfo, OptionInfo, RefusedOption, RefusedTarget, RulesetInfo};
pub use limits::MAX_YAML_BYTES;
pub use sample_check::CHECK_BUDGET;
pub use script::{HookPoint, ScriptHooks};
pub use spec::schema_json;
pub use suggest::did_you_mean;
pub use variant::Variant;
