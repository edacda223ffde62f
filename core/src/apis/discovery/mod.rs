//! The `discovery.k8s.io` group: EndpointSlice (`v1`, the only version 1.37 serves), after
//! Kubernetes' `pkg/apis/discovery/v1/defaults.go`, `pkg/apis/discovery/validation` and
//! `pkg/registry/discovery/endpointslice/strategy.go`:
//!
//! - [`endpointslice`]: `ValidateEndpointSlice` and its helpers, the strategy's warnings;
//! - this module: `SetObjectDefaults_EndpointSlice` and the strategy (`PrepareForCreate`,
//!   `PrepareForUpdate`: generation, `dropTopologyOnV1`; `dropDisabledFields*` keep everything,
//!   `PreferSameTrafficDistribution` being GA and locked on in 1.37).

mod endpointslice;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{self, field, list, object};
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["EndpointSlice"];

/// `SetObjectDefaults_EndpointSlice` of discovery/v1: `SetDefaults_EndpointPort` (a nil name
/// `""`, a nil protocol `TCP`).
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" || kind != "EndpointSlice" {
        return;
    }
    for port in json::list_mut(object, "ports") {
        if let Json::Object(map) = port {
            for (key, value) in [("name", ""), ("protocol", "TCP")] {
                if map.get(key).is_none_or(Json::is_null) {
                    map.insert(String::from(key), json!(value));
                }
            }
        }
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if group.kind != "EndpointSlice" {
        return (Vec::new(), Vec::new());
    }
    match old {
        None => prepare_for_create(object),
        Some(old) => prepare_for_update(object, old),
    }
    let object = &*object;
    let errors = match old {
        None => endpointslice::validate_create(object),
        Some(old) => endpointslice::validate_update(object, old),
    };
    let warnings = match old {
        None => endpointslice::warnings_on_create(object),
        Some(_) => endpointslice::warn_on_bad_ips(object),
    };
    (errors, warnings)
}

fn set_generation(object: &mut Json, generation: i64) {
    if let Some(Json::Object(meta)) = object.get_mut("metadata") {
        meta.insert(String::from("generation"), json!(generation));
    }
}

/// strategy.go `PrepareForCreate`: generation 1, `dropTopologyOnV1`.
fn prepare_for_create(object: &mut Json) {
    set_generation(object, 1);
    drop_topology_on_v1(None, object);
}

/// strategy.go `PrepareForUpdate`: the generation bumped when anything but the metadata (or
/// the labels) changed, then `dropTopologyOnV1`.
fn prepare_for_update(object: &mut Json, old: &Json) {
    let without_meta = |o: &Json| {
        let mut o = o.clone();
        if let Json::Object(map) = &mut o {
            map.remove("metadata");
        }
        o
    };
    let labels = |o: &Json| field(field(o, "metadata"), "labels").clone();
    let mut generation = json::int(field(old, "metadata"), "generation").unwrap_or(0);
    if !same(&without_meta(object), &without_meta(old)) || !same(&labels(object), &labels(old)) {
        generation = generation.saturating_add(1);
    }
    set_generation(object, generation);
    drop_topology_on_v1(Some(old), object);
}

/// strategy.go `dropTopologyOnV1` (every request is a `v1` one): `deprecatedTopology` is
/// dropped unless the endpoints did not change; a node name the old object's topology held
/// under `kubernetes.io/hostname` moves to a missing `nodeName`.
fn drop_topology_on_v1(old: Option<&Json>, object: &mut Json) {
    if let Some(old) = old {
        if same(field(old, "endpoints"), field(object, "endpoints")) {
            return;
        }
    }
    let prev: Vec<String> = old
        .map(|o| {
            list(o, "endpoints")
                .iter()
                .filter_map(|ep| object_str(ep, "deprecatedTopology", "kubernetes.io/hostname"))
                .filter(|n| !n.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    for ep in json::list_mut(object, "endpoints") {
        let topology_node = object_str(ep, "deprecatedTopology", "kubernetes.io/hostname").map(String::from);
        if let Json::Object(map) = ep {
            if let Some(name) = topology_node {
                let nil_node = map.get("nodeName").is_none_or(Json::is_null);
                if nil_node && prev.contains(&name) && crate::apis::core::common::is_dns1123_subdomain(&name).is_empty()
                {
                    map.insert(String::from("nodeName"), Json::String(name));
                }
            }
            map.remove("deprecatedTopology");
        }
    }
}

/// A `map[string]string` field's entry.
fn object_str<'a>(v: &'a Json, map: &str, key: &str) -> Option<&'a str> {
    object(v, map).and_then(|m: &Map<String, Json>| m.get(key)).and_then(Json::as_str)
}
