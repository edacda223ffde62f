//! The format library's validation (apiserver `pkg/cel/library/format.go`): what
//! `format.<name>().validate(s)` says of a string, with the name validators of apimachinery
//! and strfmt that Kubernetes uses for it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::value::base64_decode;
use crate::cel::value::k8s::{NamedFormat, Url};
use crate::cel::value::time::Timestamp;
use crate::content;

/// `util/validation` (which the name validators use) says "characters" where the newer
/// `validate/content` says "bytes".
fn characters(messages: Vec<String>) -> Vec<String> {
    messages.into_iter().map(|m| m.replace(" bytes", " characters")).collect()
}

/// apimachinery `maskTrailingDash`: a generated-name prefix may end in '-' (Go drops the last
/// two *bytes*: a multi-byte character before the dash leaves invalid UTF-8, shown here as
/// U+FFFD, which fails the name's pattern just as Go's bytes do).
pub(crate) fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        let mut out = String::from_utf8_lossy(&s.as_bytes()[..s.len() - 2]).into_owned();
        out.push('a');
        return out;
    }
    String::from(s)
}

/// apimachinery `util/validation.IsDNS1035Label`.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(String::from("must be no more than 63 characters"));
    }
    let b = value.as_bytes();
    let ok = match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_lowercase()
                && (l.is_ascii_lowercase() || l.is_ascii_digit())
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        }
        _ => false,
    };
    if !ok {
        errs.push(content::regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    errs
}

impl NamedFormat {
    /// The format's validation messages for a string (empty when valid).
    pub fn validate(&self, s: &str) -> Vec<String> {
        match self.key {
            "dns1123Label" => characters(content::is_dns1123_label(s)),
            "dns1123LabelPrefix" => characters(content::is_dns1123_label(&mask_trailing_dash(s))),
            "dns1123Subdomain" => characters(content::is_dns1123_subdomain(s)),
            "dns1123SubdomainPrefix" => characters(content::is_dns1123_subdomain(&mask_trailing_dash(s))),
            "dns1035Label" => is_dns1035_label(s),
            "dns1035LabelPrefix" => is_dns1035_label(&mask_trailing_dash(s)),
            "qualifiedName" => content::is_label_key(s),
            "labelValue" => content::is_label_value(s),
            "uri" => match Url::parse_request_uri(s) {
                Ok(_) => Vec::new(),
                Err(e) => Vec::from([e]),
            },
            "uuid" => {
                if is_uuid(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("does not match the UUID format")])
                }
            }
            "byte" => {
                if base64_decode(s).is_some() {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid base64")])
                }
            }
            "date" => {
                if is_full_date(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid date")])
                }
            }
            _ => {
                if is_datetime(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid datetime")])
                }
            }
        }
    }
}

/// strfmt's UUID: 32 hex digits, optionally grouped 8-4-4-4-12 by hyphens, any case.
pub fn is_uuid(s: &str) -> bool {
    let mut groups = [8usize, 4, 4, 4, 12].into_iter();
    let mut want = groups.next();
    let mut run = 0;
    for c in s.chars() {
        match c {
            '-' if Some(run) == want => {
                want = groups.next();
                run = 0;
            }
            c if c.is_ascii_hexdigit() => {
                run += 1;
                if Some(run) > want && want != Some(12) {
                    // An ungrouped form: a run continuing into the next group.
                    want = groups.next().map(|n| n + run - 1);
                }
            }
            _ => return false,
        }
    }
    let hex = s.chars().filter(char::is_ascii_hexdigit).count();
    hex == 32
        && (s.len() == 32 || s.len() == 36 || s.matches('-').count() <= 4)
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// RFC 3339 full-date (`2006-01-02`).
pub fn is_full_date(s: &str) -> bool {
    Timestamp::parse(&format!("{s}T00:00:00Z")).is_some() && s.len() == 10
}

/// strfmt's date-time: RFC 3339 with `T` or a space, optional fraction, `Z` or an offset.
pub fn is_datetime(s: &str) -> bool {
    let mut t = String::from(s);
    if t.len() > 10 && t.as_bytes()[10] == b' ' {
        t.replace_range(10..11, "T");
    }
    Timestamp::parse(&t).is_some()
}
