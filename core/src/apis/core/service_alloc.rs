//! Service: what the registry does around validation, after
//! `pkg/registry/core/service/storage/storage.go` (`beginCreate`, `beginUpdate`,
//! `normalizeClusterIPs`, `patchAllocatedValues`, `defaultOnReadService`,
//! `defaultOnReadIPFamilies`), `storage/alloc.go` (`allocateCreate`, `allocateUpdate`,
//! `initIPFamilyFields`, `allocClusterIPs`, `initNodePorts`, `allocHealthCheckNodePort`,
//! `updateClusterIPs`, `updateNodePorts`, `updateHealthCheckNodePort`),
//! `pkg/registry/core/service/strategy.go` (`PrepareForCreate`, `PrepareForUpdate`,
//! `dropTypeDependentFields`) and `pkg/api/service/warnings.go` (`GetWarningsForService`).
//!
//! The allocators run as a dry run does (`?dryRun=All`, what kubedv answers for): a cluster
//! configured single-stack IPv4, a new ClusterIP is the service CIDR's network address
//! ([`DRY_RUN_CLUSTER_IP`], the oracle's `--service-cluster-ip-range=10.0.0.0/24`), a new
//! NodePort is the dry-run port operation's guess (32769, then one past the highest taken), a
//! requested NodePort is not range-checked (the dry-run port operation does not), and a
//! requested ClusterIP is not range-checked either (the cluster's range is unknown; the API
//! server refuses one outside it: `failed to allocate IP …`). Errors of the allocation are the
//! request's only errors, as the API server returns them before validating.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::common::{dedupe, strings};
use super::netip;
use super::service::{self, externally_accessible};
use crate::apis::{json, Context};
use crate::field::{Error, ErrorType, Path};

/// The ClusterIP a dry-run allocation gives (`allocateNextService` in dry-run mode returns the
/// service CIDR's network address).
pub const DRY_RUN_CLUSTER_IP: &str = "10.0.0.0";

fn spec(obj: &Json) -> &Json {
    json::field(obj, "spec")
}

fn spec_mut(obj: &mut Json) -> Option<&mut Map<String, Json>> {
    json::struct_mut(obj, "spec").and_then(Json::as_object_mut)
}

fn set_strings(obj: &mut Json, key: &str, items: &[String]) {
    if let Some(s) = spec_mut(obj) {
        s.insert(String::from(key), Json::Array(items.iter().map(|i| Json::from(i.as_str())).collect()));
    }
}

fn set(obj: &mut Json, key: &str, value: Json) {
    if let Some(s) = spec_mut(obj) {
        s.insert(String::from(key), value);
    }
}

fn remove(obj: &mut Json, key: &str) {
    if let Some(s) = spec_mut(obj) {
        s.remove(key);
    }
}

fn node_port(port: &Json) -> i64 {
    json::int(port, "nodePort").unwrap_or(0)
}

fn set_node_port(obj: &mut Json, i: usize, value: i64) {
    if let Some(p) =
        spec_mut(obj).and_then(|s| s.get_mut("ports")).and_then(|p| p.get_mut(i)).and_then(Json::as_object_mut)
    {
        if value == 0 {
            p.remove("nodePort");
        } else {
            p.insert(String::from("nodePort"), json!(value));
        }
    }
}

/// The service's strategy, allocation, validation and warnings for one request.
pub fn admit(ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let (errors, warnings, _) = admit_allocating(ctx, obj, old);
    (errors, warnings)
}

/// [`admit`], saying whether the allocation refused the request: its errors are then the
/// request's only ones (the registry's `beginCreate`/`beginUpdate` run before `rest.BeforeCreate`
/// validates anything, metadata and declarative rules included).
pub fn admit_allocating(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>, bool) {
    match old {
        None => {
            normalize_cluster_ips(obj, None);
            if let Err(errors) = allocate_create(obj) {
                return (errors, Vec::new(), true);
            }
            // PrepareForCreate: the status reset (dropServiceDisabledFields drops nothing).
            if let Some(m) = obj.as_object_mut() {
                m.insert(String::from("status"), json!({"loadBalancer": {}}));
            }
            let errors = service::validate_create(obj);
            let warnings = if errors.is_empty() { warnings(obj, None) } else { Vec::new() };
            (errors, warnings, false)
        }
        Some(old) => {
            let mut old = old.clone();
            default_on_read(&mut old);
            patch_allocated_values(obj, &old);
            normalize_cluster_ips(obj, Some(&old));
            if let Err(errors) = allocate_update(obj, &old) {
                return (errors, Vec::new(), true);
            }
            prepare_for_update(obj, &old);
            let errors = service::validate_update(obj, &old);
            let warnings = if errors.is_empty() { warnings(obj, Some(&old)) } else { Vec::new() };
            (errors, warnings, false)
        }
    }
}

/// storage.go `normalizeClusterIPs`.
fn normalize_cluster_ips(obj: &mut Json, old: Option<&Json>) {
    let s = spec(obj);
    let cluster_ip = String::from(json::str(s, "clusterIP"));
    let ips = strings(s, "clusterIPs");
    let Some(old) = old else {
        if !cluster_ip.is_empty() && ips.is_empty() {
            set_strings(obj, "clusterIPs", &[cluster_ip]);
        }
        return;
    };
    let os = spec(old);
    let old_ip = json::str(os, "clusterIP");
    let old_ips = strings(os, "clusterIPs");
    if !old_ips.is_empty() && ips.is_empty() && old_ip == cluster_ip {
        set_strings(obj, "clusterIPs", &old_ips);
    }
    let ips = strings(spec(obj), "clusterIPs");
    if old_ip != cluster_ip {
        if !old_ip.is_empty() && cluster_ip.is_empty() {
            if ips == old_ips {
                remove(obj, "clusterIPs");
            }
        } else if ips == old_ips {
            set_strings(obj, "clusterIPs", &[cluster_ip]);
        }
    }
}

/// storage.go `needsNodePort`.
fn storage_needs_node_port(s: &Json) -> bool {
    match json::str(s, "type") {
        "NodePort" => true,
        "LoadBalancer" => json::bool(s, "allocateLoadBalancerNodePorts").unwrap_or(true),
        _ => false,
    }
}

/// `needsHCNodePort` (storage.go and strategy.go alike).
fn needs_hc_node_port(s: &Json) -> bool {
    service::needs_health_check(s)
}

/// storage.go `patchAllocatedValues`.
fn patch_allocated_values(obj: &mut Json, old: &Json) {
    let os = spec(old);
    let needs_ip = |s: &Json| json::str(s, "type") != "ExternalName";
    if needs_ip(os) && needs_ip(spec(obj)) {
        if json::str(spec(obj), "clusterIP").is_empty() {
            set(obj, "clusterIP", json!(json::str(os, "clusterIP")));
            if json::str(os, "clusterIP").is_empty() {
                remove(obj, "clusterIP");
            }
        }
        let old_ips = strings(os, "clusterIPs");
        if json::list(spec(obj), "clusterIPs").is_empty() && !old_ips.is_empty() {
            set_strings(obj, "clusterIPs", &old_ips);
        }
    }
    if storage_needs_node_port(os) && storage_needs_node_port(spec(obj)) {
        let used_old: Vec<i64> = json::list(os, "ports").iter().map(node_port).filter(|n| *n != 0).collect();
        let used: Vec<i64> =
            json::list(spec(obj), "ports").iter().map(node_port).filter(|n| *n != 0 && used_old.contains(n)).collect();
        let mut by_name: Vec<(String, i64)> = Vec::new();
        for p in json::list(os, "ports") {
            let name = String::from(json::str(p, "name"));
            let np = node_port(p);
            match by_name.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = np,
                None => by_name.push((name, np)),
            }
        }
        let patches: Vec<(usize, i64)> = json::list(spec(obj), "ports")
            .iter()
            .enumerate()
            .filter(|(_, p)| node_port(p) == 0)
            .filter_map(|(i, p)| {
                let old_val = by_name.iter().find(|(n, _)| n == json::str(p, "name")).map_or(0, |(_, v)| *v);
                (!used.contains(&old_val)).then_some((i, old_val))
            })
            .collect();
        for (i, v) in patches {
            set_node_port(obj, i, v);
        }
    }
    if needs_hc_node_port(os)
        && needs_hc_node_port(spec(obj))
        && json::int(spec(obj), "healthCheckNodePort").unwrap_or(0) == 0
    {
        if let Some(hc) = json::int(os, "healthCheckNodePort") {
            set(obj, "healthCheckNodePort", json!(hc));
        }
    }
}

/// storage.go `defaultOnReadService` on the stored object of an update.
fn default_on_read(old: &mut Json) {
    normalize_cluster_ips(old, None);
    let s = spec(old);
    if json::str(s, "type") != "ExternalName" && json::list(s, "ipFamilies").is_empty() {
        if json::str(s, "clusterIP") == "None" {
            if json::object(s, "selector").is_none_or(Map::is_empty) {
                set(old, "ipFamilyPolicy", json!("RequireDualStack"));
                set(old, "ipFamilies", json!(["IPv4", "IPv6"]));
            } else {
                set(old, "ipFamilyPolicy", json!("SingleStack"));
                set(old, "ipFamilies", json!(["IPv4"]));
            }
        } else {
            let fams: Vec<String> = strings(s, "clusterIPs")
                .iter()
                .map(|ip| String::from(if netip::is_ipv6_string(ip) { "IPv6" } else { "IPv4" }))
                .collect();
            match fams.len() {
                1 => set(old, "ipFamilyPolicy", json!("SingleStack")),
                2 => set(old, "ipFamilyPolicy", json!("RequireDualStack")),
                _ => {}
            }
            set_strings(old, "ipFamilies", &fams);
        }
    }
    if json::str(spec(old), "type") == "ExternalName" {
        remove(old, "internalTrafficPolicy");
    }
}

/// alloc.go `familyOf`.
fn family_of(ip: &str) -> &'static str {
    if netip::is_ipv4_string(ip) {
        "IPv4"
    } else if netip::is_ipv6_string(ip) {
        "IPv6"
    } else {
        "unknown"
    }
}

/// alloc.go `isMatchingPreferDualStackClusterIPFields`.
fn matching_prefer_dual_stack(s: &Json, old: Option<&Json>) -> bool {
    let Some(os) = old else { return false };
    let Some(policy) = json::opt_str(s, "ipFamilyPolicy") else { return false };
    let ty = json::str(s, "type");
    json::str(os, "type") == ty
        && matches!(ty, "ClusterIP" | "NodePort" | "LoadBalancer")
        && policy == "PreferDualStack"
        && json::opt_str(os, "ipFamilyPolicy").is_none_or(|p| p == "PreferDualStack")
        && strings(os, "clusterIPs") == strings(s, "clusterIPs")
        && strings(os, "ipFamilies") == strings(s, "ipFamilies")
}

/// alloc.go `initIPFamilyFields` on a single-stack IPv4 cluster.
fn init_ip_family_fields(obj: &mut Json, old: Option<&Json>) -> Result<(), Vec<Error>> {
    let old_spec = old.map(spec);
    if json::str(spec(obj), "type") == "ExternalName" || matching_prefer_dual_stack(spec(obj), old_spec) {
        return Ok(());
    }
    if json::opt_str(spec(obj), "ipFamilyPolicy").is_none() {
        let s = spec(obj);
        let policy = match old_spec.and_then(|o| json::opt_str(o, "ipFamilyPolicy")) {
            Some(p) => String::from(p),
            None if json::str(s, "clusterIP") == "None" && json::object(s, "selector").is_none_or(Map::is_empty) => {
                String::from("RequireDualStack")
            }
            None => String::from("SingleStack"),
        };
        set(obj, "ipFamilyPolicy", json!(policy));
    }
    let pre = service::cluster_ips_related_fields(spec(obj), old_spec);
    if !pre.is_empty() {
        return Err(pre);
    }
    let root = Path::root();
    let sp = root.child("spec");
    let pp = sp.child("ipFamilyPolicy");
    let policy = String::from(json::opt_str(spec(obj), "ipFamilyPolicy").unwrap_or(""));
    let mut el = Vec::new();
    if let Some(os) = old_spec {
        let s = spec(obj);
        let (ips, fams) = (strings(s, "clusterIPs"), strings(s, "ipFamilies"));
        let (old_ips, old_fams) = (strings(os, "clusterIPs"), strings(os, "ipFamilies"));
        if policy == "SingleStack" {
            if old_ips == ips && ips.len() > 1 {
                set_strings(obj, "clusterIPs", &ips[..1]);
            }
            if old_fams == fams && fams.len() > 1 {
                set_strings(obj, "ipFamilies", &fams[..1]);
            }
        } else {
            if !ips.is_empty() && ips.len() < old_ips.len() {
                el.push(Error::invalid(
                    &pp,
                    policy.as_str(),
                    "must be 'SingleStack' to release the secondary cluster IP",
                ));
            }
            if !fams.is_empty() && fams.len() < old_fams.len() {
                el.push(Error::invalid(
                    &pp,
                    policy.as_str(),
                    "must be 'SingleStack' to release the secondary IP family",
                ));
            }
        }
    }
    let ips = strings(spec(obj), "clusterIPs");
    let mut fams = strings(spec(obj), "ipFamilies");
    if policy == "SingleStack" {
        if ips.len() == 2 {
            el.push(Error::invalid(
                &pp,
                policy.as_str(),
                "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
            ));
        }
        if fams.len() == 2 {
            el.push(Error::invalid(
                &pp,
                policy.as_str(),
                "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
            ));
        }
    }
    let cips = sp.child("clusterIPs");
    let ips_value = json::get(spec(obj), "clusterIPs").cloned().unwrap_or(Json::Null);
    for (i, ip) in ips.iter().enumerate() {
        if ip == "None" {
            break;
        }
        let fam = family_of(ip);
        if i >= fams.len() {
            if fam != "IPv4" {
                el.push(Error::invalid(
                    &cips.index(i),
                    ips_value.clone(),
                    format!("{fam} is not configured on this cluster"),
                ));
            } else {
                fams.push(String::from(fam));
            }
        }
    }
    if !el.is_empty() {
        return Err(el);
    }
    if fams != strings(spec(obj), "ipFamilies") {
        set_strings(obj, "ipFamilies", &fams);
    }
    let s = spec(obj);
    if json::str(s, "clusterIP") == "None" && json::object(s, "selector").is_none_or(Map::is_empty) {
        if fams.is_empty() {
            fams.push(String::from("IPv4"));
        }
        if fams.len() < 2 && policy != "SingleStack" {
            let other = if fams.first().map(String::as_str) == Some("IPv4") { "IPv6" } else { "IPv4" };
            fams.push(String::from(other));
        }
        set_strings(obj, "ipFamilies", &fams);
        return Ok(());
    }
    if policy == "RequireDualStack" {
        el.push(Error::invalid(&pp, policy.as_str(), "this cluster is not configured for dual-stack services"));
    }
    let fp = sp.child("ipFamilies");
    for (i, fam) in fams.iter().enumerate() {
        if fam != "IPv4" {
            el.push(Error::invalid(&fp.index(i), fam.as_str(), "not configured on this cluster"));
        }
    }
    if !el.is_empty() {
        return Err(el);
    }
    if fams.is_empty() {
        set_strings(obj, "ipFamilies", &[String::from("IPv4")]);
    }
    Ok(())
}

/// alloc.go `allocClusterIPs`, dry run.
fn alloc_cluster_ips(obj: &mut Json) {
    let s = spec(obj);
    if json::str(s, "type") == "ExternalName" {
        return;
    }
    let mut ips = strings(s, "clusterIPs");
    if ips.first().map(String::as_str) == Some("None") {
        return;
    }
    let fams = strings(s, "ipFamilies");
    for (i, _) in fams.iter().enumerate() {
        if i >= ips.len() {
            ips.push(String::new());
        }
    }
    for ip in ips.iter_mut().take(fams.len()) {
        if ip.is_empty() {
            *ip = String::from(DRY_RUN_CLUSTER_IP);
        }
    }
    if let Some(first) = ips.first() {
        if !fams.is_empty() {
            set(obj, "clusterIP", json!(first));
        }
    }
    set_strings(obj, "clusterIPs", &ips);
}

/// `portallocator.PortAllocationOperation` in dry-run mode (the cluster's own allocations
/// unknown: taken as none).
#[derive(Default)]
struct PortOp {
    allocated: Vec<i64>,
}

impl PortOp {
    /// `Allocate`: fails only on a port this operation already took.
    fn allocate(&mut self, port: i64) -> bool {
        if self.allocated.contains(&port) {
            return false;
        }
        self.allocated.push(port);
        true
    }

    /// `AllocateNext`: a dummy value past the highest port taken (32769 first).
    fn allocate_next(&mut self) -> i64 {
        let last = if self.allocated.is_empty() { 32768 } else { self.allocated.iter().copied().max().unwrap_or(0) };
        let next = last.saturating_add(1);
        for port in next..100 {
            if self.allocate(port) {
                return port;
            }
        }
        self.allocated.push(next);
        next
    }
}

const PORT_TAKEN: &str = "provided port is already allocated";

fn should_allocate_node_ports(s: &Json) -> bool {
    match json::str(s, "type") {
        "NodePort" => true,
        "LoadBalancer" => json::bool(s, "allocateLoadBalancerNodePorts").unwrap_or(true),
        _ => false,
    }
}

/// alloc.go `initNodePorts`.
fn init_node_ports(obj: &mut Json, op: &mut PortOp) -> Result<(), Vec<Error>> {
    let ports: Vec<Json> = json::list(spec(obj), "ports").to_vec();
    let should = should_allocate_node_ports(spec(obj));
    let mut by_port: Vec<(i64, i64)> = Vec::new();
    let root = Path::root();
    let pp = root.child("spec");
    let pp = pp.child("ports");
    for i in 0..ports.len() {
        let current: Vec<Json> = json::list(spec(obj), "ports").to_vec();
        let Some(sp) = current.get(i) else { break };
        let (port, np) = (json::int(sp, "port").unwrap_or(0), node_port(sp));
        if np == 0 && !should {
            continue;
        }
        let allocated = by_port.iter().find(|(p, _)| *p == port).map_or(0, |(_, n)| *n);
        if allocated == 0 {
            let requested = current
                .iter()
                .find(|p| json::int(p, "port").unwrap_or(0) == port && node_port(p) != 0)
                .map_or(0, node_port);
            if requested != 0 {
                if !op.allocate(requested) {
                    return Err(alloc::vec![Error::invalid(&pp.index(i).child("nodePort"), requested, PORT_TAKEN)]);
                }
                set_node_port(obj, i, requested);
                by_port.push((port, requested));
            } else {
                let next = op.allocate_next();
                set_node_port(obj, i, next);
                by_port.push((port, next));
            }
        } else if np != allocated {
            if np == 0 {
                set_node_port(obj, i, allocated);
            } else if !op.allocate(np) {
                return Err(alloc::vec![Error::invalid(&pp.index(i).child("nodePort"), np, PORT_TAKEN)]);
            }
        }
    }
    Ok(())
}

/// alloc.go `allocHealthCheckNodePort` (its failure is an internal error).
fn alloc_health_check_node_port(obj: &mut Json, op: &mut PortOp) -> Result<(), Vec<Error>> {
    let hc = json::int(spec(obj), "healthCheckNodePort").unwrap_or(0);
    if hc != 0 {
        if !op.allocate(hc) {
            return Err(alloc::vec![Error::new(
                ErrorType::Internal,
                &Path::root(),
                None,
                format!("failed to allocate requested HealthCheck NodePort {hc}: {PORT_TAKEN}"),
            )]);
        }
    } else {
        let next = op.allocate_next();
        set(obj, "healthCheckNodePort", json!(next));
    }
    Ok(())
}

/// alloc.go `allocateCreate`.
fn allocate_create(obj: &mut Json) -> Result<(), Vec<Error>> {
    init_ip_family_fields(obj, None)?;
    alloc_cluster_ips(obj);
    let mut op = PortOp::default();
    if matches!(json::str(spec(obj), "type"), "NodePort" | "LoadBalancer") {
        init_node_ports(obj, &mut op)?;
    }
    if service::needs_health_check(spec(obj)) {
        alloc_health_check_node_port(obj, &mut op)?;
    }
    Ok(())
}

/// alloc.go `allocateUpdate`: `initIPFamilyFields`, `updateClusterIPs` (a type change from
/// ExternalName allocates; an upgrade to dual-stack cannot pass `initIPFamilyFields` here),
/// `txnUpdateNodePorts`.
fn allocate_update(obj: &mut Json, old: &Json) -> Result<(), Vec<Error>> {
    init_ip_family_fields(obj, Some(old))?;
    let os = spec(old);
    if !matching_prefer_dual_stack(spec(obj), Some(os))
        && json::str(os, "type") == "ExternalName"
        && json::str(spec(obj), "type") != "ExternalName"
    {
        alloc_cluster_ips(obj);
    }
    let mut op = PortOp::default();
    if matches!(json::str(spec(obj), "type"), "NodePort" | "LoadBalancer") {
        update_node_ports(obj, old, &mut op)?;
    }
    if !service::needs_health_check(os) && service::needs_health_check(spec(obj)) {
        alloc_health_check_node_port(obj, &mut op)?;
    }
    Ok(())
}

/// alloc.go `updateNodePorts`.
fn update_node_ports(obj: &mut Json, old: &Json, op: &mut PortOp) -> Result<(), Vec<Error>> {
    let old_ports: Vec<i64> = json::list(spec(old), "ports").iter().map(node_port).filter(|n| *n != 0).collect();
    // The stored object's ports are the cluster's: a new one is never one of them.
    op.allocated.extend(old_ports.iter().copied());
    let should = should_allocate_node_ports(spec(obj));
    let mut new_ports: Vec<(String, i64)> = Vec::new();
    let mut taken: Vec<i64> = Vec::new();
    let root = Path::root();
    let pp = root.child("spec");
    let pp = pp.child("ports");
    let count = json::list(spec(obj), "ports").len();
    for i in 0..count {
        let Some(sp) = json::list(spec(obj), "ports").get(i).cloned() else { break };
        let np = node_port(&sp);
        if np == 0 && !should {
            continue;
        }
        let protocol = String::from(json::str(&sp, "protocol"));
        let mut key = (protocol, np);
        if np != 0 {
            if !old_ports.contains(&np) && !taken.contains(&np) {
                if !op.allocate(np) {
                    return Err(alloc::vec![Error::invalid(&pp.index(i).child("nodePort"), np, PORT_TAKEN)]);
                }
                taken.push(np);
            }
        } else {
            let next = op.allocate_next();
            set_node_port(obj, i, next);
            key.1 = next;
        }
        if new_ports.contains(&key) {
            return Err(alloc::vec![Error::new(
                ErrorType::Internal,
                &Path::root(),
                None,
                format!("duplicate nodePort: {{{} {}}}", key.0, key.1),
            )]);
        }
        new_ports.push(key);
    }
    Ok(())
}

/// strategy.go `PrepareForUpdate`: the old status, then `dropTypeDependentFields`.
fn prepare_for_update(obj: &mut Json, old: &Json) {
    let status = old.get("status").cloned().unwrap_or_else(|| json!({"loadBalancer": {}}));
    if let Some(m) = obj.as_object_mut() {
        m.insert(String::from("status"), status);
    }
    let os = spec(old);
    let needs_ip = |s: &Json| json::str(s, "type") != "ExternalName";
    let needs_np = |s: &Json| matches!(json::str(s, "type"), "NodePort" | "LoadBalancer");
    if needs_ip(os) && !needs_ip(spec(obj)) {
        let s = spec(obj);
        if json::str(os, "clusterIP") == json::str(s, "clusterIP")
            && strings(os, "clusterIPs") == strings(s, "clusterIPs")
        {
            remove(obj, "clusterIP");
            remove(obj, "clusterIPs");
        }
        if json::get(os, "ipFamilies") == json::get(spec(obj), "ipFamilies") {
            remove(obj, "ipFamilies");
        }
        if json::opt_str(os, "ipFamilyPolicy").unwrap_or("") == json::opt_str(spec(obj), "ipFamilyPolicy").unwrap_or("")
        {
            remove(obj, "ipFamilyPolicy");
        }
    }
    if needs_np(os) && !needs_np(spec(obj)) {
        let old_np: Vec<i64> = json::list(os, "ports").iter().map(node_port).filter(|n| *n != 0).collect();
        let superset =
            json::list(spec(obj), "ports").iter().map(node_port).filter(|n| *n != 0).all(|n| old_np.contains(&n));
        if superset {
            for i in 0..json::list(spec(obj), "ports").len() {
                set_node_port(obj, i, 0);
            }
        }
    }
    if needs_hc_node_port(os)
        && !needs_hc_node_port(spec(obj))
        && json::int(os, "healthCheckNodePort").unwrap_or(0) == json::int(spec(obj), "healthCheckNodePort").unwrap_or(0)
    {
        remove(obj, "healthCheckNodePort");
    }
    let lb = |s: &Json| json::str(s, "type") == "LoadBalancer";
    if lb(os) && !lb(spec(obj)) {
        let (a, b) =
            (json::bool(os, "allocateLoadBalancerNodePorts"), json::bool(spec(obj), "allocateLoadBalancerNodePorts"));
        if a.is_some() && a == b {
            remove(obj, "allocateLoadBalancerNodePorts");
        }
        if json::opt_str(os, "loadBalancerClass") == json::opt_str(spec(obj), "loadBalancerClass") {
            remove(obj, "loadBalancerClass");
        }
    }
    if externally_accessible(os)
        && !externally_accessible(spec(obj))
        && json::str(os, "externalTrafficPolicy") == json::str(spec(obj), "externalTrafficPolicy")
    {
        remove(obj, "externalTrafficPolicy");
    }
    if !lb(spec(obj)) {
        if let Some(st) = obj.get_mut("status").and_then(Json::as_object_mut) {
            st.insert(String::from("loadBalancer"), json!({}));
        }
    }
}

/// `GetWarningsForService`.
pub fn warnings(obj: &Json, _old: Option<&Json>) -> Vec<String> {
    let mut w = Vec::new();
    let annotations = json::object(json::field(obj, "metadata"), "annotations");
    if annotations.is_some_and(|a| a.contains_key(service::ANNOTATION_TOPOLOGY_HINTS)) {
        w.push(format!(
            "annotation {} is deprecated, please use {} instead",
            service::ANNOTATION_TOPOLOGY_HINTS,
            service::ANNOTATION_TOPOLOGY_MODE
        ));
    }
    let s = spec(obj);
    let cluster_ip = json::str(s, "clusterIP");
    if !cluster_ip.is_empty() && cluster_ip != "None" {
        for (i, ip) in strings(s, "clusterIPs").iter().enumerate() {
            w.extend(netip::warnings_for_ip(&format!("spec.clusterIPs[{i}]"), ip));
        }
    }
    let ty = json::str(s, "type");
    let headless = ty == "ClusterIP" && cluster_ip == "None";
    let external_ips = strings(s, "externalIPs");
    if headless {
        if !json::str(s, "loadBalancerIP").is_empty() {
            w.push(String::from("spec.loadBalancerIP is ignored for headless services"));
        }
        if !external_ips.is_empty() {
            w.push(String::from("spec.externalIPs is ignored for headless services"));
        }
        if json::str(s, "sessionAffinity") != "None" {
            w.push(String::from("spec.SessionAffinity is ignored for headless services"));
        }
    }
    for (i, ip) in external_ips.iter().enumerate() {
        w.extend(netip::warnings_for_ip(&format!("spec.externalIPs[{i}]"), ip));
    }
    if !external_ips.is_empty() && !headless && ty != "ExternalName" {
        w.push(String::from("spec.externalIPs is deprecated and may no longer be implemented in some clusters"));
    }
    let lb_ip = json::str(s, "loadBalancerIP");
    if !lb_ip.is_empty() {
        w.extend(netip::warnings_for_ip("spec.loadBalancerIP", lb_ip));
    }
    for (i, cidr) in strings(s, "loadBalancerSourceRanges").iter().enumerate() {
        w.extend(netip::warnings_for_cidr(&format!("spec.loadBalancerSourceRanges[{i}]"), cidr));
    }
    if ty == "ExternalName" && !external_ips.is_empty() {
        w.push(String::from("spec.externalIPs is ignored when spec.type is \"ExternalName\""));
    }
    if ty != "ExternalName" && !json::str(s, "externalName").is_empty() {
        w.push(String::from("spec.externalName is ignored when spec.type is not \"ExternalName\""));
    }
    if json::opt_str(s, "trafficDistribution") == Some("PreferClose") {
        w.push(String::from("spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\""));
    }
    dedupe(w)
}
