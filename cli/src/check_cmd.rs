//! `kubedv check`: every manifest under the paths, routed by apiVersion/kind (core's
//! [`check`](kubedv_core::check) engine), each problem at its file, line and column.

use std::cell::RefCell;
use std::collections::BTreeMap;

use kubedv_core::check::{Checker, Identity};
use kubedv_core::declarative::shadow;
use rayon::prelude::*;
use serde_json::Value;

use crate::check_report::{self as out, Checked, Summary};
use crate::output::Outcome;
use crate::{input, k8s_api, CliFormat, UsageError};
use kubedv_core::builtin::Catalog;
use kubedv_input::files;
use kubedv_input::manifests::{self, Doc};

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories (searched recursively for .yaml, .yml and .json), or `-` for
    /// standard input (`kustomize build | kubedv check -`).
    #[arg(required = true)]
    paths: Vec<String>,
    /// CRDs to validate custom resources with: files or directories. Repeatable. CRDs found
    /// among the checked documents are used too.
    #[arg(long = "crds", value_name = "PATH")]
    crds: Vec<String>,
    /// +k8s: tagged Go types (types.go) whose kinds to validate: the package name is the
    /// version, `// +groupName=` the group. Repeatable; imports resolve among them as for
    /// `kubedv validate`.
    #[arg(long = "types", value_name = "FILE")]
    types: Vec<String>,
    /// Built-in kinds are validated with the declarative rules of the built-in catalog of
    /// --k8s-version (handwritten validation is not modeled); this reads a checkout of k8s.io/api
    /// instead (the directory holding core/v1/types.go, e.g. from the Go module cache).
    #[arg(long = "k8s-api", value_name = "DIR")]
    k8s_api: Option<String>,
    /// The Kubernetes release to check against, 1.16 to 1.37: API versions it no longer serves
    /// are errors, deprecated ones warnings.
    #[arg(long = "k8s-version", value_name = "1.N")]
    k8s_version: Option<String>,
    /// The old revision, for update checks (immutability, transition rules, ratcheting):
    /// documents pair by group, kind, namespace and name.
    #[arg(long, value_name = "PATH", conflicts_with = "old_ref")]
    old: Vec<String>,
    /// The old revision as a git revision: the same paths read with `git show REV:PATH`.
    #[arg(long = "old-ref", value_name = "GITREF")]
    old_ref: Option<String>,
    /// Which project of the CRD catalog answers the custom resources it serves, and which
    /// release: PROJECT or PROJECT@RELEASE (`gateway-api-experimental`, `istio@1.28`), repeatable;
    /// `none` turns the catalog off. Without it, custom resources that no --crds serve are
    /// checked with the CRD of the catalog's newest release serving them (`kubedv crds list`).
    #[arg(long = "crd-catalog", value_name = "PROJECT[@RELEASE]|none")]
    crd_catalog: Vec<String>,
    /// Documents with no schema are errors, not warnings.
    #[arg(long)]
    strict: bool,
    /// What unknown fields of built-in kinds do, as the API server's `fieldValidation`:
    /// Strict (refused, as `kubectl apply` asks), Warn (warnings, as API clients get by
    /// default) or Ignore.
    #[arg(long = "field-validation", value_name = "Strict|Warn|Ignore", default_value = "Strict")]
    field_validation: String,
    /// Documents checked at once (default: the machine's cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

pub fn run(args: Args, format: CliFormat) -> Result<Outcome, UsageError> {
    let minor = minor(args.k8s_version.as_deref())?;
    let field_validation = kubedv_core::check::FieldValidation::parse(&args.field_validation)
        .map_err(|e| UsageError(format!("--field-validation: {e}")))?;
    if let Some(jobs) = args.jobs {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build_global()
            .map_err(|e| UsageError(format!("--jobs: {e}")))?;
    }
    let type_sources: Vec<(String, String)> =
        args.types.iter().map(|t| Ok((t.clone(), input::read(t)?))).collect::<Result<_, UsageError>>()?;

    let files = collect(&args.paths)?;
    // Standard input can be read once: kept for the passes below.
    let stdin = match files.iter().any(|f| f == "-") {
        true => Some(input::read("-")?),
        false => None,
    };
    let patches = files::kustomize_patches(&files);
    let scan = scan(&files, stdin.as_deref());

    // CRDs: those given, then those in the input (a CRD and its resources in one repository).
    let mut crds: Vec<Value> = Vec::new();
    for d in collect(&args.crds)?.iter().flat_map(|p| files::read_docs(p, &Default::default(), None)) {
        match d.value {
            Ok(v) if manifests::is_crd(&v) => crds.push(v),
            Ok(_) => {}
            Err(e) => return Err(UsageError(format!("--crds {}:{}:{}: {}", d.file, e.line, e.column, e.message))),
        }
    }
    crds.extend(scan.crds);

    // Built-in kinds: the k8s.io/api packages the documents name, with the packages they import.
    // Before 1.33 built-in kinds had no declarative rules: the catalog starts there.
    let catalog = match args.k8s_api.is_some() || minor >= kubedv_core::declarative::shadow::OLDEST_MINOR {
        true => Some(k8s_api::catalog(args.k8s_api.as_deref(), minor)?),
        false => None,
    };
    let type_imports = imports_among(&type_sources)?;
    // The run's plan, as every front end makes it (kubedv-input's `Plan`); compiled rules are
    // not shared between threads: each worker compiles its own checker, once, and keeps it for
    // every batch.
    let mut plan = manifests::Plan {
        minor,
        strict: args.strict,
        field_validation,
        types: resolve_types(&type_sources, &type_imports, catalog.as_ref()),
        catalog: catalog.as_ref(),
        api_versions: scan.api_versions,
        kinds: scan.kinds,
        crds,
        catalog_crds: Vec::new(),
    };
    // The CRD catalog's, for the custom resources no CRD given serves: only the projects
    // needed are decompressed.
    if let Some(pins) = crate::crd_catalog::pins(&args.crd_catalog)? {
        let crd_catalog =
            manifests::CrdCatalog { index: crate::crd_catalog::index()?, pins: &pins, load: &crate::crd_catalog::load };
        plan.add_crd_catalog(&crd_catalog).map_err(|e| UsageError(e.0))?;
    }
    let build = || plan.checker().map_err(|e| UsageError(e.0));
    build()?;
    let olds = old_documents(&args, &files)?;

    // Files are read and checked a batch at a time, so memory follows the batch, not the
    // repository; text and GitHub rows are printed as each batch is done.
    let streaming = matches!(format, CliFormat::Text | CliFormat::Github | CliFormat::Json);
    let mut json = matches!(format, CliFormat::Json).then(out::JsonStream::begin);
    let mut summary = Summary::default();
    let mut kept: Vec<Checked> = Vec::new();
    for batch in files.chunks(BATCH) {
        let docs: Vec<Doc> =
            batch.par_iter().flat_map_iter(|f| files::read_docs(f, &patches, stdin.as_deref())).collect();
        let results: Vec<Checked> = docs
            .par_iter()
            .map(|d| {
                CHECKER.with(|cell| {
                    let mut cell = cell.borrow_mut();
                    if cell.is_none() {
                        *cell = build().ok();
                    }
                    manifests::check_one(d, cell.as_ref(), &olds)
                })
            })
            .collect();
        summary.add(&results);
        match format {
            CliFormat::Text => out::text_rows(&results),
            CliFormat::Github => out::github_rows(&results),
            _ => {}
        }
        if let Some(json) = &mut json {
            json.rows(&results)?;
        }
        if !streaming {
            kept.extend(results);
        }
    }
    match format {
        CliFormat::Text | CliFormat::Github => out::print_summary(&summary),
        CliFormat::Json => json.take().map_or(Ok(()), |j| j.end(&summary))?,
        CliFormat::Sarif => out::print_sarif(&kept, &summary)?,
        CliFormat::Junit => out::print_junit(&kept, &summary)?,
    }
    Ok(if summary.invalid + summary.unreadable > 0 { Outcome::Invalid } else { Outcome::Clean })
}

/// Files per batch.
const BATCH: usize = 32;

thread_local! {
    /// Each worker thread's checker (compiled CEL programs are not `Send`).
    static CHECKER: RefCell<Option<Checker>> = const { RefCell::new(None) };
}

/// What a first, light pass over the files finds: the CRDs among them (only files that mention
/// `CustomResourceDefinition` are parsed) and the apiVersions and kinds they name (by their
/// lines).
struct Scan {
    crds: Vec<Value>,
    api_versions: std::collections::BTreeSet<String>,
    kinds: std::collections::BTreeSet<String>,
}

fn scan(files: &[String], stdin: Option<&str>) -> Scan {
    let found: Vec<(Vec<Value>, Vec<String>, Vec<String>)> = files
        .par_iter()
        .map(|f| {
            let text = match (f.as_str(), stdin) {
                ("-", Some(t)) => t.to_string(),
                _ => std::fs::read_to_string(f).unwrap_or_default(),
            };
            let crds = manifests::crds_in(&text);
            let versions: Vec<String> = manifests::api_versions_in(&text).collect();
            let kinds: Vec<String> = manifests::kinds_in(&text).collect();
            (crds, versions, kinds)
        })
        .collect();
    let mut scan = Scan { crds: Vec::new(), api_versions: Default::default(), kinds: Default::default() };
    for (crds, versions, kinds) in found {
        scan.crds.extend(crds);
        scan.api_versions.extend(versions);
        scan.kinds.extend(kinds);
    }
    scan
}

fn minor(version: Option<&str>) -> Result<u32, UsageError> {
    match version {
        None => Ok(shadow::NEWEST_MINOR),
        Some(v) => manifests::release(v).map_err(|e| UsageError(format!("--k8s-version {e}"))),
    }
}

/// An import a file answers: (import path, label, text).
type Import = (String, String, String);

/// The imports of each Go types file that the other files answer.
fn imports_among(sources: &[(String, String)]) -> Result<Vec<Vec<Import>>, UsageError> {
    let mut out = Vec::new();
    for (i, (_, src)) in sources.iter().enumerate() {
        // Each file is a package; the others answer its imports.
        let others: Vec<(String, String)> =
            sources.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, s)| s.clone()).collect();
        let resolved = crate::validate_cmd::dependencies(src, &others, true)?;
        out.push(resolved.into_iter().map(|(p, l, t)| (p, l.to_string(), t.to_string())).collect());
    }
    Ok(out)
}

/// The Go types given, each with the imports the others and the catalog answer.
fn resolve_types<'a>(
    sources: &'a [(String, String)],
    imports: &'a [Vec<Import>],
    catalog: Option<&'a Catalog<'a>>,
) -> Vec<manifests::ResolvedTypes<'a>> {
    sources
        .iter()
        .zip(imports)
        .map(|((path, src), deps)| {
            let texts: Vec<&str> = std::iter::once(src.as_str()).chain(sources.iter().map(|s| s.1.as_str())).collect();
            manifests::ResolvedTypes {
                label: format!("--types {path}"),
                file: Some(path.clone()),
                source: src,
                deps: manifests::with_catalog(crate::validate_cmd::as_dependencies(deps), &texts, catalog),
            }
        })
        .collect()
}

/// The manifest files under the paths (kubedv-input's [`files::collect`]).
fn collect(paths: &[String]) -> Result<Vec<String>, UsageError> {
    files::collect(paths).map_err(UsageError)
}

/// The old revision's documents by identity.
fn old_documents(args: &Args, files: &[String]) -> Result<BTreeMap<Identity, Value>, UsageError> {
    let mut out = BTreeMap::new();
    let mut add = |text: &str| manifests::add_old(text, &mut out);
    for path in collect(&args.old)? {
        add(&input::read(&path)?);
    }
    if let Some(rev) = &args.old_ref {
        for f in files.iter().filter(|f| *f != "-") {
            let spec = format!("{rev}:./{}", f.trim_start_matches("./"));
            let out = std::process::Command::new("git")
                .args(["show", &spec])
                .output()
                .map_err(|e| UsageError(format!("--old-ref: cannot run git: {e}")))?;
            // A file that did not exist at that revision has no old documents.
            if out.status.success() {
                add(&String::from_utf8_lossy(&out.stdout));
            }
        }
    }
    Ok(out)
}
