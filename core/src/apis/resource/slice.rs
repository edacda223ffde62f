//! ResourceSlice, after `pkg/apis/resource/validation/validation.go`
//! (`ValidateResourceSlice`, `ValidateResourceSliceUpdate`, `validateResourceSliceSpec`,
//! `validateDevice`, the attributes, capacities and their request policies, counters, taints,
//! binding conditions).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::util::{
    validate_driver_name, validate_label_like, validate_label_value, validate_map, validate_node_name,
    validate_pool_name, validate_qualified_name, validate_set, validate_slice, validate_slice_size_covered,
    validate_unique_set, DEVICE_MAX_DOMAIN_LENGTH, DEVICE_MAX_ID_LENGTH,
};
use crate::apis::apps::common::same;
use crate::apis::core::common::{duplicate, forbidden, required, validate_label_name};
use crate::apis::core::pod_affinity::validate_node_selector;
use crate::apis::json::{bool as jbool, field, get, int, list, object, opt_str, str};
use crate::field::{go_json, Error, Path};
use crate::quantity::{self, Quantity};

/// `ResourceSliceMaxDevices` and `ResourceSliceMaxDevicesWithAdvancedFeatures`.
const MAX_DEVICES: i64 = 128;
const MAX_DEVICES_ADVANCED: i64 = 64;
/// `ResourceSliceMaxCounterSets`, `ResourceSliceMaxCountersPerCounterSet`.
const MAX_COUNTER_SETS: i64 = 8;
const MAX_COUNTERS_PER_SET: i64 = 32;
/// `ResourceSliceMaxDeviceCounterConsumptionsPerDevice`,
/// `ResourceSliceMaxCountersPerDeviceCounterConsumption`.
const MAX_CONSUMPTIONS: i64 = 2;
const MAX_COUNTERS_PER_CONSUMPTION: i64 = 32;
/// `ResourceSliceMaxAttributesAndCapacitiesPerDevice`, `ResourceSliceMaxAttributeValuesPerDevice`.
const MAX_ATTRIBUTES_AND_CAPACITIES: usize = 32;
const MAX_ATTRIBUTE_VALUES: usize = 48;
/// `DeviceAttributeMaxValueLength`.
const MAX_VALUE_LENGTH: usize = 64;
/// `DeviceTaintsMaxLength`.
const MAX_TAINTS: i64 = 16;
/// `BindingConditionsMaxSize`, `BindingFailureConditionsMaxSize`.
const MAX_BINDING_CONDITIONS: i64 = 4;
/// `CapacityRequestPolicyDiscreteMaxOptions`.
const MAX_OPTIONS: i64 = 10;
/// `DNS1123LabelMaxLength`.
const LABEL_MAX: usize = 63;
/// `attributeAndCapacityMaxKeyLength`.
const KEY_MAX: usize = DEVICE_MAX_DOMAIN_LENGTH + 1 + DEVICE_MAX_ID_LENGTH;

/// `ValidateResourceSlice` / `ValidateResourceSliceUpdate` (`validateResourceSliceSpec`).
pub(super) fn validate(slice: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(slice, "spec");
    let old_spec = old.map(|o| field(o, "spec"));
    let driver = str(spec, "driver");
    validate_driver_name(driver, &path.child("driver"), errors);
    let pool = field(spec, "pool");
    let pp = path.child("pool");
    validate_pool_name(str(pool, "name"), &pp.child("name"), errors);
    let count = int(pool, "resourceSliceCount").unwrap_or(0);
    if count <= 0 {
        errors.push(Error::invalid(&pp.child("resourceSliceCount"), count, "must be greater than zero"));
    }
    let generation = int(pool, "generation").unwrap_or(0);
    if generation < 0 {
        errors.push(Error::invalid(&pp.child("generation"), generation, "must be greater than or equal to zero"));
    }
    if let Some(old_spec) = old_spec {
        let old_pool = field(old_spec, "pool");
        if str(pool, "name") != str(old_pool, "name") {
            errors.push(Error::invalid(&pp.child("name"), str(pool, "name"), "field is immutable"));
        }
        if driver != str(old_spec, "driver") {
            errors.push(Error::invalid(&path.child("driver"), driver, "field is immutable"));
        }
        if opt_str(spec, "nodeName") != opt_str(old_spec, "nodeName") {
            let v = opt_str(spec, "nodeName").map_or(Json::Null, Json::from);
            errors.push(Error::invalid(&path.child("nodeName"), v, "field is immutable"));
        }
    }

    let mut set_fields: Vec<&str> = Vec::new();
    if let Some(node) = opt_str(spec, "nodeName") {
        if node.is_empty() {
            errors.push(Error::invalid(
                &path.child("nodeName"),
                "",
                "must be either unset or set to a non-empty string",
            ));
        } else {
            set_fields.push("`nodeName`");
            validate_node_name(node, &path.child("nodeName"), errors);
        }
    }
    if let Some(selector) = get(spec, "nodeSelector") {
        set_fields.push("`nodeSelector`");
        let sp = path.child("nodeSelector");
        validate_node_selector(selector, false, &sp, errors);
        let terms = list(selector, "nodeSelectorTerms");
        if terms.len() != 1 {
            let v = get(selector, "nodeSelectorTerms").cloned().unwrap_or(Json::Null);
            let mut e = Error::invalid(&sp.child("nodeSelectorTerms"), v, "must have exactly one node selector term");
            e.rendered_value = Some(render_terms(get(selector, "nodeSelectorTerms")));
            errors.push(e);
        }
    }
    for (key, shown) in [("allNodes", "`allNodes`"), ("perDeviceNodeSelection", "`perDeviceNodeSelection`")] {
        match jbool(spec, key) {
            Some(true) => set_fields.push(shown),
            Some(false) => errors.push(Error::invalid(&path.child(key), false, "must be either unset or set to true")),
            None => {}
        }
    }
    const ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
    match set_fields.len() {
        0 => errors.push(required(&path, ONE_OF)),
        1 => {}
        _ => errors.push(Error::invalid(
            &path,
            format!("{{{}}}", set_fields.join(", ")),
            format!("{ONE_OF}, but multiple fields are set"),
        )),
    }
    if get(spec, "sharedCounters").is_some() && get(spec, "devices").is_some() {
        errors.push(Error::invalid(&path, "", "only one of `sharedCounters` or `devices` is allowed"));
    }

    let devices = list(spec, "devices");
    let advanced = devices.iter().any(|d| {
        !list(d, "taints").is_empty()
            || !list(d, "consumesCounters").is_empty()
            || object(d, "attributes").is_some_and(|a| a.values().any(has_list_value))
    });
    let max = if advanced { MAX_DEVICES_ADVANCED } else { MAX_DEVICES };
    let per_device = jbool(spec, "perDeviceNodeSelection");
    validate_set(
        devices,
        max,
        &path.child("devices"),
        errors,
        |d, p, e| {
            let old_device =
                old_spec.and_then(|o| list(o, "devices").iter().find(|x| str(x, "name") == str(d, "name")));
            validate_device(d, old_device, p, per_device, e);
        },
        |d| Json::from(str(d, "name")),
    );
    validate_unique_set(
        list(spec, "sharedCounters"),
        MAX_COUNTER_SETS,
        &path.child("sharedCounters"),
        errors,
        validate_counter_set,
    );
    validate_skip_node_operations(list(spec, "skipNodeOperations"), &path.child("skipNodeOperations"), errors);
}

/// Internal `[]core.NodeSelectorTerm` as `json.Marshal` prints it (no JSON tags: Go's field
/// names, every field).
fn render_terms(terms: Option<&Json>) -> String {
    let Some(Json::Array(terms)) = terms else { return String::from("null") };
    let requirements = |v: Option<&Json>| -> String {
        let Some(Json::Array(rs)) = v else { return String::from("null") };
        let items: Vec<String> = rs
            .iter()
            .map(|r| {
                format!(
                    "{{\"Key\":{},\"Operator\":{},\"Values\":{}}}",
                    go_json(&Json::from(str(r, "key"))),
                    go_json(&Json::from(str(r, "operator"))),
                    go_json(get(r, "values").unwrap_or(&Json::Null))
                )
            })
            .collect();
        format!("[{}]", items.join(","))
    };
    let items: Vec<String> = terms
        .iter()
        .map(|t| {
            format!(
                "{{\"MatchExpressions\":{},\"MatchFields\":{}}}",
                requirements(get(t, "matchExpressions")),
                requirements(get(t, "matchFields"))
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Whether an attribute holds a list (`haveListAttributes`).
fn has_list_value(a: &Json) -> bool {
    ["bools", "ints", "strings", "versions"].iter().any(|k| get(a, k).is_some())
}

/// `validateSkipNodeOperations`.
fn validate_skip_node_operations(ops: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let has = |s: &str| ops.iter().any(|o| o.as_str() == Some(s));
    if has("NodePrepareResources") && !has("NodeUnprepareResources") && !has("*") {
        errors.push(Error::invalid(
            path,
            Json::Array(ops.to_vec()),
            "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
        ));
    }
}

/// `validateCounterSet`.
fn validate_counter_set(c: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = str(c, "name");
    if name.is_empty() {
        errors.push(required(&path.child("name"), ""));
    } else {
        validate_label_like(name, &path.child("name"), errors);
    }
    validate_counters(object(c, "counters"), MAX_COUNTERS_PER_SET, &path.child("counters"), errors);
}

/// The counters of a counter set or a consumption: required, at most `max`, DNS-label keys.
fn validate_counters(
    counters: Option<&serde_json::Map<String, Json>>,
    max: i64,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    match counters {
        Some(m) if !m.is_empty() => {
            validate_map(Some(m), max, LABEL_MAX, path, errors, validate_label_like, |_, _, _| {});
        }
        _ => errors.push(required(path, "")),
    }
}

/// `validateDevice`.
fn validate_device(d: &Json, old: Option<&Json>, path: &Path<'_>, per_device: Option<bool>, errors: &mut Vec<Error>) {
    let multi = jbool(d, "allowMultipleAllocations") == Some(true);
    validate_label_like(str(d, "name"), &path.child("name"), errors);
    let attributes = object(d, "attributes");
    let capacity = object(d, "capacity");
    let n = attributes.map_or(0, |m| m.len()) + capacity.map_or(0, |m| m.len());
    if n > MAX_ATTRIBUTES_AND_CAPACITIES {
        errors.push(Error::invalid(
            path,
            n,
            format!("the total number of attributes and capacities must not exceed {MAX_ATTRIBUTES_AND_CAPACITIES}"),
        ));
    }
    let values: usize = attributes.map_or(0, |m| {
        m.values()
            .map(|a| {
                let n: usize = ["bools", "ints", "strings", "versions"].iter().map(|k| list(a, k).len()).sum();
                if n == 0 {
                    1
                } else {
                    n
                }
            })
            .sum()
    });
    if values > MAX_ATTRIBUTE_VALUES {
        errors.push(Error::invalid(
            path,
            values,
            format!("the total number of attribute values must not exceed {MAX_ATTRIBUTE_VALUES}"),
        ));
    }
    validate_map(
        attributes,
        -1,
        KEY_MAX,
        &path.child("attributes"),
        errors,
        validate_qualified_name,
        validate_device_attribute,
    );
    if old.is_none_or(|o| !same(field(o, "capacity"), field(d, "capacity"))) {
        validate_map(capacity, -1, KEY_MAX, &path.child("capacity"), errors, validate_qualified_name, |c, p, e| {
            if let Some(policy) = get(c, "requestPolicy") {
                let pp = p.child("requestPolicy");
                if multi {
                    let value = get(c, "value").and_then(quantity::from_json).unwrap_or_else(|| quantity::must("0"));
                    validate_request_policy(&value, policy, &pp, e);
                } else {
                    e.push(forbidden(&pp, "allowMultipleAllocations must be true"));
                }
            }
        });
    }
    if old.is_none_or(|o| !same(field(o, "taints"), field(d, "taints"))) {
        validate_slice(list(d, "taints"), MAX_TAINTS, &path.child("taints"), errors, |t, p, e| {
            validate_device_taint(t, None, p, e)
        });
    }
    // `validateDeviceCounterConsumption`: the list's size and uniqueness, the counter set's
    // name, the counters' presence and keys are covered by the declarative rules (beta,
    // enforced; on v1beta1 reported at the device's `basic` path); the number of counters is
    // not.
    let consumptions = list(d, "consumesCounters");
    if consumptions.len() as i64 <= MAX_CONSUMPTIONS {
        let cp = path.child("consumesCounters");
        for (i, c) in consumptions.iter().enumerate() {
            let counters = object(c, "counters").filter(|m| !m.is_empty());
            if counters.is_some_and(|m| m.len() as i64 > MAX_COUNTERS_PER_CONSUMPTION) {
                let p = cp.index(i);
                validate_map(
                    counters,
                    MAX_COUNTERS_PER_CONSUMPTION,
                    LABEL_MAX,
                    &p.child("counters"),
                    errors,
                    |_, _, _| {},
                    |_, _, _| {},
                );
            }
        }
    }
    let node_name = opt_str(d, "nodeName");
    let node_selector = get(d, "nodeSelector");
    let all_nodes = jbool(d, "allNodes");
    if per_device == Some(true) {
        const ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";
        let mut set_fields: Vec<&str> = Vec::new();
        if let Some(node) = node_name {
            if node.is_empty() {
                errors.push(Error::invalid(&path.child("nodeName"), "", "must not be empty"));
            } else {
                set_fields.push("`nodeName`");
                validate_node_name(node, &path.child("nodeName"), errors);
            }
        }
        if let Some(selector) = node_selector {
            set_fields.push("`nodeSelector`");
            validate_node_selector(selector, false, &path.child("nodeSelector"), errors);
        }
        match all_nodes {
            Some(true) => set_fields.push("`allNodes`"),
            Some(false) => {
                errors.push(Error::invalid(&path.child("allNodes"), false, "must be either unset or set to true"))
            }
            None => {}
        }
        match set_fields.len() {
            0 => errors.push(required(path, ONE_OF)),
            1 => {}
            _ => errors.push(Error::invalid(path, format!("{{{}}}", set_fields.join(", ")), ONE_OF)),
        }
    } else if node_name.is_some() || node_selector.is_some() || all_nodes.is_some() {
        errors.push(Error::invalid(
            path,
            Json::Null,
            "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
        ));
    }
    validate_binding_parameters(d, path, errors);
}

/// `validateDeviceBindingParameters`.
pub(super) fn validate_binding_parameters(d: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let conditions = list(d, "bindingConditions");
    let failures = list(d, "bindingFailureConditions");
    let cp = path.child("bindingConditions");
    let fp = path.child("bindingFailureConditions");
    let label_name = |v: &Json, p: &Path<'_>, e: &mut Vec<Error>| validate_label_name(v.as_str().unwrap_or(""), p, e);
    validate_slice_size_covered(conditions, MAX_BINDING_CONDITIONS, &cp, errors, label_name);
    validate_slice_size_covered(failures, MAX_BINDING_CONDITIONS, &fp, errors, label_name);
    for (i, c) in conditions.iter().enumerate() {
        if conditions[..i].contains(c) {
            errors.push(duplicate(&cp.index(i), c.clone()));
        }
    }
    for (i, c) in failures.iter().enumerate() {
        if failures[..i].contains(c) {
            errors.push(duplicate(&fp.index(i), c.clone()));
        }
        if conditions.contains(c) {
            errors.push(Error::invalid(
                &fp.index(i),
                c.clone(),
                "bindingFailureConditions must not overlap with bindingConditions",
            ));
        }
    }
    let value = |key: &str| get(d, key).cloned().unwrap_or(Json::Null);
    if conditions.is_empty() && !failures.is_empty() {
        errors.push(Error::invalid(
            &cp,
            value("bindingConditions"),
            "bindingConditions are required to use bindingFailureConditions",
        ));
    }
    if failures.is_empty() && !conditions.is_empty() {
        errors.push(Error::invalid(
            &fp,
            value("bindingFailureConditions"),
            "bindingFailureConditions are required to use bindingConditions",
        ));
    }
}

/// `validateDeviceAttribute`.
fn validate_device_attribute(a: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut n = 0;
    for key in ["bool", "int"] {
        if get(a, key).is_some() {
            n += 1;
        }
    }
    if let Some(s) = opt_str(a, "string") {
        n += 1;
        if s.len() > MAX_VALUE_LENGTH {
            errors.push(Error::too_long(&path.child("string"), MAX_VALUE_LENGTH as i64));
        }
    }
    if let Some(v) = opt_str(a, "version") {
        n += 1;
        validate_version(v, &path.child("version"), errors);
    }
    for key in ["bools", "ints", "strings", "versions"] {
        let Some(items) = get(a, key) else { continue };
        n += 1;
        let items = items.as_array().map_or(&[][..], |v| v.as_slice());
        let kp = path.child(key);
        if items.is_empty() {
            errors.push(Error::invalid(&kp, Json::Array(Vec::new()), "must not be empty if specified"));
        }
        for (i, item) in items.iter().enumerate() {
            let s = item.as_str().unwrap_or("");
            match key {
                "strings" if s.len() > MAX_VALUE_LENGTH => {
                    errors.push(Error::too_long(&kp.index(i), MAX_VALUE_LENGTH as i64).with_origin("maxBytes"))
                }
                "versions" => validate_version(s, &kp.index(i), errors),
                _ => {}
            }
        }
    }
    // `exactly one value must be specified` (none or several) is the declarative union's
    // (covered), which prints its own words.
    let _ = n;
}

/// `validateDeviceAttributeVersionValue`: semver 2.0.0 (`semverRe`), at most 64 bytes.
fn validate_version(v: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if !is_semver(v) {
        errors.push(Error::invalid(path, v, "must be a string compatible with semver.org spec 2.0.0"));
    }
    if v.len() > MAX_VALUE_LENGTH {
        errors.push(Error::too_long(path, MAX_VALUE_LENGTH as i64));
    }
}

/// `semverRe`.
fn is_semver(v: &str) -> bool {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    let ident = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let pre = |s: &str| numeric(s) || (ident(s) && s.bytes().any(|b| b.is_ascii_alphabetic() || b == b'-'));
    let (rest, build) = match v.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (v, None),
    };
    if build.is_some_and(|b| !b.split('.').all(ident)) {
        return false;
    }
    let (core, pre_release) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    if pre_release.is_some_and(|p| !p.split('.').all(pre)) {
        return false;
    }
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| numeric(p))
}

/// `validateDeviceTaint`: a label key, a label value. The effect (required, one of
/// `NoExecute`, `NoSchedule`, `None`, checked when new or changed) is covered by the declarative rules (beta,
/// enforced), which report it (on v1beta1 at the device's `basic` path, where the API server's
/// normalization matches it with this one).
pub(super) fn validate_device_taint(t: &Json, _old: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_label_name(str(t, "key"), &path.child("key"), errors);
    let value = str(t, "value");
    if !value.is_empty() {
        validate_label_value(value, &path.child("value"), errors);
    }
}

/// `validateRequestPolicy` (`validateValidRequestValues`) with `DRAFractionalCapacityRange` off:
/// integer keys and steps. The gate is beta and on by default in 1.37, yet the API server
/// behaves as if it were off (it accepts `default: 300m` with `validRange: {min: 0, step: 1}`,
/// which the milli path refuses), likely because the gate's `MinCompatibilityVersion` is 1.37
/// while the server's emulated minimum compatibility version is 1.36.
fn validate_request_policy(max: &Quantity, policy: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let values: Vec<Quantity> = list(policy, "validValues").iter().filter_map(quantity::from_json).collect();
    let range = get(policy, "validRange");
    let default = get(policy, "default").and_then(quantity::from_json);
    if !values.is_empty() && range.is_some() {
        errors.push(forbidden(
            path,
            "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time",
        ));
        return;
    }
    if !values.is_empty() {
        let Some(default) = default else {
            errors.push(required(&path.child("default"), "required when validValues is defined"));
            return;
        };
        let vp = path.child("validValues");
        for i in 0..values.len() - 1 {
            if values[i].cmp(&values[i + 1]).is_gt() {
                errors.push(Error::invalid(
                    &vp.index(i + 1),
                    values[i + 1].canonical(),
                    "values must be sorted in ascending order",
                ));
            }
        }
        let items: Vec<Json> = values.iter().map(|q| Json::from(q.canonical())).collect();
        let mut found = false;
        validate_set(
            &items,
            MAX_OPTIONS,
            &vp,
            errors,
            |v, p, e| {
                let q = quantity::from_json(v).unwrap_or_else(|| quantity::must("0"));
                if q.cmp(max).is_gt() {
                    e.push(Error::invalid(
                        p,
                        q.canonical(),
                        format!("option is larger than capacity value: {}", max.canonical()),
                    ));
                }
                if q.cmp(&default).is_eq() {
                    found = true;
                }
            },
            |v| Json::from(format!("{}", quantity::from_json(v).map_or(0, |q| q.value()))),
        );
        if !found {
            errors.push(Error::invalid(
                &vp,
                default.canonical(),
                "default value is not valid according to the requestPolicy",
            ));
        }
    } else if let Some(range) = range {
        let Some(default) = default else {
            errors.push(required(&path.child("default"), "required when validRange is defined"));
            return;
        };
        validate_range(&default, max, range, &path.child("validRange"), errors);
    }
}

/// `validateRequestPolicyRange` (the integer path).
fn validate_range(default: &Quantity, max: &Quantity, range: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let q = |k: &str| get(range, k).and_then(quantity::from_json);
    let Some(min) = q("min") else {
        errors.push(required(&path.child("min"), "required when validRange is defined"));
        return;
    };
    let cap = max.canonical();
    if min.cmp(max).is_gt() {
        errors.push(Error::invalid(
            &path.child("min"),
            min.canonical(),
            format!("min is larger than capacity value: {cap}"),
        ));
    }
    if default.cmp(&min).is_lt() {
        errors.push(Error::invalid(
            &path.child("default"),
            default.canonical(),
            format!("default is less than min: {}", min.canonical()),
        ));
    }
    let range_max = q("max");
    if let Some(rmax) = &range_max {
        if min.cmp(rmax).is_gt() {
            errors.push(Error::invalid(
                &path.child("max"),
                min.canonical(),
                format!("min is larger than max: {}", rmax.canonical()),
            ));
        }
        if rmax.cmp(max).is_gt() {
            errors.push(Error::invalid(
                &path.child("max"),
                rmax.canonical(),
                format!("max is larger than capacity value: {cap}"),
            ));
        }
        if default.cmp(rmax).is_gt() {
            errors.push(Error::invalid(
                &path.child("default"),
                default.canonical(),
                format!("default is more than max: {}", rmax.canonical()),
            ));
        }
    }
    let Some(step) = q("step") else { return };
    let sp = path.child("step");
    if step.sign() <= 0 {
        errors.push(Error::invalid(&sp, step.canonical(), "must be greater than zero"));
        return;
    }
    // min + step (Quantity.Add, in min's format).
    if let Some(added) = min.add(&step) {
        if added.cmp(max).is_gt() {
            errors.push(Error::invalid(
                &sp,
                step.canonical(),
                format!("one step {} is larger than capacity value: {cap}", added.canonical()),
            ));
        }
    }
    let mut unsafe_value = false;
    for (name, v) in
        [("default", Some(default)), ("min", Some(&min)), ("max", range_max.as_ref()), ("step", Some(&step))]
    {
        let Some(v) = v else { continue };
        if v.sign() < 0 {
            errors.push(Error::invalid(&path.child(name), v.canonical(), "must be greater than or equal to 0"));
            unsafe_value = true;
        } else if v.cmp_i64(i64::MAX).is_gt() {
            errors.push(Error::invalid(
                &path.child(name),
                v.canonical(),
                "must not be larger than 9223372036854775807",
            ));
            unsafe_value = true;
        }
    }
    if unsafe_value {
        return;
    }
    let multiple = |value: &Quantity| {
        let (s, m, v) = (step.value(), min.value(), value.value());
        if s != 0 && (v.wrapping_sub(m)) % s != 0 {
            Some(Error::invalid(
                &sp,
                value.canonical(),
                format!("value is not a multiple of a given step ({}) from ({})", step.canonical(), min.canonical()),
            ))
        } else {
            None
        }
    };
    errors.extend(multiple(default));
    if let Some(rmax) = &range_max {
        errors.extend(multiple(rmax));
    }
}
