//! EndpointSlice validation, after `pkg/apis/discovery/validation/validation.go`
//! (`ValidateEndpointSlice`, `ValidateEndpointSliceCreate`, `ValidateEndpointSliceUpdate`,
//! `validateEndpoints`, `validatePorts`, `validateAddressType`, `validateHints`), apimachinery
//! `pkg/util/validation` (`IsValidIP`, `IsFullyQualifiedDomainName`) and the warnings of
//! `pkg/registry/discovery/endpointslice/strategy.go` (`warnOnDeprecatedAddressType`,
//! `warnOnBadIPs`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::{same, with_rendered};
use crate::apis::core::common::{self, duplicate, required};
use crate::apis::core::netip;
use crate::apis::json::{field, get, list, object, opt_str, str};
use crate::content;
use crate::field::{go_json, Error, ErrorType, Path};

const ADDRESS_TYPES: &[&str] = &["FQDN", "IPv4", "IPv6"];
const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const MAX_TOPOLOGY_LABELS: usize = 16;
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const MAX_ENDPOINTS: usize = 1000;
const MAX_ZONE_HINTS: usize = 8;
const MAX_NODE_HINTS: usize = 8;

/// A value of a named string type (`AddressType`, `Protocol`, `*string`): `field.Error`
/// prints it with `json.Marshal`.
fn typed(e: Error, value: &str) -> Error {
    with_rendered(e, go_json(&Json::from(value)))
}

/// `ValidateEndpointSliceCreate` (metadata aside).
pub(crate) fn validate_create(slice: &Json) -> Vec<Error> {
    validate(slice, None)
}

/// `ValidateEndpointSliceUpdate` (metadata aside). Its `ValidateImmutableField` of
/// `addressType` is covered by the declarative `+k8s:immutable` (beta, enforced), whose error
/// (`addressType: Invalid value: null: field is immutable`) replaces it.
pub(crate) fn validate_update(slice: &Json, old: &Json) -> Vec<Error> {
    validate(slice, Some(old))
}

/// `ValidateEndpointSlice` (metadata aside): errors of endpoints an update left unchanged are
/// ignored.
fn validate(slice: &Json, old: Option<&Json>) -> Vec<Error> {
    let mut errors = Vec::new();
    let address_type = str(slice, "addressType");
    validate_address_type(address_type, &mut errors);
    let root = Path::root();
    validate_ports(list(slice, "ports"), &root.child("ports"), &mut errors);
    let mut endpoint_errors = Vec::new();
    validate_endpoints(list(slice, "endpoints"), address_type, &root.child("endpoints"), &mut endpoint_errors);
    if !endpoint_errors.is_empty() && old.is_some_and(|o| same(field(o, "endpoints"), field(slice, "endpoints"))) {
        endpoint_errors.clear();
    }
    errors.extend(endpoint_errors);
    errors
}

/// `validateEndpoints`.
fn validate_endpoints(endpoints: &[Json], address_type: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if endpoints.len() > MAX_ENDPOINTS {
        errors.push(Error::too_many(path, endpoints.len(), MAX_ENDPOINTS as i64));
        return;
    }
    for (i, endpoint) in endpoints.iter().enumerate() {
        let at = path.index(i);
        let address_path = at.child("addresses");
        let addresses = list(endpoint, "addresses");
        if addresses.is_empty() {
            // `field.Required(addressPath, "must contain at least 1 address")`, covered by the
            // declarative `+k8s:required` (beta, enforced), whose error replaces it.
        } else if addresses.len() > MAX_ADDRESSES {
            errors.push(Error::too_many(&address_path, addresses.len(), MAX_ADDRESSES as i64).with_origin("maxItems"));
        }
        for (j, address) in addresses.iter().enumerate() {
            let address = address.as_str().unwrap_or("");
            let ap = address_path.index(j);
            match address_type {
                "IPv4" => {
                    let mut ip_errors = Vec::new();
                    netip::validate_ip_legacy(&ap, address, &[], &mut ip_errors);
                    if !ip_errors.is_empty() {
                        errors.extend(ip_errors);
                    } else {
                        if !netip::is_ipv4_string(address) {
                            errors.push(Error::invalid(&address_path, address, "must be an IPv4 address"));
                        }
                        netip::validate_endpoint_ip(address, &ap, errors);
                    }
                }
                "IPv6" => {
                    let ip_errors = is_valid_ip(&ap, address);
                    if !ip_errors.is_empty() {
                        errors.extend(ip_errors);
                    } else {
                        if !netip::is_ipv6_string(address) {
                            errors.push(Error::invalid(&address_path, address, "must be an IPv6 address"));
                        }
                        netip::validate_endpoint_ip(address, &ap, errors);
                    }
                }
                "FQDN" => errors.extend(is_fully_qualified_domain_name(&ap, address)),
                _ => {}
            }
        }
        if let Some(node) = opt_str(endpoint, "nodeName") {
            let np = at.child("nodeName");
            for msg in common::is_dns1123_subdomain(node) {
                errors.push(Error::invalid(&np, node, msg));
            }
        }
        let topology_path = at.child("deprecatedTopology");
        let topology = object(endpoint, "deprecatedTopology");
        let topology_len = topology.map_or(0, |m| m.len());
        if topology_len > MAX_TOPOLOGY_LABELS {
            errors.push(Error::too_many(&topology_path, topology_len, MAX_TOPOLOGY_LABELS as i64));
        }
        common::validate_labels(topology, &topology_path, errors);
        if topology.is_some_and(|m| m.contains_key("topology.kubernetes.io/zone")) {
            errors.push(Error::new(
                ErrorType::Internal,
                &topology_path.key("topology.kubernetes.io/zone"),
                None,
                "reserved key was not removed in conversion",
            ));
        }
        if let Some(hostname) = opt_str(endpoint, "hostname") {
            common::validate_dns1123_label(hostname, &at.child("hostname"), errors);
        }
        if let Some(hints) = get(endpoint, "hints") {
            validate_hints(hints, &at.child("hints"), errors);
        }
    }
}

/// `validatePorts`.
fn validate_ports(ports: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    if ports.len() > MAX_PORTS {
        errors.push(Error::too_many(path, ports.len(), MAX_PORTS as i64));
        return;
    }
    let mut names: Vec<&str> = Vec::with_capacity(ports.len());
    for (i, port) in ports.iter().enumerate() {
        let at = path.index(i);
        let name = str(port, "name");
        if !name.is_empty() {
            common::validate_dns1123_label(name, &at.child("name"), errors);
        }
        if names.contains(&name) {
            errors.push(typed(duplicate(&at.child("name"), name), name));
        } else {
            names.push(name);
        }
        match opt_str(port, "protocol") {
            None => errors.push(required(&at.child("protocol"), "")),
            Some(p) if !PROTOCOLS.contains(&p) => {
                errors.push(typed(Error::not_supported(&at.child("protocol"), p, PROTOCOLS), p));
            }
            Some(_) => {}
        }
        if let Some(app) = opt_str(port, "appProtocol") {
            common::validate_qualified_name(app, &at.child("appProtocol"), errors);
        }
    }
}

/// `validateAddressType`.
fn validate_address_type(address_type: &str, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("addressType");
    if address_type.is_empty() {
        errors.push(required(&path, ""));
    } else if !ADDRESS_TYPES.contains(&address_type) {
        errors.push(typed(Error::not_supported(&path, address_type, ADDRESS_TYPES), address_type));
    }
}

/// `validateHints`.
fn validate_hints(hints: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let fz = path.child("forZones");
    let zones = list(hints, "forZones");
    if zones.len() > MAX_ZONE_HINTS {
        errors.push(Error::too_many(&fz, zones.len(), MAX_ZONE_HINTS as i64));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, zone) in zones.iter().enumerate() {
        let at = fz.index(i);
        let zp = at.child("name");
        let name = str(zone, "name");
        if seen.contains(&name) {
            errors.push(duplicate(&zp, name));
        } else {
            seen.push(name);
        }
        for msg in content::is_label_value(name) {
            errors.push(Error::invalid(&zp, name, msg));
        }
    }
    let fnp = path.child("forNodes");
    let nodes = list(hints, "forNodes");
    if nodes.len() > MAX_NODE_HINTS {
        errors.push(Error::too_many(&fnp, nodes.len(), MAX_NODE_HINTS as i64));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let at = fnp.index(i);
        let np = at.child("name");
        let name = str(node, "name");
        if seen.contains(&name) {
            errors.push(duplicate(&np, name));
        } else {
            seen.push(name);
        }
        for msg in common::is_dns1123_subdomain(name) {
            errors.push(Error::invalid(&np, name, msg));
        }
    }
}

/// apimachinery util/validation `IsValidIP` (origin `format=ip-strict`): a valid IP, without
/// leading 0s, not IPv4-mapped, in canonical form.
pub(crate) fn is_valid_ip(path: &Path<'_>, value: &str) -> Vec<Error> {
    let Some(ip) = netip::parse_sloppy(value) else {
        return alloc::vec![Error::invalid(
            path,
            value,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
        )
        .with_origin("format=ip-strict")];
    };
    let mut errors = Vec::new();
    if !ip.strict {
        errors.push(Error::invalid(path, value, "must not have leading 0s"));
    }
    if ip.strict && ip.is_4in6() {
        errors.push(Error::invalid(path, value, "must not be an IPv4-mapped IPv6 address"));
    }
    if errors.is_empty() {
        let canonical = ip.go_string();
        if value != canonical {
            errors.push(Error::invalid(
                path,
                value,
                format!("must be in canonical form ({})", crate::field::go_quote(&canonical)),
            ));
        }
    }
    errors.into_iter().map(|e| e.with_origin("format=ip-strict")).collect()
}

/// apimachinery util/validation `IsFullyQualifiedDomainName`.
pub(crate) fn is_fully_qualified_domain_name(path: &Path<'_>, name: &str) -> Vec<Error> {
    if name.is_empty() {
        return alloc::vec![required(path, "")];
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let errs = common::is_dns1123_subdomain(name);
    if !errs.is_empty() {
        return alloc::vec![Error::invalid(path, name, errs.join(","))];
    }
    if name.split('.').count() < 2 {
        return alloc::vec![Error::invalid(
            path,
            name,
            "should be a domain with at least two segments separated by dots"
        )];
    }
    for label in name.split('.') {
        let errs = common::is_dns1123_label(label);
        if !errs.is_empty() {
            return alloc::vec![Error::invalid(path, label, errs.join(","))];
        }
    }
    Vec::new()
}

/// strategy.go `WarningsOnCreate`: `warnOnDeprecatedAddressType`, then `warnOnBadIPs`.
pub(crate) fn warnings_on_create(slice: &Json) -> Vec<String> {
    let mut warnings = Vec::new();
    if str(slice, "addressType") == "FQDN" {
        warnings.push(String::from("spec.addressType: FQDN endpoints are deprecated"));
    }
    warnings.extend(warn_on_bad_ips(slice));
    warnings
}

/// strategy.go `warnOnBadIPs` (`WarningsOnUpdate`): addresses in non-standard forms, unless
/// an EndpointSlice controller manages the slice.
pub(crate) fn warn_on_bad_ips(slice: &Json) -> Vec<String> {
    let managed_by = object(field(slice, "metadata"), "labels")
        .and_then(|l| l.get("endpointslice.kubernetes.io/managed-by"))
        .and_then(Json::as_str);
    if matches!(managed_by, Some("endpointslice-controller.k8s.io" | "endpointslicemirroring-controller.k8s.io")) {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    for (i, endpoint) in list(slice, "endpoints").iter().enumerate() {
        for (j, address) in list(endpoint, "addresses").iter().enumerate() {
            let path = format!("endpoints[{i}].addresses[{j}]");
            warnings.extend(netip::warnings_for_ip(&path, address.as_str().unwrap_or("")));
        }
    }
    warnings
}
