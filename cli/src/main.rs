//! `kubedv`: Kubernetes API validation on the command line.
//!
//! Exit status (DESIGN.md): 0 no errors, 1 validation errors, 2 bad usage or unreadable input
//! (message on stderr, nothing on stdout).

mod cel_cmd;
mod crd_cmd;
mod cri_cmd;
mod format_cmd;
mod input;
mod output;
mod tags_cmd;
mod validate_cmd;

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
    /// Validate objects against +k8s: tagged Go types, as the generated code would.
    Validate(validate_cmd::Args),
    /// The +k8s: tag catalog, or one tag's documentation.
    Tags(tags_cmd::Args),
    /// Check values against a `+k8s:format` (k8s-short-name, k8s-label-key, ...).
    ///
    /// Values come from the arguments, or one per line from standard input when none are given.
    CheckFormat(format_cmd::Args),
    /// List the `+k8s:format` names with what each accepts.
    Formats,
    /// Evaluate a CEL expression as a Kubernetes validation rule: value, type and cost.
    Cel(cel_cmd::Args),
    /// Validate custom resources against a CRD: OpenAPI schema and x-kubernetes-validations rules.
    Crd(crd_cmd::Args),
    /// Judge a node's CRI version skew: kubelet, runtime and other CRI clients, pair by pair.
    CriSkew(cri_cmd::SkewArgs),
    /// The supported range: runtimes for a kubelet version, or kubelets for a runtime.
    CriRange(cri_cmd::RangeArgs),
    /// Whether the CRI feature policy allows a stage given containerd's and CRI-O's status.
    CriFeature(cri_cmd::FeatureArgs),
}

/// A failure that is not a validation result: bad usage or unreadable input (exit 2).
pub struct UsageError(pub String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => validate_cmd::run(args, cli.format),
        Command::Tags(args) => tags_cmd::run(args, cli.format),
        Command::CheckFormat(args) => format_cmd::run(args, cli.format),
        Command::Formats => format_cmd::list(cli.format),
        Command::Cel(args) => cel_cmd::run(args, cli.format),
        Command::Crd(args) => crd_cmd::run(args, cli.format),
        Command::CriSkew(args) => cri_cmd::skew(args, cli.format),
        Command::CriRange(args) => cri_cmd::range(args, cli.format),
        Command::CriFeature(args) => cri_cmd::feature(args, cli.format),
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(UsageError(message)) => {
            eprintln!("kubedv: {message}");
            ExitCode::from(2)
        }
    }
}
