//! The `resource.k8s.io` group (dynamic resource allocation), after Kubernetes'
//! `pkg/apis/resource/validation`, `pkg/apis/resource/<version>/defaults.go` and
//! `pkg/registry/resource/*/strategy.go`, served as v1, v1beta2, v1beta1 and v1alpha3:
//!
//! - `claim`: ResourceClaim, ResourceClaimTemplate, DeviceClass (requests, selectors,
//!   constraints, configuration, tolerations);
//! - `cel`: DRA's CEL selectors (`k8s.io/dynamic-resource-allocation/cel`);
//! - `slice`: ResourceSlice (devices, attributes, capacities, counters, taints);
//! - `internal`: v1beta1's conversion to and from the internal shape validation reads;
//! - `util`: the shared list, map and name validators.
//!
//! This module holds the defaulting and the strategies (`PrepareForCreate`,
//! `PrepareForUpdate`, `Validate`, `ValidateUpdate`, `WarningsOnCreate`, `WarningsOnUpdate`),
//! with the feature gates of 1.37 by default: `DRADerivedAttributes`,
//! `DRAListTypeAttributes`, `DRANodeAllocatableResources`, `DRADeviceCompatibilityGroups`,
//! `DRAPartitionableDevicesType` and `DRAOptionalNodeOperations` off (their fields dropped
//! unless the old object uses them), the rest of DRA on. Status subresources are not modeled:
//! the main resource resets or keeps the status.
//!
//! Not modeled: `DeviceTaint.timeAdded`'s default (the time of the request).

mod cel;
mod claim;
mod internal;
mod render;
mod slice;
#[cfg(test)]
mod tests;
mod util;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{field, get, list, list_mut, opt_str, str};
use crate::field::{go_quote, Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &[
    "DeviceClass",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ResourceSlice",
    "DeviceTaintRule",
    "ResourcePoolStatusRequest",
];

/// `SetObjectDefaults_X` of the served version for one kind.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    let requests = match kind {
        "ResourceClaim" => object.get_mut("spec").and_then(|s| s.get_mut("devices")),
        "ResourceClaimTemplate" => {
            object.get_mut("spec").and_then(|s| s.get_mut("spec")).and_then(|s| s.get_mut("devices"))
        }
        "ResourcePoolStatusRequest" => {
            // `SetDefaults_ResourcePoolStatusRequestSpec`: the spec is a struct, not a pointer, so
            // it is defaulted when the body has none (a fuzz find: `spec.limit: Required value`).
            if let Json::Object(o) = object {
                let spec = o.entry("spec").or_insert_with(|| json!({}));
                if spec.is_null() {
                    *spec = json!({});
                }
                if let Json::Object(spec) = spec {
                    if spec.get("limit").is_none_or(Json::is_null) {
                        spec.insert(String::from("limit"), json!(100));
                    }
                }
            }
            return;
        }
        _ => return,
    };
    let Some(devices) = requests else { return };
    for r in list_mut(devices, "requests") {
        if version == "v1beta1" {
            // SetDefaults_DeviceRequest: only a request with a class.
            if !str(r, "deviceClassName").is_empty() {
                default_exact(r);
            }
            default_tolerations(r);
        } else if let Some(exactly) = r.get_mut("exactly").filter(|x| x.is_object()) {
            default_exact(exactly);
            default_tolerations(exactly);
        }
        for sub in list_mut(r, "firstAvailable") {
            default_exact(sub);
            default_tolerations(sub);
        }
    }
}

/// `SetDefaults_ExactDeviceRequest`, `SetDefaults_DeviceSubRequest`.
fn default_exact(r: &mut Json) {
    let Json::Object(map) = r else { return };
    if map.get("allocationMode").and_then(Json::as_str).unwrap_or("").is_empty() {
        map.insert(String::from("allocationMode"), json!("ExactCount"));
    }
    let count = map.get("count").and_then(Json::as_i64).unwrap_or(0);
    if map.get("allocationMode").and_then(Json::as_str) == Some("ExactCount") && count == 0 {
        map.insert(String::from("count"), json!(1));
    }
}

/// A toleration's `operator` defaults to `Equal`.
fn default_tolerations(r: &mut Json) {
    for t in list_mut(r, "tolerations") {
        if let Json::Object(t) = t {
            if t.get("operator").and_then(Json::as_str).unwrap_or("").is_empty() {
                t.insert(String::from("operator"), json!("Equal"));
            }
        }
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let (kind, version) = (group.kind, group.version);
    let minor = group.context.minor;
    let mut new = internal::to_internal(version, kind, object);
    let old = old.map(|o| internal::to_internal(version, kind, o));
    let old = old.as_ref();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    match kind {
        "DeviceClass" => {
            set_generation(&mut new, old);
            claim::validate_device_class(&new, old, minor, &mut errors);
        }
        "ResourceClaim" => {
            match old {
                None => set(&mut new, "status", claim::empty()),
                Some(o) => keep(&mut new, o, "status"),
            }
            if let Some(spec) = new.get_mut("spec") {
                claim::drop_disabled_fields(spec, old.map(|o| field(o, "spec")));
            }
            // ValidateResourceClaimUpdate's immutable spec is covered by the declarative
            // `+k8s:immutable` (enforced, printing `null`): an update has nothing else here.
            if old.is_none() {
                let requests = list(field(field(&new, "spec"), "devices"), "requests");
                claim::authorized_for_admin(requests, &mut errors);
                claim::validate_claim(&new, minor, &mut errors);
            }
        }
        "ResourceClaimTemplate" => {
            if let Some(spec) = new.get_mut("spec").and_then(|s| s.get_mut("spec")) {
                claim::drop_disabled_fields(spec, old.map(|o| field(field(o, "spec"), "spec")));
            }
            if old.is_none() {
                let requests = list(field(field(field(&new, "spec"), "spec"), "devices"), "requests");
                claim::authorized_for_admin(requests, &mut errors);
            }
            claim::validate_template(&new, minor, &mut errors);
            if let Some(o) = old {
                let (spec, old_spec) = (field(&new, "spec"), field(o, "spec"));
                if !same(spec, old_spec) {
                    let root = Path::root();
                    let mut e = Error::invalid(&root.child("spec"), spec.clone(), "field is immutable");
                    e.rendered_value = Some(render::template_spec(spec));
                    errors.push(e);
                }
            }
        }
        "ResourceSlice" => {
            set_generation(&mut new, old);
            drop_disabled_slice_fields(&mut new, old);
            slice::validate(&new, old, &mut errors);
            let driver = str(field(&new, "spec"), "driver");
            if driver != driver.to_lowercase() {
                warnings.push(format!(
                    "spec.driver: driver names should be lowercase; {} contains uppercase characters",
                    go_quote(driver)
                ));
            }
        }
        "DeviceTaintRule" => {
            match old {
                None => set(&mut new, "status", claim::empty()),
                Some(o) => keep(&mut new, o, "status"),
            }
            set_generation(&mut new, old);
            validate_device_taint_rule(&new, old, &mut errors);
        }
        "ResourcePoolStatusRequest" => {
            match old {
                None => {
                    if let Json::Object(m) = &mut new {
                        m.remove("status");
                    }
                }
                Some(o) => keep(&mut new, o, "status"),
            }
            let in_use = old.is_some_and(|o| opt_str(field(o, "spec"), "defaultPartitionTypeAttribute").is_some());
            if !in_use {
                if let Some(Json::Object(spec)) = new.get_mut("spec") {
                    spec.remove("defaultPartitionTypeAttribute");
                }
            }
        }
        _ => {}
    }
    *object = internal::from_internal(version, kind, &new);
    (errors, warnings)
}

/// Sets a top-level field.
fn set(object: &mut Json, key: &str, value: Json) {
    if let Json::Object(m) = object {
        m.insert(String::from(key), value);
    }
}

/// Keeps the old object's field (the status of an update of the main resource).
fn keep(object: &mut Json, old: &Json, key: &str) {
    if let Json::Object(m) = object {
        match old.get(key) {
            Some(v) => m.insert(String::from(key), v.clone()),
            None => m.remove(key),
        };
    }
}

/// `metadata.generation`: 1 on create; on update the old one, bumped when the spec changed.
fn set_generation(object: &mut Json, old: Option<&Json>) {
    let generation = match old {
        None => 1,
        Some(o) => {
            let g = field(field(o, "metadata"), "generation").as_i64().unwrap_or(0);
            g + i64::from(!same(field(object, "spec"), field(o, "spec")))
        }
    };
    if let Some(Json::Object(meta)) = object.get_mut("metadata") {
        meta.insert(String::from("generation"), json!(generation));
    }
}

/// The ResourceSlice strategy's `dropDisabledFields` with the release's gates.
fn drop_disabled_slice_fields(new: &mut Json, old: Option<&Json>) {
    let old_devices = old.map_or(&[][..], |o| list(field(o, "spec"), "devices"));
    let old_spec = old.map(|o| field(o, "spec"));
    let compat_in_use = old_devices
        .iter()
        .any(|d| list(d, "consumesCounters").iter().any(|c| !list(c, "compatibilityGroups").is_empty()));
    let allocatable_in_use = old_devices.iter().any(|d| get(d, "nodeAllocatableResources").is_some_and(non_empty));
    let lists_in_use = old_devices.iter().any(|d| {
        d.get("attributes").and_then(Json::as_object).is_some_and(|a| {
            a.values().any(|v| ["bools", "ints", "strings", "versions"].iter().any(|k| get(v, k).is_some()))
        })
    });
    let partition_in_use = old_spec.is_some_and(|s| get(s, "partitionTypeAttribute").is_some());
    let skip_in_use = old_spec.is_some_and(|s| !list(s, "skipNodeOperations").is_empty());
    let Some(Json::Object(spec)) = new.get_mut("spec") else { return };
    if !partition_in_use {
        spec.remove("partitionTypeAttribute");
    }
    if !skip_in_use {
        spec.remove("skipNodeOperations");
    }
    let Some(Json::Array(devices)) = spec.get_mut("devices") else { return };
    for d in devices {
        let Json::Object(d) = d else { continue };
        if !compat_in_use {
            if let Some(Json::Array(cs)) = d.get_mut("consumesCounters") {
                for c in cs {
                    if let Json::Object(c) = c {
                        c.remove("compatibilityGroups");
                    }
                }
            }
        }
        if !allocatable_in_use {
            d.remove("nodeAllocatableResources");
        }
        if !lists_in_use {
            if let Some(Json::Object(attrs)) = d.get_mut("attributes") {
                for a in attrs.values_mut() {
                    if let Json::Object(a) = a {
                        for k in ["bools", "ints", "strings", "versions"] {
                            a.remove(k);
                        }
                    }
                }
            }
        }
    }
}

fn non_empty(v: &Json) -> bool {
    !matches!(v, Json::Object(m) if m.is_empty())
}

/// `ValidateDeviceTaintRule` / `ValidateDeviceTaintRuleUpdate` (`validateDeviceTaintRuleSpec`).
fn validate_device_taint_rule(rule: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(rule, "spec");
    if let Some(selector) = get(spec, "deviceSelector") {
        let sp = path.child("deviceSelector");
        if let Some(driver) = opt_str(selector, "driver") {
            util::validate_driver_name(driver, &sp.child("driver"), errors);
        }
        if let Some(pool) = opt_str(selector, "pool") {
            util::validate_pool_name(pool, &sp.child("pool"), errors);
        }
        if let Some(device) = opt_str(selector, "device") {
            util::validate_label_like(device, &sp.child("device"), errors);
        }
    }
    let old_taint = old.map(|o| field(field(o, "spec"), "taint"));
    slice::validate_device_taint(field(spec, "taint"), old_taint, &path.child("taint"), errors);
}

/// `validation.ResourceNormalizationRules`: v1beta1's request fields (flattened) under
/// `exactly`, and its ResourceSlice devices' `basic.` dropped; the first rule that changes the
/// path applies (`ErrorMatcher.normalizePath`), to every match in it (`ReplaceAllString`).
pub(crate) fn normalized_field(field: &str) -> Option<String> {
    const REQUEST_FIELDS: [&str; 7] =
        ["deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "derivedAttributes"];
    // `<prefix><digits>].` followed by what `rest_len` accepts: `insert` written after the
    // dot and `drop` bytes of the rest removed, at every match.
    let rewrite = |prefix: &str, rest_len: &dyn Fn(&str) -> Option<(usize, &'static str)>| {
        let mut out = String::new();
        let mut i = 0;
        let mut changed = false;
        while let Some(at) = field[i..].find(prefix).map(|p| p + i) {
            let after = &field[at + prefix.len()..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let tail = after.get(digits..).and_then(|t| t.strip_prefix("].")).filter(|_| digits > 0);
            match tail.and_then(rest_len) {
                Some((drop, insert)) => {
                    let head = at + prefix.len() + digits + 2;
                    out.push_str(&field[i..head]);
                    out.push_str(insert);
                    i = head + drop;
                    changed = true;
                }
                None => {
                    out.push_str(&field[i..at + prefix.len()]);
                    i = at + prefix.len();
                }
            }
        }
        out.push_str(&field[i..]);
        changed.then_some(out)
    };
    let request = |t: &str| REQUEST_FIELDS.iter().any(|f| t.starts_with(f)).then_some((0, "exactly."));
    let basic = |t: &str| t.starts_with("basic.").then_some((6, ""));
    rewrite("spec.devices.requests[", &request).or_else(|| rewrite("spec.devices[", &basic))
}
