//! `checkManifests`: `kubedv check` for files held in JavaScript (kubedv-input's
//! [`check_files`]), returning the CLI's JSON document. In `kubedv/full` only: the check engine
//! (API lifecycle tables, CRD routing, positions) would put the core module over its budget.

use kubedv_input::crd_catalog::{Index, Pin};
use kubedv_input::manifests::{self, check_files, File, Options, Types};
use wasm_bindgen::prelude::*;

use crate::{from_js, given, into_error, to_js, Fields};

#[wasm_bindgen(typescript_custom_section)]
const TS_MANIFESTS: &str = r#"
/** A file of manifests held in memory: YAML (one or more documents) or JSON. */
export interface ManifestFile {
  path: string;
  text: string;
}

/** Go types for `checkManifests`: a types.go source, with the sources of packages it imports. */
export type ManifestTypes = string | { source: string; imports?: Record<string, string> };

export interface CheckOptions {
  /** "1.16" to the newest: removed and deprecated API versions, and that release's rules.
   * Default: the catalog's release when one is given, else the newest. */
  k8sVersion?: string;
  /** Documents with no schema are errors, not warnings. */
  strict?: boolean;
  /** What unknown fields of built-in kinds do, as the API server's `fieldValidation`:
   * "Strict" (refused; the default, as `kubectl apply` asks), "Warn" or "Ignore". */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  /** Files holding further CRDs (CRDs among the files are used too). */
  crds?: ManifestFile[];
  /** `+k8s:` tagged Go types whose kinds to validate (group from `+groupName`, version from the package). */
  types?: ManifestTypes[];
  /** The old revision's files: documents pair by group, kind, namespace and name for update checks. */
  old?: ManifestFile[];
  /** The built-in kinds catalog (`await loadCatalog("1.37")` from `kubedv/catalog`, or its text). */
  catalog?: string | { text: string };
  /** The CRD catalog (`await loadCrdCatalog()` from `kubedv/crds`), with the projects the files
   * need loaded (`await crdCatalog.load(crdCatalogNeeds(files, options))`): custom resources no
   * CRD given serves are checked with the CRD of its newest release serving them, or of the
   * release `pins` names (`["istio@1.28", "gateway-api-experimental"]`). */
  crdCatalog?: { index: string; projects: Record<string, string>; pins?: string[] };
}

/** An error at the line and column of the field it names. */
export interface LocatedError extends FieldError {
  line: number;
  column: number;
}

/** One document as `kubedv check --format json` reports it. */
export interface CheckedDocument {
  file: string;
  /** The document's number in its file (0-based). */
  index: number;
  /** The document's first line. */
  line: number;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  status: "valid" | "invalid" | "skipped" | "unreadable";
  errors: LocatedError[];
  /** From the old revision: rejected on update only. */
  updateErrors: LocatedError[];
  warnings: { message: string; line: number; column: number }[];
  /** Why a document was skipped or is unreadable. */
  why?: string;
  /** What judged it: "crd", "types", "kubernetes" (a built-in kind whose whole API server path is modeled) or "builtin" (declarative rules and metadata checks only). */
  checkedBy?: string;
  /** The CRD catalog's CRD that answered ("cert-manager@v1.21.1"), when no CRD given served the kind. */
  crdCatalog?: string;
}

export interface CheckReport {
  documents: CheckedDocument[];
  summary: { documents: number; valid: number; invalid: number; skipped: number; unreadable: number };
}
"#;

const USAGE: &str =
    "check options are {k8sVersion?, strict?, fieldValidation?, crds?, types?, old?, catalog?, crdCatalog?}";

/// Checks every document of the files as `kubedv check` does: CRDs among them or in `crds`,
/// the CRD catalog's for custom resources no CRD given serves, tagged Go types, built-in kinds
/// with a loaded catalog, API versions the release no longer serves, update checks against
/// `old`. Throws for options that cannot be used (types that do not compile, an unreadable CRD
/// file, a damaged catalog, a catalog project needed but not loaded); a bad document is
/// reported in the result, never thrown.
#[wasm_bindgen(js_name = checkManifests, unchecked_return_type = "CheckReport")]
pub fn check_manifests(
    #[wasm_bindgen(unchecked_param_type = "ManifestFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CheckOptions | null")] opts: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let files = file_list(from_js(files, "checkManifests expects files as [{path, text}]")?, "files")?;
    let given = Given::read(opts)?;
    let crd_catalog = given.crd_catalog.as_ref().map(GivenCrdCatalog::parse).transpose()?;
    let load = |project: &str| -> Result<String, String> {
        let c = given.crd_catalog.as_ref().ok_or("no CRD catalog")?;
        c.projects.get(project).cloned().ok_or_else(|| {
            String::from("not loaded: load it first (`await crdCatalog.load(crdCatalogNeeds(files, options))`)")
        })
    };
    let mut options = given.options();
    options.crd_catalog = crd_catalog.as_ref().map(|(index, pins)| manifests::CrdCatalog { index, pins, load: &load });
    let outcome = check_files(&as_files(&files), &options).map_err(|e| into_error(e.0))?;
    to_js(&outcome)
}

/// The projects of the CRD catalog `checkManifests` needs for these files and options (given
/// `crdCatalog`, whose projects need not be loaded yet): what to pass to `crdCatalog.load`.
#[wasm_bindgen(js_name = crdCatalogNeeds, unchecked_return_type = "string[]")]
pub fn crd_catalog_needs(
    #[wasm_bindgen(unchecked_param_type = "ManifestFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CheckOptions")] opts: JsValue,
) -> Result<JsValue, JsError> {
    let files = file_list(from_js(files, "crdCatalogNeeds expects files as [{path, text}]")?, "files")?;
    let given = Given::read(Some(opts))?;
    let Some((index, pins)) = given.crd_catalog.as_ref().map(GivenCrdCatalog::parse).transpose()? else {
        return Err(into_error("crdCatalogNeeds: the options have no `crdCatalog` (from kubedv/crds: loadCrdCatalog)"));
    };
    let needs = manifests::crd_catalog_needs(&as_files(&files), &given.options(), &index, &pins)
        .map_err(|e| into_error(e.0))?;
    to_js(&needs)
}

/// The check options, read and owned.
struct Given {
    minor: u32,
    strict: bool,
    field_validation: kubedv_core::check::FieldValidation,
    crds: Vec<(String, String)>,
    old: Vec<(String, String)>,
    types: Vec<(String, Vec<(String, String)>)>,
    catalog: Option<String>,
    crd_catalog: Option<GivenCrdCatalog>,
}

/// The `crdCatalog` option: a `CrdCatalog` of kubedv/crds (its index text, the project files
/// loaded so far, the pins).
struct GivenCrdCatalog {
    index: String,
    projects: std::collections::BTreeMap<String, String>,
    pins: Vec<String>,
}

impl GivenCrdCatalog {
    /// Read field by field: the project files are large texts, not to go through JSON.
    fn read(value: &JsValue) -> Result<GivenCrdCatalog, JsError> {
        let wrong = || {
            into_error("check options: `crdCatalog` must be a CrdCatalog from kubedv/crds (loadCrdCatalog): {index, projects, pins?}")
        };
        let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let index = get(value, "index").as_string().ok_or_else(wrong)?;
        let mut projects = std::collections::BTreeMap::new();
        if let Some(p) = given(Some(get(value, "projects"))) {
            let p: js_sys::Object = p.dyn_into().map_err(|_| wrong())?;
            for key in js_sys::Object::keys(&p).iter() {
                let name = key.as_string().ok_or_else(wrong)?;
                projects.insert(name, get(&p, &key.as_string().unwrap_or_default()).as_string().ok_or_else(wrong)?);
            }
        }
        let pins = match given(Some(get(value, "pins"))) {
            None => Vec::new(),
            Some(p) => {
                from_js::<Vec<String>>(p, "check options: `crdCatalog.pins` must be a list of PROJECT[@RELEASE]")?
            }
        };
        Ok(GivenCrdCatalog { index, projects, pins })
    }

    fn parse(&self) -> Result<(Index, Vec<Pin>), JsError> {
        let index = Index::parse(&self.index).map_err(|e| into_error(format!("crdCatalog: {e}")))?;
        let pins: Vec<Pin> = self
            .pins
            .iter()
            .map(|p| Pin::parse(p))
            .collect::<Result<_, _>>()
            .map_err(|e| into_error(format!("crdCatalog.pins: {e}")))?;
        Ok((index, pins))
    }
}

impl Given {
    fn read(opts: Option<JsValue>) -> Result<Given, JsError> {
        let (mut f, catalog, crd_catalog) = match given(opts) {
            None => (None, None, None),
            Some(opts) => {
                // The catalogs are read on their own: they are large, and only their texts are needed.
                let catalog = catalog_text(&opts)?;
                let crd_catalog = match given(js_sys::Reflect::get(&opts, &"crdCatalog".into()).ok()) {
                    Some(c) => Some(GivenCrdCatalog::read(&c)?),
                    None => None,
                };
                let rest = js_sys::Object::assign(&js_sys::Object::new(), &opts.into());
                let _ = js_sys::Reflect::delete_property(&rest, &"catalog".into());
                let _ = js_sys::Reflect::delete_property(&rest, &"crdCatalog".into());
                (Some(Fields::from_js(rest.into(), USAGE)?), catalog, crd_catalog)
            }
        };
        let catalog_release = catalog.as_deref().and_then(|c| c.lines().find_map(|l| l.strip_prefix("kubernetes ")));
        let version = f.as_mut().map(|f| f.string("k8sVersion")).transpose()?.flatten();
        let minor = match (&version, catalog_release) {
            (Some(v), _) => manifests::release(v).map_err(|e| into_error(format!("k8sVersion {e}")))?,
            (None, Some(c)) => manifests::release(c).map_err(|e| into_error(format!("the catalog's release {e}")))?,
            (None, None) => kubedv_core::declarative::shadow::NEWEST_MINOR,
        };
        if let (Some(c), Some(v)) = (catalog_release, &version) {
            if c != v {
                return Err(into_error(format!("the catalog is Kubernetes {c}'s, not {v}'s: load the catalog of {v}")));
            }
        }
        let strict = f.as_mut().map(|f| f.boolean("strict")).transpose()?.flatten().unwrap_or(false);
        let field_validation = match f.as_mut().map(|f| f.string("fieldValidation")).transpose()?.flatten() {
            Some(v) => kubedv_core::check::FieldValidation::parse(&v).map_err(into_error)?,
            None => Default::default(),
        };
        let mut take_files = |key: &str| -> Result<Vec<(String, String)>, JsError> {
            match f.as_mut().and_then(|f| f.value(key)) {
                None => Ok(Vec::new()),
                Some(v) => file_list(v, key),
            }
        };
        let (crds, old) = (take_files("crds")?, take_files("old")?);
        let types = match f.as_mut().and_then(|f| f.value("types")) {
            None => Vec::new(),
            Some(serde_json::Value::Array(items)) => items.into_iter().map(types_entry).collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(into_error("check options: `types` must be a list of Go sources or {source, imports?}"))
            }
        };
        if let Some(f) = f {
            f.finish()?;
        }
        Ok(Given { minor, strict, field_validation, crds, old, types, catalog, crd_catalog })
    }

    /// The options for kubedv-input (without the CRD catalog, which the caller adds).
    fn options(&self) -> Options<'_> {
        Options {
            minor: self.minor,
            strict: self.strict,
            field_validation: self.field_validation,
            crds: as_files(&self.crds),
            types: self
                .types
                .iter()
                .map(|(source, imports)| Types {
                    source,
                    imports: imports.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect(),
                })
                .collect(),
            old: as_files(&self.old),
            catalog: self.catalog.as_deref(),
            crd_catalog: None,
        }
    }
}

fn as_files(list: &[(String, String)]) -> Vec<File<'_>> {
    list.iter().map(|(path, text)| File { path, text }).collect()
}

/// `[{path, text}]`.
fn file_list(value: serde_json::Value, what: &str) -> Result<Vec<(String, String)>, JsError> {
    let wrong = || into_error(format!("checkManifests: `{what}` must be a list of {{path, text}}"));
    let serde_json::Value::Array(items) = value else { return Err(wrong()) };
    items
        .into_iter()
        .map(|item| match item {
            serde_json::Value::Object(mut o) => match (o.remove("path"), o.remove("text")) {
                (Some(serde_json::Value::String(p)), Some(serde_json::Value::String(t))) if o.is_empty() => Ok((p, t)),
                _ => Err(wrong()),
            },
            _ => Err(wrong()),
        })
        .collect()
}

/// A `types` entry: a source, or `{source, imports?}`.
fn types_entry(value: serde_json::Value) -> Result<(String, Vec<(String, String)>), JsError> {
    let wrong = || into_error("check options: each of `types` must be a Go source or {source, imports?}");
    match value {
        serde_json::Value::String(source) => Ok((source, Vec::new())),
        serde_json::Value::Object(mut o) => {
            let Some(serde_json::Value::String(source)) = o.remove("source") else { return Err(wrong()) };
            let imports = match o.remove("imports") {
                None | Some(serde_json::Value::Null) => Vec::new(),
                Some(serde_json::Value::Object(m)) => m
                    .into_iter()
                    .map(|(p, t)| match t {
                        serde_json::Value::String(t) => Ok((p, t)),
                        _ => Err(wrong()),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err(wrong()),
            };
            if !o.is_empty() {
                return Err(wrong());
            }
            Ok((source, imports))
        }
        _ => Err(wrong()),
    }
}

/// The catalog option: its text, or the `text` of a `Catalog` from `kubedv/catalog`.
fn catalog_text(opts: &JsValue) -> Result<Option<String>, JsError> {
    let value = js_sys::Reflect::get(opts, &"catalog".into()).unwrap_or(JsValue::UNDEFINED);
    let value = match given(Some(value)) {
        None => return Ok(None),
        Some(v) if v.is_string() => v,
        Some(v) => js_sys::Reflect::get(&v, &"text".into()).unwrap_or(JsValue::UNDEFINED),
    };
    value.as_string().map(Some).ok_or_else(|| {
        into_error("check options: `catalog` must be a Catalog from kubedv/catalog (loadCatalog) or its text")
    })
}
