//! `kubedv`: Kubernetes API validation on the command line.
//!
//! Exit status (DESIGN.md): 0 no errors, 1 validation errors, 2 bad usage or unreadable input
//! (message on stderr, nothing on stdout).

mod format_cmd;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use output::OutputFormat;

#[derive(Parser)]
#[command(name = "kubedv", version, about = "Kubernetes API validation that runs anywhere")]
struct Cli {
    /// Output: one Kubernetes error line per error (text), or one JSON document (json).
    #[arg(long, global = true, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check values against a `+k8s:format` (k8s-short-name, k8s-label-key, ...).
    ///
    /// Values come from the arguments, or one per line from standard input when none are given.
    CheckFormat(format_cmd::Args),
    /// List the `+k8s:format` names with what each accepts.
    Formats,
}

/// A failure that is not a validation result: bad usage or unreadable input (exit 2).
pub struct UsageError(pub String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::CheckFormat(args) => format_cmd::run(args, cli.format),
        Command::Formats => format_cmd::list(cli.format),
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(UsageError(message)) => {
            eprintln!("kubedv: {message}");
            ExitCode::from(2)
        }
    }
}
