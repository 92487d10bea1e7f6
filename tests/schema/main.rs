//! The OpenAPI document's examples against its own schemas, in a test binary apart from `it`.
//!
//! The schema validator (jsonschema) and the crates only it needs are built unoptimised in the test
//! profile (`Cargo.toml`). An unoptimised crate lends its copies of generic code (`Vec`, `HashMap`,
//! sorting) to every crate of the binary it is linked into; inside `it`, that made the engine tests
//! up to five times slower.

#[path = "../it/api_support.rs"]
mod api_support;
mod examples;
