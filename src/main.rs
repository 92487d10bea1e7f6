use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use gin_rules::allocation::Counting;
use gin_rules::cli;

/// The system allocator, counted per thread: the authored-ruleset cache measures what its entries
/// hold with it.
#[global_allocator]
static ALLOCATOR: Counting<std::alloc::System> = Counting(std::alloc::System);

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
    Serve(cli::serve::ServeArgs),
    /// Print the OpenAPI document of the HTTP API.
    Openapi,
    /// Check a ruleset file and the scripts beside it: its summary, or every error.
    Check(cli::check::CheckArgs),
    /// Print the rules table of a ruleset (an id or a file), with options; or list the rulesets.
    Rules(cli::rules::RulesArgs),
    /// Print the JSON Schema of ruleset files (rulesets/schema.json).
    Schema,
    /// Read hands of 10 or 11 cards, one per line, and print their least deadwood and best discards.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Print a generated document of docs/: the rules of the built-in rulesets, or the hook contexts.
    Docs(cli::docs::DocsArgs),
    /// Print a shell completion script (e.g. `gin-rules completions bash > ~/.local/share/bash-completion/completions/gin-rules`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Play(args)) => cli::play::run(&args),
        Some(Command::Serve(args)) => cli::serve::run(&args),
        Some(Command::Openapi) => cli::serve::print_openapi(),
        Some(Command::Check(args)) => cli::check::run(&args),
        Some(Command::Rules(args)) => cli::rules::run(&args),
        Some(Command::Schema) => cli::rules::print_schema(),
        Some(Command::Analyze(args)) => cli::analyze::command(&args),
        Some(Command::Docs(args)) => cli::docs::run(&args),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "gin-rules",
                &mut std::io::stdout(),
            );
            Ok(ExitCode::SUCCESS)
        }
        None => cli::serve::run(&cli::serve::ServeArgs::defaults()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gin-rules: {e:#}");
            ExitCode::FAILURE
        }
    }
}
