//! The `+k8s:format=NAME` validators, after `k8s.io/apimachinery/pkg/api/validate/strfmt.go`.
//!
//! Each format turns the [`content`](crate::content) messages into field errors with the
//! origin `format=NAME`, exactly as the generated Go code reports them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::content;
use crate::field::{Error, Path};

/// A string format that `+k8s:format` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `k8s-short-name`: an RFC 1123 label (a "DNS label").
    ShortName,
    /// `k8s-long-name`: an RFC 1123 subdomain (a "DNS subdomain").
    LongName,
    /// `k8s-long-name-caseless`: a subdomain in any letter case (deprecated in Kubernetes).
    LongNameCaseless,
    /// `k8s-label-key`: a label key, optionally prefixed.
    LabelKey,
    /// `k8s-prefixed-label-key`: a label key with a DNS-subdomain prefix.
    PrefixedLabelKey,
    /// `k8s-label-value`: a label value (may be empty).
    LabelValue,
    /// `k8s-uuid`: a lowercase RFC 4122 UUID.
    Uuid,
    /// `k8s-path-segment-name`: usable as one path segment.
    PathSegmentName,
    /// `k8s-resource-fully-qualified-name`: `domain/name`, the name a C identifier of ≤ 32 bytes.
    ResourceFullyQualifiedName,
    /// `k8s-extended-resource-name`: a domain-prefixed resource name outside `kubernetes.io`.
    ExtendedResourceName,
    /// `k8s-resource-pool-name`: one or more long names separated by `/`, at most 253 bytes.
    ResourcePoolName,
}

const UUID_ERROR: &str = "must be a lowercase UUID in 8-4-4-4-12 format";

impl Format {
    /// Every format, in the order of the tag catalog.
    pub const ALL: [Format; 11] = [
        Format::ShortName,
        Format::LongName,
        Format::LongNameCaseless,
        Format::LabelKey,
        Format::PrefixedLabelKey,
        Format::LabelValue,
        Format::Uuid,
        Format::PathSegmentName,
        Format::ResourceFullyQualifiedName,
        Format::ExtendedResourceName,
        Format::ResourcePoolName,
    ];

    /// The name used in the tag (`k8s-short-name`).
    pub fn name(self) -> &'static str {
        match self {
            Format::ShortName => "k8s-short-name",
            Format::LongName => "k8s-long-name",
            Format::LongNameCaseless => "k8s-long-name-caseless",
            Format::LabelKey => "k8s-label-key",
            Format::PrefixedLabelKey => "k8s-prefixed-label-key",
            Format::LabelValue => "k8s-label-value",
            Format::Uuid => "k8s-uuid",
            Format::PathSegmentName => "k8s-path-segment-name",
            Format::ResourceFullyQualifiedName => "k8s-resource-fully-qualified-name",
            Format::ExtendedResourceName => "k8s-extended-resource-name",
            Format::ResourcePoolName => "k8s-resource-pool-name",
        }
    }

    /// The format with this tag name, if there is one.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// One sentence on what the format accepts (kubedv's own words).
    pub fn summary(self) -> &'static str {
        match self {
            Format::ShortName => "a DNS label: lowercase letters, digits and '-', starting and ending alphanumeric, at most 63 bytes",
            Format::LongName => "a DNS subdomain: dot-separated DNS labels, at most 253 bytes",
            Format::LongNameCaseless => "a DNS subdomain in any letter case (deprecated: prefer k8s-long-name)",
            Format::LabelKey => "a label key: an optional DNS-subdomain prefix and '/', then a name of at most 63 bytes of alphanumerics, '-', '_' and '.'",
            Format::PrefixedLabelKey => "a label key that must have a DNS-subdomain prefix ('example.com/key')",
            Format::LabelValue => "a label value: empty, or at most 63 bytes of alphanumerics, '-', '_' and '.', starting and ending alphanumeric",
            Format::Uuid => "a lowercase UUID in 8-4-4-4-12 form",
            Format::PathSegmentName => "usable as one URL or file path segment: not '.' or '..', no '/' or '%'",
            Format::ResourceFullyQualifiedName => "'domain/name' where the domain is a DNS subdomain and the name a C identifier of at most 32 bytes",
            Format::ExtendedResourceName => "a domain-prefixed resource name, not in the kubernetes.io domain and not starting with 'requests.'",
            Format::ResourcePoolName => "one or more DNS subdomains separated by '/', at most 253 bytes in all",
        }
    }

    /// The origin Kubernetes attaches to this format's errors (`format=k8s-short-name`).
    pub fn origin(self) -> String {
        alloc::format!("format={}", self.name())
    }

    /// Validates `value` at `path`, returning Kubernetes' errors in Kubernetes' order.
    pub fn validate(self, path: &Path<'_>, value: &str) -> Vec<Error> {
        let errs = match self {
            Format::ShortName => invalid_each(path, value, content::is_dns1123_label(value)),
            Format::LongName => long_name(path, value),
            Format::LongNameCaseless => invalid_each(path, value, content::is_dns1123_subdomain_caseless(value)),
            Format::LabelKey => invalid_each(path, value, content::is_label_key(value)),
            Format::PrefixedLabelKey => invalid_each(path, value, content::is_prefixed_label_key(value)),
            Format::LabelValue => invalid_each(path, value, content::is_label_value(value)),
            Format::Uuid => uuid(path, value),
            Format::PathSegmentName => invalid_each(path, value, content::is_path_segment_name(value)),
            Format::ResourceFullyQualifiedName => resource_fully_qualified_name(path, value),
            Format::ExtendedResourceName => extended_resource_name(path, value),
            Format::ResourcePoolName => resource_pool_name(path, value),
        };
        if errs.is_empty() {
            return errs;
        }
        // Composite formats overwrite the origins of the checks they reuse, as Go does.
        let origin = self.origin();
        errs.into_iter().map(|e| e.with_origin(origin.clone())).collect()
    }
}

fn invalid_each(path: &Path<'_>, value: &str, messages: Vec<String>) -> Vec<Error> {
    messages.into_iter().map(|msg| Error::invalid(path, value, msg)).collect()
}

fn long_name(path: &Path<'_>, value: &str) -> Vec<Error> {
    invalid_each(path, value, content::is_dns1123_subdomain(value))
}

fn uuid(path: &Path<'_>, value: &str) -> Vec<Error> {
    let b = value.as_bytes();
    let valid = b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        });
    if valid {
        Vec::new()
    } else {
        alloc::vec![Error::invalid(path, value, UUID_ERROR)]
    }
}

/// strfmt.go `ResourcePoolName`.
fn resource_pool_name(path: &Path<'_>, value: &str) -> Vec<Error> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(Error::too_long(path, 253));
    }
    for (i, part) in value.split('/').enumerate() {
        if part.is_empty() {
            errs.push(Error::invalid(path, value, alloc::format!("segment {i}: must not be empty")));
            continue;
        }
        let prefix = alloc::format!("segment {i}: ");
        errs.extend(long_name(path, part).into_iter().map(|e| e.prefix_detail(&prefix)));
    }
    errs
}

/// strfmt.go `ExtendedResourceName`.
fn extended_resource_name(path: &Path<'_>, value: &str) -> Vec<Error> {
    let mut errs = Vec::new();
    if !value.contains('/') {
        errs.push(Error::invalid(path, value, "a name must be a domain-prefixed path, such as 'example.com/my-prop'"));
    } else if value.contains("kubernetes.io/") {
        errs.push(Error::invalid(path, value, "must not have \"kubernetes.io/\" domain"));
    }
    if value.starts_with("requests.") {
        errs.push(Error::invalid(path, value, "must not have \"requests.\" prefix"));
    }
    let name_for_quota = alloc::format!("requests.{value}");
    errs.extend(invalid_each(path, value, content::is_label_key(&name_for_quota)));
    errs
}

/// strfmt.go `ResourceFullyQualifiedName` (with `resourcesQualifiedName`).
fn resource_fully_qualified_name(path: &Path<'_>, value: &str) -> Vec<Error> {
    const NAME_MAX: usize = 32;
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    match parts.as_slice() {
        [name] => errs.extend(c_identifier(path, name, NAME_MAX)),
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push(Error::invalid(path, "", "prefix must not be empty"));
            } else {
                if prefix.len() > 63 {
                    errs.push(Error::too_long(path, 63));
                }
                errs.extend(long_name(path, prefix).into_iter().map(|e| e.prefix_detail("prefix: ")));
            }
            if name.is_empty() {
                errs.push(Error::invalid(path, "", "name must not be empty"));
            } else {
                errs.extend(c_identifier(path, name, NAME_MAX));
            }
        }
        // Kubernetes does not check values with more than one '/' here (a known gap, kept).
        _ => {}
    }
    if !value.contains('/') {
        errs.push(Error::invalid(
            path,
            value,
            "a fully qualified name must be a domain and a name separated by a slash",
        ));
    }
    errs
}

fn c_identifier(path: &Path<'_>, id: &str, max: usize) -> Vec<Error> {
    let mut errs = Vec::new();
    if id.len() > max {
        errs.push(Error::too_long(path, max as i64));
    }
    errs.extend(invalid_each(path, id, content::is_c_identifier(id)));
    errs
}
