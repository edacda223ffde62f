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

// The core group's shared checks (util/validation's texts), one copy for every kind's room.
pub use super::common::{
    duplicate, forbidden, is_config_map_key, is_dns1123_label, is_dns1123_subdomain, is_valid_port_name,
    is_valid_port_num, required, validate_dns1123_label, validate_dns1123_subdomain, validate_qualified_name,
};

/// `field.NotFound(path, value)`.
pub fn not_found(path: &Path<'_>, value: &str) -> Error {
    Error::new(ErrorType::NotFound, path, Some(Json::from(value)), "")
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
