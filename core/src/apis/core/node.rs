//! Node, after `pkg/apis/core/v1/defaults.go` (`SetObjectDefaults_Node`,
//! `SetDefaults_NodeStatus`), `pkg/apis/core/v1/conversion.go` (`Convert_v1_NodeSpec_To_core_NodeSpec`:
//! the internal `PodCIDRs` from `podCIDR` / `podCIDRs`), `pkg/registry/core/node/strategy.go`
//! (`PrepareForCreate`, `PrepareForUpdate`, `dropDisabledFields`, `nodeWarnings`) and
//! `pkg/apis/core/validation/validation.go` (`ValidateNode`, `ValidateNodeUpdate`,
//! `validateNodeTaints`, `validateTaintEffect`, `ValidateNodeResources`,
//! `validateNodeSwapStatus`, `validateNodeDeclaredFeatures`, `validateNodeConfigSourceSpec`,
//! `validateConfigMapNodeConfigSourceSpec`, `validateNodeConfigStatus`,
//! `validateNodeConfigSourceStatus`, `validateConfigMapNodeConfigSourceStatus`,
//! `validateConfigMapNodeConfigSource`).
//!
//! Nodes accept their status on create. Gates at 1.37: NodeDeclaredFeatures, SupplementalGroupsPolicy,
//! RecursiveReadOnlyMounts on (nothing dropped), InPlacePodVerticalScalingSchedulerPreemption off
//! (`spec.podPreemptionPolicy` dropped unless in use), StrictIPCIDRValidation on.
//!
//! Not modeled: `ValidateNodeSpecificAnnotations` (the JSON of the
//! `scheduler.alpha.kubernetes.io/taints` and `scheduler.alpha.kubernetes.io/preferAvoidPods`
//! annotations, whose refusals print Go's `encoding/json` errors).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::common::{duplicate, forbidden, is_config_map_key, is_dns1123_label, is_dns1123_subdomain, required};
use super::netip;
use super::pod_container_resources::quantity_value;
use crate::apis::{json, Context};
use crate::content;
use crate::field::{go_json, Error, ErrorType, Path};
use crate::quantity;

/// `SetObjectDefaults_Node`: `status.allocatable` from `status.capacity` when absent, both
/// rounded up to the milli.
pub fn default(obj: &mut Json) {
    let Some(status) = obj.get_mut("status").and_then(Json::as_object_mut) else { return };
    if status.get("allocatable").is_none_or(Json::is_null) {
        if let Some(c) = status.get("capacity").filter(|c| c.is_object()).cloned() {
            status.insert(String::from("allocatable"), c);
        }
    }
    for key in ["capacity", "allocatable"] {
        if let Some(list) = status.get_mut(key) {
            super::pod_defaults::default_resource_list(list);
        }
    }
}

/// The internal `PodCIDRs` (`Convert_v1_NodeSpec_To_core_NodeSpec`).
fn pod_cidrs(spec: &Json) -> Vec<&str> {
    let single = json::str(spec, "podCIDR");
    let list: Vec<&str> = json::list(spec, "podCIDRs").iter().map(|c| c.as_str().unwrap_or("")).collect();
    if !single.is_empty() && (list.is_empty() || list[0] != single) {
        return alloc::vec![single];
    }
    list
}

/// The Node strategy, then `ValidateNode` (create) or `ValidateNode` + `ValidateNodeUpdate`
/// (update), and `nodeWarnings`.
pub fn admit(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if let Json::Object(m) = obj {
        match old {
            None => {
                if let Some(Json::Object(spec)) = m.get_mut("spec") {
                    spec.remove("configSource");
                }
                if let Some(Json::Object(status)) = m.get_mut("status") {
                    status.remove("config");
                }
            }
            Some(o) => {
                m.insert(String::from("status"), o.get("status").cloned().unwrap_or_else(|| json!({})));
                if json::get(json::field(o, "spec"), "configSource").is_none() {
                    if let Some(Json::Object(spec)) = m.get_mut("spec") {
                        spec.remove("configSource");
                    }
                }
            }
        }
        let in_use = old.is_some_and(|o| json::get(json::field(o, "spec"), "podPreemptionPolicy").is_some());
        if !in_use {
            if let Some(Json::Object(spec)) = m.get_mut("spec") {
                spec.remove("podPreemptionPolicy");
            }
        }
    }
    let obj = &*obj;
    let mut errors = Vec::new();
    validate(obj, &mut errors);
    if let Some(old) = old {
        validate_update(obj, old, &mut errors);
    }
    (errors, warnings(obj))
}

/// `ValidateNodeResources`: the status' capacity and allocatable quantities (paths made with
/// `Child`, not `Key`).
fn node_resources(status: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let sp = root.child("status");
    for key in ["capacity", "allocatable"] {
        let lp = sp.child(key);
        for (k, q) in json::object(status, key).into_iter().flatten() {
            if let Some(q) = quantity::from_json(q) {
                quantity_value(k, &q, &lp.child(k), errors);
            }
        }
    }
}

/// `ValidateNode` (metadata aside; the node-specific annotations are not modeled).
pub fn validate(obj: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let meta = root.child("metadata");
    let (spec, status) = (json::field(obj, "spec"), json::field(obj, "status"));
    let taints = json::list(spec, "taints");
    if !taints.is_empty() {
        // Go passes the metadata path here: the taints are reported under `metadata.taints`.
        validate_taints(taints, &meta.child("taints"), errors);
    }
    node_resources(status, errors);
    if let Some(cap) = json::int(json::field(json::field(status, "nodeInfo"), "swap"), "capacity") {
        if cap <= 0 {
            let sp = meta.child("nodeSwapStatus");
            errors.push(Error::invalid(&sp.child("capacity"), cap, "must be greater than zero").with_origin("minimum"));
        }
    }
    let sp = root.child("status");
    declared_features(status, &sp.child("declaredFeatures"), errors);
    let cidrs = pod_cidrs(spec);
    if !cidrs.is_empty() {
        let spp = root.child("spec");
        let cp = spp.child("podCIDRs");
        for (i, c) in cidrs.iter().enumerate() {
            netip::validate_cidr_legacy(&cp.index(i), c, &[], errors);
        }
        if cidrs.len() > 1 {
            let (dual, err) = dual_stack(&cidrs);
            if let Some(err) = err {
                errors.push(Error::new(
                    ErrorType::Internal,
                    &cp,
                    None,
                    format!("invalid PodCIDRs. failed to check with dual stack with error:{err}"),
                ));
            }
            if !dual || cidrs.len() > 2 {
                let list: Vec<Json> = cidrs.iter().map(|c| Json::from(*c)).collect();
                errors.push(Error::invalid(
                    &cp,
                    Json::Array(list),
                    "may specify no more than one CIDR for each IP family",
                ));
            }
        }
    }
}

/// netutils `IsDualStackCIDRStrings`: (dual stack, the parse error).
fn dual_stack(cidrs: &[&str]) -> (bool, Option<String>) {
    let (mut v4, mut v6) = (false, false);
    for (i, c) in cidrs.iter().enumerate() {
        let Some(cidr) = netip::parse_cidr_sloppy(c) else {
            return (false, Some(format!("invalid CIDR[{i}]: <nil> (invalid CIDR address: {c})")));
        };
        if cidr.ip.text_v4 || cidr.masked().is_4in6() {
            v4 = true;
        } else {
            v6 = true;
        }
    }
    (v4 && v6, None)
}

/// `validateNodeTaints`.
fn validate_taints(taints: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (i, taint) in taints.iter().enumerate() {
        let at = path.index(i);
        let (key, value, effect) = (json::str(taint, "key"), json::str(taint, "value"), json::str(taint, "effect"));
        super::common::validate_label_name(key, &at.child("key"), errors);
        let msgs = content::is_label_value(value);
        if !msgs.is_empty() {
            errors.push(Error::invalid(&at.child("value"), value, msgs.join(";")));
        }
        let ep = at.child("effect");
        if effect.is_empty() {
            errors.push(required(&ep, ""));
        } else if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
            errors.push(Error::not_supported(&ep, effect, &["NoSchedule", "PreferNoSchedule", "NoExecute"]));
        }
        if seen.contains(&(effect, key)) {
            let mut e = duplicate(&at, Json::Null);
            e.rendered_value = Some(format!(
                "{{\"Key\":{},\"Value\":{},\"Effect\":{},\"TimeAdded\":{}}}",
                go_json(&Json::from(key)),
                go_json(&Json::from(value)),
                go_json(&Json::from(effect)),
                go_json(json::get(taint, "timeAdded").unwrap_or(&Json::Null)),
            ));
            e.detail = String::from("taints must be unique by key and effect pair");
            errors.push(e);
            continue;
        }
        seen.push((effect, key));
    }
}

/// `nodeDeclaredFeatureRegexp`: `^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$`.
fn feature_name_ok(name: &str) -> bool {
    let mut segments = name.split('/');
    let first = segments.next().unwrap_or("");
    let seg_ok = |s: &str, upper: bool| {
        let mut b = s.bytes();
        match b.next() {
            Some(c) if (upper && c.is_ascii_uppercase()) || (!upper && c.is_ascii_alphabetic()) => {}
            _ => return false,
        }
        b.all(|c| c.is_ascii_alphanumeric())
    };
    seg_ok(first, true) && segments.all(|s| seg_ok(s, false))
}

/// `validateNodeDeclaredFeatures`.
fn declared_features(status: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let features: Vec<&str> = json::list(status, "declaredFeatures").iter().map(|f| f.as_str().unwrap_or("")).collect();
    for (i, f) in features.iter().enumerate() {
        let q = crate::field::go_quote(f);
        if f.len() > 253 {
            errors.push(Error::invalid(
                &path.index(i),
                *f,
                format!("invalid feature name {q}: must be no more than 253 characters"),
            ));
        } else if !feature_name_ok(f) {
            errors.push(Error::invalid(&path.index(i), *f, format!("invalid feature name {q}: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes")));
        }
        if let Some(next) = features.get(i + 1) {
            if f == next {
                errors.push(duplicate(&path.index(i + 1), *next));
            } else if f > next {
                errors.push(Error::invalid(&path.index(i + 1), *next, "list must be sorted alphabetically"));
            }
        }
    }
}

/// `ValidateNodeUpdate` (metadata aside).
fn validate_update(obj: &Json, old: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let (spec, status) = (json::field(obj, "spec"), json::field(obj, "status"));
    let os = json::field(old, "spec");
    node_resources(status, errors);
    let stp = root.child("status");
    declared_features(status, &stp.child("declaredFeatures"), errors);
    let ap = stp.child("addresses");
    let addresses = json::list(status, "addresses");
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (i, a) in addresses.iter().enumerate() {
        let pair = (json::str(a, "type"), json::str(a, "address"));
        if seen.contains(&pair) {
            let mut e = duplicate(&ap.index(i), Json::Null);
            e.rendered_value = Some(format!(
                "{{\"Type\":{},\"Address\":{}}}",
                go_json(&Json::from(pair.0)),
                go_json(&Json::from(pair.1))
            ));
            errors.push(e);
        }
        seen.push(pair);
    }
    let sp = root.child("spec");
    let (new_cidrs, old_cidrs) = (pod_cidrs(spec), pod_cidrs(os));
    if !old_cidrs.is_empty() {
        let msg = "node updates may not change podCIDR except from \"\" to valid";
        if old_cidrs.len() != new_cidrs.len() {
            errors.push(forbidden(&sp.child("podCIDRs"), msg));
        } else {
            for (o, n) in old_cidrs.iter().zip(&new_cidrs) {
                if o != n {
                    errors.push(forbidden(&sp.child("podCIDRs"), msg));
                }
            }
        }
    }
    let (new_id, old_id) = (json::str(spec, "providerID"), json::str(os, "providerID"));
    let pp = sp.child("providerID");
    if !old_id.is_empty() && !new_id.is_empty() && old_id != new_id {
        errors.push(Error::invalid(&pp, Json::Null, "field cannot be modified once set").with_origin("update"));
    }
    if !old_id.is_empty() && new_id.is_empty() {
        errors.push(Error::invalid(&pp, Json::Null, "field cannot be cleared once set").with_origin("update"));
    }
    if let Some(src) = json::get(spec, "configSource") {
        config_source(src, true, &sp.child("configSource"), errors);
    }
    if let Some(config) = json::get(status, "config") {
        let cp = stp.child("config");
        for key in ["assigned", "active", "lastKnownGood"] {
            if let Some(src) = json::get(config, key) {
                config_source(src, false, &cp.child(key), errors);
            }
        }
    }
    let taints = json::list(spec, "taints");
    if !taints.is_empty() {
        let mp = root.child("metadata");
        validate_taints(taints, &mp.child("taints"), errors);
    }
    if json::str(spec, "externalID") != json::str(os, "externalID") {
        errors.push(forbidden(&sp.child("externalID"), "may not be updated"));
    }
}

/// A name check of util/validation: its messages.
type Check = fn(&str) -> Vec<String>;

/// `validateNodeConfigSourceSpec` (`in_spec`) / `validateNodeConfigSourceStatus`.
fn config_source(src: &Json, in_spec: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let cm = json::get(src, "configMap");
    if let Some(cm) = cm {
        let cp = path.child("configMap");
        let (uid, rv) = (json::str(cm, "uid"), json::str(cm, "resourceVersion"));
        if in_spec {
            if !uid.is_empty() {
                errors.push(forbidden(&cp.child("uid"), "uid must not be set in spec"));
            }
            if !rv.is_empty() {
                errors.push(forbidden(&cp.child("resourceVersion"), "resourceVersion must not be set in spec"));
            }
        } else {
            if uid.is_empty() {
                errors.push(required(&cp.child("uid"), ""));
            }
            if rv.is_empty() {
                errors.push(required(&cp.child("resourceVersion"), ""));
            }
        }
        let checks: [(&str, Check); 3] =
            [("namespace", is_dns1123_label), ("name", is_dns1123_subdomain), ("kubeletConfigKey", is_config_map_key)];
        for (key, check) in checks {
            let v = json::str(cm, key);
            if v.is_empty() {
                errors.push(required(&cp.child(key), ""));
            } else {
                for msg in check(v) {
                    errors.push(Error::invalid(&cp.child(key), v, msg));
                }
            }
        }
    } else {
        let mut e = Error::invalid(path, Json::Null, "exactly one reference subfield must be non-nil");
        e.rendered_value = Some(String::from("{\"ConfigMap\":null}"));
        errors.push(e);
    }
}

/// `nodeWarnings`.
pub fn warnings(obj: &Json) -> Vec<String> {
    let spec = json::field(obj, "spec");
    let mut w = Vec::new();
    if json::get(spec, "configSource").is_some() {
        w.push(String::from("spec.configSource: the feature is removed"));
    }
    if !json::str(spec, "externalID").is_empty() {
        w.push(String::from("spec.externalID: this field is deprecated, and is unused by Kubernetes"));
    }
    for (i, c) in pod_cidrs(spec).iter().enumerate() {
        w.extend(netip::warnings_for_cidr(&format!("spec.podCIDRs[{i}]"), c));
    }
    w
}
