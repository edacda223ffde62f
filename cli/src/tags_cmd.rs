//! `kubedv tags [NAME]`: the +k8s: tag catalog.

use kubedv_core::declarative::catalog::{self, TagDoc};

use crate::output::{Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct Args {
    /// One tag to document (`minimum`, `k8s:minimum` or `+k8s:minimum`); all when omitted.
    name: Option<String>,
}

pub fn run(args: Args, format: OutputFormat) -> Result<Outcome, UsageError> {
    let docs: Vec<&TagDoc> = match &args.name {
        Some(name) => vec![catalog::lookup(name).ok_or_else(|| {
            let hint = catalog::closest(name.trim_start_matches('+'))
                .map(|n| format!("; did you mean +{n}?"))
                .unwrap_or_default();
            UsageError(format!("unknown tag {name}{hint} (`kubedv tags` lists them)"))
        })?],
        None => catalog::TAGS.iter().collect(),
    };
    match format {
        OutputFormat::Json => {
            let value = if args.name.is_some() { serde_json::to_value(docs[0]) } else { serde_json::to_value(&docs) };
            println!("{}", serde_json::to_string_pretty(&value.expect("static docs")).expect("JSON"));
        }
        OutputFormat::Text if args.name.is_none() => {
            for d in docs {
                println!("+{:<26} {:<9} {}", d.name, format!("{:?}", d.stability).to_lowercase(), d.description);
            }
        }
        OutputFormat::Text => {
            let d = docs[0];
            println!("+{}  ({})\n\n{}\n", d.name, format!("{:?}", d.stability).to_lowercase(), d.description);
            let scopes: Vec<String> = d.scopes.iter().map(|s| format!("{s:?}").to_lowercase()).collect();
            println!("Where: {}", scopes.join(", "));
            for a in d.args {
                println!("Argument: {a}");
            }
            if !d.payload.is_empty() {
                println!("Payload: {}", d.payload);
            }
            println!("\nExample:\n{}", d.example.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n"));
        }
    }
    Ok(Outcome::Clean)
}
