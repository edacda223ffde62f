//! apimachinery `pkg/util/validation`'s own versions of the name checks: the same rules as the
//! content package's, with its "characters" length message, and `IsConfigMapKey`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::regex_error;

/// util/validation `MaxLenError`: `must be no more than N characters` (the content package's
/// own says "bytes").
pub fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// Replaces the content package's length message with util/validation's.
fn chars_len(msgs: Vec<String>, n: usize) -> Vec<String> {
    let bytes = super::max_len_error(n);
    msgs.into_iter().map(|m| if m == bytes { max_len_chars(n) } else { m }).collect()
}

/// util/validation `IsDNS1123Label`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    chars_len(super::is_dns1123_label(value), 63)
}

/// util/validation `IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    chars_len(super::is_dns1123_subdomain(value), 253)
}

/// util/validation `IsConfigMapKey`.
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_chars(253));
    }
    let b = value.as_bytes();
    if b.is_empty() || !b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_')) {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    if value == "." {
        errs.push(String::from("must not be '.'"));
    } else if value == ".." {
        errs.push(String::from("must not be '..'"));
    } else if value.starts_with("..") {
        errs.push(String::from("must not start with '..'"));
    }
    errs
}
