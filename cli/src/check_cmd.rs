//! `kubedv check`: every manifest under the paths, routed by apiVersion/kind (core's
//! [`check`](kubedv_core::check) engine), each problem at its file, line and column.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kubedv_core::check::{self, Checker, Identity, Report, Status};
use kubedv_core::declarative::shadow;
use kubedv_core::field::Error;
use kubedv_input::positions::{self, Positions};
use rayon::prelude::*;
use serde_json::Value;

use crate::check_report::{self as out, Checked, Located, LocatedWarning, Summary};
use crate::output::Outcome;
use crate::{input, k8s_api, CliFormat, UsageError};
use kubedv_core::builtin::Catalog;

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
    /// Documents with no schema are errors, not warnings.
    #[arg(long)]
    strict: bool,
    /// Documents checked at once (default: the machine's cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// The oldest release the lifecycle table speaks for.
const OLDEST_MINOR: u32 = 16;

/// One document as read: where it is, its text and its value (or why it has none).
pub(crate) struct Doc {
    pub(crate) file: Arc<str>,
    pub(crate) index: usize,
    /// The first line of the document's text (1-based).
    pub(crate) line: usize,
    pub(crate) text: std::sync::Arc<str>,
    /// For a list's item: its path in the document (`items[2]`).
    pub(crate) prefix: String,
    pub(crate) value: Result<Value, Unreadable>,
    /// Set when the file is a Kustomize patch or kustomization: the document is not a resource.
    pub(crate) note: Option<String>,
}

pub(crate) struct Unreadable {
    message: String,
    line: usize,
    column: usize,
}

pub fn run(args: Args, format: CliFormat) -> Result<Outcome, UsageError> {
    let minor = minor(args.k8s_version.as_deref())?;
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
    let patches = kustomize_patches(&files);
    let scan = scan(&files, stdin.as_deref());

    // CRDs: those given, then those in the input (a CRD and its resources in one repository).
    let mut crds: Vec<Value> = Vec::new();
    for d in collect(&args.crds)?.iter().flat_map(|p| read_docs(p, &Default::default(), None)) {
        match d.value {
            Ok(v) if is_crd(&v) => crds.push(v),
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
    let builtin: Vec<&kubedv_core::builtin::Package<'_>> =
        catalog.iter().flat_map(|c| scan.api_versions.iter().filter_map(|av| c.serving(av))).collect();

    // Compiled rules are not shared between threads: each worker compiles its own checker,
    // once, and keeps it for every batch.
    let build = || -> Result<Checker, UsageError> {
        let mut checker = Checker::new(minor, args.strict);
        add_types(&mut checker, &type_sources, catalog.as_ref())?;
        for package in &builtin {
            let deps = catalog.as_ref().map(|c| c.dependencies(package)).unwrap_or_default();
            checker.add_types(package.source, &deps, Some(package.group), true);
        }
        if let Some(catalog) = &catalog {
            checker.serve_builtin_groups(catalog.packages.iter().map(|p| p.group));
        }
        for crd in &crds {
            let _ = checker.add_crd(crd);
        }
        Ok(checker)
    };
    build()?;
    let olds = old_documents(&args, &files)?;

    // Files are read and checked a batch at a time, so memory follows the batch, not the
    // repository; text and GitHub rows are printed as each batch is done.
    let streaming = matches!(format, CliFormat::Text | CliFormat::Github | CliFormat::Json);
    let mut json = matches!(format, CliFormat::Json).then(out::JsonStream::begin);
    let mut summary = Summary::default();
    let mut kept: Vec<Checked> = Vec::new();
    for batch in files.chunks(BATCH) {
        let docs: Vec<Doc> = batch.par_iter().flat_map_iter(|f| read_docs(f, &patches, stdin.as_deref())).collect();
        let results: Vec<Checked> = docs
            .par_iter()
            .map(|d| {
                CHECKER.with(|cell| {
                    let mut cell = cell.borrow_mut();
                    if cell.is_none() {
                        *cell = build().ok();
                    }
                    check_one(d, cell.as_ref(), &olds)
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

fn check_one(d: &Doc, checker: Option<&Checker>, olds: &BTreeMap<Identity, Value>) -> Checked {
    // A document without apiVersion or kind cannot be decoded, let alone applied.
    let why = d.value.as_ref().ok().filter(|_| d.note.is_none()).and_then(check::unreadable);
    if let Some(message) = why {
        return located(d, Err(&Unreadable { message, line: d.line, column: 1 }));
    }
    let report = match (&d.value, &d.note, checker) {
        (_, Some(note), _) => Ok(Report::skipped(note.clone())),
        (Err(e), None, _) => Err(e),
        (Ok(v), None, Some(checker)) => {
            let old = check::identity(v).and_then(|id| olds.get(&id));
            Ok(checker.check(v, old))
        }
        (Ok(_), None, None) => Ok(Report::skipped(String::from("the types could not be compiled"))),
    };
    located(d, report)
}

/// What a first, light pass over the files finds: the CRDs among them (only files that mention
/// `CustomResourceDefinition` are parsed) and the apiVersions they name (by their lines).
struct Scan {
    crds: Vec<Value>,
    api_versions: std::collections::BTreeSet<String>,
}

fn scan(files: &[String], stdin: Option<&str>) -> Scan {
    let found: Vec<(Vec<Value>, Vec<String>)> = files
        .par_iter()
        .map(|f| {
            let text = match (f.as_str(), stdin) {
                ("-", Some(t)) => t.to_string(),
                _ => std::fs::read_to_string(f).unwrap_or_default(),
            };
            let crds = if text.contains("CustomResourceDefinition") {
                positions::split(&text)
                    .into_iter()
                    .filter_map(|p| kubedv_input::document(p.text).ok())
                    .filter(is_crd)
                    .collect()
            } else {
                Vec::new()
            };
            let versions = text
                .lines()
                .filter_map(|l| {
                    let l = l.trim().trim_start_matches("- ").trim_start_matches('"');
                    let rest = l.strip_prefix("apiVersion")?.trim_start_matches('"').trim_start();
                    let value = rest.strip_prefix(':')?.trim().trim_end_matches(',').trim_matches(['"', '\'', ' ']);
                    (!value.is_empty()).then(|| value.to_string())
                })
                .collect();
            (crds, versions)
        })
        .collect();
    let mut scan = Scan { crds: Vec::new(), api_versions: Default::default() };
    for (crds, versions) in found {
        scan.crds.extend(crds);
        scan.api_versions.extend(versions);
    }
    scan
}

fn minor(version: Option<&str>) -> Result<u32, UsageError> {
    let newest = shadow::NEWEST_MINOR;
    let Some(v) = version else { return Ok(newest) };
    let m = v.strip_prefix("1.").and_then(|m| m.parse::<u32>().ok());
    match m {
        Some(m) if (OLDEST_MINOR..=newest).contains(&m) => Ok(m),
        _ => Err(UsageError(format!("--k8s-version {v}: expected 1.{OLDEST_MINOR} to 1.{newest}"))),
    }
}

fn is_crd(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
        && v.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1")
}

fn add_types(
    checker: &mut Checker,
    sources: &[(String, String)],
    catalog: Option<&Catalog<'_>>,
) -> Result<(), UsageError> {
    for (i, (path, src)) in sources.iter().enumerate() {
        // Each file is a package; the others answer its imports.
        let others: Vec<(String, String)> =
            sources.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, s)| s.clone()).collect();
        let resolved = crate::validate_cmd::dependencies(src, &others, true)?;
        let mut deps = crate::validate_cmd::as_dependencies(&resolved);
        if let Some(catalog) = catalog {
            let texts: Vec<&str> = std::iter::once(src.as_str()).chain(others.iter().map(|s| s.1.as_str())).collect();
            deps = k8s_api::complete(deps, &texts, catalog);
        }
        let diagnostics = checker.add_types(src, &deps, None, false);
        if diagnostics.iter().any(kubedv_core::diag::Diagnostic::is_error) {
            let lines: Vec<String> = diagnostics
                .iter()
                .map(|d| if d.file.is_some() { d.to_string() } else { format!("{path}:{d}") })
                .collect();
            return Err(UsageError(format!("--types {path} cannot be used:\n{}", lines.join("\n"))));
        }
    }
    Ok(())
}

/// The manifest files under the paths, in a stable order; `-` is standard input.
fn collect(paths: &[String]) -> Result<Vec<String>, UsageError> {
    let mut out = Vec::new();
    let mut seen_dirs = HashSet::new();
    for p in paths {
        if p == "-" {
            out.push(p.clone());
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| UsageError(format!("cannot read {p}: {e}")))?;
        if meta.is_dir() {
            walk(Path::new(p), &mut out, &mut seen_dirs);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<String>, seen: &mut HashSet<PathBuf>) {
    // A symlink loop comes back to a directory already seen.
    let Ok(real) = std::fs::canonicalize(dir) else { return };
    if !seen.insert(real) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(&path, out, seen);
        } else if [".yaml", ".yml", ".json"].iter().any(|ext| name.ends_with(ext)) {
            out.push(path.to_string_lossy().into_owned());
        }
    }
}

/// Files a `kustomization.yaml` lists as patches (they are not resources), with the note saying
/// so; kustomization files themselves are noted too.
fn kustomize_patches(files: &[String]) -> std::collections::HashMap<PathBuf, String> {
    let mut out = std::collections::HashMap::new();
    for f in files {
        let path = Path::new(f);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !matches!(name, "kustomization.yaml" | "kustomization.yml" | "Kustomization") {
            continue;
        }
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        out.insert(real, String::from("a Kustomize kustomization, not a resource"));
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(doc) = kubedv_input::document(&text) else { continue };
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut listed = Vec::new();
        for key in ["patchesStrategicMerge", "patches", "patchesJson6902"] {
            for item in doc.get(key).and_then(Value::as_array).into_iter().flatten() {
                match item {
                    Value::String(p) => listed.push(p.clone()),
                    Value::Object(o) => {
                        if let Some(Value::String(p)) = o.get("path") {
                            listed.push(p.clone());
                        }
                    }
                    _ => {}
                }
            }
        }
        for p in listed {
            let file = dir.join(&p);
            let real = std::fs::canonicalize(&file).unwrap_or(file);
            out.insert(real, format!("a Kustomize patch (listed in {f}), not a resource"));
        }
    }
    out
}

/// The documents of one file (list items expanded), each parsed on its own so a broken one
/// does not hide the others.
fn read_docs(file: &str, notes: &std::collections::HashMap<PathBuf, String>, stdin: Option<&str>) -> Vec<Doc> {
    let note =
        (file != "-").then(|| std::fs::canonicalize(file).ok()).flatten().and_then(|real| notes.get(&real).cloned());
    let name: Arc<str> = Arc::from(file);
    let unreadable = |message: String| Doc {
        file: name.clone(),
        index: 0,
        line: 1,
        text: std::sync::Arc::from(""),
        prefix: String::new(),
        value: Err(Unreadable { message, line: 1, column: 1 }),
        note: None,
    };
    let bytes = if file == "-" {
        stdin.unwrap_or_default().as_bytes().to_vec()
    } else {
        match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => return vec![unreadable(format!("cannot read the file: {e}"))],
        }
    };
    if bytes.contains(&0) {
        return vec![unreadable(String::from("a binary file, not YAML or JSON"))];
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return vec![unreadable(String::from("not UTF-8 text"))];
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out = Vec::new();
    for (index, piece) in positions::split(text).into_iter().enumerate() {
        let shared: std::sync::Arc<str> = std::sync::Arc::from(piece.text);
        let doc = |prefix: String, value| Doc {
            file: name.clone(),
            index,
            line: piece.line,
            text: shared.clone(),
            prefix,
            value,
            note: note.clone(),
        };
        match kubedv_input::document(piece.text) {
            Err(e) => out.push(doc(
                String::new(),
                Err(Unreadable {
                    message: positions::shift_lines(&e.message, piece.line - 1),
                    line: piece.line + e.line.unwrap_or(1) - 1,
                    column: e.column.unwrap_or(1),
                }),
            )),
            Ok(value) => match check::list_items(&value) {
                Some(items) if note.is_none() => {
                    for (i, item) in items.iter().enumerate() {
                        out.push(doc(format!("items[{i}]"), Ok(item.clone())));
                    }
                }
                _ => out.push(doc(String::new(), Ok(value))),
            },
        }
    }
    out
}

/// The old revision's documents by identity.
fn old_documents(args: &Args, files: &[String]) -> Result<BTreeMap<Identity, Value>, UsageError> {
    let mut out = BTreeMap::new();
    let mut add = |text: &str| {
        for piece in positions::split(text) {
            let Ok(value) = kubedv_input::document(piece.text) else { continue };
            let values = match check::list_items(&value) {
                Some(items) => items.to_vec(),
                None => vec![value],
            };
            for v in values {
                if let Some(id) = check::identity(&v) {
                    out.insert(id, v);
                }
            }
        }
    };
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

fn located(doc: &Doc, report: Result<Report, &Unreadable>) -> Checked {
    let value = doc.value.as_ref().ok();
    let meta = |k: &str| {
        value.and_then(|v| v.get("metadata")).and_then(|m| m.get(k)).and_then(Value::as_str).unwrap_or("").to_string()
    };
    let top = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str).unwrap_or("").to_string();
    let mut checked = Checked {
        file: doc.file.clone(),
        index: doc.index,
        line: doc.line,
        status: "unreadable",
        api_version: top("apiVersion"),
        kind: top("kind"),
        namespace: meta("namespace"),
        name: meta("name"),
        errors: Vec::new(),
        update_errors: Vec::new(),
        warnings: Vec::new(),
        why: None,
        checked_by: None,
        at: (doc.line, 1),
    };
    let report = match report {
        Err(e) => {
            checked.why = Some(e.message.clone());
            checked.at = (e.line, e.column);
            return checked;
        }
        Ok(r) => r,
    };
    checked.status = match report.status {
        Status::Valid => "valid",
        Status::Invalid => "invalid",
        Status::Skipped => "skipped",
    };
    checked.why = report.why;
    checked.checked_by = report.checked_by;
    let skipped_item = report.status == Status::Skipped && !doc.prefix.is_empty();
    // Positions are only worked out for documents that have something to point at.
    let needs = skipped_item
        || !report.undecodable.is_empty()
        || !report.errors.is_empty()
        || !report.update_errors.is_empty()
        || !report.warnings.is_empty();
    let pos = needs.then(|| Positions::of(&doc.text));
    let at = |field: &str| -> (usize, usize) {
        let field = value.map_or(Cow::Borrowed(field), |v| check::source_path(v, field));
        let (l, c) = pos.as_ref().and_then(|p| p.locate_in(&doc.prefix, &field)).unwrap_or((1, 1));
        (doc.line + l - 1, c)
    };
    let locate = |errors: Vec<Error>| -> Vec<Located> {
        errors
            .into_iter()
            .map(|error| {
                let (line, column) = at(&error.field);
                Located { error, line, column }
            })
            .collect()
    };
    if skipped_item {
        checked.at = at("");
    }
    // A body the types cannot hold is refused before validation, as an unreadable document,
    // with the first value in the document the decoder could not store.
    if let Some((u, pos)) =
        report.undecodable.into_iter().map(|u| (at(&u.field), u)).min_by_key(|p| p.0).map(|(p, u)| (u, p))
    {
        checked.status = "unreadable";
        checked.at = pos;
        checked.why = Some(u.message);
        return checked;
    }
    checked.errors = locate(report.errors);
    checked.update_errors = locate(report.update_errors);
    checked.warnings = report
        .warnings
        .into_iter()
        .map(|w| {
            let (line, column) = at(w.field.as_deref().unwrap_or(""));
            LocatedWarning { message: w.message, line, column }
        })
        .collect();
    checked
}
