//! String-content checks, after `k8s.io/apimachinery/pkg/api/validate/content`.
//!
//! Each `is_*` function returns the detail messages Kubernetes returns for the value (empty when
//! valid), in the same order. The patterns are simple character classes, so they are matched by
//! hand rather than with compiled regular expressions; the messages still quote the regexes
//! Kubernetes documents.

mod dns;
mod identifier;
mod kube;
mod messages;
mod path;
pub mod util;

pub use dns::{is_dns1123_label, is_dns1123_subdomain, is_dns1123_subdomain_caseless};
pub use identifier::is_c_identifier;
pub use kube::{is_label_key, is_label_value, is_prefixed_label_key};
pub use messages::{empty_error, max_len_error, regex_error};
pub use path::is_path_segment_name;

/// `[A-Za-z0-9]`.
fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// A non-empty run of `allowed` bytes that starts and ends with `edge` bytes: the shape of
/// every Kubernetes name pattern (`[a-z0-9]([-a-z0-9]*[a-z0-9])?` and friends).
fn matches_run(s: &str, edge: impl Fn(u8) -> bool, allowed: impl Fn(u8) -> bool) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => edge(first) && edge(last) && b.iter().all(|&c| allowed(c)),
        _ => false,
    }
}
