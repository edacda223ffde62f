//! Small pieces the Pod family's validation shares: the string checks of apimachinery
//! `pkg/util/validation` (`validation.go`: `IsDNS1123Label`, `IsDNS1123Subdomain`,
//! `IsDNS1035Label` with their "characters" length message, `IsValidPortNum`,
//! `IsValidPortName`, `IsRelaxedEnvVarName`, `IsConfigMapKey`, `IsHTTPHeaderName`,
//! `InclusiveRangeError`), core validation's `ValidateDNS1123Label`, `ValidateQualifiedName`,
//! `ValidateDNS1123Subdomain`, `ValidateNonnegativeField`, and the resource-name helpers of
//! `pkg/apis/core/helper/helpers.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::content;
use crate::field::{Error, ErrorType, Path};

/// `field.Required(path, detail)`.
pub fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

/// `field.Forbidden(path, detail)`.
pub fn forbidden(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, path, None, detail)
}

/// `field.NotFound(path, value)`.
pub fn not_found(path: &Path<'_>, value: &str) -> Error {
    Error::new(ErrorType::NotFound, path, Some(Json::from(value)), "")
}

/// `field.Duplicate(path, value)`.
pub fn duplicate(path: &Path<'_>, value: impl Into<Json>) -> Error {
    Error::new(ErrorType::Duplicate, path, Some(value.into()), "")
}

/// util/validation `MaxLenError`: "characters" (content's says "bytes").
fn characters(msgs: Vec<String>) -> Vec<String> {
    msgs.into_iter()
        .map(|m| match m.strip_suffix(" bytes") {
            Some(head) if m.starts_with("must be no more than ") => format!("{head} characters"),
            _ => m,
        })
        .collect()
}

/// util/validation `IsDNS1123Label`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    characters(content::is_dns1123_label(value))
}

/// util/validation `IsDNS1123Subdomain` (also `NameIsDNSSubdomain` without prefix).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    characters(content::is_dns1123_subdomain(value))
}

/// core validation `ValidateDNS1123Label`.
pub fn validate_dns1123_label(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in is_dns1123_label(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=k8s-short-name"));
    }
}

/// core validation `ValidateDNS1123Subdomain`.
pub fn validate_dns1123_subdomain(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in is_dns1123_subdomain(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=k8s-long-name"));
    }
}

/// core validation `ValidateQualifiedName`.
pub fn validate_qualified_name(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in content::is_label_key(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=qualified-name"));
    }
}

/// `ValidateNonnegativeField`.
pub fn validate_nonnegative(value: i64, path: &Path<'_>, errors: &mut Vec<Error>) {
    if value < 0 {
        errors.push(Error::invalid(path, value, "must be greater than or equal to 0").with_origin("minimum"));
    }
}

/// `InclusiveRangeError`.
pub fn inclusive_range(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

/// `IsValidPortNum`.
pub fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![inclusive_range(1, 65535)]
    }
}

/// `IsValidPortName`.
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(String::from("must be no more than 15 characters"));
    }
    if port.is_empty() || !port.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-') {
        errs.push(String::from("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"));
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push(String::from("must contain at least one letter (a-z)"));
    }
    if port.contains("--") {
        errs.push(String::from("must not contain consecutive hyphens"));
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push(String::from("must not begin or end with a hyphen"));
    }
    errs
}

/// `IsRelaxedEnvVarName`.
pub fn is_relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.is_empty() {
        errs.push(String::from("environment variable name must be non-empty"));
    }
    if value.chars().any(|r| !(' '..='~').contains(&r) || r == '=') {
        errs.push(String::from(
            "a valid environment variable name must consist only of printable ASCII characters other than '='",
        ));
    }
    errs
}

/// `hasChDirPrefix`.
fn ch_dir_prefix(value: &str) -> Option<String> {
    if value == "." {
        Some(String::from("must not be '.'"))
    } else if value == ".." {
        Some(String::from("must not be '..'"))
    } else if value.starts_with("..") {
        Some(String::from("must not start with '..'"))
    } else {
        None
    }
}

/// `IsConfigMapKey`.
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(String::from("must be no more than 253 characters"));
    }
    if value.is_empty() || !value.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_')) {
        errs.push(content::regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(ch_dir_prefix(value));
    errs
}

/// `IsHTTPHeaderName`.
pub fn is_http_header_name(value: &str) -> Vec<String> {
    if !value.is_empty() && value.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
        return Vec::new();
    }
    vec![content::regex_error(
        "a valid HTTP header must consist of alphanumeric characters or '-'",
        "[-A-Za-z0-9]+",
        &["X-Header-Name"],
    )]
}

/// helper `IsHugePageResourceName`.
pub fn is_huge_page(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// helper `IsNativeResource`.
pub fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// helper `IsOvercommitAllowed`.
pub fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_huge_page(name)
}

/// helper `IsExtendedResourceName`.
pub fn is_extended_resource(name: &str) -> bool {
    if is_native_resource(name) || name.starts_with("requests.") {
        return false;
    }
    content::is_label_key(&format!("requests.{name}")).is_empty()
}

/// helper `IsStandardResourceName`.
pub fn is_standard_resource(name: &str) -> bool {
    const STANDARD: &[&str] = &[
        "cpu",
        "memory",
        "ephemeral-storage",
        "requests.cpu",
        "requests.memory",
        "requests.ephemeral-storage",
        "limits.cpu",
        "limits.memory",
        "limits.ephemeral-storage",
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "storage",
        "requests.storage",
        "services.nodeports",
        "services.loadbalancers",
    ];
    STANDARD.contains(&name) || name.starts_with("hugepages-") || name.starts_with("requests.hugepages-")
}

/// helper `IsIntegerResourceName`.
pub fn is_integer_resource(name: &str) -> bool {
    const INTEGER: &[&str] = &[
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "services.nodeports",
        "services.loadbalancers",
    ];
    INTEGER.contains(&name) || is_extended_resource(name)
}

/// A list field's string items.
pub fn strings<'a>(v: &'a Json, key: &str) -> Vec<&'a str> {
    super::super::json::list(v, key).iter().map(|x| x.as_str().unwrap_or("")).collect()
}

/// `PodValidationOptions` at 1.37 defaults: the options kubedv reads (a create's are all
/// false but `resource_is_pod` for a Pod; an update's come from the old object, see
/// `pod_update::pod_opts`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PodOpts {
    /// `ResourceIsPod`.
    pub resource_is_pod: bool,
    /// `AllowInvalidPodDeletionCost`.
    pub allow_invalid_pod_deletion_cost: bool,
    /// `AllowInvalidLabelValueInSelector` (pod affinity term selectors).
    pub allow_invalid_label_value_in_selector: bool,
    /// `AllowInvalidLabelValueInRequiredNodeAffinity`.
    pub allow_invalid_label_value_in_required_node_affinity: bool,
    /// `AllowInvalidTopologySpreadConstraintLabelSelector`.
    pub allow_invalid_topology_spread_constraint_label_selector: bool,
    /// `OldPodViolatesMatchLabelKeysValidation`.
    pub old_pod_violates_match_label_keys_validation: bool,
}
