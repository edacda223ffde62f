//! The `flowcontrol.apiserver.k8s.io` group: FlowSchema and PriorityLevelConfiguration (`v1`,
//! the only version 1.37 serves), after Kubernetes' `pkg/apis/flowcontrol/v1/defaults.go`,
//! `pkg/apis/flowcontrol/validation` and `pkg/registry/flowcontrol/{flowschema,
//! prioritylevelconfiguration}/strategy.go`:
//!
//! - `flowschema`: FlowSchema's validation (and the mandatory `exempt` and `catch-all`);
//! - `prioritylevel`: PriorityLevelConfiguration's;
//! - `render`: the internal types as `field.Error` prints them;
//! - this module: the defaulting and the strategies (`PrepareForCreate`: status reset,
//!   generation 1; `PrepareForUpdate`: the old status, the generation bumped on a spec change;
//!   no warnings).

mod flowschema;
mod prioritylevel;
mod render;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{field, int, struct_mut};
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["FlowSchema", "PriorityLevelConfiguration"];

/// `SetObjectDefaults_FlowSchema` and `SetObjectDefaults_PriorityLevelConfiguration` of
/// flowcontrol/v1.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" {
        return;
    }
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        // A missing spec is the zero struct: defaulting sets its fields.
        if kind == "FlowSchema" {
            if let Some(spec) = struct_mut(object, "spec") {
                set_if_zero(spec, "matchingPrecedence", 1000);
            }
        }
        return;
    };
    match kind {
        // SetDefaults_FlowSchemaSpec.
        "FlowSchema" => set_if_zero(spec, "matchingPrecedence", 1000),
        "PriorityLevelConfiguration" => {
            if let Some(limited) = spec.get_mut("limited").filter(|l| l.is_object()) {
                // SetDefaults_LimitedPriorityLevelConfiguration.
                set_if_nil(limited, "nominalConcurrencyShares", 30);
                set_if_nil(limited, "lendablePercent", 0);
                let queuing = limited.get_mut("limitResponse").and_then(|lr| lr.get_mut("queuing"));
                if let Some(q) = queuing.filter(|q| q.is_object()) {
                    // SetDefaults_QueuingConfiguration.
                    set_if_zero(q, "handSize", 8);
                    set_if_zero(q, "queues", 64);
                    set_if_zero(q, "queueLengthLimit", 50);
                }
            }
            if let Some(exempt) = spec.get_mut("exempt").filter(|e| e.is_object()) {
                // SetDefaults_ExemptPriorityLevelConfiguration.
                set_if_nil(exempt, "nominalConcurrencyShares", 0);
                set_if_nil(exempt, "lendablePercent", 0);
            }
        }
        _ => {}
    }
}

/// `if x.F == nil { x.F = &value }`.
fn set_if_nil(v: &mut Json, key: &str, value: i64) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(String::from(key), json!(value));
        }
    }
}

/// `if x.F == 0 { x.F = value }`.
fn set_if_zero(v: &mut Json, key: &str, value: i64) {
    if int(v, key).unwrap_or(0) == 0 {
        if let Json::Object(map) = v {
            map.insert(String::from(key), json!(value));
        }
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    match old {
        None => prepare_for_create(object),
        Some(old) => prepare_for_update(object, old),
    }
    let errors = match group.kind {
        "FlowSchema" => flowschema::validate(object),
        "PriorityLevelConfiguration" => prioritylevel::validate(object),
        _ => Vec::new(),
    };
    (errors, Vec::new())
}

fn set_generation(object: &mut Json, generation: i64) {
    if let Some(Json::Object(meta)) = object.get_mut("metadata") {
        meta.insert(String::from("generation"), json!(generation));
    }
}

/// `PrepareForCreate` of both strategies: the status reset, generation 1.
fn prepare_for_create(object: &mut Json) {
    if let Json::Object(map) = object {
        map.insert(String::from("status"), Json::Object(Map::new()));
    }
    set_generation(object, 1);
}

/// `PrepareForUpdate` of both strategies: the old status kept, the generation bumped when the
/// spec changed.
fn prepare_for_update(object: &mut Json, old: &Json) {
    let mut generation = int(field(object, "metadata"), "generation").unwrap_or(0);
    if !same(field(object, "spec"), field(old, "spec")) {
        generation = int(field(old, "metadata"), "generation").unwrap_or(0).saturating_add(1);
    }
    set_generation(object, generation);
    let status = old.get("status").cloned();
    if let Json::Object(map) = object {
        match status {
            Some(s) => map.insert(String::from("status"), s),
            None => map.remove("status"),
        };
    }
}
