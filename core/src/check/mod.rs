//! `kubedv check`'s engine: every document of a repository routed by `apiVersion`/`kind` to
//! what can validate it, as the API server of a chosen release would.
//!
//! A [`Checker`] is built once from the CRDs (found in the input or given) and the `+k8s:`
//! tagged Go packages, each compiled once; [`Checker::check`] then judges one decoded document,
//! and its old revision for an update. Reading files, document positions and output formats are
//! the caller's: this module sees values, never text.
//!
//! Routing, in order: a `CustomResourceDefinition` is itself checked (the API server refuses a
//! CRD whose schema is not structural or whose rules do not compile); a built-in API version the
//! release no longer serves is an error and one it deprecates a warning ([`lifecycle`]); a
//! custom resource goes to its CRD's version (not served: an error; deprecated: the CRD's
//! warning); a kind of a Go package goes to its declarative validation; anything else has no
//! schema (a warning, an error when strict).

pub use crate::lifecycle::{self, migration};

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value as Json;

use crate::crd::Crd;
use crate::declarative::shadow::Enforcement;
use crate::declarative::{Dependency, Options, Schema, TypeId};
use crate::field::{Error, ErrorType, Path};

/// The verdict on one document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The API server would accept it.
    Valid,
    /// The API server would refuse it (or, with an old revision, refuse the update).
    Invalid,
    /// Nothing here can validate it.
    Skipped,
}

/// A warning the API server would return with the response (deprecated APIs), or a note on
/// what was not checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The text.
    pub message: String,
    /// The field it is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// What checking one document gives.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The verdict.
    pub status: Status,
    /// The errors of a create.
    pub errors: Vec<Error>,
    /// The errors of the update from the old revision that a create would not give
    /// (immutability, transition rules), reported apart so a fresh cluster is not blocked by them.
    pub update_errors: Vec<Error>,
    /// Every error the API server answers the update with (the update's own validation, which
    /// is not always the create's plus `update_errors`: an update keeps allocated and generated
    /// values of the stored object). Not part of the JSON report.
    #[serde(skip)]
    pub update_verdict: Vec<Error>,
    /// The API server's warnings.
    pub warnings: Vec<Warning>,
    /// Why the document was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// What judged it: `crd`, `types` (Go types given), `kubernetes` (a built-in kind whose
    /// whole API server path is modeled: [`crate::apis`]), `builtin` (a Kubernetes API package:
    /// its declarative rules and metadata checks only; the rest of Kubernetes' handwritten
    /// validation is not modeled) or
    /// `lifecycle` (a removed API version).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_by: Option<&'static str>,
    /// The catalog CRD that answered (`project@release`), when the CRD did not come from the
    /// user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crd_catalog: Option<String>,
    /// A document the API server cannot take, refused before any validation: values the Go
    /// types cannot hold (the refusal names the first of these in the document; the caller
    /// has the text to say which that is), or a kind and version the release does not serve.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub undecodable: Vec<Undecodable>,
}

/// A refusal before validation: a body the API server cannot decode into its Go types, or a
/// kind and version it does not serve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Undecodable {
    /// The refusal, in the API server's words.
    pub message: String,
    /// Where the value is (`spec.replicas`).
    pub field: String,
}

impl Report {
    fn new() -> Report {
        Report {
            status: Status::Valid,
            errors: Vec::new(),
            update_errors: Vec::new(),
            update_verdict: Vec::new(),
            warnings: Vec::new(),
            why: None,
            checked_by: None,
            crd_catalog: None,
            undecodable: Vec::new(),
        }
    }

    /// A document nothing judges, and why.
    pub fn skipped(why: String) -> Report {
        Report { status: Status::Skipped, why: Some(why), ..Report::new() }
    }

    fn warn(&mut self, message: String, field: Option<&str>) {
        self.warnings.push(Warning { message, field: field.map(String::from) });
    }

    fn settle(mut self) -> Report {
        if !self.errors.is_empty() || !self.update_errors.is_empty() {
            self.status = Status::Invalid;
        }
        self
    }
}

/// What the API server does with fields the types do not declare (and duplicate fields): the
/// request's `fieldValidation` (apiserver `pkg/endpoints/handlers`). `kubectl apply` and
/// `kubectl create` send `Strict`; API clients that say nothing get `Warn`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum FieldValidation {
    /// The request is refused: `strict decoding error: unknown field "spec.replica"`.
    #[default]
    Strict,
    /// The request goes on, with the warning `unknown field "spec.replica"`.
    Warn,
    /// Unknown fields are dropped silently.
    Ignore,
}

impl FieldValidation {
    /// The query parameter's value (`Strict`, `Warn`, `Ignore`; any case, as the API server
    /// reads it).
    pub fn parse(text: &str) -> Result<FieldValidation, String> {
        match text.to_ascii_lowercase().as_str() {
            "strict" => Ok(FieldValidation::Strict),
            "warn" => Ok(FieldValidation::Warn),
            "ignore" => Ok(FieldValidation::Ignore),
            _ => Err(format!("fieldValidation must be Strict, Warn or Ignore, not {text:?}")),
        }
    }
}

/// A document's identity: what pairs it with its old revision.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    /// `apiVersion`'s group (empty for core).
    pub group: String,
    /// `kind`.
    pub kind: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
}

/// The identity of a document, when it has a kind.
pub fn identity(doc: &Json) -> Option<Identity> {
    let (group, _) = group_version(doc)?;
    let kind = doc.get("kind")?.as_str()?;
    let meta = |k: &str| doc.get("metadata").and_then(|m| m.get(k)).and_then(Json::as_str).unwrap_or("").to_string();
    Some(Identity { group: group.into(), kind: kind.into(), namespace: meta("namespace"), name: meta("name") })
}

/// `apiVersion` as group and version (`v1` is the core group's).
fn group_version(doc: &Json) -> Option<(&str, &str)> {
    let api_version = doc.get("apiVersion")?.as_str()?;
    Some(api_version.rsplit_once('/').unwrap_or(("", api_version)))
}

/// The items of a list document (`kind: List`, or any `*List` with `items`), which the API
/// server's clients create one by one.
pub fn list_items(doc: &Json) -> Option<&[Json]> {
    let kind = doc.get("kind")?.as_str()?;
    if !kind.ends_with("List") {
        return None;
    }
    doc.get("items")?.as_array().map(Vec::as_slice)
}

/// Where the field an error of `doc` names is written in `doc`'s text. They are the same path
/// except in a CRD's refusals, which the API server words for its internal form: what every
/// version shares is reported at `spec.validation`, `spec.subresources`, … and is written in
/// the first version of the v1 document ([`crate::crd::document_path`]).
pub fn source_path<'a>(doc: &Json, field: &'a str) -> Cow<'a, str> {
    let is_crd = doc.get("kind").and_then(Json::as_str) == Some("CustomResourceDefinition");
    match crate::crd::document_path(field).filter(|_| is_crd) {
        Some(path) => Cow::Owned(path),
        None => Cow::Borrowed(field),
    }
}

/// Why a document cannot be checked at all, in apimachinery's words: a document needs
/// `apiVersion` and `kind` (`runtime.NewMissingKindErr` / `NewMissingVersionErr`).
pub fn unreadable(doc: &Json) -> Option<String> {
    if !doc.is_object() {
        return Some(String::from("a Kubernetes object must be a mapping"));
    }
    let text = || serde_json::to_string(doc).unwrap_or_default();
    match (doc.get("kind").and_then(Json::as_str), doc.get("apiVersion").and_then(Json::as_str)) {
        (None | Some(""), _) => Some(format!("Object 'Kind' is missing in '{}'", text())),
        (_, None | Some("")) => Some(format!("Object 'apiVersion' is missing in '{}'", text())),
        _ => None,
    }
}

/// One version of a CRD, compiled.
struct CrdVersion {
    name: String,
    served: bool,
    deprecated: Option<String>,
    compiled: Result<Crd, Vec<Error>>,
}

/// A CRD: its group, kind and versions.
struct CrdKind {
    group: String,
    kind: String,
    versions: Vec<CrdVersion>,
    /// Where the CRD comes from when not from the user (a catalog's `project@release`).
    source: Option<String>,
}

/// A Go package's declarative validation: its root kinds by name.
struct GoPackage {
    schema: Schema,
    /// One of Kubernetes' own API packages (its declarative rules are not all of its validation).
    builtin: bool,
    /// `+groupName`, when the source says it.
    group: Option<String>,
    roots: Vec<(String, TypeId)>,
}

/// What can validate documents, for one Kubernetes release.
pub struct Checker {
    minor: u32,
    strict: bool,
    field_validation: FieldValidation,
    enforcement: Enforcement,
    crds: Vec<CrdKind>,
    packages: Vec<GoPackage>,
    /// The API groups the release serves itself (its built-in catalog's): a kind of one of
    /// them that nothing answers is not served.
    builtin_groups: Vec<String>,
}

impl Checker {
    /// A checker for Kubernetes 1.`minor`; `strict` makes documents without a schema errors.
    pub fn new(minor: u32, strict: bool) -> Checker {
        // Declarative validation is modeled from 1.33; older releases check with its rules.
        let dv = format!(
            "1.{}",
            minor.clamp(crate::declarative::shadow::VERSIONS[0].minor, crate::declarative::shadow::NEWEST_MINOR)
        );
        let enforcement = Enforcement::from_request(Some(&dv), &[], true)
            .unwrap_or_else(|_| Enforcement::from_request(None, &[], true).expect("the newest version is modeled"));
        Checker {
            minor,
            strict,
            field_validation: FieldValidation::default(),
            enforcement,
            crds: Vec::new(),
            packages: Vec::new(),
            builtin_groups: Vec::new(),
        }
    }

    /// Sets what happens to unknown fields (by default `Strict`, as `kubectl apply` asks).
    pub fn with_field_validation(mut self, field_validation: FieldValidation) -> Checker {
        self.field_validation = field_validation;
        self
    }

    /// Adds a CRD: every version compiled once. Returns the API server's reasons to refuse it
    /// (then its custom resources are skipped, with the reason).
    pub fn add_crd(&mut self, crd: &Json) -> Result<(), Vec<Error>> {
        self.add_crd_from(crd, None)
    }

    /// Adds a CRD as [`Checker::add_crd`], naming where it comes from (a catalog's
    /// `project@release`): the reports of its custom resources say so.
    pub fn add_crd_from(&mut self, crd: &Json, source: Option<&str>) -> Result<(), Vec<Error>> {
        let mut kind = crd_versions(crd, self.minor)?;
        kind.source = source.map(String::from);
        let refused = kind.versions.iter().find_map(|v| v.compiled.as_ref().err().cloned());
        if let Some(i) = self.crds.iter().position(|c| c.group == kind.group && c.kind == kind.kind) {
            self.crds[i] = kind;
        } else {
            self.crds.push(kind);
        }
        match refused {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }

    /// Adds a Go package of `+k8s:` tagged types (with the packages it imports); its kinds are
    /// the root types, its version the package name, its group `group` or else the
    /// `+groupName` comment tag of the source (without either, any group matches).
    /// `builtin`: the package is one of Kubernetes' own (k8s.io/api), whose handwritten
    /// validation kubedv does not model; reports say so.
    /// Returns the compilation's diagnostics; a package with errors is not added.
    pub fn add_types(
        &mut self,
        src: &str,
        deps: &[Dependency<'_>],
        group: Option<&str>,
        builtin: bool,
    ) -> Vec<crate::diag::Diagnostic> {
        let schema = Schema::compile_with(src, deps, self.minor.max(crate::declarative::shadow::VERSIONS[0].minor));
        let group = group.map(String::from).or_else(|| crate::golang::group_name(src).map(String::from));
        let roots =
            schema.root_candidates().iter().filter_map(|n| Some((n.to_string(), schema.type_named(n)?))).collect();
        let diagnostics = schema.diagnostics.clone();
        if !schema.has_errors() {
            self.packages.push(GoPackage { schema, builtin, group, roots });
        }
        diagnostics
    }

    /// Declares the API groups the release serves itself (those of its built-in catalog): a
    /// document of one of them that no package answers names a version or kind the release
    /// does not serve.
    pub fn serve_builtin_groups<'g>(&mut self, groups: impl IntoIterator<Item = &'g str>) {
        for g in groups {
            if !self.builtin_groups.iter().any(|b| b == g) {
                self.builtin_groups.push(String::from(g));
            }
        }
    }

    /// Whether any CRD or Go package answers this group and kind.
    pub fn knows(&self, group: &str, kind: &str) -> bool {
        self.crds.iter().any(|c| c.group == group && c.kind == kind)
            || self
                .packages
                .iter()
                .any(|p| p.group.as_deref().is_none_or(|g| g == group) && p.roots.iter().any(|r| r.0 == kind))
    }

    /// Judges one document (not a list: see [`list_items`]), and its update from `old`.
    pub fn check(&self, doc: &Json, old: Option<&Json>) -> Report {
        let mut report = self.judge(doc, old);
        // The API server's warning recorder keeps each text once (apiserver
        // `pkg/endpoints/warning`: a CRD's many `unrecognized format "string"`, one warning).
        let mut seen = alloc::collections::BTreeSet::new();
        report.warnings.retain(|w| seen.insert(w.message.clone()));
        report
    }

    fn judge(&self, doc: &Json, old: Option<&Json>) -> Report {
        if let Some(why) = unreadable(doc) {
            return Report::skipped(why);
        }
        let (group, version) = group_version(doc).unwrap_or_default();
        let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
        let mut report = Report::new();
        if let Some(api) = lifecycle::lookup(group, version, kind) {
            match api.status(self.minor) {
                Some(lifecycle::Status::Removed(message)) => {
                    let mut e = Error::new(
                        ErrorType::Invalid,
                        &Path::named("apiVersion"),
                        doc.get("apiVersion").cloned(),
                        message,
                    );
                    e.origin = String::from("removedAPI");
                    report.errors.push(e);
                    report.checked_by = Some("lifecycle");
                    migration_note(&mut report, api);
                    return report.settle();
                }
                // A kind served read-only: the router refuses the create before any handler
                // (the deprecation warning's among them) runs.
                #[cfg(feature = "apis")]
                _ if crate::apis::read_only(group, kind).is_some() => {}
                Some(lifecycle::Status::Deprecated(message)) => {
                    report.warn(message, Some("apiVersion"));
                    migration_note(&mut report, api);
                }
                None => {}
            }
        }
        #[cfg(feature = "apis")]
        if let Some(message) = crate::apis::read_only(group, kind) {
            report.undecodable.push(Undecodable { message: String::from(message), field: String::new() });
            report.status = Status::Invalid;
            report.checked_by = Some("kubernetes");
            return report;
        }
        if group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition" && version == "v1" {
            match crd_versions(doc, self.minor)
                .and_then(|k| k.versions.into_iter().find_map(|v| v.compiled.err()).map_or(Ok(()), Err))
            {
                Err(errors) => report.errors = errors,
                // A CRD the API server accepts gets its warnings (only then: `BeforeCreate`
                // warns after validation passed).
                Ok(()) => {
                    for w in crate::crd::openapi::creation_warnings(doc) {
                        report.warn(w, None);
                    }
                }
            }
            return report.settle();
        }
        // Admission policies and bindings, where the built-in rooms are not built in: what the
        // API server refuses when they are created (expressions that do not compile, actions,
        // params references). With them, policies take the whole path as every built-in kind.
        #[cfg(feature = "policy")]
        if let Some(errors) = crate::policy::creation_errors(doc, self.minor).filter(|_| !models_whole(group, kind)) {
            report.errors = errors;
            report.checked_by = Some("policy");
            return report.settle();
        }
        if let Some(crd) = self.crds.iter().find(|c| c.group == group && c.kind == kind) {
            return self.custom_resource(crd, version, doc, old, report);
        }
        if let Some((package, root)) = self.package_for(group, version, kind) {
            // The declarative rules, with the options the kind's strategy turns on.
            let run = |doc: &Json, old: Option<&Json>, admitted: Option<&Admitted>| {
                let options = match admitted {
                    Some(a) if !a.options.is_empty() => Options { enabled: a.options.clone(), ..Options::default() },
                    _ => Options::default(),
                };
                let request = crate::declarative::Request::new(root, doc, &self.enforcement).old(old).options(&options);
                // Without a built-in kind's metadata checks, nothing is refused before validation.
                let mut errors = package.schema.check(&request).map(|v| v.report.errors).unwrap_or_default();
                errors.retain(|e| e.enforced);
                errors
            };
            report.checked_by = Some(match package.builtin {
                true if models_whole(group, kind) => "kubernetes",
                true => "builtin",
                false => "types",
            });
            let decoding = package.schema.decoding(root, doc);
            // A body the types cannot hold is refused before validation (a Bad Request).
            if let Some(t) = decoding.refusal() {
                report.undecodable =
                    alloc::vec![Undecodable { message: t.refusal(kind, version), field: t.path.clone() }];
                report.status = Status::Invalid;
                return report;
            }
            // The API server's field validation: unknown fields refuse the request (Strict),
            // come back as warnings (Warn) or are dropped (Ignore).
            match self.field_validation {
                FieldValidation::Strict if !decoding.unknown.is_empty() => {
                    // Go's `unknown field "%s"`: the path as it is, not escaped.
                    let fields: Vec<String> =
                        decoding.unknown.iter().map(|p| format!("unknown field \"{p}\"")).collect();
                    let message = format!(
                        "{kind} in version {version:?} cannot be handled as a {kind}: strict decoding error: {}",
                        fields.join(", ")
                    );
                    report.undecodable.push(Undecodable { message, field: decoding.unknown[0].clone() });
                    report.status = Status::Invalid;
                    return report;
                }
                FieldValidation::Warn => {
                    for path in decoding.unknown {
                        report.warn(format!("unknown field \"{path}\""), Some(&path));
                    }
                }
                _ => {}
            }
            // A built-in kind is validated as its Go types hold it (nulls made zero values,
            // unknown fields dropped), as is its old revision.
            let (normalized, old_normalized);
            let (doc, old) = match package.builtin {
                true => {
                    normalized = package.schema.normalized(root, doc);
                    old_normalized = old.map(|o| package.schema.normalized(root, o));
                    (&normalized, old_normalized.as_ref())
                }
                false => (doc, old),
            };
            // A built-in kind kubedv models whole: the API server's path (defaulting, the
            // strategy, handwritten validation, warnings) on create, and on the update.
            let builtin = |old: Option<&Json>| match package.builtin {
                true => admit_builtin(group, version, kind, doc, old, self.minor),
                false => None,
            };
            let created = builtin(None);
            // The handwritten errors, less those an enforced declarative error supersedes, then
            // the declarative errors (`ValidateDeclarativelyWithMigrationChecks`). Filtering goes
            // through `ErrorList.Filter`, whose `ToAggregate` keeps one of errors of the same
            // text: handwritten duplicates (two validators checking the same labels) come once.
            let with_handwritten = |handwritten: Option<&Vec<Error>>, declarative: Vec<Error>| match handwritten {
                Some(h) => {
                    let mut all: Vec<Error> = Vec::new();
                    // `FilterCoveredHandwrittenErrors`: a handwritten error marked covered goes
                    // when an enforced beta declarative error matches it (type, origin, required
                    // for an Invalid one, and field).
                    let superseded = |e: &Error| {
                        e.covered
                            && declarative.iter().any(|d| {
                                d.stability == crate::field::Stability::Beta
                                    && d.kind == e.kind
                                    && d.origin == e.origin
                                    && (e.kind != ErrorType::Invalid || !e.origin.is_empty())
                                    && (d.field == e.field
                                        || normalized_declarative_field(group, &d.field).is_some_and(|f| f == e.field))
                            })
                    };
                    for e in h.iter().filter(|e| !superseded(e)) {
                        let text = e.text();
                        if !declarative.iter().any(|d| d.text() == text) && !all.iter().any(|a| a.text() == text) {
                            all.push(e.clone());
                        }
                    }
                    all.extend(declarative);
                    all
                }
                None => declarative,
            };
            // Declarative validation sees the object as the handwritten one does: defaulted.
            // A request the registry refuses before validating (a Service's allocation) has
            // only the registry's errors.
            if let Some(outcome) = refused(&created) {
                report.errors = outcome.errors.clone();
            } else {
                let create = run(created.as_ref().map_or(doc, |o| &o.object), None, created.as_ref());
                report.errors = with_handwritten(created.as_ref().map(|o| &o.errors), create);
            }
            if package.builtin && refused(&created).is_none() {
                // A ReplicationController or a Job without labels takes its template's in
                // defaulting (SetDefaults_ReplicationController, SetDefaults_Job), which
                // ValidateObjectMeta then checks: fuzz finds. (Other kinds' metadata is checked
                // as the body gives it.)
                let validated = created.as_ref().filter(|_| labels_defaulted(group, kind)).map_or(doc, |o| &o.object);
                report.errors = crate::objectmeta::builtin_create_errors(
                    group,
                    kind,
                    validated,
                    core::mem::take(&mut report.errors),
                );
                // The metadata errors are the handwritten validation's first ones, filtered with
                // them (`ErrorList.Filter` through `ToAggregate`: one error of each text).
                if created.is_some() {
                    dedupe_texts(&mut report.errors);
                }
            }
            // The strategy's warnings come only with a request validation let through
            // (apiserver `rest.BeforeCreate`: `WarningsOnCreate` after `Validate` passed), and
            // validating admission judges only such a request.
            let mut strategy_warnings: &[String] = &[];
            if let (Some(outcome), true) = (&created, report.errors.is_empty()) {
                // A review the REST handler refuses (a Bad Request) after validation passed.
                if let Some(message) = &outcome.refusal {
                    report.undecodable = alloc::vec![Undecodable { message: message.clone(), field: String::new() }];
                    report.status = Status::Invalid;
                    return report;
                }
                report.errors = outcome.admission.clone();
                if report.errors.is_empty() {
                    strategy_warnings = &outcome.warnings;
                }
            }
            let updated = old.and_then(|_| builtin(old));
            if let Some(old) = old {
                let object = updated.as_ref().map_or(doc, |o| &o.object);
                // The declarative rules compare with the stored old object, as the handwritten do.
                let stored = updated.as_ref().and_then(|o| o.old.as_ref()).unwrap_or(old);
                let mut update = match refused(&updated) {
                    Some(outcome) => outcome.errors.clone(),
                    None => {
                        let declarative = run(object, Some(stored), updated.as_ref());
                        with_handwritten(updated.as_ref().map(|o| &o.errors), declarative)
                    }
                };
                if package.builtin && refused(&updated).is_none() {
                    // The new object's labels as defaulting made them, against the stored old.
                    let (new, stored) = match updated.as_ref().filter(|_| labels_defaulted(group, kind)) {
                        Some(o) => (&o.object, o.old.as_ref().unwrap_or(old)),
                        None => (doc, old),
                    };
                    update = crate::objectmeta::builtin_update_errors(group, kind, new, stored, self.minor, update);
                    if updated.is_some() {
                        dedupe_texts(&mut update);
                    }
                }
                if let (Some(outcome), true) = (&updated, update.is_empty()) {
                    update = outcome.admission.clone();
                }
                // An update's warnings are the strategy's `WarningsOnUpdate`, given when the
                // update passed (`rest.BeforeUpdate`).
                strategy_warnings = match (&updated, update.is_empty()) {
                    (Some(outcome), true) => &outcome.warnings,
                    _ => &[],
                };
                report.update_verdict = update.clone();
                report.update_errors = only_on_update(update, &report.errors);
            }
            // Warnings recorded before validation come whatever it says.
            let prepared = match old {
                None => created.as_ref().map(|o| o.prepare_warnings.as_slice()).unwrap_or_default(),
                Some(_) => &[],
            };
            report.warnings.extend(prepared.iter().map(|m| Warning { message: m.clone(), field: None }));
            report.warnings.extend(strategy_warnings.iter().map(|m| Warning { message: m.clone(), field: None }));
            return report.settle();
        }
        // A built-in group's version or kind the release does not serve: the client's REST
        // mapping finds nothing, and the request is never sent (apimachinery pkg/api/meta
        // errors.go NoKindMatchError, as kubectl prints it).
        if self.builtin_groups.iter().any(|g| g == group) {
            let api_version = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
            let message = format!("no matches for kind {kind:?} in version {api_version:?}");
            report.undecodable.push(Undecodable { message, field: String::from("kind") });
            report.status = Status::Invalid;
            return report;
        }
        let what = if group.is_empty() { format!("{version} {kind}") } else { format!("{group}/{version} {kind}") };
        let why = format!("no schema for {what}: give its CRD (--crds) or its Go types (--types)");
        if self.strict {
            let mut e = Error::new(ErrorType::Invalid, &Path::named("kind"), Some(Json::from(kind)), why);
            e.origin = String::from("noSchema");
            report.errors.push(e);
            return report.settle();
        }
        let mut skipped = Report::skipped(why);
        skipped.warnings = report.warnings;
        skipped
    }

    fn custom_resource(
        &self,
        crd: &CrdKind,
        version: &str,
        doc: &Json,
        old: Option<&Json>,
        mut report: Report,
    ) -> Report {
        report.crd_catalog = crd.source.clone();
        // A version the CRD does not serve: the client's REST mapping finds nothing, and the
        // request is never sent (apimachinery pkg/api/meta errors.go NoKindMatchError, as
        // kubectl prints it), as for a built-in group.
        let Some(v) = crd.versions.iter().find(|v| v.name == version && v.served) else {
            let api_version = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
            let message = format!("no matches for kind {:?} in version {api_version:?}", crd.kind);
            report.undecodable.push(Undecodable { message, field: String::from("apiVersion") });
            report.status = Status::Invalid;
            report.checked_by = Some("crd");
            return report;
        };
        if let Some(warning) = &v.deprecated {
            report.warn(warning.clone(), Some("apiVersion"));
        }
        let compiled = match &v.compiled {
            Ok(c) => c,
            Err(_) => {
                let mut skipped =
                    Report::skipped(format!("the CRD of {}/{version} {} cannot be used", crd.group, crd.kind));
                skipped.warnings = report.warnings;
                return skipped;
            }
        };
        report.checked_by = Some("crd");
        let outcome = compiled.check(doc, None, &crate::crd::Options::default());
        // The API server's field validation (apiextensions-apiserver customresource_handler.go
        // `schemaCoercingDecoder`: the fields pruning drops are strict decoding errors): refused
        // under Strict, warnings under Warn, dropped under Ignore.
        let (unknown, other): (Vec<String>, Vec<String>) =
            outcome.warnings.into_iter().partition(|w| w.starts_with("unknown field \""));
        let path = |w: &str| w.trim_start_matches("unknown field \"").trim_end_matches('"').to_string();
        match self.field_validation {
            FieldValidation::Strict if !unknown.is_empty() => {
                let kind = &crd.kind;
                let message = format!(
                    "{kind} in version {version:?} cannot be handled as a {kind}: strict decoding error: {}",
                    unknown.join(", ")
                );
                report.undecodable.push(Undecodable { message, field: path(&unknown[0]) });
                report.status = Status::Invalid;
                return report;
            }
            FieldValidation::Warn => {
                for w in unknown {
                    let at = path(&w);
                    report.warn(w, Some(&at));
                }
            }
            _ => {}
        }
        report.errors = outcome.errors;
        report.warnings.extend(other.into_iter().map(|m| Warning { message: m, field: None }));
        if let Some(old) = old {
            let update = compiled.check(doc, Some(old), &crate::crd::Options::default()).errors;
            report.update_verdict = update.clone();
            report.update_errors = only_on_update(update, &report.errors);
        }
        report.settle()
    }

    fn package_for(&self, group: &str, version: &str, kind: &str) -> Option<(&GoPackage, TypeId)> {
        self.packages.iter().find_map(|p| {
            let fits = p.group.as_deref().is_none_or(|g| g == group) && p.schema.package_name() == version;
            let root = p.roots.iter().find(|r| r.0 == kind)?;
            fits.then_some((p, root.1))
        })
    }
}

/// What the API server's path for a built-in kind gives ([`crate::apis::admit`]): the
/// object as validated (defaulted), the handwritten validation's errors and the warnings.
struct Admitted {
    object: Json,
    errors: Vec<Error>,
    warnings: Vec<String>,
    prepare_warnings: Vec<String>,
    admission: Vec<Error>,
    refusal: Option<String>,
    old: Option<Json>,
    options: Vec<String>,
    /// Refused before validation (a Service's allocation): `errors` are the only errors.
    allocation_refused: bool,
}

/// Kinds whose defaulting sets the object's labels from its pod template's when it has none.
fn labels_defaulted(group: &str, kind: &str) -> bool {
    matches!((group, kind), ("", "ReplicationController") | ("batch", "Job"))
}

/// The outcome, when the registry refused the request before validating it.
fn refused(outcome: &Option<Admitted>) -> Option<&Admitted> {
    outcome.as_ref().filter(|o| o.allocation_refused)
}

/// Keeps the first error of each text, as `ToAggregate` does.
fn dedupe_texts(errors: &mut Vec<Error>) {
    let mut seen = alloc::collections::BTreeSet::new();
    errors.retain(|e| seen.insert(e.text()));
}

/// Whether kubedv models a built-in kind's whole API server path ([`crate::apis`]).
fn models_whole(group: &str, kind: &str) -> bool {
    #[cfg(feature = "apis")]
    return crate::apis::handles(group, kind);
    #[cfg(not(feature = "apis"))]
    return {
        let _ = (group, kind);
        false
    };
}

#[cfg(feature = "apis")]
fn admit_builtin(
    group: &str,
    version: &str,
    kind: &str,
    doc: &Json,
    old: Option<&Json>,
    minor: u32,
) -> Option<Admitted> {
    let request = crate::apis::Request { group, version, kind, object: doc, old, minor };
    crate::apis::admit(&request).map(|o| Admitted {
        object: o.object,
        errors: o.errors,
        warnings: o.warnings,
        prepare_warnings: o.prepare_warnings,
        admission: o.admission,
        refusal: o.refusal,
        old: o.old,
        options: o.options,
        allocation_refused: o.allocation_refused,
    })
}

#[cfg(feature = "apis")]
fn normalized_declarative_field(group: &str, field: &str) -> Option<String> {
    crate::apis::normalized_declarative_field(group, field)
}

#[cfg(not(feature = "apis"))]
fn normalized_declarative_field(_: &str, _: &str) -> Option<String> {
    None
}

#[cfg(not(feature = "apis"))]
fn admit_builtin(_: &str, _: &str, _: &str, _: &Json, _: Option<&Json>, _: u32) -> Option<Admitted> {
    None
}

/// What changes in the replacement of a removed or deprecated API version (the migration
/// guide's notable changes), as a note at `apiVersion`.
fn migration_note(report: &mut Report, api: &lifecycle::Api) {
    if let Some(changes) = migration::changes(api.group, api.version, api.kind) {
        let note = match api.use_instead() {
            Some(to) => format!("moving to {to}: {changes}"),
            None => format!("moving off {}/{} {}: {changes}", api.group, api.version, api.kind),
        };
        report.warn(note, Some("apiVersion"));
    }
}

/// The errors of an update that a create does not give.
fn only_on_update(update: Vec<Error>, create: &[Error]) -> Vec<Error> {
    update.into_iter().filter(|e| !create.iter().any(|c| c.text() == e.text())).collect()
}

/// A CRD's versions, each compiled as the API server of 1.`minor` compiles a new CRD
/// (apiextensions.k8s.io/v1 only).
fn crd_versions(crd: &Json, minor: u32) -> Result<CrdKind, Vec<Error>> {
    let str_at = |v: &Json, path: &[&str]| -> String {
        let mut cur = v;
        for p in path {
            match cur.get(*p) {
                Some(next) => cur = next,
                None => return String::new(),
            }
        }
        cur.as_str().unwrap_or_default().to_string()
    };
    let group = str_at(crd, &["spec", "group"]);
    let kind = str_at(crd, &["spec", "names", "kind"]);
    let versions = crd.get("spec").and_then(|s| s.get("versions")).and_then(Json::as_array);
    // The whole CRD is validated once; a refused CRD refuses every version.
    let (mut loaded, refused): (Vec<Option<Crd>>, _) = match Crd::load_all_at(crd, minor) {
        Ok(list) => (list.into_iter().map(Some).collect(), None),
        Err(errors) => (Vec::new(), Some(errors)),
    };
    let Some(versions) = versions.filter(|v| !v.is_empty()) else {
        return Err(refused.unwrap_or_default());
    };
    let served_plain: Vec<(String, bool)> = versions
        .iter()
        .map(|v| {
            (
                str_at(v, &["name"]),
                v.get("served").and_then(Json::as_bool) == Some(true)
                    && !v.get("deprecated").and_then(Json::as_bool).unwrap_or(false),
            )
        })
        .collect();
    let compiled = versions
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let name = str_at(v, &["name"]);
            let deprecated = (v.get("deprecated").and_then(Json::as_bool) == Some(true)).then(|| {
                match v.get("deprecationWarning").and_then(Json::as_str) {
                    Some(w) => w.to_string(),
                    None => default_deprecation_warning(&group, &kind, &name, &served_plain),
                }
            });
            let compiled = match &refused {
                Some(errors) => Err(errors.clone()),
                None => loaded.get_mut(i).and_then(Option::take).ok_or_else(Vec::new),
            };
            CrdVersion { served: v.get("served").and_then(Json::as_bool) == Some(true), deprecated, compiled, name }
        })
        .collect();
    Ok(CrdKind { group, kind, versions: compiled, source: None })
}

/// apiextensions-apiserver `customresource_handler.go` `defaultDeprecationWarning`: the newest
/// served, not deprecated version newer than this one (kube-aware order) is suggested.
fn default_deprecation_warning(group: &str, kind: &str, version: &str, served: &[(String, bool)]) -> String {
    let mut msg = format!("{group}/{version} {kind} is deprecated");
    let newest = served
        .iter()
        .filter(|(v, plain)| *plain && compare_kube_aware(version, v) == core::cmp::Ordering::Less)
        .max_by(|a, b| compare_kube_aware(&a.0, &b.0));
    if let Some((v, _)) = newest {
        msg.push_str(&format!("; use {group}/{v} {kind}"));
    }
    msg
}

/// apimachinery `version.CompareKubeAwareVersionStrings`: names of the form
/// `v<N>[(alpha|beta)<M>]` order GA over beta over alpha, then by major, then by minor
/// (`v2` > `v1` > `v1beta2` > `v1beta1` > `v1alpha1`) and above the other names, which order
/// among themselves in reverse of the alphabet.
pub fn compare_kube_aware(a: &str, b: &str) -> core::cmp::Ordering {
    fn number(s: &str) -> Option<u64> {
        (!s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())).then(|| s.parse().unwrap_or(u64::MAX))
    }
    fn parse(v: &str) -> Option<(u8, u64, u64)> {
        let rest = v.strip_prefix('v')?;
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let major = number(&rest[..digits])?;
        let tail = &rest[digits..];
        if tail.is_empty() {
            return Some((2, major, 0));
        }
        match (tail.strip_prefix("beta"), tail.strip_prefix("alpha")) {
            (Some(n), _) => Some((1, major, number(n)?)),
            (_, Some(n)) => Some((0, major, number(n)?)),
            _ => None,
        }
    }
    if a == b {
        return core::cmp::Ordering::Equal;
    }
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (None, Some(_)) => core::cmp::Ordering::Less,
        (Some(_), None) => core::cmp::Ordering::Greater,
        (None, None) => b.cmp(a),
    }
}
