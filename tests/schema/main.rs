//! The OpenAPI document's examples against its own schemas, in a test binary apart from `it`.
//!
//! The schema validator (jsonschema) and the crates only it needs stay out of the `it` binary: a
//! binary of its own keeps their link and generic code apart from the engine tests.

#[path = "../it/api_support.rs"]
mod api_support;
mod examples;
