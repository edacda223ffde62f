//! Manifests as `kubedv check` reads them: a file's text split into documents (list items
//! expanded, each document parsed on its own so a broken one does not hide the others), checked
//! by core's [`check`](kubedv_core::check) engine, and each result given the line and column of
//! the field it names. The CLI adds walking directories, git revisions and parallelism around
//! these pieces; the npm package and the playground check files held in memory with
//! [`check_files`]. The results serialize as docs/design.md's `kubedv check` JSON.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use kubedv_core::builtin::Catalog;
use kubedv_core::check::{self, Checker, Identity, Report, Status};
use kubedv_core::declarative::Dependency;
use kubedv_core::field::Error;
use serde::Serialize;
use serde_json::Value;

use crate::positions::{self, Positions};

/// One document as read: where it is, its text and its value (or why it has none).
pub struct Doc {
    pub file: Arc<str>,
    /// The document's number in the file (0-based).
    pub index: usize,
    /// The first line of the document's text (1-based).
    pub line: usize,
    pub text: Arc<str>,
    /// For a list's item: its path in the document (`items[2]`).
    pub prefix: String,
    pub value: Result<Value, Unreadable>,
    /// Set when the file is a Kustomize patch or kustomization: the document is not a resource.
    pub note: Option<String>,
}

/// Why a document has no value, and where.
pub struct Unreadable {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl Doc {
    /// A file that yields no document at all (it cannot be read, is binary, is not UTF-8).
    pub fn unreadable_file(file: Arc<str>, message: String) -> Doc {
        Doc {
            file,
            index: 0,
            line: 1,
            text: Arc::from(""),
            prefix: String::new(),
            value: Err(Unreadable { message, line: 1, column: 1 }),
            note: None,
        }
    }
}

/// The documents of one file's bytes (list items expanded), each parsed on its own. `note`
/// marks every document as not a resource (a Kustomize patch), with the reason.
pub fn read_bytes(file: Arc<str>, bytes: &[u8], note: Option<String>) -> Vec<Doc> {
    if bytes.contains(&0) {
        return vec![Doc::unreadable_file(file, String::from("a binary file, not YAML or JSON"))];
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return vec![Doc::unreadable_file(file, String::from("not UTF-8 text"))];
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (index, piece) in positions::split(text).into_iter().enumerate() {
        let shared: Arc<str> = Arc::from(piece.text);
        let doc = |prefix: String, value| Doc {
            file: file.clone(),
            index,
            line: piece.line,
            text: shared.clone(),
            prefix,
            value,
            note: note.clone(),
        };
        match crate::piece(&piece) {
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

/// A CRD the API server would serve resources of (`apiextensions.k8s.io/v1`).
pub fn is_crd(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("CustomResourceDefinition")
        && v.get("apiVersion").and_then(Value::as_str) == Some("apiextensions.k8s.io/v1")
}

/// The CRDs among a file's documents (only text that mentions `CustomResourceDefinition` is
/// parsed).
pub fn crds_in(text: &str) -> Vec<Value> {
    if !text.contains("CustomResourceDefinition") {
        return Vec::new();
    }
    positions::split(text).iter().filter_map(|p| crate::piece(p).ok()).filter(is_crd).collect()
}

/// The `apiVersion` values a file names, found by a light pass over its text (which built-in
/// packages to compile): every `apiVersion` key, in block YAML, flow YAML or JSON
/// (`apiVersion: apps/v1`, `{"apiVersion":"v1",…}`, `{apiVersion: v1, …}`).
pub fn api_versions_in(text: &str) -> impl Iterator<Item = String> + '_ {
    values_of_key(text, "apiVersion")
}

/// The `kind` values a file names, found as [`api_versions_in`] finds `apiVersion`s (which
/// catalog CRDs a run needs; `names.kind` and references' kinds come too: harmless).
pub fn kinds_in(text: &str) -> impl Iterator<Item = String> + '_ {
    values_of_key(text, "kind")
}

/// The scalar values of a key wherever it stands as a key (not inside a longer word).
fn values_of_key<'t>(text: &'t str, key: &'static str) -> impl Iterator<Item = String> + 't {
    text.match_indices(key).filter_map(move |(at, key)| {
        if text[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        let rest = &text[at + key.len()..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start_matches([' ', '\t']);
        let rest = rest.strip_prefix(':')?.trim_start_matches([' ', '\t']);
        let end = rest.find(['\n', '\r', ',', '}', ']', '#']).unwrap_or(rest.len());
        let value = rest[..end].trim().trim_matches(['"', '\'', ' ']);
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// Whether a file name is a Kustomize kustomization.
pub fn is_kustomization(name: &str) -> bool {
    matches!(name, "kustomization.yaml" | "kustomization.yml" | "Kustomization")
}

/// The files a kustomization lists as patches (`patchesStrategicMerge`, `patches`,
/// `patchesJson6902`), as written (relative to its directory).
pub fn kustomization_patches(text: &str) -> Vec<String> {
    let Ok(doc) = crate::document(text) else { return Vec::new() };
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
    listed
}

/// Adds an old revision's documents (list items expanded) by identity, for update checks.
pub fn add_old(text: &str, out: &mut BTreeMap<Identity, Value>) {
    for piece in positions::split(text) {
        let Ok(value) = crate::piece(&piece) else { continue };
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
}

/// A checked document, with positions resolved.
pub struct Checked {
    /// The file, the document's number in it (0-based) and its first line.
    pub file: Arc<str>,
    pub index: usize,
    pub line: usize,
    /// `valid`, `invalid`, `skipped` or `unreadable`.
    pub status: &'static str,
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub errors: Vec<Located>,
    pub update_errors: Vec<Located>,
    /// Every error of the update request (core's `Report::update_verdict`), unlocated.
    pub update_verdict: Vec<Error>,
    pub warnings: Vec<LocatedWarning>,
    pub why: Option<String>,
    /// What judged the document (core's `Report::checked_by`).
    pub checked_by: Option<&'static str>,
    /// The catalog CRD that answered (`project@release`; core's `Report::crd_catalog`).
    pub crd_catalog: Option<String>,
    /// Where an unreadable or skipped document's problem is.
    pub at: (usize, usize),
}

/// An error at the line and column of the field it names (the nearest existing parent for a
/// missing field).
#[derive(Serialize)]
pub struct Located {
    #[serde(flatten)]
    pub error: Error,
    pub line: usize,
    pub column: usize,
}

#[derive(Serialize)]
pub struct LocatedWarning {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// One document of the JSON output.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonDoc<'a> {
    file: &'a str,
    index: usize,
    line: usize,
    api_version: &'a str,
    kind: &'a str,
    namespace: &'a str,
    name: &'a str,
    status: &'a str,
    errors: &'a [Located],
    update_errors: &'a [Located],
    warnings: &'a [LocatedWarning],
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    checked_by: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    crd_catalog: Option<&'a str>,
}

impl Checked {
    /// `Deployment/web`, or the kind alone; with the catalog CRD that answered, when one did
    /// (`Certificate/web (CRD of cert-manager@v1.19.1)`).
    pub fn title(&self) -> String {
        let title = match (self.kind.is_empty(), self.name.is_empty()) {
            (true, _) => String::from("document"),
            (false, true) => self.kind.clone(),
            (false, false) => format!("{}/{}", self.kind, self.name),
        };
        match &self.crd_catalog {
            Some(source) => format!("{title} (CRD of {source})"),
            None => title,
        }
    }

    /// The document as the JSON output holds it.
    pub fn json(&self) -> JsonDoc<'_> {
        JsonDoc {
            file: &self.file,
            index: self.index,
            line: self.line,
            api_version: &self.api_version,
            kind: &self.kind,
            namespace: &self.namespace,
            name: &self.name,
            status: self.status,
            errors: &self.errors,
            update_errors: &self.update_errors,
            warnings: &self.warnings,
            why: self.why.as_deref(),
            checked_by: self.checked_by,
            crd_catalog: self.crd_catalog.as_deref(),
        }
    }
}

/// The counts closing a run.
#[derive(Serialize, Default, Clone)]
pub struct Summary {
    pub documents: usize,
    pub valid: usize,
    pub invalid: usize,
    pub skipped: usize,
    pub unreadable: usize,
    /// Documents judged by a built-in API package's declarative rules and metadata checks only.
    #[serde(skip)]
    pub builtin: usize,
    /// Documents judged by a CRD of the catalog, by `project@release`.
    #[serde(skip)]
    pub catalog: BTreeMap<String, usize>,
}

impl Summary {
    /// Counts a batch of documents in.
    pub fn add(&mut self, results: &[Checked]) {
        let s = self;
        s.documents += results.len();
        for r in results {
            s.builtin += usize::from(r.checked_by == Some("builtin"));
            if let Some(source) = &r.crd_catalog {
                *s.catalog.entry(source.clone()).or_default() += 1;
            }
            match r.status {
                "valid" => s.valid += 1,
                "invalid" => s.invalid += 1,
                "skipped" => s.skipped += 1,
                _ => s.unreadable += 1,
            }
        }
    }

    /// The closing line(s): the counts, and the coverage statement when built-in kinds were
    /// checked.
    pub fn line(&self) -> String {
        let count = |n: usize, noun: &str| if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
        let mut line = format!(
            "{}: {} valid, {} invalid, {} skipped, {} unreadable",
            count(self.documents, "document"),
            self.valid,
            self.invalid,
            self.skipped,
            self.unreadable
        );
        if !self.catalog.is_empty() {
            let n: usize = self.catalog.values().sum();
            let sources: Vec<String> = self.catalog.iter().map(|(s, n)| format!("{s} ({n})")).collect();
            line.push_str(&format!(
                "\n{} checked with CRDs of kubedv's catalog: {}",
                count(n, "document"),
                sources.join(", ")
            ));
        }
        if self.builtin > 0 {
            line.push_str(&format!(
                "\n{} of built-in kinds checked with their declarative rules and ValidateObjectMeta's metadata checks only: the rest of Kubernetes' handwritten validation is not modeled",
                count(self.builtin, "document")
            ));
        }
        line
    }
}

/// Checks one document (`checker` is `None` when the types given could not be compiled),
/// pairing it with its old revision by identity.
pub fn check_one(d: &Doc, checker: Option<&Checker>, olds: &BTreeMap<Identity, Value>) -> Checked {
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
        update_verdict: Vec::new(),
        warnings: Vec::new(),
        why: None,
        checked_by: None,
        crd_catalog: None,
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
    checked.crd_catalog = report.crd_catalog;
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
    let warnings = report
        .warnings
        .into_iter()
        .map(|w| {
            let (line, column) = at(w.field.as_deref().unwrap_or(""));
            LocatedWarning { message: w.message, line, column }
        })
        .collect();
    // A body the API server cannot take is refused before validation (a Bad Request), as an
    // unreadable document: core names the refusal (the decoder's, in the order kubectl sends
    // the keys), placed at its field. The warnings of the request (a deprecated version) stay.
    if let Some(u) = report.undecodable.into_iter().next() {
        checked.status = "unreadable";
        checked.at = at(&u.field);
        checked.why = Some(u.message);
        checked.warnings = warnings;
        return checked;
    }
    checked.errors = locate(report.errors);
    checked.update_errors = locate(report.update_errors);
    checked.update_verdict = report.update_verdict;
    checked.warnings = warnings;
    checked
}

/// The minor version of a release named `1.N`, between 1.16 and the newest supported
/// ([`kubedv_core::release::parse`]).
pub fn release(version: &str) -> Result<u32, String> {
    kubedv_core::release::parse(version, kubedv_core::release::OLDEST_LIFECYCLE_MINOR)
}

/// A file held in memory.
pub struct File<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

/// Go types given to a run: a `types.go` source and the sources of the packages it imports
/// (import path → source) beyond the built-in catalog's.
pub struct Types<'a> {
    pub source: &'a str,
    pub imports: Vec<(&'a str, &'a str)>,
}

/// What to check files against, beyond the CRDs among them.
pub struct Options<'a> {
    /// The Kubernetes release (1.16 to the newest): removed and deprecated API versions, and
    /// the rules of that version.
    pub minor: u32,
    /// Documents with no schema are errors, not warnings.
    pub strict: bool,
    /// What unknown fields do (the API server's `fieldValidation`; `kubectl apply` asks Strict).
    pub field_validation: kubedv_core::check::FieldValidation,
    /// Files holding further CRDs.
    pub crds: Vec<File<'a>>,
    pub types: Vec<Types<'a>>,
    /// The old revision's files, for update checks.
    pub old: Vec<File<'a>>,
    /// The release's built-in kinds catalog (`catalog/1.N.gz` decompressed), when loaded.
    pub catalog: Option<&'a str>,
    /// The CRD catalog, for the custom resources no CRD given serves.
    pub crd_catalog: Option<CrdCatalog<'a>>,
}

/// The CRD catalog as a run uses it: its index, the user's pins, and how to read a project's
/// file (the CLI decompresses the one it embeds; the npm package and the playground hand over
/// those they fetched).
pub struct CrdCatalog<'a> {
    pub index: &'a crate::crd_catalog::Index,
    pub pins: &'a [crate::crd_catalog::Pin],
    pub load: &'a dyn Fn(&str) -> Result<String, String>,
}

/// The result of a run: docs/design.md's `kubedv check` JSON.
pub struct Outcome {
    pub documents: Vec<Checked>,
    pub summary: Summary,
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let docs: Vec<JsonDoc<'_>> = self.documents.iter().map(Checked::json).collect();
        let mut st = s.serialize_struct("Outcome", 2)?;
        st.serialize_field("documents", &docs)?;
        st.serialize_field("summary", &self.summary)?;
        st.end()
    }
}

/// Why a run could not start: a CRD file that cannot be read, types that do not compile, a
/// damaged catalog.
#[derive(Debug)]
pub struct Refused(pub String);

/// Go types of a run, with the packages they import resolved (by the caller: given with them,
/// found among the other files given, or in the built-in catalog).
pub struct ResolvedTypes<'a> {
    /// How the refusal names the types (`--types api/types.go`, or `the types`).
    pub label: String,
    /// The file the source was read from, which its diagnostics are prefixed with.
    pub file: Option<String>,
    pub source: &'a str,
    pub deps: Vec<Dependency<'a>>,
}

/// What a run checks documents against: `kubedv check`'s plan, the one every front end builds
/// (the CLI from files on disk, `check_files` from files in memory) and compiles into a
/// [`Checker`] — once, or once per worker thread.
pub struct Plan<'a> {
    pub minor: u32,
    pub strict: bool,
    pub field_validation: kubedv_core::check::FieldValidation,
    pub types: Vec<ResolvedTypes<'a>>,
    /// The release's built-in kinds, when loaded.
    pub catalog: Option<&'a Catalog<'a>>,
    /// The `apiVersion`s the documents name: the built-in packages to compile.
    pub api_versions: std::collections::BTreeSet<String>,
    /// The kinds the documents name: with `api_versions`, the catalog CRDs to load.
    pub kinds: std::collections::BTreeSet<String>,
    /// The CRDs given and found among the documents.
    pub crds: Vec<Value>,
    /// CRDs of the catalog, each with its `project@release`: for custom resources `crds` do not
    /// serve.
    pub catalog_crds: Vec<(Value, String)>,
}

impl Plan<'_> {
    /// The checker of this plan. Refused when the Go types given do not compile.
    pub fn checker(&self) -> Result<Checker, Refused> {
        let mut checker = Checker::new(self.minor, self.strict).with_field_validation(self.field_validation);
        for t in &self.types {
            let diagnostics = checker.add_types(t.source, &t.deps, None, false);
            if diagnostics.iter().any(kubedv_core::diag::Diagnostic::is_error) {
                let lines: Vec<String> = diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| match (&t.file, &d.file) {
                        (Some(file), None) => format!("{file}:{d}"),
                        _ => d.to_string(),
                    })
                    .collect();
                return Err(Refused(format!("{} cannot be used:\n{}", t.label, lines.join("\n"))));
            }
        }
        if let Some(catalog) = self.catalog {
            for package in self.api_versions.iter().filter_map(|av| catalog.serving(av)) {
                checker.add_types(package.source, &catalog.dependencies(package), Some(package.group), true);
            }
            checker.serve_builtin_groups(catalog.packages.iter().map(|p| p.group));
        }
        // The catalog's first: a CRD given for the same kind replaces it.
        for (crd, source) in &self.catalog_crds {
            let _ = checker.add_crd_from(crd, Some(source));
        }
        for crd in &self.crds {
            let _ = checker.add_crd(crd);
        }
        Ok(checker)
    }

    /// Adds the catalog CRDs the documents need ([`crd_catalog::needed`](crate::crd_catalog::needed)):
    /// custom resources of groups the release does not serve itself, whose group and kind no
    /// CRD given serves. Each project's file is loaded once. Refused when a pin names nothing
    /// the catalog has, or a project's file cannot be loaded.
    pub fn add_crd_catalog(&mut self, catalog: &CrdCatalog<'_>) -> Result<(), Refused> {
        catalog.index.check_pins(catalog.pins).map_err(Refused)?;
        let rows = self.crd_catalog_needs(catalog.index, catalog.pins);
        let mut projects: Vec<&str> = rows.iter().map(|r| r.project.as_str()).collect();
        projects.sort_unstable();
        projects.dedup();
        for project in projects {
            let text = (catalog.load)(project).map_err(|e| Refused(format!("the CRD catalog's {project}: {e}")))?;
            let of: Vec<&crate::crd_catalog::Row> = rows.iter().copied().filter(|r| r.project == project).collect();
            let crds = crate::crd_catalog::crds_of(&text, &of).map_err(Refused)?;
            self.catalog_crds.extend(crds.into_iter().zip(of.iter().map(|r| r.source())));
        }
        Ok(())
    }

    /// The catalog's rows this plan needs (what the npm package loads before checking).
    pub fn crd_catalog_needs<'i>(
        &self,
        index: &'i crate::crd_catalog::Index,
        pins: &[crate::crd_catalog::Pin],
    ) -> Vec<&'i crate::crd_catalog::Row> {
        let served: Vec<&str> = self.catalog.map(|c| c.packages.iter().map(|p| p.group).collect()).unwrap_or_default();
        crate::crd_catalog::needed(index, &self.api_versions, &self.kinds, &self.crds, &|g| served.contains(&g), pins)
    }
}

/// `deps` completed with the catalog's packages for the imports of `sources` that no
/// dependency answers (a pasted file's `corev1 "k8s.io/api/core/v1"`), and the packages those
/// import.
pub fn with_catalog<'a>(
    mut deps: Vec<Dependency<'a>>,
    sources: &[&str],
    catalog: Option<&'a Catalog<'a>>,
) -> Vec<Dependency<'a>> {
    if let Some(catalog) = catalog {
        for source in sources {
            for d in catalog.dependencies_of_source(source) {
                if !deps.iter().any(|e| e.import_path == d.import_path) {
                    deps.push(d);
                }
            }
        }
    }
    deps
}

/// Checks files held in memory, as `kubedv check` checks a repository: CRDs among the files and
/// in `crds`, the catalog's CRDs for the custom resources no CRD given serves, the Go types
/// given, built-in kinds with the catalog, Kustomize patches (files a kustomization among them
/// lists, by path) noted and skipped.
pub fn check_files(files: &[File<'_>], options: &Options<'_>) -> Result<Outcome, Refused> {
    let catalog = builtin_catalog(options)?;
    let (docs, mut plan) = plan_files(files, options, catalog.as_ref())?;
    if let Some(crd_catalog) = &options.crd_catalog {
        plan.add_crd_catalog(crd_catalog)?;
    }
    let checker = plan.checker()?;
    let mut olds = BTreeMap::new();
    for f in &options.old {
        add_old(f.text, &mut olds);
    }
    let documents: Vec<Checked> = docs.iter().map(|d| check_one(d, Some(&checker), &olds)).collect();
    let mut summary = Summary::default();
    summary.add(&documents);
    Ok(Outcome { documents, summary })
}

/// The projects of the CRD catalog whose files [`check_files`] needs for these files and
/// options (those a front end loads before checking; `options.crd_catalog` may hold none of
/// them yet).
pub fn crd_catalog_needs(
    files: &[File<'_>],
    options: &Options<'_>,
    index: &crate::crd_catalog::Index,
    pins: &[crate::crd_catalog::Pin],
) -> Result<Vec<String>, Refused> {
    index.check_pins(pins).map_err(Refused)?;
    let catalog = builtin_catalog(options)?;
    let (_, plan) = plan_files(files, options, catalog.as_ref())?;
    let mut projects: Vec<String> = plan.crd_catalog_needs(index, pins).iter().map(|r| r.project.clone()).collect();
    projects.sort_unstable();
    projects.dedup();
    Ok(projects)
}

fn builtin_catalog<'a>(options: &Options<'a>) -> Result<Option<Catalog<'a>>, Refused> {
    match options.catalog {
        Some(text) => Ok(Some(Catalog::parse(text).map_err(|e| Refused(format!("the built-in kinds catalog: {e}")))?)),
        None => Ok(None),
    }
}

/// The documents of the files, and the plan to check them with (without the CRD catalog's).
fn plan_files<'a>(
    files: &[File<'_>],
    options: &Options<'a>,
    catalog: Option<&'a Catalog<'a>>,
) -> Result<(Vec<Doc>, Plan<'a>), Refused> {
    let types = options
        .types
        .iter()
        .map(|t| {
            let deps =
                t.imports.iter().map(|(path, text)| Dependency { import_path: path, label: path, text }).collect();
            let sources: Vec<&str> = std::iter::once(t.source).chain(t.imports.iter().map(|i| i.1)).collect();
            let deps = with_catalog(deps, &sources, catalog);
            ResolvedTypes { label: String::from("the types"), file: None, source: t.source, deps }
        })
        .collect();
    // Every document is read once: the CRDs among them are added before any is checked (a CRD
    // and its resources may come in any order).
    let notes = patch_notes(files);
    let docs: Vec<Doc> = files
        .iter()
        .flat_map(|f| read_bytes(Arc::from(f.path), f.text.as_bytes(), notes.get(&normalize(f.path)).cloned()))
        .collect();
    let mut crds = Vec::new();
    for f in &options.crds {
        for d in read_bytes(Arc::from(f.path), f.text.as_bytes(), None) {
            match d.value {
                Ok(v) if is_crd(&v) => crds.push(v),
                Ok(_) => {}
                Err(e) => return Err(Refused(format!("{}:{}:{}: {}", f.path, e.line, e.column, e.message))),
            }
        }
    }
    crds.extend(
        docs.iter()
            .filter(|d| d.prefix.is_empty())
            .filter_map(|d| d.value.as_ref().ok())
            .filter(|v| is_crd(v))
            .cloned(),
    );
    let top = |k: &str| -> std::collections::BTreeSet<String> {
        docs.iter().filter_map(|d| d.value.as_ref().ok()?.get(k)?.as_str().map(String::from)).collect()
    };
    let plan = Plan {
        minor: options.minor,
        strict: options.strict,
        field_validation: options.field_validation,
        types,
        catalog,
        api_versions: top("apiVersion"),
        kinds: top("kind"),
        crds,
        catalog_crds: Vec::new(),
    };
    Ok((docs, plan))
}

/// The kustomizations among the files and the patches they list, by normalized path.
fn patch_notes(files: &[File<'_>]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for f in files {
        let (dir, name) = f.path.rsplit_once('/').unwrap_or(("", f.path));
        if !is_kustomization(name) {
            continue;
        }
        out.insert(normalize(f.path), String::from("a Kustomize kustomization, not a resource"));
        for p in kustomization_patches(f.text) {
            let joined = if dir.is_empty() { p } else { format!("{dir}/{p}") };
            out.insert(normalize(&joined), format!("a Kustomize patch (listed in {}), not a resource", f.path));
        }
    }
    out
}

/// A path with `.` and `x/..` segments resolved, for matching a kustomization's entries.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}
