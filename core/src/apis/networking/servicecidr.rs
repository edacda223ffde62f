//! ServiceCIDR and IPAddress, after `pkg/apis/networking/validation/validation.go`
//! (`ValidateServiceCIDR`, `validateServiceCIDRSpec`, `ValidateServiceCIDRUpdate`,
//! `ValidateIPAddress`, `ValidateIPAddressName`, `validateIPAddressParentReference`,
//! `ValidateIPAddressUpdate`) and apimachinery `pkg/util/validation/ip.go` (`IsValidIP`,
//! `IsValidCIDR`), with k8s.io/utils `IPFamilyOfCIDRString`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::invalid_rendered;
use crate::apis::core::common::{is_dns1123_subdomain, required};
use crate::apis::core::netip::{parse_cidr_sloppy, parse_sloppy};
use crate::apis::json::{field, get, list, str};
use crate::content;
use crate::field::{go_json, go_quote, Error, Path};

/// `apimachineryvalidation.FieldImmutableErrorMsg`.
const IMMUTABLE: &str = "field is immutable";

/// apimachinery `IsValidIP`'s messages (origin `format=ip-strict`).
pub(crate) fn is_valid_ip(value: &str) -> Vec<String> {
    let Some(ip) = parse_sloppy(value) else {
        return alloc::vec![String::from("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")];
    };
    let mut msgs = Vec::new();
    if !ip.strict {
        msgs.push(String::from("must not have leading 0s"));
    }
    if ip.strict && ip.is_4in6() {
        msgs.push(String::from("must not be an IPv4-mapped IPv6 address"));
    }
    if !msgs.is_empty() {
        return msgs;
    }
    let canonical = ip.go_string();
    if value != canonical {
        msgs.push(format!("must be in canonical form ({})", go_quote(&canonical)));
    }
    msgs
}

/// apimachinery `IsValidCIDR`.
pub(crate) fn validate_cidr(path: &Path<'_>, value: &str, errors: &mut Vec<Error>) {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        errors.push(Error::invalid(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
        return;
    };
    let detail = if !cidr.strict() {
        "must not have leading 0s in IP or prefix length"
    } else if cidr.ip.is_4in6() {
        "must not have an IPv4-mapped IPv6 address"
    } else if cidr.masked().bytes != cidr.ip.bytes {
        "must not have bits set beyond the prefix length"
    } else {
        let canonical = cidr.go_string();
        if value != canonical {
            errors.push(Error::invalid(path, value, format!("must be in canonical form ({})", go_quote(&canonical))));
        }
        return;
    };
    errors.push(Error::invalid(path, value, detail));
}

/// `netutils.IPFamilyOfCIDRString`: `Some(true)` for IPv4, `Some(false)` for IPv6, `None` when
/// it does not parse.
fn family_of_cidr(value: &str) -> Option<bool> {
    parse_cidr_sloppy(value).map(|c| c.masked().is_v4())
}

/// `ValidateServiceCIDR` (metadata aside).
pub(crate) fn validate_service_cidr(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec = root.child("spec");
    validate_spec(field(object, "spec"), &spec.child("cidrs"), errors);
}

/// `validateServiceCIDRSpec`.
fn validate_spec(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let cidrs = list(spec, "cidrs");
    if cidrs.is_empty() {
        errors.push(required(path, "at least one CIDR required"));
        return;
    }
    if cidrs.len() > 2 {
        // The internal ServiceCIDRSpec, which has no JSON tags: {"CIDRs":[…]}.
        let rendered = format!("{{\"CIDRs\":{}}}", go_json(&Json::Array(cidrs.to_vec())));
        errors.push(invalid_rendered(path, spec.clone(), rendered, "may only hold up to 2 values"));
        return;
    }
    for (i, cidr) in cidrs.iter().enumerate() {
        validate_cidr(&path.index(i), cidr.as_str().unwrap_or(""), errors);
    }
    if cidrs.len() == 2 {
        let family = |i: usize| family_of_cidr(cidrs[i].as_str().unwrap_or(""));
        if family(0) == family(1) && family(0).is_some() {
            errors.push(Error::invalid(
                path,
                Json::Array(cidrs.to_vec()),
                "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
            ));
        }
    }
}

/// `ValidateServiceCIDRUpdate` (metadata aside).
pub(crate) fn validate_service_cidr_update(object: &Json, old: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec = root.child("spec");
    let path = spec.child("cidrs");
    let new_cidrs = list(field(object, "spec"), "cidrs");
    let old_cidrs = list(field(old, "spec"), "cidrs");
    let s = |v: &Json| String::from(v.as_str().unwrap_or(""));
    if new_cidrs.len() == old_cidrs.len() {
        for (i, (n, o)) in new_cidrs.iter().zip(old_cidrs).enumerate() {
            if s(n) != s(o) {
                errors.push(Error::invalid(&path.index(i), s(n), IMMUTABLE));
            }
        }
    } else if old_cidrs.len() == 1 && new_cidrs.len() == 2 {
        if s(&new_cidrs[0]) != s(&old_cidrs[0]) {
            errors.push(Error::invalid(&path.index(0), s(&new_cidrs[0]), IMMUTABLE));
        }
        validate_spec(field(object, "spec"), &path, errors);
    } else {
        let value = field(object, "spec").get("cidrs").cloned().unwrap_or(Json::Null);
        errors.push(Error::invalid(&path, value, IMMUTABLE));
    }
}

/// `ValidateIPAddress` (metadata aside, but for the name function `ValidateIPAddressName`,
/// which kubedv's metadata check does not model: the name must be an IP address in canonical
/// form; `generateName` is checked the same way, and is the name as generated).
pub(crate) fn validate_ip_address(object: &Json, errors: &mut Vec<Error>) {
    let meta = field(object, "metadata");
    let generate_name = str(meta, "generateName");
    if !generate_name.is_empty() {
        let path = Path::named("metadata.generateName");
        for msg in is_valid_ip(generate_name) {
            errors.push(Error::invalid(&path, generate_name, msg));
        }
    }
    let name = match str(meta, "name") {
        "" => generate_name,
        n => n,
    };
    if !name.is_empty() {
        let path = Path::named("metadata.name");
        for msg in is_valid_ip(name) {
            errors.push(Error::invalid(&path, name, msg));
        }
    }
    let root = Path::root();
    let spec = root.child("spec");
    let path = spec.child("parentRef");
    let Some(parent) = get(field(object, "spec"), "parentRef") else {
        errors.push(required(&path, ""));
        return;
    };
    let group = str(parent, "group");
    if !group.is_empty() {
        for msg in is_dns1123_subdomain(group) {
            errors.push(Error::invalid(&path.child("group"), group, msg));
        }
    }
    for key in ["resource", "name"] {
        let value = str(parent, key);
        if value.is_empty() {
            errors.push(required(&path.child(key), ""));
        } else {
            for msg in content::is_path_segment_name(value) {
                errors.push(Error::invalid(&path.child(key), value, msg));
            }
        }
    }
    let namespace = str(parent, "namespace");
    if !namespace.is_empty() {
        for msg in content::is_path_segment_name(namespace) {
            errors.push(Error::invalid(&path.child("namespace"), namespace, msg));
        }
    }
}

/// `ValidateIPAddressUpdate` (metadata aside): the parent reference is immutable (origin
/// `immutable`), printed as the internal `*ParentReference` (no JSON tags).
pub(crate) fn validate_ip_address_update(object: &Json, old: &Json, errors: &mut Vec<Error>) {
    let new = get(field(object, "spec"), "parentRef");
    let before = get(field(old, "spec"), "parentRef");
    let key = |p: Option<&Json>| p.map(|p| ["group", "resource", "namespace", "name"].map(|k| String::from(str(p, k))));
    if key(new) != key(before) {
        let rendered = match new {
            None => String::from("null"),
            Some(p) => format!(
                "{{\"Group\":{},\"Resource\":{},\"Namespace\":{},\"Name\":{}}}",
                go_json(&Json::from(str(p, "group"))),
                go_json(&Json::from(str(p, "resource"))),
                go_json(&Json::from(str(p, "namespace"))),
                go_json(&Json::from(str(p, "name")))
            ),
        };
        let root = Path::root();
        let spec = root.child("spec");
        let value = new.cloned().unwrap_or(Json::Null);
        errors.push(invalid_rendered(&spec.child("parentRef"), value, rendered, IMMUTABLE).with_origin("immutable"));
    }
}
