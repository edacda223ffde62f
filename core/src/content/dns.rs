use alloc::string::String;
use alloc::vec::Vec;

use super::messages::{max_len_error, regex_error};
use super::{is_alnum, matches_run};

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX: usize = 63;

const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_CASELESS_ERR: &str = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX: usize = 253;

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn label_matches(s: &str, caseless: bool) -> bool {
    if caseless {
        matches_run(s, is_alnum, |b| is_alnum(b) || b == b'-')
    } else {
        matches_run(s, is_lower_alnum, |b| is_lower_alnum(b) || b == b'-')
    }
}

/// `label(\.label)*`: every dot-separated part is a label.
fn subdomain_matches(s: &str, caseless: bool) -> bool {
    s.split('.').all(|part| label_matches(part, caseless))
}

/// `content.IsDNS1123Label`: a lowercase RFC 1123 label ("short name"), at most 63 bytes.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !label_matches(value, false) {
        if subdomain_matches(value, false) {
            // A valid subdomain but not a label: the length was checked, so it is the dots.
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, &["my-name", "123-abc"]));
        }
    }
    errs
}

/// `content.IsDNS1123Subdomain`: a lowercase RFC 1123 subdomain ("long name"), at most 253 bytes.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    subdomain(value, false)
}

/// `content.IsDNS1123SubdomainCaseless`: as [`is_dns1123_subdomain`] but any letter case.
pub fn is_dns1123_subdomain_caseless(value: &str) -> Vec<String> {
    subdomain(value, true)
}

fn subdomain(value: &str, caseless: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    if !subdomain_matches(value, caseless) {
        let (msg, example) = if caseless {
            (DNS1123_SUBDOMAIN_CASELESS_ERR, "Example.com")
        } else {
            (DNS1123_SUBDOMAIN_ERR, "example.com")
        };
        // Kubernetes quotes the case-sensitive regex in both messages.
        errs.push(regex_error(msg, DNS1123_SUBDOMAIN_FMT, &[example]));
    }
    errs
}
