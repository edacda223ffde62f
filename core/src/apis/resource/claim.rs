//! ResourceClaim, ResourceClaimTemplate and DeviceClass, after
//! `pkg/apis/resource/validation/validation.go` (`ValidateResourceClaim`,
//! `ValidateResourceClaimTemplate`, `ValidateDeviceClass` and their updates, the device claim
//! and its requests, constraints and configuration, tolerations) and
//! `pkg/registry/resource/utils.go` (`AuthorizedForAdmin`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::cel::{validate_cel_expression, DERIVED_MAX_COST};
use super::util::{
    validate_driver_name_covered, validate_label_like, validate_label_value, validate_raw_extension, validate_set,
    validate_slice, validate_slice_size_covered, validate_unique_set,
};
use crate::apis::core::common::{forbidden, required, validate_dns1123_subdomain};
use crate::apis::json::{field, get, int, list, opt_str, str};
use crate::field::{Error, Path};

/// `DeviceRequestsMaxSize` (= `AllocationResultsMaxSize`).
const REQUESTS_MAX: i64 = 32;
/// `DeviceConstraintsMaxSize`, `DeviceConfigMaxSize`, `DeviceSelectorsMaxSize`.
const CONSTRAINTS_MAX: i64 = 32;
const CONFIG_MAX: i64 = 32;
const SELECTORS_MAX: i64 = 32;
/// `FirstAvailableDeviceRequestMaxSize`.
const FIRST_AVAILABLE_MAX: i64 = 8;
/// `OpaqueParametersMaxLength`.
const OPAQUE_PARAMETERS_MAX: usize = 10 * 1024;
/// `DRAAdminNamespaceLabelKey`.
const ADMIN_LABEL: &str = "resource.kubernetes.io/admin-access";

/// The names of a claim's requests, each with its subrequests' names (`requestNames`).
struct RequestNames(Vec<(String, Option<Vec<String>>)>);

impl RequestNames {
    /// `gatherRequestNames`.
    fn gather(devices: &Json) -> RequestNames {
        let mut names = Vec::new();
        for r in list(devices, "requests") {
            let subs = list(r, "firstAvailable");
            let entry =
                if subs.is_empty() { None } else { Some(subs.iter().map(|s| String::from(str(s, "name"))).collect()) };
            names.retain(|(n, _): &(String, Option<Vec<String>>)| n != str(r, "name"));
            names.push((String::from(str(r, "name")), entry));
        }
        RequestNames(names)
    }

    /// `requestNames.Has`.
    fn has(&self, s: &str) -> bool {
        let segments: Vec<&str> = s.split('/').collect();
        if segments.len() > 2 {
            return false;
        }
        let Some((_, subs)) = self.0.iter().find(|(n, _)| n == segments[0]) else { return false };
        if segments.len() == 1 {
            return true;
        }
        subs.as_ref().is_some_and(|subs| subs.iter().any(|x| x == segments[1]))
    }
}

/// `deviceValidationOptions`.
struct Options {
    stored: bool,
    minor: u32,
    /// `constraintAttributes`: (request reference, attribute name).
    constraint_attributes: Vec<(String, String)>,
}

/// `gatherConstraintAttributes`.
fn gather_constraint_attributes(devices: &Json) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    for c in list(devices, "constraints") {
        let name = match (opt_str(c, "matchAttribute"), opt_str(c, "distinctAttribute")) {
            (Some(m), _) => m,
            (None, Some(d)) => d,
            _ => continue,
        };
        let requests = list(c, "requests");
        if requests.is_empty() {
            attrs.push((String::new(), String::from(name)));
        }
        for r in requests {
            attrs.push((String::from(r.as_str().unwrap_or("")), String::from(name)));
        }
    }
    attrs
}

/// `AuthorizedForAdmin`: a request for admin access needs the namespace's
/// `resource.kubernetes.io/admin-access: "true"` label; kubedv sees no namespace, which it
/// takes to have no labels (as [`crate::apis::admission`] does).
pub(super) fn authorized_for_admin(requests: &[Json], errors: &mut Vec<Error>) {
    for (i, r) in requests.iter().enumerate() {
        let Some(exactly) = get(r, "exactly") else { continue };
        if crate::apis::json::bool(exactly, "adminAccess") == Some(true) {
            let root = Path::root();
            let s = root.child("spec");
            let devices = s.child("devices");
            let requests = devices.child("requests");
            let idx = requests.index(i);
            let p = idx.child("adminAccess");
            errors.push(forbidden(
                &p,
                &format!(
                    "admin access to devices requires the `{ADMIN_LABEL}: true` label on the containing namespace"
                ),
            ));
            return;
        }
    }
}

/// `validateResourceClaimSpec` (`validateDeviceClaim`).
pub(super) fn validate_claim_spec(spec: &Json, path: &Path<'_>, stored: bool, minor: u32, errors: &mut Vec<Error>) {
    let devices = field(spec, "devices");
    let dp = path.child("devices");
    let names = RequestNames::gather(devices);
    let opts = Options { stored, minor, constraint_attributes: gather_constraint_attributes(devices) };
    let mut total = 0u64;
    validate_unique_set(list(devices, "requests"), REQUESTS_MAX, &dp.child("requests"), errors, |r, p, e| {
        validate_device_request(r, p, &opts, &mut total, e)
    });
    validate_slice(list(devices, "constraints"), CONSTRAINTS_MAX, &dp.child("constraints"), errors, |c, p, e| {
        validate_device_constraint(c, p, &names, e)
    });
    validate_slice(list(devices, "config"), CONFIG_MAX, &dp.child("config"), errors, |c, p, e| {
        validate_unique_set(list(c, "requests"), REQUESTS_MAX, &p.child("requests"), e, |n, p, e| {
            validate_request_name_ref(n.as_str().unwrap_or(""), p, &names, e)
        });
        validate_device_configuration(c, p, stored, e);
    });
    if total > DERIVED_MAX_COST {
        errors.push(forbidden(
            &dp,
            "too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit",
        ));
    }
}

/// `validateDeviceRequest`.
fn validate_device_request(r: &Json, path: &Path<'_>, opts: &Options, total: &mut u64, errors: &mut Vec<Error>) {
    let name = str(r, "name");
    validate_label_like(name, &path.child("name"), errors);
    let first_available = list(r, "firstAvailable");
    let exactly = get(r, "exactly");
    match (!first_available.is_empty(), exactly) {
        (false, None) => {
            errors.push(required(path, "exactly one of `exactly` or `firstAvailable` is required"));
        }
        (true, Some(_)) => errors.push(Error::invalid(
            path,
            Json::Null,
            "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
        )),
        (true, None) => validate_unique_set(
            first_available,
            FIRST_AVAILABLE_MAX,
            &path.child("firstAvailable"),
            errors,
            |s, p, e| {
                let sub = format!("{name}/{}", str(s, "name"));
                validate_label_like(str(s, "name"), &p.child("name"), e);
                validate_request_body(s, p, opts, &sub, total, e);
            },
        ),
        (false, Some(exactly)) => validate_request_body(exactly, &path.child("exactly"), opts, name, total, errors),
    }
}

/// `validateExactDeviceRequest`, and `validateDeviceSubRequest` after its name.
fn validate_request_body(
    r: &Json,
    path: &Path<'_>,
    opts: &Options,
    request_name: &str,
    total: &mut u64,
    errors: &mut Vec<Error>,
) {
    let class = str(r, "deviceClassName");
    let cp = path.child("deviceClassName");
    if class.is_empty() {
        errors.push(required(&cp, ""));
    } else {
        validate_dns1123_subdomain(class, &cp, errors);
    }
    validate_selectors(list(r, "selectors"), &path.child("selectors"), opts.stored, opts.minor, errors);
    validate_derived_attributes(
        list(r, "derivedAttributes"),
        &path.child("derivedAttributes"),
        opts,
        request_name,
        total,
        errors,
    );
    validate_allocation_mode(str(r, "allocationMode"), int(r, "count").unwrap_or(0), path, errors);
    let tp = path.child("tolerations");
    for (i, t) in list(r, "tolerations").iter().enumerate() {
        validate_device_toleration(t, &tp.index(i), errors);
    }
}

/// `validateDeviceAllocationMode`.
fn validate_allocation_mode(mode: &str, count: i64, path: &Path<'_>, errors: &mut Vec<Error>) {
    match mode {
        "All" => {
            if count != 0 {
                errors.push(Error::invalid(
                    &path.child("count"),
                    count,
                    format!("must not be specified when allocationMode is '{mode}'"),
                ));
            }
        }
        "ExactCount" => {
            if count <= 0 {
                errors.push(Error::invalid(&path.child("count"), count, "must be greater than zero"));
            }
        }
        // Covered: an enforced declarative error (v1beta1's at the request's own path,
        // normalized) takes its place; an empty mode, which the declarative rule lets by, stays.
        _ => errors.push(Error::not_supported(&path.child("allocationMode"), mode, &["All", "ExactCount"]).covered()),
    }
}

/// `validateSelectorSlice` (`validateSelector`).
pub(super) fn validate_selectors(
    selectors: &[Json],
    path: &Path<'_>,
    stored: bool,
    minor: u32,
    errors: &mut Vec<Error>,
) {
    validate_slice_size_covered(selectors, SELECTORS_MAX, path, errors, |s, p, e| match get(s, "cel") {
        None => e.push(required(&p.child("cel"), "")),
        Some(cel) => {
            if !stored {
                let cp = p.child("cel");
                validate_cel_expression(str(cel, "expression"), &cp.child("expression"), minor, None, e);
            }
        }
    });
}

/// `validateDeviceDerivedAttributes` (`validateDeviceDerivedAttribute`).
fn validate_derived_attributes(
    attrs: &[Json],
    path: &Path<'_>,
    opts: &Options,
    request_name: &str,
    total: &mut u64,
    errors: &mut Vec<Error>,
) {
    validate_set(
        attrs,
        -1,
        path,
        errors,
        |a, p, e| {
            let name = str(a, "name");
            if !name.is_empty() && !attribute_used_by_constraint(name, request_name, &opts.constraint_attributes) {
                e.push(Error::invalid(
                    &p.child("name"),
                    name,
                    "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request",
                ));
            }
            let expression = str(a, "expression");
            if !expression.is_empty() && !opts.stored {
                validate_cel_expression(expression, &p.child("expression"), opts.minor, Some(&mut *total), e);
            }
        },
        |a| Json::from(str(a, "name")),
    );
}

/// `isAttributeUsedByConstraint`.
fn attribute_used_by_constraint(attr: &str, request: &str, attrs: &[(String, String)]) -> bool {
    let has = |r: &str| attrs.iter().any(|(req, a)| req == r && a == attr);
    has("") || has(request) || request.split_once('/').is_some_and(|(parent, _)| has(parent))
}

/// `validateDeviceConstraint`.
fn validate_device_constraint(c: &Json, path: &Path<'_>, names: &RequestNames, errors: &mut Vec<Error>) {
    validate_unique_set(list(c, "requests"), REQUESTS_MAX, &path.child("requests"), errors, |n, p, e| {
        validate_request_name_ref(n.as_str().unwrap_or(""), p, names, e)
    });
    // validateFullyQualifiedName of either attribute is covered by the declarative rules.
    if opt_str(c, "matchAttribute").is_none() && opt_str(c, "distinctAttribute").is_none() {
        // DRAConsumableCapacity is on.
        errors.push(required(
            path,
            "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set",
        ));
    }
}

/// `validateRequestNameRef`.
fn validate_request_name_ref(name: &str, path: &Path<'_>, names: &RequestNames, errors: &mut Vec<Error>) {
    const DETAIL: &str =
        "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
    let segments: Vec<&str> = name.split('/').collect();
    if segments.len() > 2 {
        errors.push(Error::invalid(path, name, DETAIL));
        return;
    }
    for s in &segments {
        validate_label_like(s, path, errors);
    }
    if !names.has(name) {
        errors.push(Error::invalid(path, name, DETAIL));
    }
}

/// `validateDeviceConfiguration` (`validateOpaqueConfiguration`).
fn validate_device_configuration(c: &Json, path: &Path<'_>, stored: bool, errors: &mut Vec<Error>) {
    let op = path.child("opaque");
    match get(c, "opaque") {
        None => errors.push(required(&op, "")),
        Some(opaque) => {
            validate_driver_name_covered(str(opaque, "driver"), &op.child("driver"), errors);
            validate_raw_extension(
                get(opaque, "parameters"),
                &op.child("parameters"),
                stored,
                OPAQUE_PARAMETERS_MAX,
                errors,
            );
        }
    }
}

/// `validateDeviceToleration`: the key's format, the operator's and the effect's values are
/// covered by the declarative rules (beta, enforced), which report them (on v1beta1 at the
/// request's own path, where the API server's normalization matches them with these), so only
/// the value is checked here.
pub(super) fn validate_device_toleration(t: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let value = str(t, "value");
    match str(t, "operator") {
        "Exists" if !value.is_empty() => {
            errors.push(Error::invalid(&path.child("value"), value, "must be empty for operator `Exists`"));
        }
        "Equal" => validate_label_value(value, &path.child("value"), errors),
        _ => {}
    }
}

/// `ValidateResourceClaim` (the spec; metadata is checked elsewhere).
pub(super) fn validate_claim(claim: &Json, minor: u32, errors: &mut Vec<Error>) {
    let root = Path::root();
    validate_claim_spec(field(claim, "spec"), &root.child("spec"), false, minor, errors);
}

/// `ValidateResourceClaimTemplate`: `ValidateTemplateObjectMeta` of `spec.metadata`, then the
/// claim's spec.
pub(super) fn validate_template(template: &Json, minor: u32, errors: &mut Vec<Error>) {
    let root = Path::root();
    let sp = root.child("spec");
    let spec = field(template, "spec");
    crate::apis::core::volume_sources::validate_template_object_meta(
        field(spec, "metadata"),
        &sp.child("metadata"),
        errors,
    );
    validate_claim_spec(field(spec, "spec"), &sp.child("spec"), false, minor, errors);
}

/// `ValidateDeviceClass` / `ValidateDeviceClassUpdate` (`validateDeviceClassSpec`): the
/// selectors and the configuration count as stored when they equal the old ones.
pub(super) fn validate_device_class(class: &Json, old: Option<&Json>, minor: u32, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(class, "spec");
    let old_spec = old.map(|o| field(o, "spec"));
    let unchanged =
        |key: &str| old_spec.is_some_and(|o| crate::apis::apps::common::same(field(spec, key), field(o, key)));
    validate_selectors(list(spec, "selectors"), &path.child("selectors"), unchanged("selectors"), minor, errors);
    let stored = unchanged("config");
    validate_slice(list(spec, "config"), CONFIG_MAX, &path.child("config"), errors, |c, p, e| {
        validate_device_configuration(c, p, stored, e)
    });
    // A bad `extendedResourceName` is the declarative rules' (covered).
}

/// The fields `resourceclaimspec.DropDisabledFields` drops with the release's gates
/// (`DRADerivedAttributes` is off): each request's `derivedAttributes`, unless the old spec
/// uses them.
pub(super) fn drop_disabled_fields(spec: &mut Json, old: Option<&Json>) {
    let in_use = old.is_some_and(|old| {
        list(field(old, "devices"), "requests").iter().any(|r| {
            get(r, "exactly").is_some_and(|x| !list(x, "derivedAttributes").is_empty())
                || list(r, "firstAvailable").iter().any(|s| !list(s, "derivedAttributes").is_empty())
        })
    });
    if in_use {
        return;
    }
    let Some(Json::Array(requests)) = spec.get_mut("devices").and_then(|d| d.get_mut("requests")) else { return };
    for r in requests {
        if let Some(Json::Object(x)) = r.get_mut("exactly") {
            x.remove("derivedAttributes");
        }
        if let Some(Json::Array(subs)) = r.get_mut("firstAvailable") {
            for s in subs {
                if let Json::Object(s) = s {
                    s.remove("derivedAttributes");
                }
            }
        }
    }
}

/// An empty object.
pub(super) fn empty() -> Json {
    Json::Object(Map::new())
}
