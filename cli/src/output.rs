//! Printing results per the CLI contract: text lines on stdout with a summary on stderr, or
//! one JSON document on stdout.

use std::io::Write;
use std::process::ExitCode;

use clap::ValueEnum;
use kubedv_core::field::Error;
use serde::Serialize;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

/// What a command found: decides the exit status.
pub enum Outcome {
    Clean,
    Invalid,
}

impl Outcome {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Clean => ExitCode::SUCCESS,
            Outcome::Invalid => ExitCode::from(1),
        }
    }
}

/// The JSON document of a validating command: `{"errors": [...], "diagnostics": [...]}`.
#[derive(Serialize)]
struct Report<'a> {
    errors: &'a [Error],
    diagnostics: &'a [serde_json::Value],
}

/// Prints validation errors in the chosen format and returns the outcome.
pub fn print_errors(errors: &[Error], format: OutputFormat, summary: &str) -> Outcome {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A closed pipe (`kubedv ... | head`) is not an error worth reporting.
    let _ = match format {
        OutputFormat::Text => {
            let r = errors.iter().try_for_each(|e| writeln!(out, "{e}"));
            eprintln!("{summary}");
            r
        }
        OutputFormat::Json => {
            let doc = Report { errors, diagnostics: &[] };
            serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::other).and_then(|()| writeln!(out))
        }
    };
    if errors.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Invalid
    }
}

/// `1 error`, `2 errors`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
