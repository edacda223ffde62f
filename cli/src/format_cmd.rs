//! `kubedv check-format` and `kubedv formats`.

use std::io::BufRead;

use kubedv_core::field::Path;
use kubedv_core::format::Format;

use crate::output::{count, print_errors, Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct Args {
    /// The format name, as in `+k8s:format=NAME` (see `kubedv formats`).
    name: String,
    /// The values to check; read one per line from standard input when none are given.
    values: Vec<String>,
    /// The field path to report errors at (e.g. `metadata.name`). With several values each is
    /// reported at `PATH[i]`; without it, one value is the root (`<nil>`) and several are `[i]`.
    #[arg(long)]
    field: Option<String>,
}

pub fn run(args: Args, format: OutputFormat) -> Result<Outcome, UsageError> {
    let fmt = Format::from_name(&args.name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        UsageError(format!("unknown format {:?}; the formats are: {}", args.name, names.join(", ")))
    })?;
    let values = if args.values.is_empty() { read_stdin_lines()? } else { args.values };
    let base = Path::named(args.field.as_deref().unwrap_or(""));
    let mut errors = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let path = if values.len() == 1 { base } else { base.index(i) };
        errors.extend(fmt.validate(&path, value));
    }
    let summary =
        format!("{} checked against {}: {}", count(values.len(), "value"), fmt.name(), count(errors.len(), "error"));
    Ok(print_errors(&errors, format, &summary))
}

fn read_stdin_lines() -> Result<Vec<String>, UsageError> {
    std::io::stdin()
        .lock()
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| UsageError(format!("cannot read values from standard input: {e}")))
}

pub fn list(format: OutputFormat) -> Result<Outcome, UsageError> {
    match format {
        OutputFormat::Text => {
            for f in Format::ALL {
                println!("{:<36} {}", f.name(), f.summary());
            }
        }
        OutputFormat::Json => {
            let doc: Vec<_> =
                Format::ALL.iter().map(|f| serde_json::json!({"name": f.name(), "summary": f.summary()})).collect();
            println!("{}", serde_json::to_string_pretty(&doc).expect("static JSON"));
        }
    }
    Ok(Outcome::Clean)
}
