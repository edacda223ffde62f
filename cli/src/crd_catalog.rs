//! The CRD catalog embedded in the binary (`catalog/crds/`, written by `cargo xtask
//! crd-catalog` from `crds/catalog/`): the index, and each project's file gzipped, decompressed
//! only when a run needs one of its CRDs ([`kubedv_input::crd_catalog`] routes). `kubedv crds
//! list` shows what it holds.

use std::io::{Read, Write};
use std::sync::OnceLock;

use kubedv_input::crd_catalog::{Index, Pin};

use crate::output::{Outcome, OutputFormat};
use crate::UsageError;

const INDEX: &str = include_str!("../../catalog/crds/index.txt");

/// Each project's file, gzipped.
const PROJECTS: &[(&str, &[u8])] = include!("../../catalog/crds/embed.rs");

/// The index, read the first time a run needs it.
pub(crate) fn index() -> Result<&'static Index, UsageError> {
    static INDEX_READ: OnceLock<Result<Index, String>> = OnceLock::new();
    INDEX_READ.get_or_init(|| Index::parse(INDEX)).as_ref().map_err(|e| UsageError(format!("the CRD catalog: {e}")))
}

/// A project's file, decompressed.
pub(crate) fn load(project: &str) -> Result<String, String> {
    let (_, gz) = PROJECTS.iter().find(|p| p.0 == project).ok_or_else(|| format!("no project {project:?}"))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(*gz).read_to_string(&mut text).map_err(|e| e.to_string())?;
    Ok(text)
}

/// `--crd-catalog` values: pins, or `none` (no catalog: `None`).
pub(crate) fn pins(values: &[String]) -> Result<Option<Vec<Pin>>, UsageError> {
    if values.iter().any(|v| v == "none") {
        return match values.len() {
            1 => Ok(None),
            _ => Err(UsageError("--crd-catalog none cannot be combined with pins".into())),
        };
    }
    let pins: Vec<Pin> = values
        .iter()
        .map(|v| Pin::parse(v))
        .collect::<Result<_, _>>()
        .map_err(|e| UsageError(format!("--crd-catalog {e}")))?;
    index()?.check_pins(&pins).map_err(|e| UsageError(format!("--crd-catalog: {e}")))?;
    Ok(Some(pins))
}

#[derive(clap::Subcommand)]
pub enum Action {
    /// The projects of the CRD catalog: releases (newest first), kinds, source and licence.
    List,
}

pub fn run(action: Action, format: OutputFormat) -> Result<Outcome, UsageError> {
    let Action::List = action;
    let index = index()?;
    let kinds = |p: &str| {
        let mut k: Vec<(&str, &str)> =
            index.rows.iter().filter(|r| r.project == p).map(|r| (r.group.as_str(), r.kind.as_str())).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    // A closed pipe (`kubedv crds list | head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    match format {
        OutputFormat::Text => {
            for p in &index.projects {
                let variant = if p.variant { ", only when pinned" } else { "" };
                let _ = writeln!(
                    out,
                    "{:<28} {:<24} {:>3} kinds  {} ({}{variant})",
                    p.name,
                    p.releases.join(" "),
                    kinds(&p.name).len(),
                    p.repository,
                    p.license
                );
            }
        }
        OutputFormat::Json => {
            let doc: Vec<serde_json::Value> = index
                .projects
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "project": p.name,
                        "releases": p.releases,
                        "repository": p.repository,
                        "license": p.license,
                        "variant": p.variant,
                        "kinds": kinds(&p.name).iter().map(|(g, k)| format!("{k}.{g}")).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&doc).map_err(|e| UsageError(e.to_string()))?);
        }
    }
    Ok(Outcome::Clean)
}
