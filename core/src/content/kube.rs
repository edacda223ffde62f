use alloc::string::String;
use alloc::vec::Vec;

use super::dns::is_dns1123_subdomain;
use super::messages::{empty_error, max_len_error, regex_error};
use super::{is_alnum, matches_run};

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX: usize = 63;
const LABEL_KEY_EXAMPLES: &[&str] = &["MyName", "my.name", "123-abc"];

const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX: usize = 63;

fn label_key_name_matches(s: &str) -> bool {
    matches_run(s, is_alnum, |b| is_alnum(b) || matches!(b, b'-' | b'_' | b'.'))
}

/// `content.IsLabelKey` (also `IsQualifiedName`): an optional DNS-subdomain prefix and `/`,
/// then a name of at most 63 bytes.
pub fn is_label_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let mut parts = value.split('/');
    let (first, second, rest) = (parts.next().unwrap_or(""), parts.next(), parts.next());
    let name = match (second, rest) {
        (None, _) => first,
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                errs.push(alloc::format!("prefix part {}", empty_error()));
            } else {
                for msg in is_dns1123_subdomain(prefix) {
                    errs.push(alloc::format!("prefix part {msg}"));
                }
            }
            name
        }
        (Some(_), Some(_)) => {
            errs.push(alloc::format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, LABEL_KEY_EXAMPLES)
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(alloc::format!("name part {}", empty_error()));
    } else if name.len() > LABEL_KEY_MAX {
        errs.push(alloc::format!("name part {}", max_len_error(LABEL_KEY_MAX)));
    }
    if !label_key_name_matches(name) {
        errs.push(alloc::format!("name part {}", regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, LABEL_KEY_EXAMPLES)));
    }
    errs
}

/// `content.IsLabelValue`: empty, or a label-key-shaped name of at most 63 bytes.
pub fn is_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(max_len_error(LABEL_VALUE_MAX));
    }
    if !value.is_empty() && !label_key_name_matches(value) {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// `content.IsPrefixedLabelKey`: a valid label key that has a prefix.
pub fn is_prefixed_label_key(value: &str) -> Vec<String> {
    let errs = is_label_key(value);
    if !errs.is_empty() {
        return errs;
    }
    if value.split('/').count() != 2 {
        return alloc::vec!["must include a prefix (e.g. 'example.com/key')".into()];
    }
    Vec::new()
}
