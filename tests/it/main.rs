//! All integration tests in one binary (one link instead of one per file), a module per topic.

/// As the binary counts allocations, so do the tests (the authored-ruleset cache measures what
/// its entries hold with it).
#[global_allocator]
static ALLOCATOR: gin_rules::allocation::Counting<std::alloc::System> =
    gin_rules::allocation::Counting(std::alloc::System);

mod api_support;
mod common;
mod processes;
mod variants;

mod analyze_cli;
mod api;
mod architecture;
mod authored;
mod balancer;
mod bots;
mod bots_http;
mod bounds;
mod check_cli;
mod cluster;
mod docs;
mod engine;
mod engine_props;
mod engine_step;
mod examples;
mod forms;
mod fuzz_rules;
mod fuzz_states;
mod gate;
mod metrics;
mod ops;
mod play_page;
mod readme;
mod rules;
mod rules_engine;
mod score_hook;
mod seats;
mod snapshots;
mod solver;
mod solver_wild;
mod state_checks;
mod suggest;
mod tables;
