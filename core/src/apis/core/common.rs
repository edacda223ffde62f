//! Small validators the core group's non-Pod kinds share, after
//! `pkg/apis/core/validation/validation.go` (`ValidateDNS1123Label`, `ValidateDNS1123Subdomain`,
//! `ValidateQualifiedName`, `ValidatePortNumOrName`), apimachinery `pkg/util/validation`
//! (`IsDNS1123Label` and `IsDNS1123Subdomain` with their "characters" length message,
//! `IsValidPortNum`, `IsValidPortName`, `IsConfigMapKey`) and apimachinery
//! `pkg/apis/meta/v1/validation` (`ValidateLabels`, `ValidateLabelName`, `ValidateLabelSelector`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::json;
use crate::content;
use crate::field::{Error, ErrorType, Path};

pub use crate::content::util::{is_dns1123_label, is_dns1123_subdomain, max_len_chars};

/// `field.Required(path, detail)`.
pub fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

/// `field.Forbidden(path, detail)`.
pub fn forbidden(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, path, None, detail)
}

/// `field.Duplicate(path, value)`.
pub fn duplicate(path: &Path<'_>, value: impl Into<Json>) -> Error {
    Error::new(ErrorType::Duplicate, path, Some(value.into()), "")
}

/// `ValidateDNS1123Label` (origin `format=k8s-short-name`).
pub fn validate_dns1123_label(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in is_dns1123_label(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=k8s-short-name"));
    }
}

/// `ValidateDNS1123Subdomain` (origin `format=k8s-long-name`).
pub fn validate_dns1123_subdomain(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in is_dns1123_subdomain(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=k8s-long-name"));
    }
}

/// `ValidateQualifiedName` (origin `format=qualified-name`).
pub fn validate_qualified_name(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in content::is_label_key(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=qualified-name"));
    }
}

/// util/validation `IsValidPortNum`.
pub fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        return Vec::new();
    }
    alloc::vec![String::from("must be between 1 and 65535, inclusive")]
}

/// util/validation `IsValidPortName` (an IANA_SVC_NAME).
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_chars(15));
    }
    let b = port.as_bytes();
    if b.is_empty() || !b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-') {
        errs.push(String::from("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"));
    }
    if !b.iter().any(u8::is_ascii_lowercase) {
        errs.push(String::from("must contain at least one letter (a-z)"));
    }
    if port.contains("--") {
        errs.push(String::from("must not contain consecutive hyphens"));
    }
    if b.first() == Some(&b'-') || b.last() == Some(&b'-') {
        errs.push(String::from("must not begin or end with a hyphen"));
    }
    errs
}

pub use crate::content::util::is_config_map_key;

/// `ValidatePortNumOrName`: an IntOrString port, a number 1-65535 or an IANA_SVC_NAME.
pub fn validate_port_num_or_name(port: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    match port {
        Some(Json::String(s)) => {
            for msg in is_valid_port_name(s) {
                errors.push(Error::invalid(path, s.as_str(), msg));
            }
        }
        other => {
            let n = other.and_then(Json::as_i64).unwrap_or(0);
            for msg in is_valid_port_num(n) {
                errors.push(Error::invalid(path, n, msg));
            }
        }
    }
}

pub use crate::metav1::{
    validate_annotations, validate_label_name, validate_label_selector, validate_label_selector_requirement,
    validate_labels,
};

/// The strings of a `[]string` field (non-strings read as `""`).
pub fn strings(v: &Json, key: &str) -> Vec<String> {
    json::list(v, key).iter().map(|s| String::from(s.as_str().unwrap_or(""))).collect()
}

/// Removes duplicate warnings, keeping the first (the API server's recorder dedupes them).
pub fn dedupe(warnings: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(warnings.len());
    for w in warnings {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // apimachinery util/validation TestIsValidPortName, TestIsConfigMapKey (messages).
    #[test]
    fn port_names_and_keys() {
        assert!(is_valid_port_name("http").is_empty());
        assert_eq!(is_valid_port_name("80"), ["must contain at least one letter (a-z)"]);
        assert_eq!(is_valid_port_name("a--b"), ["must not contain consecutive hyphens"]);
        assert_eq!(is_valid_port_name("-ab"), ["must not begin or end with a hyphen"]);
        assert_eq!(is_valid_port_name("abcdefghijklmnop"), ["must be no more than 15 characters"]);
        assert!(is_config_map_key("key.name").is_empty());
        assert_eq!(is_config_map_key(".."), ["must not be '..'"]);
        assert_eq!(
            is_config_map_key("a b"),
            ["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]
        );
        assert_eq!(is_valid_port_num(0), ["must be between 1 and 65535, inclusive"]);
    }
}
