//! The served versions and the internal type: validation runs on `pkg/apis/resource`'s
//! internal objects, whose shape is v1's (and v1beta2's); v1beta1 converts first
//! (`pkg/apis/resource/v1beta1/conversion.go`): a request's fields sit inline where the
//! internal request has them under `exactly`, a slice's device has them under `basic`, and a
//! slice's `nodeName` and `allNodes` are values where the internal ones are pointers.
//!
//! The strategy mutates the internal object; [`from_internal`] gives the served version's
//! shape back, for the declarative rules.

use alloc::string::String;

use serde_json::{Map, Value as Json};

/// The fields of a v1beta1 `DeviceRequest` that the internal one holds under `exactly`.
const EXACT_FIELDS: &[&str] = &[
    "deviceClassName",
    "selectors",
    "allocationMode",
    "count",
    "adminAccess",
    "tolerations",
    "capacity",
    "derivedAttributes",
];

/// The object in the internal shape.
pub(super) fn to_internal(version: &str, kind: &str, object: &Json) -> Json {
    let mut o = object.clone();
    if version != "v1beta1" {
        return o;
    }
    match kind {
        "ResourceClaim" => {
            if let Some(devices) = o.get_mut("spec").and_then(|s| s.get_mut("devices")) {
                requests_to_internal(devices);
            }
        }
        "ResourceClaimTemplate" => {
            if let Some(devices) = o.get_mut("spec").and_then(|s| s.get_mut("spec")).and_then(|s| s.get_mut("devices"))
            {
                requests_to_internal(devices);
            }
        }
        "ResourceSlice" => {
            if let Some(spec) = o.get_mut("spec").and_then(Json::as_object_mut) {
                slice_to_internal(spec);
            }
        }
        _ => {}
    }
    o
}

/// The internal object in the served version's shape.
pub(super) fn from_internal(version: &str, kind: &str, object: &Json) -> Json {
    let mut o = object.clone();
    if version != "v1beta1" {
        return o;
    }
    match kind {
        "ResourceClaim" => {
            if let Some(devices) = o.get_mut("spec").and_then(|s| s.get_mut("devices")) {
                requests_from_internal(devices);
            }
        }
        "ResourceClaimTemplate" => {
            if let Some(devices) = o.get_mut("spec").and_then(|s| s.get_mut("spec")).and_then(|s| s.get_mut("devices"))
            {
                requests_from_internal(devices);
            }
        }
        "ResourceSlice" => {
            if let Some(spec) = o.get_mut("spec").and_then(Json::as_object_mut) {
                slice_from_internal(spec);
            }
        }
        _ => {}
    }
    o
}

/// `hasAnyMainRequestFieldsSet`'s test of one field: a non-zero value (a list or pointer
/// counts when present).
fn set(key: &str, v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::String(s) => !s.is_empty(),
        Json::Number(n) => key != "count" || n.as_i64() != Some(0),
        _ => true,
    }
}

/// `Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest` for each request.
fn requests_to_internal(devices: &mut Json) {
    let Some(Json::Array(requests)) = devices.get_mut("requests") else { return };
    for r in requests {
        let Json::Object(map) = r else { continue };
        let any = EXACT_FIELDS.iter().any(|k| map.get(*k).is_some_and(|v| set(k, v)));
        let mut exactly = Map::new();
        for k in EXACT_FIELDS {
            if let Some(v) = map.remove(*k) {
                if !v.is_null() {
                    exactly.insert(String::from(*k), v);
                }
            }
        }
        if any {
            map.insert(String::from("exactly"), Json::Object(exactly));
        }
    }
}

/// `Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest` for each request.
fn requests_from_internal(devices: &mut Json) {
    let Some(Json::Array(requests)) = devices.get_mut("requests") else { return };
    for r in requests {
        let Json::Object(map) = r else { continue };
        if let Some(Json::Object(exactly)) = map.remove("exactly") {
            for (k, v) in exactly {
                map.insert(k, v);
            }
        }
    }
}

/// `Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec` and
/// `Convert_v1beta1_Device_To_resource_Device`.
fn slice_to_internal(spec: &mut Map<String, Json>) {
    if spec.get("nodeName").and_then(Json::as_str).is_some_and(str::is_empty) {
        spec.remove("nodeName");
    }
    if spec.get("allNodes").and_then(Json::as_bool) == Some(false) {
        spec.remove("allNodes");
    }
    let Some(Json::Array(devices)) = spec.get_mut("devices") else { return };
    for d in devices {
        let Json::Object(map) = d else { continue };
        if let Some(Json::Object(basic)) = map.remove("basic") {
            for (k, v) in basic {
                let empty = matches!(&v, Json::Object(m) if m.is_empty()) && (k == "attributes" || k == "capacity");
                if !v.is_null() && !empty {
                    map.insert(k, v);
                }
            }
        }
    }
}

/// `Convert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec` and
/// `Convert_resource_Device_To_v1beta1_Device`.
fn slice_from_internal(spec: &mut Map<String, Json>) {
    let Some(Json::Array(devices)) = spec.get_mut("devices") else { return };
    for d in devices {
        let Json::Object(map) = d else { continue };
        let mut basic = Map::new();
        let keys: alloc::vec::Vec<String> = map.keys().filter(|k| *k != "name").cloned().collect();
        for k in keys {
            if let Some(v) = map.remove(&k) {
                basic.insert(k, v);
            }
        }
        map.insert(String::from("basic"), Json::Object(basic));
    }
}
