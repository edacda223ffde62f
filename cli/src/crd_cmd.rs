//! `kubedv crd`: validate custom resources against a CustomResourceDefinition, as the API
//! server does: OpenAPI checks, then the `x-kubernetes-validations` CEL rules (with `--old`:
//! transition rules and ratcheting). A CRD the API server would refuse (anything
//! `ValidateCustomResourceDefinition` reports) is reported as such (exit 2).

use std::io::Write;

use kubedv_core::crd::{Crd, Options};
use kubedv_core::declarative::shadow;

use crate::input;
use crate::output::{count, print_errors, Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct Args {
    /// The CRD (`apiextensions.k8s.io/v1`), JSON or YAML.
    #[arg(long)]
    crd: String,
    /// The custom resource(s): JSON, or YAML with one or more documents.
    #[arg(long)]
    object: String,
    /// The existing object, for an update.
    #[arg(long)]
    old: Option<String>,
    /// The CRD version to validate against (default: the storage version).
    #[arg(long)]
    version: Option<String>,
    /// Do not apply the schema's defaults before validating (the API server applies them).
    #[arg(long)]
    no_defaults: bool,
    /// The Kubernetes version whose API server is modeled (default: the newest supported). It
    /// compiles the CRD's rules in its CEL environment for new expressions.
    #[arg(long = "k8s-version", value_name = "1.N")]
    k8s_version: Option<String>,
}

pub fn run(args: Args, format: OutputFormat) -> Result<Outcome, UsageError> {
    let object_text = input::read(&args.object)?;
    let objects = input::objects(&args.object, &object_text)?;
    let crd_text = input::read(&args.crd)?;
    let crd_doc = pick_crd(&args.crd, input::objects(&args.crd, &crd_text)?, objects.first())?;
    let minor =
        shadow::parse_version(args.k8s_version.as_deref()).map_err(|e| UsageError(format!("--k8s-version: {e}")))?;
    let crd = Crd::load_at(&crd_doc, args.version.as_deref(), minor).map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| match e.origin.strip_prefix("estimatedCost=") {
                Some(cost) => format!("{}\n  (estimated cost {cost}; the limit is 10000000 per rule)", e.text()),
                None => e.text(),
            })
            .collect();
        UsageError(format!("{}: the API server would refuse this CRD:\n{}", args.crd, lines.join("\n")))
    })?;
    let old = match &args.old {
        Some(path) => {
            let text = input::read(path)?;
            input::objects(path, &text)?.into_iter().next()
        }
        None => None,
    };
    let options = Options { defaults: !args.no_defaults };
    let outcomes: Vec<_> = objects.iter().map(|o| crd.check(o, old.as_ref(), &options)).collect();
    // An update whose body names another object is refused before validation.
    let refusals: Vec<&str> = outcomes.iter().filter_map(|o| o.refusal.as_deref()).collect();
    if !refusals.is_empty() {
        return Err(UsageError(format!("the API server refuses this update (Bad Request):\n{}", refusals.join("\n"))));
    }
    let errors: Vec<kubedv_core::field::Error> = outcomes.iter().flat_map(|o| o.errors.iter().cloned()).collect();
    let summary = format!(
        "{} validated against {} {}: {}",
        count(objects.len(), "object"),
        crd.kind,
        crd.version,
        count(errors.len(), "error")
    );
    if let OutputFormat::Json = format {
        // One document per object, as `validate` and the npm package's `CrdResult`: `object` is
        // the object as the API server would store it (pruned, defaulted); `defaulted`, the
        // same in a list, is the name the CLI gave it before (docs/output.md), kept for a release.
        let docs: Vec<serde_json::Value> = outcomes
            .iter()
            .map(|o| {
                serde_json::json!({"errors": o.errors, "diagnostics": [], "warnings": o.warnings,
                    "object": o.object, "defaulted": [o.object]})
            })
            .collect();
        let doc = if docs.len() == 1 { docs[0].clone() } else { serde_json::Value::Array(docs) };
        let mut out = std::io::stdout().lock();
        let _ =
            serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::other).and_then(|()| writeln!(out));
        return Ok(if errors.is_empty() { Outcome::Clean } else { Outcome::Invalid });
    }
    let warnings: Vec<&String> = outcomes.iter().flat_map(|o| &o.warnings).collect();
    for w in &warnings {
        // kubectl's form of an API server warning.
        eprintln!("Warning: {w}");
    }
    Ok(print_errors(&errors, format, &summary))
}

/// The CRD to use from a file of one or more documents: the only one, or (in a file of several,
/// such as Istio's `crd-all.gen.yaml`) the CRD of the first object's group and kind.
fn pick_crd(
    file: &str,
    docs: Vec<serde_json::Value>,
    object: Option<&serde_json::Value>,
) -> Result<serde_json::Value, UsageError> {
    if docs.len() <= 1 {
        return docs.into_iter().next().ok_or_else(|| UsageError(format!("{file}: no document")));
    }
    let text = |v: &serde_json::Value| String::from(v.as_str().unwrap_or(""));
    let kind = object.map(|o| text(&o["kind"])).unwrap_or_default();
    let api_version = object.map(|o| text(&o["apiVersion"])).unwrap_or_default();
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let names: Vec<String> =
        docs.iter().map(|d| format!("{}.{}", text(&d["spec"]["names"]["kind"]), text(&d["spec"]["group"]))).collect();
    docs.into_iter().find(|d| d["spec"]["names"]["kind"] == kind.as_str() && d["spec"]["group"] == group).ok_or_else(
        || {
            UsageError(format!(
                "{file}: no CRD for {kind} in group {group:?} among its {} documents ({})",
                names.len(),
                names.join(", ")
            ))
        },
    )
}
