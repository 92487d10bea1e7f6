use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gin_rules::{api, cli};

/// gin-rules: Gin Rummy and its variants, with the rules as data.
#[derive(Parser)]
#[command(name = "gin-rules", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate hands or matches with the built-in bot on every seat.
    Play(cli::play::PlayArgs),
    /// Serve the HTTP API (the default when no command is given).
    Serve(api::server::ServeArgs),
    /// Print the OpenAPI document of the HTTP API.
    Openapi,
    /// Check a ruleset file and the scripts beside it: its summary, or every error.
    Check(cli::check::CheckArgs),
    /// Print the rules table of a ruleset (an id or a file), with options.
    Rules(cli::rules::RulesArgs),
    /// Print the JSON Schema of ruleset files (rulesets/schema.json).
    Schema,
    /// Read hands of 10 or 11 cards, one per line, and print their least deadwood and best discards.
    Analyze {
        /// One JSON object per hand, as POST /v1/hands/analyze answers.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Play(args)) => cli::play::run(&args),
        Some(Command::Serve(args)) => api::server::run(&args),
        Some(Command::Openapi) => api::server::print_openapi(),
        Some(Command::Check(args)) => cli::check::run(&args),
        Some(Command::Rules(args)) => cli::rules::run(&args),
        Some(Command::Schema) => cli::rules::print_schema(),
        Some(Command::Analyze { json }) => cli::analyze::command(json),
        None => api::server::run(&api::server::ServeArgs::default()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gin-rules: {e:#}");
            ExitCode::FAILURE
        }
    }
}
