//! Service: defaulting and handwritten validation, after `pkg/apis/core/v1/defaults.go`
//! (`SetDefaults_Service`, `SetObjectDefaults_Service`) and `pkg/apis/core/validation/validation.go`
//! (`validateService`, `validateServicePort`, `validateClientIPAffinityConfig`,
//! `validateServiceExternalTrafficPolicy`, `validateServiceExternalTrafficFieldsUpdate`,
//! `validateServiceInternalTrafficFieldsValue`, `validateServiceTrafficDistribution`,
//! `ValidateServiceCreate`, `ValidateServiceUpdate`, `ValidateServiceClusterIPsRelatedFields`,
//! `validateUpgradeDowngradeClusterIPs`, `validateUpgradeDowngradeIPFamilies`,
//! `validateLoadBalancerClassField`). The registry's allocation and the strategy are in
//! [`super::service_alloc`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::common::{self, duplicate, forbidden, required, strings};
use super::netip;
use crate::apis::json;
use crate::field::{Error, Path};

/// `core.MaxClientIPServiceAffinitySeconds`.
const MAX_CLIENT_IP_AFFINITY_SECONDS: i64 = 86400;
/// `core.DeprecatedAnnotationTopologyAwareHints`.
pub const ANNOTATION_TOPOLOGY_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
/// `core.AnnotationTopologyMode`.
pub const ANNOTATION_TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
/// `core.AnnotationLoadBalancerSourceRangesKey`.
const ANNOTATION_LB_SOURCE_RANGES: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

/// `SetObjectDefaults_Service`: `SetDefaults_Service`, then each port's protocol.
pub fn default(obj: &mut Json) {
    let Some(spec) = json::struct_mut(obj, "spec") else { return };
    json::default_to(spec, "sessionAffinity", json!("None"));
    let affinity = String::from(json::str(spec, "sessionAffinity"));
    if affinity == "None" {
        if let Some(m) = spec.as_object_mut() {
            m.remove("sessionAffinityConfig");
        }
    }
    if affinity == "ClientIP" {
        let config = json::field(spec, "sessionAffinityConfig");
        let timeout = json::get(json::field(config, "clientIP"), "timeoutSeconds");
        if timeout.is_none() {
            if let Some(m) = spec.as_object_mut() {
                m.insert(String::from("sessionAffinityConfig"), json!({"clientIP": {"timeoutSeconds": 10800}}));
            }
        }
    }
    json::default_to(spec, "type", json!("ClusterIP"));
    for port in json::list_mut(spec, "ports") {
        json::default_to(port, "protocol", json!("TCP"));
        let unset = match port.get("targetPort") {
            None | Some(Json::Null) => true,
            Some(Json::String(s)) => s.is_empty(),
            Some(v) => v.as_i64() == Some(0),
        };
        if unset {
            let p = json::int(port, "port").unwrap_or(0);
            if let Some(m) = port.as_object_mut() {
                m.insert(String::from("targetPort"), json!(p));
            }
        }
    }
    let ty = String::from(json::str(spec, "type"));
    let externally_accessible =
        ty == "LoadBalancer" || ty == "NodePort" || (ty == "ClusterIP" && !json::list(spec, "externalIPs").is_empty());
    if externally_accessible {
        json::default_to(spec, "externalTrafficPolicy", json!("Cluster"));
    }
    if json::get(spec, "internalTrafficPolicy").is_none()
        && matches!(ty.as_str(), "NodePort" | "LoadBalancer" | "ClusterIP")
    {
        json::default_to(spec, "internalTrafficPolicy", json!("Cluster"));
    }
    if ty == "LoadBalancer" {
        json::default_to(spec, "allocateLoadBalancerNodePorts", json!(true));
        if let Some(lb) = obj.get_mut("status").and_then(|s| s.get_mut("loadBalancer")) {
            for ing in json::list_mut(lb, "ingress") {
                if !json::str(ing, "ip").is_empty() {
                    json::default_to(ing, "ipMode", json!("VIP"));
                }
            }
        }
    }
}

/// `isHeadlessService` (validation's: one clusterIP, `None`).
pub fn is_headless(spec: &Json) -> bool {
    let ips = json::list(spec, "clusterIPs");
    ips.len() == 1 && ips.first().and_then(Json::as_str) == Some("None")
}

/// `apiservice.ExternallyAccessible`.
pub fn externally_accessible(spec: &Json) -> bool {
    let ty = json::str(spec, "type");
    ty == "LoadBalancer" || ty == "NodePort" || (ty == "ClusterIP" && !json::list(spec, "externalIPs").is_empty())
}

/// `apiservice.NeedsHealthCheck`.
pub fn needs_health_check(spec: &Json) -> bool {
    json::str(spec, "type") == "LoadBalancer" && json::str(spec, "externalTrafficPolicy") == "Local"
}

/// A list field as JSON for a bad value (`null` when absent).
fn list_value(spec: &Json, key: &str) -> Json {
    match json::get(spec, key) {
        Some(v) => v.clone(),
        None => Json::Null,
    }
}

/// A `*string` field as a bad value (`null` when nil).
fn opt_value(spec: &Json, key: &str) -> Json {
    json::opt_str(spec, key).map_or(Json::Null, Json::from)
}

/// `ValidateServiceCreate` (metadata aside): `validateService(service, nil)`.
pub fn validate_create(svc: &Json) -> Vec<Error> {
    validate_service(svc, None)
}

/// `ValidateServiceUpdate` (metadata aside).
pub fn validate_update(svc: &Json, old: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let (spec, old_spec) = (json::field(svc, "spec"), json::field(old, "spec"));
    upgrade_downgrade_cluster_ips(old_spec, spec, &mut errors);
    upgrade_downgrade_ip_families(old_spec, spec, &mut errors);
    load_balancer_class(Some(old_spec), spec, &mut errors);
    // validateServiceExternalTrafficFieldsUpdate
    if needs_health_check(old_spec)
        && needs_health_check(spec)
        && json::int(spec, "healthCheckNodePort") != json::int(old_spec, "healthCheckNodePort")
    {
        errors.push(forbidden(&Path::root().child("spec").child("healthCheckNodePort"), "field is immutable"));
    }
    errors.extend(validate_service(svc, Some(old)));
    errors
}

/// `validateService`.
fn validate_service(svc: &Json, old: Option<&Json>) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let meta = json::field(svc, "metadata");
    let annotations = json::object(meta, "annotations");
    let annotation = |k: &str| annotations.and_then(|a| a.get(k)).map(|v| v.as_str().unwrap_or(""));
    if let (Some(mode), Some(hints)) = (annotation(ANNOTATION_TOPOLOGY_MODE), annotation(ANNOTATION_TOPOLOGY_HINTS)) {
        if mode != hints {
            let m = root.child("metadata");
            let a = m.child("annotations");
            errors.push(Error::invalid(
                &a.key(ANNOTATION_TOPOLOGY_MODE),
                mode,
                format!("must match annotations[{ANNOTATION_TOPOLOGY_HINTS}] when both are specified"),
            ));
        }
    }
    let spec_path = root.child("spec");
    let spec = json::field(svc, "spec");
    let ty = json::str(spec, "type");
    let ports = json::list(spec, "ports");
    let headless = is_headless(spec);
    let cluster_ips = strings(spec, "clusterIPs");
    let first_ip = cluster_ips.first().map_or("", String::as_str);
    if ports.is_empty() && !headless && ty != "ExternalName" {
        errors.push(required(&spec_path.child("ports"), ""));
    }
    let cips = spec_path.child("clusterIPs");
    match ty {
        "LoadBalancer" if headless => {
            errors.push(Error::invalid(&cips.index(0), first_ip, "may not be set to 'None' for LoadBalancer services"));
        }
        "NodePort" if headless => {
            errors.push(Error::invalid(&cips.index(0), first_ip, "may not be set to 'None' for NodePort services"));
        }
        "ExternalName" => {
            if !cluster_ips.is_empty() {
                errors.push(forbidden(&cips, "may not be set for ExternalName services"));
            }
            if !json::list(spec, "ipFamilies").is_empty() {
                errors.push(forbidden(&spec_path.child("ipFamilies"), "may not be set for ExternalName services"));
            }
            if json::get(spec, "ipFamilyPolicy").is_some() {
                errors.push(forbidden(&spec_path.child("ipFamilyPolicy"), "may not be set for ExternalName services"));
            }
            let name = json::str(spec, "externalName");
            let cname = name.strip_suffix('.').unwrap_or(name);
            if cname.is_empty() {
                errors.push(required(&spec_path.child("externalName"), ""));
            } else {
                common::validate_dns1123_subdomain(cname, &spec_path.child("externalName"), &mut errors);
            }
        }
        _ => {}
    }
    let ports_path = spec_path.child("ports");
    let mut names: Vec<&str> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        validate_port(port, ports.len() > 1, &mut names, &ports_path.index(i), &mut errors);
    }
    if json::get(spec, "selector").is_some() {
        common::validate_labels(json::object(spec, "selector"), &spec_path.child("selector"), &mut errors);
    }
    let affinity = json::str(spec, "sessionAffinity");
    if affinity.is_empty() {
        errors.push(required(&spec_path.child("sessionAffinity"), ""));
    } else if !matches!(affinity, "ClientIP" | "None") {
        errors.push(Error::not_supported(&spec_path.child("sessionAffinity"), affinity, &["ClientIP", "None"]));
    }
    let sac = spec_path.child("sessionAffinityConfig");
    if affinity == "ClientIP" {
        client_ip_affinity_config(json::get(spec, "sessionAffinityConfig"), &sac, &mut errors);
    } else if affinity == "None" && json::get(spec, "sessionAffinityConfig").is_some() {
        errors.push(forbidden(&sac, "must not be set when session affinity is None"));
    }
    let old_spec = old.map(|o| json::field(o, "spec"));
    errors.extend(cluster_ips_related_fields(spec, old_spec));
    let ip_path = spec_path.child("externalIPs");
    let existing: Vec<String> = old_spec.map(|o| strings(o, "externalIPs")).unwrap_or_default();
    for (i, ip) in strings(spec, "externalIPs").iter().enumerate() {
        let at = ip_path.index(i);
        if netip::validate_ip_legacy(&at, ip, &existing, &mut errors) {
            netip::validate_endpoint_ip(ip, &at, &mut errors);
        }
    }
    if ty.is_empty() {
        errors.push(required(&spec_path.child("type"), ""));
    } else if !matches!(ty, "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName") {
        errors.push(Error::not_supported(
            &spec_path.child("type"),
            ty,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        ));
    }
    if ty == "ClusterIP" {
        for (i, port) in ports.iter().enumerate() {
            if json::int(port, "nodePort").unwrap_or(0) != 0 {
                errors.push(forbidden(
                    &ports_path.index(i).child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports: Vec<(&str, i64)> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let np = json::int(port, "nodePort").unwrap_or(0);
        if np == 0 {
            continue;
        }
        let key = (json::str(port, "protocol"), np);
        if node_ports.contains(&key) {
            errors.push(duplicate(&ports_path.index(i).child("nodePort"), np));
        }
        node_ports.push(key);
    }
    let mut seen: Vec<(&str, i64)> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let key = (json::str(port, "protocol"), json::int(port, "port").unwrap_or(0));
        if seen.contains(&key) {
            let mut e = duplicate(&ports_path.index(i), Json::Null);
            e.rendered_value = Some(format!(
                "{{\"Name\":\"\",\"Protocol\":{},\"AppProtocol\":null,\"Port\":{},\"TargetPort\":0,\"NodePort\":0}}",
                crate::field::go_json(&Json::from(key.0)),
                key.1
            ));
            errors.push(e);
        }
        seen.push(key);
    }
    let ranges = strings(spec, "loadBalancerSourceRanges");
    if !ranges.is_empty() {
        let fp = spec_path.child("LoadBalancerSourceRanges");
        if ty != "LoadBalancer" {
            errors.push(forbidden(&fp, "may only be used when `type` is 'LoadBalancer'"));
        }
        let existing: Vec<String> = old_spec
            .map(|o| strings(o, "loadBalancerSourceRanges").iter().map(|s| String::from(s.trim())).collect())
            .unwrap_or_default();
        for (i, value) in ranges.iter().enumerate() {
            netip::validate_cidr_legacy(&fp.index(i), value.trim(), &existing, &mut errors);
        }
    } else if let Some(val) = annotation(ANNOTATION_LB_SOURCE_RANGES) {
        let m = root.child("metadata");
        let a = m.child("annotations");
        let fp = a.key(ANNOTATION_LB_SOURCE_RANGES);
        if ty != "LoadBalancer" {
            errors.push(forbidden(&fp, "may only be used when `type` is 'LoadBalancer'"));
        }
        let old_val = old.and_then(|o| {
            json::object(json::field(o, "metadata"), "annotations")
                .and_then(|a| a.get(ANNOTATION_LB_SOURCE_RANGES))
                .map(|v| v.as_str().unwrap_or(""))
        });
        if old.is_none() || old_val.unwrap_or("") != val {
            let val = val.trim();
            if !val.is_empty() {
                for value in val.split(',') {
                    netip::validate_cidr_legacy(&fp, value.trim(), &[], &mut errors);
                }
            }
        }
    }
    if json::get(spec, "allocateLoadBalancerNodePorts").is_some() && ty != "LoadBalancer" {
        errors.push(forbidden(
            &spec_path.child("allocateLoadBalancerNodePorts"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if ty == "LoadBalancer" && json::get(spec, "allocateLoadBalancerNodePorts").is_none() {
        errors.push(required(&root.child("allocateLoadBalancerNodePorts"), ""));
    }
    load_balancer_class(None, spec, &mut errors);
    external_traffic_policy(spec, &mut errors);
    // validateServiceInternalTrafficFieldsValue
    let itp = spec_path.child("internalTrafficPolicy");
    match json::opt_str(spec, "internalTrafficPolicy") {
        None => {
            if matches!(ty, "NodePort" | "LoadBalancer" | "ClusterIP") {
                errors.push(required(&itp, ""));
            }
        }
        Some(p) if !matches!(p, "Cluster" | "Local") => {
            errors.push(Error::not_supported(&itp, p, &["Cluster", "Local"]));
        }
        Some(_) => {}
    }
    // validateServiceTrafficDistribution (PreferSameTrafficDistribution is GA).
    if let Some(td) = json::opt_str(spec, "trafficDistribution") {
        let supported = ["PreferClose", "PreferSameZone", "PreferSameNode"];
        if !supported.contains(&td) {
            errors.push(Error::not_supported(&spec_path.child("trafficDistribution"), td, &supported));
        }
    }
    errors
}

/// `validateServicePort`.
fn validate_port<'a>(
    port: &'a Json,
    require_name: bool,
    names: &mut Vec<&'a str>,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let name = json::str(port, "name");
    if require_name && name.is_empty() {
        errors.push(required(&path.child("name"), ""));
    } else if !name.is_empty() {
        common::validate_dns1123_label(name, &path.child("name"), errors);
        if names.contains(&name) {
            errors.push(duplicate(&path.child("name"), name));
        } else {
            names.push(name);
        }
    }
    let number = json::int(port, "port").unwrap_or(0);
    for msg in common::is_valid_port_num(number) {
        errors.push(Error::invalid(&path.child("port"), number, msg));
    }
    let protocol = json::str(port, "protocol");
    if protocol.is_empty() {
        errors.push(required(&path.child("protocol"), ""));
    } else if !PROTOCOLS.contains(&protocol) {
        errors.push(Error::not_supported(&path.child("protocol"), protocol, PROTOCOLS));
    }
    common::validate_port_num_or_name(json::get(port, "targetPort"), &path.child("targetPort"), errors);
    if let Some(app) = json::opt_str(port, "appProtocol") {
        common::validate_qualified_name(app, &path.child("appProtocol"), errors);
    }
}

/// `validateClientIPAffinityConfig` and `validateAffinityTimeout`.
fn client_ip_affinity_config(config: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    const WHEN: &str = "when session affinity type is ClientIP";
    let Some(config) = config else {
        errors.push(required(path, WHEN));
        return;
    };
    let cp = path.child("clientIP");
    let Some(client) = json::get(config, "clientIP") else {
        errors.push(required(&cp, WHEN));
        return;
    };
    let tp = cp.child("timeoutSeconds");
    let Some(timeout) = json::int(client, "timeoutSeconds") else {
        errors.push(required(&tp, WHEN));
        return;
    };
    if timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS {
        errors.push(Error::invalid(&tp, timeout, "must be greater than 0 and less than 86400"));
    }
}

/// `validateServiceExternalTrafficPolicy`.
fn external_traffic_policy(spec: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let sp = root.child("spec");
    let etp = json::str(spec, "externalTrafficPolicy");
    let ep = sp.child("externalTrafficPolicy");
    if !externally_accessible(spec) {
        if !etp.is_empty() {
            errors.push(Error::invalid(&ep, etp, "may only be set for externally-accessible services"));
        }
    } else if etp.is_empty() {
        errors.push(required(&ep, ""));
    } else if !matches!(etp, "Cluster" | "Local") {
        errors.push(Error::not_supported(&ep, etp, &["Cluster", "Local"]));
    }
    let hp = sp.child("healthCheckNodePort");
    let hc = json::int(spec, "healthCheckNodePort").unwrap_or(0);
    if !needs_health_check(spec) {
        if hc != 0 {
            errors.push(Error::invalid(
                &hp,
                hc,
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if hc == 0 {
        errors.push(required(&hp, ""));
    } else {
        for msg in common::is_valid_port_num(hc) {
            errors.push(Error::invalid(&hp, hc, msg));
        }
    }
}

/// `validateLoadBalancerClassField`.
fn load_balancer_class(old: Option<&Json>, spec: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let sp = root.child("spec");
    let path = sp.child("loadBalancerClass");
    let class = json::opt_str(spec, "loadBalancerClass");
    let lb = json::str(spec, "type") == "LoadBalancer";
    if let Some(old) = old {
        if json::str(old, "type") == "LoadBalancer" && lb && json::opt_str(old, "loadBalancerClass") != class {
            errors.push(Error::invalid(&path, opt_value(spec, "loadBalancerClass"), "may not change once set"));
        }
    }
    if lb {
        if let Some(class) = class {
            common::validate_qualified_name(class, &path, errors);
        }
    } else if class.is_some() {
        errors.push(forbidden(&path, "may only be used when `type` is 'LoadBalancer'"));
    }
}

/// `ValidateServiceClusterIPsRelatedFields`: the registry's allocation runs it too.
pub fn cluster_ips_related_fields(spec: &Json, old_spec: Option<&Json>) -> Vec<Error> {
    let mut errors = Vec::new();
    if json::str(spec, "type") == "ExternalName" {
        return errors;
    }
    let root = Path::root();
    let sp = root.child("spec");
    let cips = sp.child("clusterIPs");
    let fams = sp.child("ipFamilies");
    let cluster_ip = json::str(spec, "clusterIP");
    let ips = strings(spec, "clusterIPs");
    let ips_value = list_value(spec, "clusterIPs");
    if !cluster_ip.is_empty() {
        match ips.first() {
            None => errors.push(required(&cips, "")),
            Some(first) if first != cluster_ip => {
                errors.push(Error::invalid(&cips, ips_value.clone(), "first value must match `clusterIP`"));
            }
            Some(_) => {}
        }
    } else if !ips.is_empty() {
        errors.push(Error::invalid(&cips, ips_value.clone(), "must be empty when `clusterIP` is not specified"));
    }
    let families = strings(spec, "ipFamilies");
    let mut seen: Vec<&str> = Vec::new();
    for (i, f) in families.iter().enumerate() {
        if !matches!(f.as_str(), "IPv4" | "IPv6") {
            errors.push(Error::not_supported(&fams.index(i), f, &["IPv4", "IPv6"]));
        }
        if seen.contains(&f.as_str()) {
            errors.push(duplicate(&fams.index(i), f.as_str()));
        }
        seen.push(f);
    }
    if let Some(policy) = json::opt_str(spec, "ipFamilyPolicy") {
        if !matches!(policy, "SingleStack" | "PreferDualStack" | "RequireDualStack") {
            errors.push(Error::not_supported(
                &sp.child("ipFamilyPolicy"),
                policy,
                &["PreferDualStack", "RequireDualStack", "SingleStack"],
            ));
        }
    }
    let existing: Vec<String> = old_spec.map(|o| strings(o, "clusterIPs")).unwrap_or_default();
    let mut invalid = false;
    for (i, ip) in ips.iter().enumerate() {
        if i == 0 && ip == "None" {
            if ips.len() > 1 {
                invalid = true;
                errors.push(Error::invalid(&cips, ips_value.clone(), "'None' must be the first and only value"));
            }
            continue;
        }
        if !netip::validate_ip_legacy(&cips.index(i), ip, &existing, &mut errors) {
            invalid = true;
        }
    }
    if ips.len() > 2 {
        errors.push(Error::invalid(&cips, ips_value.clone(), "may only hold up to 2 values"));
    }
    if invalid {
        return errors;
    }
    if ips.len() > 1 {
        let v4 = ips.iter().any(|ip| netip::is_ipv4_string(ip));
        let v6 = ips.iter().any(|ip| netip::is_ipv6_string(ip));
        if ips.iter().any(|ip| netip::parse_sloppy(ip).is_none()) {
            errors.push(Error::new(
                crate::field::ErrorType::Internal,
                &cips,
                None,
                "failed to check for dual stack with error:ip <nil> is invalid",
            ));
        } else if !(v4 && v6) {
            errors.push(Error::invalid(&cips, ips_value.clone(), "may specify no more than one IP for each IP family"));
        }
    }
    if !is_headless(spec) && !ips.is_empty() && !families.is_empty() {
        for (i, ip) in ips.iter().enumerate() {
            let Some(f) = families.get(i) else { break };
            if f == "IPv4" && netip::is_ipv6_string(ip) {
                errors.push(Error::invalid(
                    &cips.index(i),
                    ip.as_str(),
                    format!("expected an IPv4 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
            if f == "IPv6" && !netip::is_ipv6_string(ip) {
                errors.push(Error::invalid(
                    &cips.index(i),
                    ip.as_str(),
                    format!("expected an IPv6 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
        }
    }
    errors
}

/// `validateUpgradeDowngradeClusterIPs`.
fn upgrade_downgrade_cluster_ips(old: &Json, spec: &Json, errors: &mut Vec<Error>) {
    if json::str(spec, "type") == "ExternalName" || json::str(old, "type") == "ExternalName" {
        return;
    }
    if is_headless(old) && is_headless(spec) {
        return;
    }
    let root = Path::root();
    let sp = root.child("spec");
    let cips = sp.child("clusterIPs");
    let (old_ips, ips) = (strings(old, "clusterIPs"), strings(spec, "clusterIPs"));
    let value = list_value(spec, "clusterIPs");
    if old_ips.len() == ips.len() {
        for (i, ip) in old_ips.iter().enumerate() {
            if ips.get(i) != Some(ip) {
                errors.push(Error::invalid(&cips.index(i), value.clone(), "may not change once set"));
            }
        }
    } else if old_ips.len() > ips.len() {
        if ips.is_empty() {
            errors.push(Error::invalid(&cips.index(0), value.clone(), "primary clusterIP can not be unset"));
        }
        if !old_ips.is_empty() && !ips.is_empty() && ips.first() != old_ips.first() {
            errors.push(Error::invalid(&cips.index(0), value.clone(), "may not change once set"));
        }
        if ips.len() == 1 && json::opt_str(spec, "ipFamilyPolicy") != Some("SingleStack") {
            errors.push(Error::invalid(
                &sp.child("ipFamilyPolicy"),
                opt_value(spec, "ipFamilyPolicy"),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !old_ips.is_empty() && ips.first() != old_ips.first() {
        errors.push(Error::invalid(&cips.index(0), value, "may not change once set"));
    }
}

/// `validateUpgradeDowngradeIPFamilies`.
fn upgrade_downgrade_ip_families(old: &Json, spec: &Json, errors: &mut Vec<Error>) {
    if json::str(spec, "type") == "ExternalName" || json::str(old, "type") == "ExternalName" {
        return;
    }
    if is_headless(old) != is_headless(spec) || is_headless(spec) {
        return;
    }
    let root = Path::root();
    let sp = root.child("spec");
    let fams = sp.child("ipFamilies");
    let (old_f, f) = (strings(old, "ipFamilies"), strings(spec, "ipFamilies"));
    let fam_value = list_value(spec, "ipFamilies");
    let ips_value = list_value(spec, "clusterIPs");
    if old_f.len() == f.len() {
        for (i, fam) in old_f.iter().enumerate() {
            if f.get(i) != Some(fam) {
                errors.push(Error::invalid(&fams.index(0), fam_value.clone(), "may not change once set"));
            }
        }
    } else if old_f.len() > f.len() {
        if json::list(spec, "clusterIPs").is_empty() {
            errors.push(Error::invalid(&fams.index(0), fam_value.clone(), "primary ipFamily can not be unset"));
        }
        if !f.is_empty() && f.first() != old_f.first() {
            errors.push(Error::invalid(&fams.index(0), ips_value.clone(), "may not change once set"));
        }
        if f.len() == 1 && json::opt_str(spec, "ipFamilyPolicy") != Some("SingleStack") {
            errors.push(Error::invalid(
                &sp.child("ipFamilyPolicy"),
                opt_value(spec, "ipFamilyPolicy"),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !old_f.is_empty() && !f.is_empty() && f.first() != old_f.first() {
        errors.push(Error::invalid(&fams.index(0), ips_value, "may not change once set"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::Context;

    /// A create of a Service whose `spec` is `base` with `patch` merged in, through the
    /// defaulting, the registry's dry-run allocation, validation and warnings.
    fn create(patch: Json) -> (Vec<String>, Vec<String>, Json) {
        let mut obj = json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {"key": "val"}, "ports": [{"name": "p", "port": 8675, "targetPort": 8675}]}});
        if let (Some(spec), Json::Object(p)) = (obj.get_mut("spec").and_then(Json::as_object_mut), patch) {
            for (k, v) in p {
                spec.insert(k, v);
            }
        }
        default(&mut obj);
        let (errors, warnings) = super::super::service_alloc::admit(Context::new(37, false), &mut obj, None);
        (errors.iter().map(Error::text).collect(), warnings, obj)
    }

    // TestValidateServiceCreate (a selection: the error texts are the API server's).
    #[test]
    fn validate_service_create() {
        let (errors, warnings, obj) = create(json!({}));
        assert!(errors.is_empty() && warnings.is_empty(), "{errors:?} {warnings:?}");
        assert_eq!(obj["spec"]["clusterIPs"], json!(["10.0.0.0"]));
        assert_eq!(obj["spec"]["ipFamilies"], json!(["IPv4"]));
        assert_eq!(obj["spec"]["ipFamilyPolicy"], json!("SingleStack"));
        let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
        let cases: Vec<(Json, String)> = alloc::vec![
            (json!({"ports": []}), String::from("spec.ports: Required value")),
            (json!({"ports": [{"name": "p", "port": 80}, {"port": 81}]}), String::from("spec.ports[1].name: Required value")),
            (json!({"ports": [{"name": "INVALID", "port": 80}]}), format!("spec.ports[0].name: Invalid value: \"INVALID\": {label}")),
            (json!({"ports": [{"name": "p", "port": 65536}]}),
             String::from("spec.ports[0].port: Invalid value: 65536: must be between 1 and 65535, inclusive")),
            (json!({"ports": [{"name": "p", "port": 80, "protocol": "INVALID"}]}),
             String::from("spec.ports[0].protocol: Unsupported value: \"INVALID\": supported values: \"SCTP\", \"TCP\", \"UDP\"")),
            (json!({"ports": [{"name": "p", "port": 80, "targetPort": "Invalid"}]}),
             String::from("spec.ports[0].targetPort: Invalid value: \"Invalid\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")),
            (json!({"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]}),
             String::from("spec.ports[1]: Duplicate value: {\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,\"Port\":80,\"TargetPort\":0,\"NodePort\":0}")),
            (json!({"ports": [{"name": "p", "port": 80, "nodePort": 30080}]}),
             String::from("spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'")),
            (json!({"type": "Foo"}),
             String::from("spec.type: Unsupported value: \"Foo\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"")),
            (json!({"sessionAffinity": "ClientIP", "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 0}}}),
             String::from("spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400")),
            (json!({"type": "ExternalName", "ports": []}), String::from("spec.externalName: Required value")),
            (json!({"clusterIP": "1.2.3.4.5"}),
             String::from("spec.clusterIPs[0]: Invalid value: \"1.2.3.4.5\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")),
            (json!({"loadBalancerSourceRanges": ["10.0.0.0/8"]}),
             String::from("spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'")),
            (json!({"externalIPs": ["127.0.0.1"]}),
             String::from("spec.externalIPs[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)")),
            (json!({"loadBalancerClass": "example.com/lb"}),
             String::from("spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'")),
            (json!({"internalTrafficPolicy": "Foo"}),
             String::from("spec.internalTrafficPolicy: Unsupported value: \"Foo\": supported values: \"Cluster\", \"Local\"")),
            (json!({"healthCheckNodePort": 30000}),
             String::from("spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'")),
            (json!({"ipFamilyPolicy": "SingleStack", "ipFamilies": ["IPv4", "IPv6"]}),
             String::from("spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified")),
            (json!({"ipFamilyPolicy": "RequireDualStack"}),
             String::from("spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is not configured for dual-stack services")),
        ];
        for (patch, want) in cases {
            let (errors, _, _) = create(patch.clone());
            assert_eq!(errors.first(), Some(&want), "{patch}: {errors:?}");
        }
    }

    // TestValidateServiceCreate's NodePort and LoadBalancer cases, and GetWarningsForService.
    #[test]
    fn node_ports_and_warnings() {
        let (errors, _, obj) = create(json!({"type": "LoadBalancer", "externalTrafficPolicy": "Local"}));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(obj["spec"]["ports"][0]["nodePort"], json!(32769));
        assert_eq!(obj["spec"]["healthCheckNodePort"], json!(32770));
        assert_eq!(obj["spec"]["allocateLoadBalancerNodePorts"], json!(true));
        let (errors, warnings, _) = create(json!({"externalIPs": ["1.2.3.4"], "trafficDistribution": "PreferClose"}));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            warnings,
            [
                "spec.externalIPs is deprecated and may no longer be implemented in some clusters",
                "spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\""
            ]
        );
        let (errors, warnings, _) = create(json!({"clusterIP": "None", "sessionAffinity": "ClientIP"}));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(warnings, ["spec.SessionAffinity is ignored for headless services"]);
    }

    // TestValidateServiceUpdate (a selection).
    #[test]
    fn validate_service_update() {
        let (_, _, old) = create(json!({"clusterIP": "10.0.0.5"}));
        let mut new = old.clone();
        new["spec"]["clusterIP"] = json!("10.0.0.6");
        new["spec"]["clusterIPs"] = json!(["10.0.0.6"]);
        let (errors, _) = super::super::service_alloc::admit(Context::new(37, true), &mut new, Some(&old));
        let got: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(got, ["spec.clusterIPs[0]: Invalid value: [\"10.0.0.6\"]: may not change once set"]);
    }
}
