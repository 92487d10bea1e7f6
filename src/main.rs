use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use gin_rules::cli;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Play(args)) => cli::play::run(&args),
        None => Cli::command()
            .print_help()
            .map(|_| ExitCode::SUCCESS)
            .map_err(Into::into),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gin-rules: {e:#}");
            ExitCode::FAILURE
        }
    }
}
