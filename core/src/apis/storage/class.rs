//! StorageClass, VolumeAttributesClass and CSIStorageCapacity, after Kubernetes'
//! `pkg/apis/storage/validation/validation.go` (`ValidateStorageClass`,
//! `ValidateStorageClassUpdate`, `validateProvisioner`, `validateParameters`,
//! `validateReclaimPolicy`, `validateVolumeBindingMode`, `validateAllowedTopologies`,
//! `ValidateVolumeAttributesClass`, `ValidateVolumeAttributesClassUpdate`,
//! `ValidateCSIStorageCapacity`, `ValidateCSIStorageCapacityUpdate`), core validation's
//! `ValidateTopologySelectorTerm` and `validateTopologySelectorLabelRequirement`,
//! `pkg/api/storage/util.go` (`GetWarningsForStorageClass`, `GetWarningsForCSIStorageCapacity`)
//! and `pkg/registry/storage/csistoragecapacity/strategy.go` (`ValidateUpdate`'s selector option).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::{forbidden, invalid_rendered, not_supported_rendered, required, same};
use crate::apis::apps::selector;
use crate::apis::core::common::{duplicate, is_dns1123_subdomain, validate_label_name, validate_qualified_name};
use crate::apis::json::{field, get, list, opt_str, str};
use crate::field::{go_json, Error, Path};
use crate::quantity;

/// `maxProvisionerParameterSize`: 256 kB.
const MAX_PARAMETER_SIZE: i64 = 256 * (1 << 10);
/// `maxProvisionerParameterLen`.
const MAX_PARAMETER_LEN: usize = 512;

/// `ValidateStorageClass` (metadata aside) on create; on update, the strategy runs it and then
/// `ValidateStorageClassUpdate`'s immutable fields.
pub(super) fn validate_storage_class(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    validate_provisioner(str(object, "provisioner"), &root.child("provisioner"), errors);
    validate_parameters(object.get("parameters"), true, &root.child("parameters"), errors);
    validate_reclaim_policy(opt_str(object, "reclaimPolicy"), &root.child("reclaimPolicy"), errors);
    validate_volume_binding_mode(opt_str(object, "volumeBindingMode"), &root.child("volumeBindingMode"), errors);
    validate_allowed_topologies(list(object, "allowedTopologies"), &root.child("allowedTopologies"), errors);
    // ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy and volumeBindingMode
    // are immutable, each check `MarkCoveredByDeclarative` (origin `immutable`). The declarative
    // rules report them (`<field>: Invalid value: null: field is immutable`), and the API server
    // drops the covered handwritten errors they match, so they are not repeated here.
}

/// `validateProvisioner` (also a VolumeAttributesClass's `driverName`).
fn validate_provisioner(provisioner: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if provisioner.is_empty() {
        errors.push(required(path, provisioner));
    } else {
        validate_qualified_name(&provisioner.to_lowercase(), path, errors);
    }
}

/// `validateParameters`: at most 512 entries, no empty key, 256 kB in all; with `allow_empty`
/// false, at least one entry.
fn validate_parameters(params: Option<&Json>, allow_empty: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let map = params.and_then(Json::as_object);
    let len = map.map_or(0, serde_json::Map::len);
    if len > MAX_PARAMETER_LEN {
        errors.push(Error::too_long(path, MAX_PARAMETER_LEN as i64));
        return;
    }
    let mut size: i64 = 0;
    for (k, v) in map.into_iter().flatten() {
        if k.is_empty() {
            errors.push(Error::invalid(path, k.as_str(), "field can not be empty."));
        }
        size = size.saturating_add(k.len() as i64).saturating_add(v.as_str().map_or(0, str::len) as i64);
    }
    if size > MAX_PARAMETER_SIZE {
        errors.push(Error::too_long(path, MAX_PARAMETER_SIZE));
    }
    if !allow_empty && len == 0 {
        errors.push(required(path, "must contain at least one key/value pair"));
    }
}

/// `validateReclaimPolicy`: `Delete` or `Retain` (an empty one passes).
fn validate_reclaim_policy(policy: Option<&str>, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(p) = policy.filter(|p| !p.is_empty()) {
        if !matches!(p, "Delete" | "Retain") {
            errors.push(not_supported_rendered(path, Json::from(p), go_json(&Json::from(p)), &["Delete", "Retain"]));
        }
    }
}

/// `validateVolumeBindingMode`: required, `Immediate` or `WaitForFirstConsumer`.
fn validate_volume_binding_mode(mode: Option<&str>, path: &Path<'_>, errors: &mut Vec<Error>) {
    match mode {
        None => errors.push(required(path, "")),
        Some("Immediate" | "WaitForFirstConsumer") => {}
        Some(m) => errors.push(not_supported_rendered(
            path,
            Json::from(m),
            go_json(&Json::from(m)),
            &["Immediate", "WaitForFirstConsumer"],
        )),
    }
}

/// A topology term in raw form: each key's set of values.
pub(crate) type ExprMap = BTreeMap<String, BTreeSet<String>>;

/// `validateAllowedTopologies`: each term valid, no term repeated. Go compares each term with
/// the terms before it in a list that starts with one nil map per term
/// (`make([]map[string]sets.Set[string], len(topologies))`, then `append`), and
/// `Semantic.DeepEqual` equates a nil map with an empty one: a term without expressions is a
/// duplicate of each of them.
fn validate_allowed_topologies(terms: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    if terms.is_empty() {
        return;
    }
    let mut raw: Vec<ExprMap> = terms.iter().map(|_| ExprMap::new()).collect();
    for (i, term) in terms.iter().enumerate() {
        let at = path.index(i);
        let expr_map = validate_topology_selector_term(term, &at, errors);
        for t in &raw {
            if *t == expr_map {
                errors.push(duplicate(&at.child("matchLabelExpressions"), ""));
            }
        }
        raw.push(expr_map);
    }
}

/// core validation `ValidateTopologySelectorTerm`: the term's requirements, and its raw form.
pub(crate) fn validate_topology_selector_term(term: &Json, path: &Path<'_>, errors: &mut Vec<Error>) -> ExprMap {
    let mut expr_map = ExprMap::new();
    let exprs = path.child("matchLabelExpressions");
    for (i, req) in list(term, "matchLabelExpressions").iter().enumerate() {
        let at = exprs.index(i);
        // validateTopologySelectorLabelRequirement.
        let mut values = BTreeSet::new();
        let values_path = at.child("values");
        let items = list(req, "values");
        if items.is_empty() {
            errors.push(required(&values_path, ""));
        }
        for (j, v) in items.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            if !values.insert(String::from(v)) {
                errors.push(duplicate(&values_path.index(j), v));
            }
        }
        let key = str(req, "key");
        validate_label_name(key, &at.child("key"), errors);
        if expr_map.contains_key(key) {
            errors.push(duplicate(&at.child("key"), key));
        }
        expr_map.insert(String::from(key), values);
    }
    expr_map
}

/// storage util `GetWarningsForStorageClass`: deprecated node labels in `allowedTopologies`.
pub(super) fn storage_class_warnings(object: &Json) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, term) in list(object, "allowedTopologies").iter().enumerate() {
        for (j, expr) in list(term, "matchLabelExpressions").iter().enumerate() {
            if let Some(msg) = crate::apis::core::pod_warnings::node_label_deprecated(str(expr, "key")) {
                warnings.push(format!("allowedTopologies[{i}].matchLabelExpressions[{j}].key: {msg}"));
            }
        }
    }
    warnings
}

/// `ValidateVolumeAttributesClass` (metadata aside) on create,
/// `ValidateVolumeAttributesClassUpdate` on update.
pub(super) fn validate_volume_attributes_class(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    if let Some(old) = old {
        if str(object, "driverName") != str(old, "driverName") {
            errors.push(forbidden(&root.child("driverName"), "updates to driverName are forbidden."));
        }
        // reflect.DeepEqual: a nil map differs from an empty one.
        let params = |o: &Json| get(o, "parameters").cloned();
        if params(object) != params(old) {
            errors.push(forbidden(&root.child("parameters"), "updates to parameters are forbidden."));
        }
    }
    validate_provisioner(str(object, "driverName"), &root.child("driverName"), errors);
    validate_parameters(object.get("parameters"), false, &root.child("parameters"), errors);
}

/// The strategy's `Validate` / `ValidateUpdate`: `ValidateCSIStorageCapacity` (metadata aside;
/// on update, invalid label values allowed when the old selector is invalid), then on update
/// `ValidateCSIStorageCapacityUpdate`.
pub(super) fn validate_csi_storage_capacity(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let topology = get(object, "nodeTopology");
    // hasInvalidLabelValueInLabelSelector: any error of the old selector.
    let allow_invalid = old.is_some_and(|o| {
        let mut old_errors = Vec::new();
        selector::validate(get(o, "nodeTopology"), false, &Path::root(), &mut old_errors);
        !old_errors.is_empty()
    });
    selector::validate(topology, allow_invalid, &root.child("nodeTopology"), errors);
    let class = str(object, "storageClassName");
    for msg in is_dns1123_subdomain(class) {
        errors.push(Error::invalid(&root.child("storageClassName"), class, msg));
    }
    if let Some(q) = get(object, "capacity").and_then(quantity::from_json) {
        // ValidateNonnegativeQuantity: the value printed as `value.String()`.
        if q.sign() < 0 {
            errors.push(Error::invalid(&root.child("capacity"), q.canonical(), "must be greater than or equal to 0"));
        }
    }
    let Some(old) = old else { return };
    if !same(topology.unwrap_or(&Json::Null), field(old, "nodeTopology")) {
        let value = topology.cloned().unwrap_or(Json::Null);
        errors.push(invalid_rendered(
            &root.child("nodeTopology"),
            value,
            selector::render(topology),
            "field is immutable",
        ));
    }
    if class != str(old, "storageClassName") {
        errors.push(Error::invalid(&root.child("storageClassName"), class, "field is immutable"));
    }
}

/// storage util `GetWarningsForCSIStorageCapacity` (node `GetWarningsForNodeSelector` on
/// `nodeTopology`): deprecated node labels in its expressions, then in its labels.
pub(super) fn csi_storage_capacity_warnings(object: &Json) -> Vec<String> {
    let mut warnings = Vec::new();
    let Some(sel) = get(object, "nodeTopology") else { return warnings };
    let deprecated = crate::apis::core::pod_warnings::node_label_deprecated;
    for (i, expr) in list(sel, "matchExpressions").iter().enumerate() {
        let key = str(expr, "key");
        if let Some(msg) = deprecated(key) {
            warnings.push(format!("nodeTopology.matchExpressions[{i}].key: {key} is {msg}"));
        }
    }
    for key in crate::apis::json::object(sel, "matchLabels").into_iter().flat_map(|m| m.keys()) {
        if let Some(msg) = deprecated(key) {
            warnings.push(format!("nodeTopology.matchLabels.{key}: {msg}"));
        }
    }
    warnings
}
