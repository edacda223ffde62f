//! `kubedv`: Kubernetes API validation on the command line.
//!
//! Exit status (docs/design.md §CLI): 0 no errors, 1 validation errors, 2 bad usage or unreadable input
//! (message on stderr, nothing on stdout).

mod cel_cmd;
mod check_cmd;
mod check_report;
mod crd_catalog;
mod crd_cmd;
mod cri_cmd;
mod format_cmd;
mod input;
mod k8s_api;
mod output;
mod policy_cmd;
mod policy_suite;
mod tags_cmd;
mod validate_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use output::OutputFormat;

#[derive(Parser)]
#[command(name = "kubedv", version, about = "Kubernetes API validation that runs anywhere")]
struct Cli {
    /// Output: one Kubernetes error line per error (text), or one JSON document (json);
    /// `kubedv check` also writes GitHub Actions annotations (github), SARIF 2.1.0 (sarif) and
    /// JUnit XML (junit).
    #[arg(long, global = true, value_enum, default_value_t = CliFormat::Text)]
    format: CliFormat,

    #[command(subcommand)]
    command: Command,
}

/// Every output format; commands other than `check` take text and json.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CliFormat {
    Text,
    Json,
    Github,
    Sarif,
    Junit,
}

#[derive(Subcommand)]
enum Command {
    /// Check a repository's manifests: every document routed by apiVersion/kind to its CRD, its
    /// Go types or the API lifecycle of the Kubernetes release, each problem at its line.
    Check(check_cmd::Args),
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
    /// The CRD catalog built in: the released CRDs of widely used projects that `kubedv check`
    /// validates their custom resources with when no --crds serve them.
    Crds {
        #[command(subcommand)]
        action: crd_catalog::Action,
    },
    /// Evaluate ValidatingAdmissionPolicies and their bindings against a request, as the API
    /// server would; `kubedv policy test SUITE` runs a suite of cases.
    Policy(policy_cmd::Args),
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
    let format = match (&cli.command, cli.format) {
        (Command::Check(_) | Command::Policy(_), _) | (_, CliFormat::Text) => OutputFormat::Text,
        (_, CliFormat::Json) => OutputFormat::Json,
        (_, other) => {
            let name = other.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
            eprintln!("kubedv: --format {name} is only for `kubedv check`");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Check(args) => check_cmd::run(args, cli.format),
        Command::Validate(args) => validate_cmd::run(args, format),
        Command::Tags(args) => tags_cmd::run(args, format),
        Command::CheckFormat(args) => format_cmd::run(args, format),
        Command::Formats => format_cmd::list(format),
        Command::Cel(args) => cel_cmd::run(args, format),
        Command::Crd(args) => crd_cmd::run(args, format),
        Command::Crds { action } => crd_catalog::run(action, format),
        Command::Policy(args) => policy_cmd::run(args, cli.format),
        Command::CriSkew(args) => cri_cmd::skew(args, format),
        Command::CriRange(args) => cri_cmd::range(args, format),
        Command::CriFeature(args) => cri_cmd::feature(args, format),
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(UsageError(message)) => {
            eprintln!("kubedv: {message}");
            ExitCode::from(2)
        }
    }
}
