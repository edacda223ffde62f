//! `kubedv cel`: evaluate a CEL expression as a Kubernetes validation rule would, with `self`,
//! `oldSelf` (typed by an optional OpenAPI schema) and extra variables; prints the value, its
//! type and the runtime cost, or the error with its kind and position.

use std::collections::BTreeMap;

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::{self, CelError, ErrorKind, Program};
use serde_json::json;

use crate::input;
use crate::output::{Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct Args {
    /// The expression (one that begins with `-`, such as `-1 < self`, is taken as it is).
    #[arg(long, allow_hyphen_values = true)]
    expr: String,
    /// A JSON or YAML file whose document is `self`.
    #[arg(long = "self", value_name = "FILE")]
    self_file: Option<String>,
    /// A JSON or YAML file whose document is `oldSelf`.
    #[arg(long = "old-self", value_name = "FILE")]
    old_self: Option<String>,
    /// An OpenAPI schema (JSON or YAML) of `self`: types `self`/`oldSelf` for the checker and
    /// converts their values as Kubernetes does (escaped property names, formats).
    #[arg(long, value_name = "FILE")]
    schema: Option<String>,
    /// Another variable: `NAME=JSON` (repeatable).
    #[arg(long = "var", value_name = "NAME=JSON")]
    vars: Vec<String>,
}

fn document(path: &str) -> Result<serde_json::Value, UsageError> {
    let text = input::read(path)?;
    let mut docs = input::objects(path, &text)?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        0 => Err(UsageError(format!("{path}: no document"))),
        n => Err(UsageError(format!("{path}: {n} documents; give exactly one"))),
    }
}

pub fn run(args: Args, format: OutputFormat) -> Result<Outcome, UsageError> {
    let schema = args.schema.as_deref().map(document).transpose()?;
    let self_type = match &schema {
        Some(s) => cel::schema::decl_type(s, false).ok_or_else(|| {
            UsageError(String::from(
                "the schema gives `self` no CEL type (an array without items or a map without a value schema?)",
            ))
        })?,
        None => CelType::Dyn,
    };
    let mut decls = Decls::default();
    let mut vars = BTreeMap::new();
    let convert = |json: &serde_json::Value| match &schema {
        Some(s) => cel::schema::value(json, s, false),
        None => cel::from_json(json),
    };
    if let Some(path) = &args.self_file {
        vars.insert(String::from("self"), convert(&document(path)?));
        decls.declare("self", self_type.clone());
    }
    if let Some(path) = &args.old_self {
        vars.insert(String::from("oldSelf"), convert(&document(path)?));
        decls.declare("oldSelf", self_type.clone());
    }
    for spec in &args.vars {
        let (name, text) = spec.split_once('=').ok_or_else(|| UsageError(format!("--var {spec:?}: use NAME=JSON")))?;
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| UsageError(format!("--var {name}: invalid JSON: {e}")))?;
        vars.insert(String::from(name), cel::from_json(&json));
        decls.declare(name, CelType::Dyn);
    }
    // Checked as Kubernetes' environment checks (with its literal validators) before folding.
    let result = Program::compile(&args.expr)
        .and_then(|p| checker::check_kubernetes(&p, &decls))
        .and_then(|_| Program::compile_optimized(&args.expr))
        .and_then(|p| p.eval(&vars));
    let (doc, outcome) = match result {
        Ok(done) => (
            json!({"value": cel::to_json(&done.value), "type": done.value.type_name(), "cost": done.cost}),
            Outcome::Clean,
        ),
        Err(e) => (json!({"error": e}), Outcome::Invalid),
    };
    match format {
        OutputFormat::Json => println!("{}", serde_json::to_string_pretty(&doc).expect("JSON")),
        OutputFormat::Text => match (&doc["error"], &doc["value"]) {
            (serde_json::Value::Null, value) => {
                println!("{value}");
                eprintln!("type {}, cost {}", doc["type"].as_str().unwrap_or(""), doc["cost"]);
            }
            (_, _) => {
                let e: CelError =
                    serde_json::from_value(doc["error"].clone()).map_err(|e| UsageError(e.to_string()))?;
                let kind = match e.kind {
                    ErrorKind::Parse => "parse error",
                    ErrorKind::Check => "check error",
                    ErrorKind::Eval => "evaluation error",
                    ErrorKind::Cost => "cost limit exceeded",
                };
                // Every error, as cel-go reports several (a token recognition error and what
                // the parser makes of the rest).
                for e in core::iter::once(&e).chain(&e.also) {
                    println!("{kind} at {}:{}: {}", e.line, e.column, e.message);
                }
            }
        },
    }
    Ok(outcome)
}
