//! ResourceQuota and LimitRange, after `pkg/apis/core/v1/defaults.go`
//! (`SetObjectDefaults_ResourceQuota`, `SetObjectDefaults_LimitRange`,
//! `SetDefaults_LimitRangeItem`), `pkg/registry/core/resourcequota/strategy.go` (`PrepareForCreate`,
//! `PrepareForUpdate`, `WarningsOnCreate`), `pkg/registry/core/limitrange/strategy.go` and
//! `pkg/apis/core/validation/validation.go` (`ValidateResourceQuota`, `ValidateResourceQuotaSpec`,
//! `ValidateResourceQuotaStatus`, `validateResourceQuotaScopes`, `validateScopeSelector`,
//! `validateScopedResourceSelectorRequirement`, `ValidateResourceQuotaUpdate`,
//! `ValidateResourceQuotaResourceName`, `validateResourceName`, `ValidateLimitRange`,
//! `validateLimitRangeTypeName`, `validateLimitRangeResourceName`) with the helpers of
//! `pkg/apis/core/helper/helpers.go` (`IsStandardQuotaResourceName`,
//! `IsStandardResourceQuotaScope`, `IsResourceQuotaScopeValidForResource`,
//! `IsStandardLimitRangeType`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::{json, Map, Value as Json};

use super::common::{duplicate, required};
use super::pod_common::{is_overcommit_allowed, is_standard_resource};
use super::pod_container_resources::{quantity_value, resource_name};
use super::pod_defaults::default_resource_list;
use crate::apis::{json, Context};
use crate::content;
use crate::field::{Error, Path};
use crate::quantity::{self, Quantity};

/// `SetObjectDefaults_ResourceQuota`.
pub fn default_resource_quota(obj: &mut Json) {
    for (outer, inner) in [("spec", "hard"), ("status", "hard"), ("status", "used")] {
        if let Some(list) = obj.get_mut(outer).and_then(|o| o.get_mut(inner)) {
            default_resource_list(list);
        }
    }
}

/// The ResourceQuota strategy (the status reset on create, kept on update), then
/// `ValidateResourceQuota` / `ValidateResourceQuotaUpdate` and `WarningsOnCreate`.
pub fn admit_resource_quota(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if let Json::Object(m) = obj {
        let status = old.and_then(|o| o.get("status").cloned()).unwrap_or_else(|| json!({}));
        m.insert(String::from("status"), status);
    }
    let obj = &*obj;
    let root = Path::root();
    let mut errors = Vec::new();
    let spec = json::field(obj, "spec");
    validate_quota_spec(spec, &root.child("spec"), &mut errors);
    match old {
        None => {
            let sp = root.child("status");
            let status = json::field(obj, "status");
            for key in ["hard", "used"] {
                resource_list(status, key, &sp.child(key), &mut errors);
            }
            (errors, quota_warnings(spec))
        }
        Some(old) => {
            let set = |v: &Json| {
                let mut s: Vec<String> =
                    json::list(v, "scopes").iter().map(|x| String::from(x.as_str().unwrap_or(""))).collect();
                s.sort();
                s.dedup();
                s
            };
            if set(spec) != set(json::field(old, "spec")) {
                let sp = root.child("spec");
                errors.push(Error::invalid(&sp.child("scopes"), scopes_value(spec), "field is immutable"));
            }
            (errors, Vec::new())
        }
    }
}

/// `spec.scopes` as `field.Error` prints it (`null` when nil).
fn scopes_value(spec: &Json) -> Json {
    json::get(spec, "scopes").cloned().unwrap_or(Json::Null)
}

/// The `hard` / `used` loop of `ValidateResourceQuotaSpec` and `ValidateResourceQuotaStatus`.
fn resource_list(v: &Json, key: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for (k, q) in json::object(v, key).into_iter().flatten() {
        let at = path.key(k);
        validate_quota_resource_name(k, &at, errors);
        if let Some(q) = quantity::from_json(q) {
            quantity_value(k, &q, &at, errors);
        }
    }
}

/// `ValidateResourceQuotaSpec`.
fn validate_quota_spec(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    resource_list(spec, "hard", &path.child("hard"), errors);
    let mut hard: Vec<&str> = json::object(spec, "hard").into_iter().flatten().map(|(k, _)| k.as_str()).collect();
    hard.sort_unstable();
    validate_scopes(spec, &hard, path, errors);
    if let Some(sel) = json::get(spec, "scopeSelector") {
        validate_scope_selector(spec, sel, &hard, &path.child("scopeSelector"), errors);
    }
}

/// helper `IsStandardResourceQuotaScope`.
fn is_standard_scope(scope: &str) -> bool {
    matches!(
        scope,
        "Terminating"
            | "NotTerminating"
            | "BestEffort"
            | "NotBestEffort"
            | "PriorityClass"
            | "VolumeAttributesClass"
            | "CrossNamespacePodAffinity"
    )
}

/// helper `IsStandardQuotaResourceName`.
fn is_standard_quota_resource(name: &str) -> bool {
    const STANDARD: &[&str] = &[
        "cpu",
        "memory",
        "ephemeral-storage",
        "requests.cpu",
        "requests.memory",
        "requests.storage",
        "requests.ephemeral-storage",
        "limits.cpu",
        "limits.memory",
        "limits.ephemeral-storage",
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "persistentvolumeclaims",
        "configmaps",
        "services.nodeports",
        "services.loadbalancers",
    ];
    STANDARD.contains(&name) || name.starts_with("hugepages-") || name.starts_with("requests.hugepages-")
}

/// helper `IsResourceQuotaScopeValidForResource`.
fn scope_valid_for(scope: &str, resource: &str) -> bool {
    const POD_COMPUTE: &[&str] = &["cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"];
    match scope {
        "Terminating" | "NotTerminating" | "NotBestEffort" | "PriorityClass" | "CrossNamespacePodAffinity" => {
            resource == "pods" || POD_COMPUTE.contains(&resource)
        }
        "BestEffort" => resource == "pods",
        "VolumeAttributesClass" => resource == "persistentvolumeclaims" || resource == "requests.storage",
        _ => true,
    }
}

/// The `invalidScopePairs` check: both scopes of a pair present.
fn conflicting(scopes: &[&str]) -> usize {
    [("BestEffort", "NotBestEffort"), ("Terminating", "NotTerminating")]
        .iter()
        .filter(|(a, b)| scopes.contains(a) && scopes.contains(b))
        .count()
}

/// `validateResourceQuotaScopes`.
fn validate_scopes(spec: &Json, hard: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    let scopes: Vec<&str> = json::list(spec, "scopes").iter().map(|s| s.as_str().unwrap_or("")).collect();
    if scopes.is_empty() {
        return;
    }
    let sp = path.child("scopes");
    for scope in &scopes {
        if !is_standard_scope(scope) {
            errors.push(Error::invalid(&sp, scopes_value(spec), "unsupported scope"));
        }
        for k in hard {
            if is_standard_quota_resource(k) && !scope_valid_for(scope, k) {
                errors.push(Error::invalid(&sp, scopes_value(spec), "unsupported scope applied to resource"));
            }
        }
    }
    for _ in 0..conflicting(&scopes) {
        errors.push(Error::invalid(&sp, scopes_value(spec), "conflicting scopes"));
    }
}

/// The internal `*core.ScopeSelector` as `field.Error` prints it (`json.Marshal`, Go names).
fn scope_selector_json(sel: &Json) -> String {
    let exprs = match json::get(sel, "matchExpressions") {
        None => String::from("null"),
        Some(_) => {
            let items: Vec<String> = json::list(sel, "matchExpressions")
                .iter()
                .map(|r| {
                    format!(
                        "{{\"ScopeName\":{},\"Operator\":{},\"Values\":{}}}",
                        crate::field::go_json(&Json::from(json::str(r, "scopeName"))),
                        crate::field::go_json(&Json::from(json::str(r, "operator"))),
                        crate::field::go_json(json::get(r, "values").unwrap_or(&Json::Null)),
                    )
                })
                .collect();
            format!("[{}]", items.join(","))
        }
    };
    format!("{{\"MatchExpressions\":{exprs}}}")
}

/// `validateScopedResourceSelectorRequirement`.
fn validate_scope_selector(spec: &Json, sel: &Json, hard: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    let ep = path.child("matchExpressions");
    let mut scopes: Vec<&str> = Vec::new();
    for req in json::list(sel, "matchExpressions") {
        let scope = json::str(req, "scopeName");
        let op = json::str(req, "operator");
        if !is_standard_scope(scope) {
            errors.push(Error::invalid(&ep.child("scopeName"), scope, "unsupported scope"));
        }
        for k in hard {
            if is_standard_quota_resource(k) && !scope_valid_for(scope, k) {
                let mut e = Error::invalid(&ep, Json::Null, "unsupported scope applied to resource");
                e.rendered_value = Some(scope_selector_json(sel));
                errors.push(e);
            }
        }
        if matches!(
            scope,
            "BestEffort" | "NotBestEffort" | "Terminating" | "NotTerminating" | "CrossNamespacePodAffinity"
        ) && op != "Exists"
        {
            errors.push(Error::invalid(
                &ep.child("operator"),
                op,
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        let values = json::list(req, "values");
        match op {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errors.push(required(
                        &ep.child("values"),
                        "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errors.push(Error::invalid(
                        &ep.child("values"),
                        Json::Array(values.to_vec()),
                        "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
                    ));
                }
            }
            _ => errors.push(Error::invalid(&ep.child("operator"), op, "not a valid selector operator")),
        }
        scopes.push(scope);
    }
    for _ in 0..conflicting(&scopes) {
        errors.push(Error::invalid(&ep, scopes_value(spec), "conflicting scopes"));
    }
}

/// `validateResourceName`.
fn validate_resource_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let msgs = content::is_label_key(name);
    if !msgs.is_empty() {
        for msg in msgs {
            errors.push(Error::invalid(path, name, msg));
        }
        return;
    }
    if !name.contains('/') && !is_standard_resource(name) {
        errors.push(Error::invalid(path, name, "must be a standard resource type or fully qualified"));
    }
}

/// `ValidateResourceQuotaResourceName`.
fn validate_quota_resource_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_resource_name(name, path, errors);
    if !name.contains('/') && !is_standard_quota_resource(name) {
        errors.push(Error::invalid(path, name, "must be a standard resource for quota"));
    }
}

/// `WarningsOnCreate` of the ResourceQuota strategy: a request above its limit.
fn quota_warnings(spec: &Json) -> Vec<String> {
    let hard = json::object(spec, "hard");
    let get = |k: &str| hard.and_then(|h| h.get(k)).and_then(quantity::from_json);
    let mut w = Vec::new();
    for name in ["cpu", "memory", "storage", "ephemeral-storage"] {
        let mut request_name = format!("requests.{name}");
        let mut request = get(&request_name);
        if request.is_none() && (name == "cpu" || name == "memory") {
            request = get(name);
            if request.is_some() {
                request_name = String::from(name);
            }
        }
        let limit_name = format!("limits.{name}");
        if let (Some(r), Some(l)) = (request, get(&limit_name)) {
            if r.cmp(&l) == Ordering::Greater {
                w.push(format!(
                    "ResourceQuota {request_name} ({}) should be less than {limit_name} ({})",
                    r.canonical(),
                    l.canonical()
                ));
            }
        }
    }
    w
}

// ---- LimitRange.

const LIMIT_LISTS: [&str; 5] = ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"];

/// `SetObjectDefaults_LimitRange`: `SetDefaults_LimitRangeItem` (a Container item's default
/// from its max, its default request from its default, then its min), then each list rounded
/// up to the milli.
pub fn default_limit_range(obj: &mut Json) {
    let Some(Json::Array(items)) = obj.get_mut("spec").and_then(|s| s.get_mut("limits")) else { return };
    for item in items.iter_mut() {
        let Json::Object(m) = item else { continue };
        if m.get("type").and_then(Json::as_str) == Some("Container") {
            let get = |m: &Map<String, Json>, k: &str| m.get(k).and_then(Json::as_object).cloned().unwrap_or_default();
            let (max, min) = (get(m, "max"), get(m, "min"));
            let mut default = get(m, "default");
            for (k, v) in max {
                default.entry(k).or_insert(v);
            }
            let mut request = get(m, "defaultRequest");
            for (k, v) in default.iter().chain(min.iter()) {
                request.entry(k.clone()).or_insert_with(|| v.clone());
            }
            m.insert(String::from("default"), Json::Object(default));
            m.insert(String::from("defaultRequest"), Json::Object(request));
        }
        for key in LIMIT_LISTS {
            if let Some(list) = m.get_mut(key) {
                default_resource_list(list);
            }
        }
    }
}

/// The LimitRange strategy (nothing to prepare) and `ValidateLimitRange`, on create and update.
pub fn admit_limit_range(_ctx: Context, obj: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    validate_limit_range(obj, &mut errors);
    (errors, Vec::new())
}

/// `validateLimitRangeResourceName`.
fn limit_resource_name(ty: &str, name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    match ty {
        "Pod" | "Container" => resource_name(name, false, path, errors),
        _ => validate_resource_name(name, path, errors),
    }
}

/// `ValidateLimitRange` (metadata aside).
pub fn validate_limit_range(obj: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let sp = root.child("spec");
    let lp = sp.child("limits");
    let mut types: Vec<&str> = Vec::new();
    for (i, limit) in json::list(json::field(obj, "spec"), "limits").iter().enumerate() {
        let at = lp.index(i);
        let ty = json::str(limit, "type");
        let tp = at.child("type");
        let msgs = content::is_label_key(ty);
        if !msgs.is_empty() {
            for msg in msgs {
                errors.push(Error::invalid(&tp, ty, msg));
            }
        } else if !ty.contains('/') && !matches!(ty, "Pod" | "Container" | "PersistentVolumeClaim") {
            errors.push(Error::invalid(&tp, ty, "must be a standard limit type or fully qualified"));
        }
        if types.contains(&ty) {
            errors.push(duplicate(&tp, ty));
        }
        types.push(ty);

        let mut keys: Vec<&str> = Vec::new();
        let mut read = |key: &str, errors: &mut Vec<Error>| -> Vec<(&str, Quantity)> {
            let mut out = Vec::new();
            let kp = at.child(key);
            for (k, q) in json::object(limit, key).into_iter().flatten() {
                limit_resource_name(ty, k, &kp.key(k), errors);
                if !keys.contains(&k.as_str()) {
                    keys.push(k.as_str());
                }
                if let Some(q) = quantity::from_json(q) {
                    out.push((k.as_str(), q));
                }
            }
            out
        };
        let max = read("max", errors);
        let min = read("min", errors);
        let (mut defaults, mut requests) = (Vec::new(), Vec::new());
        if ty == "Pod" {
            if json::object(limit, "default").is_some_and(|d| !d.is_empty()) {
                errors
                    .push(super::common::forbidden(&at.child("default"), "may not be specified when `type` is 'Pod'"));
            }
            if json::object(limit, "defaultRequest").is_some_and(|d| !d.is_empty()) {
                errors.push(super::common::forbidden(
                    &at.child("defaultRequest"),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        } else {
            defaults = read("default", errors);
            requests = read("defaultRequest", errors);
        }
        if ty == "PersistentVolumeClaim" {
            let has = |k: &str| json::object(limit, k).is_some_and(|m| m.contains_key("storage"));
            if !has("min") && !has("max") {
                errors.push(required(
                    &at.child("limits"),
                    "either minimum or maximum storage value is required, but neither was provided",
                ));
            }
        }
        let ratios = read("maxLimitRequestRatio", errors);
        keys.sort_unstable();
        let find = |l: &[(&str, Quantity)], k: &str| l.iter().find(|(n, _)| *n == k).map(|(_, q)| q.clone());
        for k in keys {
            let (mn, mx, df, dr, ratio) =
                (find(&min, k), find(&max, k), find(&defaults, k), find(&requests, k), find(&ratios, k));
            let gt = |a: &Quantity, b: &Quantity| a.cmp(b) == Ordering::Greater;
            let mut push = |list: &str, value: &Quantity, msg: String| {
                let lp = at.child(list);
                errors.push(Error::invalid(&lp.key(k), value.canonical(), msg));
            };
            if let (Some(a), Some(b)) = (&mn, &mx) {
                if gt(a, b) {
                    push("min", a, format!("min value {} is greater than max value {}", a.canonical(), b.canonical()));
                }
            }
            if let (Some(r), Some(a)) = (&dr, &mn) {
                if gt(a, r) {
                    let msg =
                        format!("min value {} is greater than default request value {}", a.canonical(), r.canonical());
                    push("defaultRequest", r, msg);
                }
            }
            if let (Some(r), Some(b)) = (&dr, &mx) {
                if gt(r, b) {
                    let msg =
                        format!("default request value {} is greater than max value {}", r.canonical(), b.canonical());
                    push("defaultRequest", r, msg);
                }
            }
            if let (Some(r), Some(d)) = (&dr, &df) {
                if gt(r, d) {
                    let msg = format!(
                        "default request value {} is greater than default limit value {}",
                        r.canonical(),
                        d.canonical()
                    );
                    push("defaultRequest", r, msg);
                }
            }
            if let (Some(d), Some(a)) = (&df, &mn) {
                if gt(a, d) {
                    push(
                        "default",
                        a,
                        format!("min value {} is greater than default value {}", a.canonical(), d.canonical()),
                    );
                }
            }
            if let (Some(d), Some(b)) = (&df, &mx) {
                if gt(d, b) {
                    push(
                        "default",
                        b,
                        format!("default value {} is greater than max value {}", d.canonical(), b.canonical()),
                    );
                }
            }
            if let Some(ratio) = &ratio {
                if ratio.cmp_i64(1) == Ordering::Less {
                    push("maxLimitRequestRatio", ratio, format!("ratio {} is less than 1", ratio.canonical()));
                }
                if let (Some(a), Some(b)) = (&mn, &mx) {
                    const MAX_MILLI: i64 = i64::MAX / 1000;
                    let (mut r, mut lo, mut hi) = (ratio.value() as f64, a.value(), b.value());
                    if ratio.value() < MAX_MILLI && lo < MAX_MILLI && hi < MAX_MILLI {
                        r = ratio.milli_value() as f64 / 1000.0;
                        lo = a.milli_value();
                        hi = b.milli_value();
                    }
                    let limit = hi as f64 / lo as f64;
                    if r > limit {
                        let msg = format!("ratio {} is greater than max/min = {}", ratio.canonical(), go_f(limit));
                        push("maxLimitRequestRatio", ratio, msg);
                    }
                }
            }
            if !is_overcommit_allowed(k) {
                if let (Some(d), Some(r)) = (&df, &dr) {
                    if d.cmp(r) != Ordering::Equal {
                        let msg = format!(
                            "default value {} must equal to defaultRequest value {} in {k}",
                            d.canonical(),
                            r.canonical()
                        );
                        push("defaultRequest", r, msg);
                    }
                }
            }
        }
    }
}

/// Go's `%f` of a float64.
fn go_f(v: f64) -> String {
    if v.is_nan() {
        String::from("NaN")
    } else if v.is_infinite() {
        String::from(if v > 0.0 { "+Inf" } else { "-Inf" })
    } else {
        crate::field::exact::fixed(v, 6)
    }
}
