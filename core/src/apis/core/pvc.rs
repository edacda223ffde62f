//! PersistentVolumeClaim, after `pkg/apis/core/v1/defaults.go`
//! (`SetDefaults_PersistentVolumeClaim`, `SetDefaults_PersistentVolumeClaimSpec`),
//! `pkg/registry/core/persistentvolumeclaim/strategy.go` (`PrepareForCreate`,
//! `PrepareForUpdate`), `pkg/api/persistentvolumeclaim/util.go` (`DropDisabledFields`,
//! `EnforceDataSourceBackwardsCompatibility`, `NormalizeDataSources`,
//! `GetWarningsForPersistentVolumeClaim`) and `pkg/apis/core/validation/validation.go`
//! (`ValidationOptionsForPersistentVolumeClaim`, `ValidatePersistentVolumeClaim`,
//! `ValidatePersistentVolumeClaimSpec`, `validateDataSource`, `validateDataSourceRef`,
//! `ValidatePersistentVolumeClaimUpdate`, `validateStorageClassUpgradeFromAnnotation`,
//! `validateStorageClassUpgradeFromNil`).
//!
//! Gates at 1.37: VolumeAttributesClass and RecoverVolumeExpansionFailure on (GA),
//! CrossNamespaceVolumeDataSource off.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::{json, Map, Value as Json};

use super::common::{self, forbidden, required};
use super::pvc_diff::{self, GoJson};
use crate::apis::{json, Context};
use crate::field::{Error, Path};
use crate::quantity::{self, Quantity};

/// `core.BetaStorageClassAnnotation`.
const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
const ACCESS_MODES: &[&str] = &["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

/// `SetObjectDefaults_PersistentVolumeClaim`: `status.phase` `Pending`, `spec.volumeMode`
/// `Filesystem`, and `SetDefaults_ResourceList` (quantities rounded up to the milli) on the
/// requests, limits, capacity and allocated resources.
pub fn default(obj: &mut Json) {
    if let Some(status) = json::struct_mut(obj, "status") {
        json::default_to(status, "phase", json!("Pending"));
        for key in ["capacity", "allocatedResources"] {
            if let Some(list) = status.get_mut(key) {
                round_up_list(list);
            }
        }
    }
    if let Some(spec) = json::struct_mut(obj, "spec") {
        if json::get(spec, "volumeMode").is_none() {
            if let Some(m) = spec.as_object_mut() {
                m.insert(String::from("volumeMode"), json!("Filesystem"));
            }
        }
        if let Some(resources) = spec.get_mut("resources") {
            for key in ["limits", "requests"] {
                if let Some(list) = resources.get_mut(key) {
                    round_up_list(list);
                }
            }
        }
    }
}

/// `SetDefaults_ResourceList`: each quantity rounded up to the milli.
fn round_up_list(v: &mut Json) {
    let Json::Object(map) = v else { return };
    for (_, q) in map.iter_mut() {
        if let Some(rounded) = quantity::from_json(q).and_then(|p| p.rounded_up(-3)) {
            *q = Json::from(rounded.canonical());
        }
    }
}

fn spec_mut(obj: &mut Json) -> Option<&mut Map<String, Json>> {
    json::struct_mut(obj, "spec").and_then(Json::as_object_mut)
}

/// `DropDisabledFields` (CrossNamespaceVolumeDataSource off: a `dataSourceRef` with a
/// namespace is dropped unless the old claim had a `dataSourceRef`).
fn drop_disabled_fields(obj: &mut Json, old: Option<&Json>) {
    let s = json::field(obj, "spec");
    let ns = json::opt_str(json::field(s, "dataSourceRef"), "namespace").unwrap_or("");
    if json::get(s, "dataSourceRef").is_some() && !ns.is_empty() {
        let in_use = old.is_some_and(|o| json::get(json::field(o, "spec"), "dataSourceRef").is_some());
        if !in_use {
            if let Some(m) = spec_mut(obj) {
                m.remove("dataSourceRef");
            }
        }
    }
}

/// `EnforceDataSourceBackwardsCompatibility`.
fn enforce_data_source_compat(obj: &mut Json, old: Option<&Json>) {
    if let Some(o) = old {
        let os = json::field(o, "spec");
        if json::get(os, "dataSource").is_some() || json::get(os, "dataSourceRef").is_some() {
            return;
        }
    }
    let s = json::field(obj, "spec");
    if json::get(s, "dataSourceRef").is_some() {
        return;
    }
    let keep = json::get(s, "dataSource").is_some_and(|ds| {
        let group = json::opt_str(ds, "apiGroup").unwrap_or("");
        let kind = json::str(ds, "kind");
        (kind == "PersistentVolumeClaim" && group.is_empty())
            || (kind == "VolumeSnapshot" && group == "snapshot.storage.k8s.io")
    });
    if !keep {
        if let Some(m) = spec_mut(obj) {
            m.remove("dataSource");
        }
    }
}

/// `NormalizeDataSources`: one of `dataSource` and `dataSourceRef` copied to the other.
fn normalize_data_sources(obj: &mut Json) {
    let s = json::field(obj, "spec");
    let (ds, dsr) = (json::get(s, "dataSource").cloned(), json::get(s, "dataSourceRef").cloned());
    let copy = |from: &Json| {
        let mut m = Map::new();
        if let Some(g) = json::opt_str(from, "apiGroup") {
            m.insert(String::from("apiGroup"), json!(g));
        }
        m.insert(String::from("kind"), json!(json::str(from, "kind")));
        m.insert(String::from("name"), json!(json::str(from, "name")));
        Json::Object(m)
    };
    match (ds, dsr) {
        (Some(ds), None) => {
            let v = copy(&ds);
            if let Some(m) = spec_mut(obj) {
                m.insert(String::from("dataSourceRef"), v);
            }
        }
        (None, Some(dsr)) if json::opt_str(&dsr, "namespace").unwrap_or("").is_empty() => {
            let v = copy(&dsr);
            if let Some(m) = spec_mut(obj) {
                m.insert(String::from("dataSource"), v);
            }
        }
        _ => {}
    }
}

/// The strategy, `ValidatePersistentVolumeClaim`/`ValidatePersistentVolumeClaimUpdate`
/// (metadata aside) and the warnings (Go adds them only when validation passed).
pub fn admit(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let errors = match old {
        None => {
            if let Some(m) = obj.as_object_mut() {
                m.insert(String::from("status"), json!({}));
            }
            drop_disabled_fields(obj, None);
            enforce_data_source_compat(obj, None);
            normalize_data_sources(obj);
            let mut errors = Vec::new();
            validate_spec(json::field(obj, "spec"), false, false, &Path::root().child("spec"), &mut errors);
            errors
        }
        Some(old) => {
            let mut old = old.clone();
            let status = old.get("status").cloned().unwrap_or_else(|| json!({}));
            if let Some(m) = obj.as_object_mut() {
                m.insert(String::from("status"), status);
            }
            drop_disabled_fields(obj, Some(&old));
            enforce_data_source_compat(obj, Some(&old));
            normalize_data_sources(obj);
            normalize_data_sources(&mut old);
            validate_update(obj, &old)
        }
    };
    let warnings = if errors.is_empty() { warnings(obj) } else { Vec::new() };
    (errors, warnings)
}

/// `ValidatePersistentVolumeClaimSpec` with the options of a create, or of an update
/// (`allow_invalid_group`, `allow_invalid_label_value` from the old claim).
pub fn validate_spec(
    spec: &Json,
    allow_invalid_group: bool,
    allow_invalid_label_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let modes = common::strings(spec, "accessModes");
    if modes.is_empty() {
        errors.push(required(&path.child("accessModes"), "at least 1 access mode is required"));
    }
    if let Some(sel) = json::get(spec, "selector") {
        common::validate_label_selector(Some(sel), allow_invalid_label_value, &path.child("selector"), errors);
    }
    let (mut rwop, mut other) = (false, false);
    for mode in &modes {
        let supported = ACCESS_MODES.contains(&mode.as_str());
        if !supported {
            errors.push(Error::not_supported(&path.child("accessModes"), mode, ACCESS_MODES));
        }
        if mode == "ReadWriteOncePod" {
            rwop = true;
        } else if supported {
            other = true;
        }
    }
    if rwop && other {
        errors.push(forbidden(&path.child("accessModes"), "may not use ReadWriteOncePod with other access modes"));
    }
    let rp = path.child("resources");
    let sp = rp.key("storage");
    let requests = json::object(json::field(spec, "resources"), "requests");
    match requests.and_then(|r| r.get("storage")) {
        None => errors.push(required(&sp, "")),
        Some(v) => {
            if let Some(q) = quantity::from_json(v) {
                if q.sign() <= 0 {
                    errors.push(Error::invalid(&sp, q.canonical(), "must be greater than zero"));
                }
            }
        }
    }
    if let Some(sc) = json::opt_str(spec, "storageClassName").filter(|s| !s.is_empty()) {
        for msg in common::is_dns1123_subdomain(sc) {
            errors.push(Error::invalid(&path.child("storageClassName"), sc, msg));
        }
    }
    if let Some(mode) = json::opt_str(spec, "volumeMode") {
        if !matches!(mode, "Block" | "Filesystem") {
            errors.push(Error::not_supported(&path.child("volumeMode"), mode, &["Block", "Filesystem"]));
        }
    }
    let ds = json::get(spec, "dataSource");
    let dsr = json::get(spec, "dataSourceRef");
    if let Some(ds) = ds {
        validate_data_source(ds, false, allow_invalid_group, &path.child("dataSource"), errors);
    }
    if let Some(dsr) = dsr {
        validate_data_source(dsr, true, allow_invalid_group, &path.child("dataSourceRef"), errors);
    }
    let dsr_ns = dsr.and_then(|d| json::opt_str(d, "namespace")).unwrap_or("");
    let mut path_value = |detail: &str| {
        let mut e = Error::invalid(path, Json::Null, detail);
        e.rendered_value = Some(String::from("{}"));
        errors.push(e);
    };
    if !dsr_ns.is_empty() {
        if ds.is_some() {
            path_value("may not be specified when dataSourceRef.namespace is specified");
        }
    } else if let (Some(ds), Some(dsr)) = (ds, dsr) {
        let same = json::opt_str(ds, "apiGroup") == json::opt_str(dsr, "apiGroup")
            && json::str(ds, "kind") == json::str(dsr, "kind")
            && json::str(ds, "name") == json::str(dsr, "name");
        if !same {
            path_value("must match dataSourceRef");
        }
    }
    if let Some(vac) = json::opt_str(spec, "volumeAttributesClassName").filter(|s| !s.is_empty()) {
        for msg in common::is_dns1123_subdomain(vac) {
            errors.push(Error::invalid(&path.child("volumeAttributesClassName"), vac, msg));
        }
    }
}

/// `validateDataSource` and `validateDataSourceRef` (`is_ref` adds the namespace check).
fn validate_data_source(ds: &Json, is_ref: bool, allow_invalid_group: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    if json::str(ds, "name").is_empty() {
        errors.push(required(&path.child("name"), ""));
    }
    let kind = json::str(ds, "kind");
    if kind.is_empty() {
        errors.push(required(&path.child("kind"), ""));
    }
    let group = json::opt_str(ds, "apiGroup").unwrap_or("");
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        errors.push(Error::invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() && !allow_invalid_group {
        for msg in common::is_dns1123_subdomain(group) {
            errors.push(Error::invalid(&path.child("apiGroup"), group, msg));
        }
    }
    if is_ref {
        if let Some(ns) = json::opt_str(ds, "namespace").filter(|n| !n.is_empty()) {
            for msg in common::is_dns1123_label(ns) {
                errors.push(Error::invalid(&path.child("namespace"), ns, msg));
            }
        }
    }
}

fn annotation<'a>(obj: &'a Json, key: &str) -> Option<&'a str> {
    json::object(json::field(obj, "metadata"), "annotations").and_then(|a| a.get(key)).map(|v| v.as_str().unwrap_or(""))
}

fn storage(q: Option<&Map<String, Json>>) -> Option<Quantity> {
    q.and_then(|m| m.get("storage")).and_then(quantity::from_json)
}

fn cmp(a: Option<&Quantity>, b: Option<&Quantity>) -> Ordering {
    let zero = quantity::parse("0").ok();
    let (a, b) = (a.or(zero.as_ref()), b.or(zero.as_ref()));
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(b),
        _ => Ordering::Equal,
    }
}

/// `ValidatePersistentVolumeClaimUpdate` (metadata aside), with
/// `ValidationOptionsForPersistentVolumeClaim`'s options.
pub fn validate_update(obj: &Json, old: &Json) -> Vec<Error> {
    let (spec, os) = (json::field(obj, "spec"), json::field(old, "spec"));
    let allow_group = [json::field(os, "dataSource"), json::field(os, "dataSourceRef")]
        .iter()
        .any(|d| json::opt_str(d, "apiGroup").is_some());
    let mut probe = Vec::new();
    common::validate_label_selector(json::get(os, "selector"), false, &Path::root(), &mut probe);
    let allow_label = !probe.is_empty();
    let mut errors = Vec::new();
    let root = Path::root();
    validate_spec(spec, allow_group, allow_label, &root.child("spec"), &mut errors);

    let mut new_clone = SpecModel::read(spec);
    let mut old_clone = SpecModel::read(os);
    if old_clone.volume_name.is_empty() {
        old_clone.volume_name = new_clone.volume_name.clone();
    }
    let (old_ann, new_ann) = (annotation(old, BETA_STORAGE_CLASS), annotation(obj, BETA_STORAGE_CLASS));
    let (old_sc, new_sc) = (json::opt_str(os, "storageClassName"), json::opt_str(spec, "storageClassName"));
    let upgrade_from_annotation = old_ann.is_some()
        && old_sc.is_none()
        && new_sc.is_some_and(|n| Some(n) == old_ann)
        && new_ann.is_none_or(|n| Some(n) == old_ann);
    if upgrade_from_annotation {
        new_clone.storage_class = None;
    } else {
        let (n, o) = (new_ann.unwrap_or(""), old_ann.unwrap_or(""));
        if n != o {
            let m = root.child("metadata");
            let a = m.child("annotations");
            let at = a.child(BETA_STORAGE_CLASS);
            errors.push(Error::invalid(&at, n, "field is immutable"));
        }
        if new_sc.is_some() && old_sc.is_none() && old_ann.is_none_or(|a| Some(a) == new_sc) {
            new_clone.storage_class = old_clone.storage_class.clone();
        }
    }
    let bound = json::str(json::field(obj, "status"), "phase") == "Bound";
    if bound {
        if let Some(req) = new_clone.requests.as_mut() {
            let old_storage = old_clone
                .requests
                .as_ref()
                .and_then(|r| r.iter().find(|(k, _)| k == "storage").map(|(_, v)| v.clone()))
                .unwrap_or_else(|| String::from("0"));
            match req.iter_mut().find(|(k, _)| k == "storage") {
                Some(slot) => slot.1 = old_storage,
                None => {
                    req.push((String::from("storage"), old_storage));
                    req.sort();
                }
            }
        }
        new_clone.vac = old_clone.vac.clone();
    }
    let requests = |o: &Json| json::object(json::field(json::field(o, "spec"), "resources"), "requests").cloned();
    let (old_req, new_req) = (requests(old), requests(obj));
    let old_size = storage(old_req.as_ref());
    let new_size = storage(new_req.as_ref());
    let status_size = storage(json::object(json::field(old, "status"), "capacity"));
    if !new_clone.semantic_eq(&old_clone) {
        let d = pvc_diff::diff(&old_clone.to_go_json(), &new_clone.to_go_json());
        errors.push(forbidden(
            &root.child("spec"),
            &format!("spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n{d}"),
        ));
    }
    if cmp(new_size.as_ref(), old_size.as_ref()) == Ordering::Less
        && cmp(new_size.as_ref(), status_size.as_ref()) != Ordering::Greater
    {
        let sp = root.child("spec");
        let rp = sp.child("resources");
        let qp = rp.child("requests");
        errors.push(forbidden(&qp.child("storage"), "field can not be less than status.capacity"));
    }
    let (new_mode, old_mode) = (json::opt_str(spec, "volumeMode"), json::opt_str(os, "volumeMode"));
    if new_mode != old_mode {
        errors.push(Error::invalid(
            &root.child("volumeMode"),
            new_mode.map_or(Json::Null, Json::from),
            "field is immutable",
        ));
    }
    let (new_vac, old_vac) =
        (json::opt_str(spec, "volumeAttributesClassName"), json::opt_str(os, "volumeAttributesClassName"));
    if new_vac != old_vac && json::opt_str(json::field(old, "status"), "currentVolumeAttributesClassName").is_some() {
        let sp = root.child("spec");
        let vp = sp.child("volumeAttributesClassName");
        match new_vac {
            None => errors.push(forbidden(
                &vp,
                "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some("") => errors.push(forbidden(
                &vp,
                "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some(_) => {}
        }
    }
    errors
}

/// The internal `PersistentVolumeClaimSpec`, for `Semantic.DeepEqual` and the diff.
#[derive(Clone, Debug)]
struct SpecModel {
    access_modes: Option<Vec<String>>,
    selector: Option<Json>,
    limits: Option<Vec<(String, String)>>,
    requests: Option<Vec<(String, String)>>,
    volume_name: String,
    storage_class: Option<String>,
    volume_mode: Option<String>,
    data_source: Option<Json>,
    data_source_ref: Option<Json>,
    vac: Option<String>,
}

fn resource_list(v: &Json, key: &str) -> Option<Vec<(String, String)>> {
    json::object(v, key).map(|m| {
        m.iter()
            .map(|(k, q)| {
                let raw = q.as_str().map_or_else(|| q.to_string(), String::from);
                (k.clone(), quantity::from_json(q).map_or(raw, |q| q.canonical()))
            })
            .collect()
    })
}

fn opt_string(v: &Json, key: &str) -> Option<String> {
    json::opt_str(v, key).map(String::from)
}

/// Semantic equality of two resource lists: nil equals empty, quantities compared by value.
fn lists_eq(a: &Option<Vec<(String, String)>>, b: &Option<Vec<(String, String)>>) -> bool {
    let (a, b) = (a.as_deref().unwrap_or(&[]), b.as_deref().unwrap_or(&[]));
    a.len() == b.len()
        && a.iter().zip(b).all(|((ka, va), (kb, vb))| {
            ka == kb
                && match (quantity::parse(va), quantity::parse(vb)) {
                    (Ok(x), Ok(y)) => x.cmp(&y) == Ordering::Equal,
                    _ => va == vb,
                }
        })
}

/// A JSON value with empty lists and maps dropped (nil equals empty).
fn semantic(v: &Json) -> Json {
    match v {
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(_, x)| {
                    !matches!(x, Json::Array(a) if a.is_empty()) && !matches!(x, Json::Object(o) if o.is_empty())
                })
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), semantic_shallow(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn semantic_shallow(v: &Json) -> Json {
    match v {
        Json::Array(items) => {
            Json::Array(items.iter().map(|i| if i.is_object() { semantic_leaf(i) } else { i.clone() }).collect())
        }
        Json::Object(_) => semantic_leaf(v),
        other => other.clone(),
    }
}

fn semantic_leaf(v: &Json) -> Json {
    match v {
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .filter(|(_, x)| {
                    !matches!(x, Json::Array(a) if a.is_empty()) && !matches!(x, Json::Object(o) if o.is_empty())
                })
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl SpecModel {
    fn read(s: &Json) -> SpecModel {
        let resources = json::field(s, "resources");
        SpecModel {
            access_modes: json::get(s, "accessModes").map(|_| common::strings(s, "accessModes")),
            selector: json::get(s, "selector").cloned(),
            limits: resource_list(resources, "limits"),
            requests: resource_list(resources, "requests"),
            volume_name: String::from(json::str(s, "volumeName")),
            storage_class: opt_string(s, "storageClassName"),
            volume_mode: opt_string(s, "volumeMode"),
            data_source: json::get(s, "dataSource").cloned(),
            data_source_ref: json::get(s, "dataSourceRef").cloned(),
            vac: opt_string(s, "volumeAttributesClassName"),
        }
    }

    fn semantic_eq(&self, o: &SpecModel) -> bool {
        self.access_modes.as_deref().unwrap_or(&[]) == o.access_modes.as_deref().unwrap_or(&[])
            && self.selector.as_ref().map(semantic) == o.selector.as_ref().map(semantic)
            && lists_eq(&self.limits, &o.limits)
            && lists_eq(&self.requests, &o.requests)
            && self.volume_name == o.volume_name
            && self.storage_class == o.storage_class
            && self.volume_mode == o.volume_mode
            && self.data_source.as_ref().map(semantic) == o.data_source.as_ref().map(semantic)
            && self.data_source_ref.as_ref().map(semantic) == o.data_source_ref.as_ref().map(semantic)
            && self.vac == o.vac
    }

    /// The internal struct as `json.Marshal` writes it (Go field names, no tags).
    fn to_go_json(&self) -> GoJson {
        let s = |v: &Option<String>| v.as_ref().map_or(GoJson::Null, |x| GoJson::Str(x.clone()));
        let list = |v: &Option<Vec<(String, String)>>| {
            v.as_ref().map_or(GoJson::Null, |l| {
                let mut l = l.clone();
                l.sort();
                GoJson::Obj(l.into_iter().map(|(k, q)| (k, GoJson::Str(q))).collect())
            })
        };
        let local_ref = |v: &Option<Json>, with_ns: bool| {
            v.as_ref().map_or(GoJson::Null, |d| {
                let mut f = alloc::vec![
                    (String::from("APIGroup"), s(&opt_string(d, "apiGroup"))),
                    (String::from("Kind"), GoJson::Str(String::from(json::str(d, "kind")))),
                    (String::from("Name"), GoJson::Str(String::from(json::str(d, "name")))),
                ];
                if with_ns {
                    f.push((String::from("Namespace"), s(&opt_string(d, "namespace"))));
                }
                GoJson::Obj(f)
            })
        };
        GoJson::Obj(alloc::vec![
            (
                String::from("AccessModes"),
                self.access_modes
                    .as_ref()
                    .map_or(GoJson::Null, |m| GoJson::Arr(m.iter().map(|x| GoJson::Str(x.clone())).collect())),
            ),
            (String::from("Selector"), self.selector.as_ref().map_or(GoJson::Null, selector_json)),
            (
                String::from("Resources"),
                GoJson::Obj(alloc::vec![
                    (String::from("Limits"), list(&self.limits)),
                    (String::from("Requests"), list(&self.requests)),
                ]),
            ),
            (String::from("VolumeName"), GoJson::Str(self.volume_name.clone())),
            (String::from("StorageClassName"), s(&self.storage_class)),
            (String::from("VolumeMode"), s(&self.volume_mode)),
            (String::from("DataSource"), local_ref(&self.data_source, false)),
            (String::from("DataSourceRef"), local_ref(&self.data_source_ref, true)),
            (String::from("VolumeAttributesClassName"), s(&self.vac)),
        ])
    }
}

/// A `metav1.LabelSelector` as `json.Marshal` writes it (its json tags, `omitempty`).
fn selector_json(sel: &Json) -> GoJson {
    let mut f = Vec::new();
    let labels = json::string_map(sel, "matchLabels");
    if !labels.is_empty() {
        f.push((
            String::from("matchLabels"),
            GoJson::Obj(labels.into_iter().map(|(k, v)| (String::from(k), GoJson::Str(String::from(v)))).collect()),
        ));
    }
    let exprs = json::list(sel, "matchExpressions");
    if !exprs.is_empty() {
        let items = exprs
            .iter()
            .map(|e| {
                let mut g = alloc::vec![
                    (String::from("key"), GoJson::Str(String::from(json::str(e, "key")))),
                    (String::from("operator"), GoJson::Str(String::from(json::str(e, "operator")))),
                ];
                let values = common::strings(e, "values");
                if !values.is_empty() {
                    g.push((String::from("values"), GoJson::Arr(values.into_iter().map(GoJson::Str).collect())));
                }
                GoJson::Obj(g)
            })
            .collect();
        f.push((String::from("matchExpressions"), GoJson::Arr(items)));
    }
    GoJson::Obj(f)
}

/// `GetWarningsForPersistentVolumeClaim`: the deprecated storage-class annotation, and
/// fractional byte quantities for storage.
pub fn warnings(obj: &Json) -> Vec<String> {
    let mut w = Vec::new();
    if annotation(obj, BETA_STORAGE_CLASS).is_some() {
        w.push(format!(
            "metadata.annotations[{BETA_STORAGE_CLASS}]: deprecated since v1.8; use \"storageClassName\" attribute instead"
        ));
    }
    let resources = json::field(json::field(obj, "spec"), "resources");
    for key in ["requests", "limits"] {
        let q = storage(json::object(resources, key));
        if let Some(q) = q.filter(is_fractional) {
            w.push(format!(
                "spec.resources.{key}[storage]: fractional byte value {} is invalid, must be an integer",
                crate::field::go_quote(&q.canonical())
            ));
        }
    }
    w
}

/// `q.MilliValue() % 1000 != 0`.
fn is_fractional(q: &Quantity) -> bool {
    q.milli_value() % 1000 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pvc(spec: Json) -> Json {
        let mut obj = json!({"metadata": {"name": "claim"}, "spec": spec});
        default(&mut obj);
        obj
    }

    fn create(spec: Json) -> Vec<String> {
        let mut obj = pvc(spec);
        admit(Context::new(37, false), &mut obj, None).0.iter().map(Error::text).collect()
    }

    // TestValidatePersistentVolumeClaim (a selection; quantity-free cases).
    #[test]
    fn validate_claim() {
        assert_eq!(
            create(json!({"resources": {}})),
            [
                "spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"
            ]
        );
        assert_eq!(
            create(json!({"accessModes": ["ReadWriteOncePod", "ReadWriteOnce"], "resources": {}}))[0],
            "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"
        );
        assert_eq!(
            create(json!({"accessModes": ["fakemode"], "resources": {}}))[0],
            "spec.accessModes: Unsupported value: \"fakemode\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""
        );
        assert_eq!(
            create(json!({"accessModes": ["ReadWriteOnce"], "resources": {}, "volumeMode": "fakeVolumeMode"}))[1],
            "spec.volumeMode: Unsupported value: \"fakeVolumeMode\": supported values: \"Block\", \"Filesystem\""
        );
        assert_eq!(
            create(
                json!({"accessModes": ["ReadWriteOnce"], "resources": {}, "dataSourceRef": {"kind": "PersistentVolumeClaim"}})
            )[1],
            "spec.dataSource.name: Required value"
        );
    }
}
