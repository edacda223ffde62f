//! NetworkPolicy, after `pkg/apis/networking/validation/validation.go`
//! (`ValidateNetworkPolicy`, `ValidateNetworkPolicyUpdate`, `ValidateNetworkPolicySpec`,
//! `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`, `ValidateIPBlock`,
//! `ValidationOptionsForNetworking`), its v1 defaults (`SetDefaults_NetworkPolicy`,
//! `SetDefaults_NetworkPolicyPort`) and the strategy's `networkPolicyWarnings`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::selector;
use crate::apis::core::common::{forbidden, is_valid_port_name, is_valid_port_num, required};
use crate::apis::core::netip::{parse_cidr_sloppy, validate_cidr_legacy, warnings_for_cidr, Cidr};
use crate::apis::json::{field, get, list, list_mut, opt_str, str, struct_mut};
use crate::field::{Error, Path};

/// The policy types (`PolicyTypeIngress`, `PolicyTypeEgress`).
const POLICY_TYPES: [&str; 2] = ["Ingress", "Egress"];

/// `NetworkPolicyValidationOptions`.
#[derive(Clone, Debug, Default)]
struct Options {
    allow_invalid_label_value_in_selector: bool,
    allow_cidrs_even_if_invalid: Vec<String>,
}

/// `SetObjectDefaults_NetworkPolicy` of networking/v1.
pub(crate) fn default(object: &mut Json) {
    let Some(spec) = struct_mut(object, "spec") else { return };
    // SetDefaults_NetworkPolicy.
    if list(spec, "policyTypes").is_empty() {
        let mut types = alloc::vec![Json::from("Ingress")];
        if !list(spec, "egress").is_empty() {
            types.push(Json::from("Egress"));
        }
        if let Json::Object(map) = spec {
            map.insert(String::from("policyTypes"), Json::Array(types));
        }
    }
    // SetDefaults_NetworkPolicyPort.
    for rules in ["ingress", "egress"] {
        for rule in list_mut(spec, rules) {
            for port in list_mut(rule, "ports") {
                if let Json::Object(map) = port {
                    if map.get("protocol").is_none_or(Json::is_null) {
                        map.insert(String::from("protocol"), Json::from("TCP"));
                    }
                }
            }
        }
    }
}

/// `ValidateNetworkPolicy` (metadata aside) on create, `ValidateNetworkPolicyUpdate` on update,
/// with `ValidationOptionsForNetworking`.
pub(crate) fn validate(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let mut opts = Options::default();
    if let Some(old) = old {
        let mut errs = Vec::new();
        selector::validate(Some(field(field(old, "spec"), "podSelector")), false, &Path::root(), &mut errs);
        opts.allow_invalid_label_value_in_selector = !errs.is_empty();
        // Every CIDR of the old policy is allowed even if invalid (see ValidateIPBlock).
        let old_spec = field(old, "spec");
        for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
            for rule in list(old_spec, rules) {
                for peer in list(rule, peers) {
                    if let Some(block) = get(peer, "ipBlock") {
                        opts.allow_cidrs_even_if_invalid.push(String::from(str(block, "cidr")));
                        for except in list(block, "except") {
                            opts.allow_cidrs_even_if_invalid.push(String::from(except.as_str().unwrap_or("")));
                        }
                    }
                }
            }
        }
    }
    validate_spec(field(object, "spec"), &opts, &Path::root().child("spec"), errors);
}

/// `ValidateNetworkPolicySpec`.
fn validate_spec(spec: &Json, opts: &Options, path: &Path<'_>, errors: &mut Vec<Error>) {
    let allow = opts.allow_invalid_label_value_in_selector;
    // spec.PodSelector is a struct: always validated.
    selector::validate(Some(field(spec, "podSelector")), allow, &path.child("podSelector"), errors);
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        let rules_path = path.child(rules);
        for (i, rule) in list(spec, rules).iter().enumerate() {
            let at = rules_path.index(i);
            let ports = at.child("ports");
            for (j, port) in list(rule, "ports").iter().enumerate() {
                validate_port(port, &ports.index(j), errors);
            }
            let peers_path = at.child(peers);
            for (j, peer) in list(rule, peers).iter().enumerate() {
                validate_peer(peer, opts, &peers_path.index(j), errors);
            }
        }
    }
    let types = list(spec, "policyTypes");
    let types_path = path.child("policyTypes");
    if types.len() > POLICY_TYPES.len() {
        errors.push(Error::invalid(
            &types_path,
            Json::Array(types.to_vec()),
            "may not specify more than two policyTypes",
        ));
        return;
    }
    for (i, t) in types.iter().enumerate() {
        let t = t.as_str().unwrap_or("");
        if !POLICY_TYPES.contains(&t) {
            errors.push(Error::not_supported(&types_path.index(i), t, &POLICY_TYPES));
        }
    }
}

/// `ValidateNetworkPolicyPort`.
fn validate_port(port: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(protocol) = opt_str(port, "protocol") {
        if !matches!(protocol, "TCP" | "UDP" | "SCTP") {
            errors.push(Error::not_supported(&path.child("protocol"), protocol, &["TCP", "UDP", "SCTP"]));
        }
    }
    let end_port = port.get("endPort").and_then(Json::as_i64);
    let end_path = path.child("endPort");
    match get(port, "port") {
        Some(Json::String(name)) => {
            if let Some(end) = end_port {
                errors.push(Error::invalid(&end_path, end, "may not be specified when `port` is non-numeric"));
            }
            for msg in is_valid_port_name(name) {
                errors.push(Error::invalid(&path.child("port"), name.as_str(), msg));
            }
        }
        Some(number) => {
            let number = number.as_i64().unwrap_or(0);
            for msg in is_valid_port_num(number) {
                errors.push(Error::invalid(&path.child("port"), number, msg));
            }
            if let Some(end) = end_port {
                if end < number {
                    errors.push(Error::invalid(&end_path, end, "must be greater than or equal to `port`"));
                }
                for msg in is_valid_port_num(end) {
                    errors.push(Error::invalid(&end_path, end, msg));
                }
            }
        }
        None => {
            if let Some(end) = end_port {
                errors.push(Error::invalid(&end_path, end, "may not be specified when `port` is not specified"));
            }
        }
    }
}

/// `ValidateNetworkPolicyPeer`.
fn validate_peer(peer: &Json, opts: &Options, path: &Path<'_>, errors: &mut Vec<Error>) {
    let allow = opts.allow_invalid_label_value_in_selector;
    let mut peers = 0;
    if let Some(s) = get(peer, "podSelector") {
        peers += 1;
        selector::validate(Some(s), allow, &path.child("podSelector"), errors);
    }
    if let Some(s) = get(peer, "namespaceSelector") {
        peers += 1;
        selector::validate(Some(s), allow, &path.child("namespaceSelector"), errors);
    }
    let block = get(peer, "ipBlock");
    if let Some(block) = block {
        peers += 1;
        validate_ip_block(block, &path.child("ipBlock"), opts, errors);
    }
    if peers == 0 {
        errors.push(required(path, "must specify a peer"));
    } else if peers > 1 && block.is_some() {
        errors.push(forbidden(path, "may not specify both ipBlock and another peer"));
    }
}

/// `ValidateIPBlock`.
fn validate_ip_block(block: &Json, path: &Path<'_>, opts: &Options, errors: &mut Vec<Error>) {
    let cidr = str(block, "cidr");
    let cidr_path = path.child("cidr");
    if cidr.is_empty() {
        errors.push(required(&cidr_path, ""));
        return;
    }
    validate_cidr_legacy(&cidr_path, cidr, &opts.allow_cidrs_even_if_invalid, errors);
    let Some(net) = parse_cidr_sloppy(cidr) else { return };
    let except_path = path.child("except");
    for (i, except) in list(block, "except").iter().enumerate() {
        let except = except.as_str().unwrap_or("");
        let at = except_path.index(i);
        validate_cidr_legacy(&at, except, &opts.allow_cidrs_even_if_invalid, errors);
        let Some(inner) = parse_cidr_sloppy(except) else { continue };
        if !contains(&net, &inner) || net.bits >= inner.bits {
            errors.push(Error::invalid(&at, except, "must be a strict subset of `cidr`"));
        }
    }
}

/// `(*net.IPNet).Contains(except.IP)` for two networks `ParseCIDRSloppy` made: both IPv4
/// (an IPv4-mapped network counts as IPv4) or both IPv6, and the inner network's address
/// within the outer prefix.
fn contains(outer: &Cidr, inner: &Cidr) -> bool {
    let (net, ip) = (outer.masked(), inner.masked());
    if net.is_v4() != ip.is_v4() {
        return false;
    }
    let bits = if outer.addr_bits == 32 { 96 + outer.bits } else { outer.bits };
    let bits = if net.is_v4() { bits.max(96) } else { bits };
    (0..16usize).all(|i| {
        let start = (i as u32) * 8;
        if start >= bits {
            return true;
        }
        let mask = if start + 8 <= bits { 0xffu8 } else { 0xffu8 << (8 - (bits - start)) };
        net.bytes[i] & mask == ip.bytes[i] & mask
    })
}

/// The strategy's `networkPolicyWarnings`: `GetWarningsForCIDR` of every ipBlock's CIDRs.
pub(crate) fn warnings(object: &Json) -> Vec<String> {
    let mut warnings = Vec::new();
    let spec = field(object, "spec");
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in list(spec, rules).iter().enumerate() {
            for (j, peer) in list(rule, peers).iter().enumerate() {
                let Some(block) = get(peer, "ipBlock") else { continue };
                let at = format!("spec.{rules}[{i}].{peers}[{j}].ipBlock");
                warnings.extend(warnings_for_cidr(&format!("{at}.cidr"), str(block, "cidr")));
                for (k, except) in list(block, "except").iter().enumerate() {
                    warnings.extend(warnings_for_cidr(&format!("{at}.except[{k}]"), except.as_str().unwrap_or("")));
                }
            }
        }
    }
    warnings
}
