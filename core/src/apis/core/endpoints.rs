//! Endpoints, after `pkg/apis/core/v1/defaults.go` (`SetDefaults_Endpoints`),
//! `pkg/apis/core/validation/validation.go` (`ValidateEndpoints`, `ValidateEndpointsCreate`,
//! `ValidateEndpointsUpdate`, `validateEndpointSubsets`, `validateEndpointAddress`,
//! `validateEndpointPort`), `pkg/registry/core/endpoint/strategy.go` (`endpointsWarnings`) and
//! the deprecation warning the API server's handler adds for `v1 Endpoints`
//! (apiserver `pkg/endpoints/deprecation`, from k8s.io/api `core/v1/lifecycle.go`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::common::{self, dedupe, required};
use super::netip;
use crate::apis::{json, Context};
use crate::field::{Error, Path};

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

/// The handler's deprecation warning (`deprecation.WarningMessage`): Endpoints is deprecated
/// in 1.33 for discovery.k8s.io/v1 EndpointSlice.
pub const DEPRECATION: &str = "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice";

/// `SetObjectDefaults_Endpoints`: each port's protocol `TCP`.
pub fn default(obj: &mut Json) {
    for subset in json::list_mut(obj, "subsets") {
        for port in json::list_mut(subset, "ports") {
            json::default_to(port, "protocol", json!("TCP"));
        }
    }
}

/// The strategy (no preparation), `ValidateEndpointsCreate`/`ValidateEndpointsUpdate`
/// (metadata aside) and the strategy's warnings, which Go adds only when validation passed.
pub fn admit(ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    // The deprecation warning (`DEPRECATION`) is the API lifecycle's, which `check` returns
    // for every request of a deprecated version ([`crate::lifecycle`]).
    let _ = ctx;
    let errors = validate(obj, old);
    let mut warnings = Vec::new();
    if errors.is_empty() {
        warnings.extend(strategy_warnings(obj));
    }
    (errors, dedupe(warnings))
}

/// `ValidateEndpoints` (metadata aside; `ValidateEndpointsSpecificAnnotations` checks nothing).
pub fn validate(obj: &Json, old: Option<&Json>) -> Vec<Error> {
    let root = Path::root();
    let path = root.child("subsets");
    let mut errors = Vec::new();
    for (i, ss) in json::list(obj, "subsets").iter().enumerate() {
        let at = path.index(i);
        let addresses = json::list(ss, "addresses");
        let not_ready = json::list(ss, "notReadyAddresses");
        if addresses.is_empty() && not_ready.is_empty() {
            errors.push(required(&at, "must specify `addresses` or `notReadyAddresses`"));
        }
        let ap = at.child("addresses");
        for (j, a) in addresses.iter().enumerate() {
            validate_address(a, &ap.index(j), &mut errors);
        }
        let np = at.child("notReadyAddresses");
        for (j, a) in not_ready.iter().enumerate() {
            validate_address(a, &np.index(j), &mut errors);
        }
        let ports = json::list(ss, "ports");
        let pp = at.child("ports");
        for (j, p) in ports.iter().enumerate() {
            validate_port(p, ports.len() > 1, &pp.index(j), &mut errors);
        }
    }
    // An update whose subsets did not change keeps them, valid or not.
    if !errors.is_empty() {
        if let Some(old) = old {
            if normalized(old) == normalized(obj) {
                errors.clear();
            }
        }
    }
    errors
}

/// The subsets as compared (`Semantic.DeepEqual`: absent, `null` and empty alike).
fn normalized(obj: &Json) -> Json {
    match json::get(obj, "subsets") {
        Some(Json::Array(items)) if !items.is_empty() => Json::Array(items.clone()),
        _ => Json::Null,
    }
}

/// `validateEndpointAddress`.
fn validate_address(a: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ip = json::str(a, "ip");
    let ipp = path.child("ip");
    netip::validate_ip_legacy(&ipp, ip, &[], errors);
    let hostname = json::str(a, "hostname");
    if !hostname.is_empty() {
        common::validate_dns1123_label(hostname, &path.child("hostname"), errors);
    }
    if let Some(node) = json::opt_str(a, "nodeName") {
        // ValidateNodeName = NameIsDNSSubdomain.
        for msg in common::is_dns1123_subdomain(node) {
            errors.push(Error::invalid(&path.child("nodeName"), node, msg).with_origin("format=dns-label"));
        }
    }
    netip::validate_endpoint_ip(ip, &ipp, errors);
}

/// `validateEndpointPort`.
fn validate_port(p: &Json, require_name: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = json::str(p, "name");
    if require_name && name.is_empty() {
        errors.push(required(&path.child("name"), ""));
    } else if !name.is_empty() {
        common::validate_dns1123_label(name, &path.child("name"), errors);
    }
    let port = json::int(p, "port").unwrap_or(0);
    for msg in common::is_valid_port_num(port) {
        errors.push(Error::invalid(&path.child("port"), port, msg).with_origin("portNum"));
    }
    let protocol = json::str(p, "protocol");
    if protocol.is_empty() {
        errors.push(required(&path.child("protocol"), ""));
    } else if !PROTOCOLS.contains(&protocol) {
        errors.push(Error::not_supported(&path.child("protocol"), protocol, PROTOCOLS));
    }
    if let Some(app) = json::opt_str(p, "appProtocol") {
        common::validate_qualified_name(app, &path.child("appProtocol"), errors);
    }
}

/// strategy.go `endpointsWarnings`: non-standard IPs, unless the endpoints controller wrote
/// the object.
fn strategy_warnings(obj: &Json) -> Vec<String> {
    let labels = json::object(json::field(obj, "metadata"), "labels");
    if labels.and_then(|l| l.get("endpoints.kubernetes.io/managed-by")).and_then(Json::as_str)
        == Some("endpoint-controller")
    {
        return Vec::new();
    }
    let mut w = Vec::new();
    for (i, ss) in json::list(obj, "subsets").iter().enumerate() {
        for (j, a) in json::list(ss, "addresses").iter().enumerate() {
            w.extend(netip::warnings_for_ip(&format!("subsets[{i}].addresses[{j}].ip"), json::str(a, "ip")));
        }
        for (j, a) in json::list(ss, "notReadyAddresses").iter().enumerate() {
            w.extend(netip::warnings_for_ip(&format!("subsets[{i}].notReadyAddresses[{j}].ip"), json::str(a, "ip")));
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(obj: Json) -> Vec<String> {
        let mut obj = obj;
        default(&mut obj);
        validate(&obj, None).iter().map(Error::text).collect()
    }

    // TestValidateEndpointsCreate (a selection of its error cases).
    #[test]
    fn validate_endpoints_create() {
        let ok = json!({"subsets": [{"addresses": [{"ip": "10.10.1.1"}], "ports": [{"name": "a", "port": 8675}, {"name": "b", "port": 309}]}]});
        assert!(run(ok).is_empty());
        let cases = [
            (json!({"subsets": [{"addresses": [{"ip": "10.10.1.1"}], "ports": [{"name": "a", "port": 80}, {"port": 81}]}]}),
             "subsets[0].ports[1].name: Required value"),
            (json!({"subsets": [{"ports": [{"port": 80}]}]}),
             "subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"),
            (json!({"subsets": [{"addresses": [{"ip": "[2001:0db8:85a3:0042:1000:8a2e:0370:7334]"}]}]}),
             "subsets[0].addresses[0].ip: Invalid value: \"[2001:0db8:85a3:0042:1000:8a2e:0370:7334]\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
            (json!({"subsets": [{"addresses": [{"ip": "10.10.1.1"}], "ports": [{"port": 0}]}]}),
             "subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"),
            (json!({"subsets": [{"addresses": [{"ip": "10.10.1.1"}], "ports": [{"port": 80, "protocol": "Protocol"}]}]}),
             "subsets[0].ports[0].protocol: Unsupported value: \"Protocol\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
            (json!({"subsets": [{"addresses": [{"ip": "127.0.0.1"}]}]}),
             "subsets[0].addresses[0].ip: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"),
            (json!({"subsets": [{"addresses": [{"ip": "169.254.169.254"}]}]}),
             "subsets[0].addresses[0].ip: Invalid value: \"169.254.169.254\": may not be in the link-local range (169.254.0.0/16, fe80::/10)"),
            (json!({"subsets": [{"addresses": [{"ip": "224.0.0.1"}]}]}),
             "subsets[0].addresses[0].ip: Invalid value: \"224.0.0.1\": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"),
            (json!({"subsets": [{"addresses": [{"ip": "10.10.1.1", "hostname": "Bad_Name"}]}]}),
             "subsets[0].addresses[0].hostname: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
        ];
        for (obj, want) in cases {
            let got = run(obj);
            assert_eq!(got.first().map(String::as_str), Some(want), "{got:?}");
        }
    }
}
