//! Warnings of the Pod family, after `pkg/api/pod/warnings.go` (`GetWarningsForPod`,
//! `GetWarningsForPodTemplate`, `warningsForPodSpecAndMeta`,
//! `warningsForOverlappingVirtualPaths`, `checkVolumeMappingForOverlap`, `checkForOverlap`),
//! `pkg/api/node` `GetNodeLabelDeprecatedMessage`, and the name warnings of the pod and
//! replication controller strategies, the node affinity term warnings
//! (`GetWarningsForNodeSelectorTerm`) and the IP warnings of dnsConfig nameservers and
//! hostAliases (`GetWarningsForIP`). Not ported: the ephemeral claim template's PVC spec
//! warnings; `hostIP set without
//! hostPort`'s `%+v` text is approximated.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{field, get, int, list, object, str, string_map};
use super::super::quantity;
use super::pod_common::is_dns1123_label;
use crate::field::{go_quote, Path};

const DEPRECATED_NODE_LABELS: &[(&str, &str)] = &[
    ("beta.kubernetes.io/arch", "deprecated since v1.14; use \"kubernetes.io/arch\" instead"),
    ("beta.kubernetes.io/os", "deprecated since v1.14; use \"kubernetes.io/os\" instead"),
    (
        "failure-domain.beta.kubernetes.io/region",
        "deprecated since v1.17; use \"topology.kubernetes.io/region\" instead",
    ),
    ("failure-domain.beta.kubernetes.io/zone", "deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead"),
    ("beta.kubernetes.io/instance-type", "deprecated since v1.17; use \"node.kubernetes.io/instance-type\" instead"),
    ("app.kubernetes.io/created-by", "deprecated since v1.9"),
    ("scheduler.alpha.kubernetes.io/preferAvoidPods", "deprecated since v1.22; use Taints and Tolerations instead"),
    ("node-role.kubernetes.io/master", "use \"node-role.kubernetes.io/control-plane\" instead"),
];

pub(crate) fn node_label_deprecated(key: &str) -> Option<&'static str> {
    DEPRECATED_NODE_LABELS.iter().find(|(k, _)| *k == key).map(|(_, m)| *m)
}

/// A Go `%v` of a `[]string`: `[a b]`.
pub fn go_list(msgs: &[String]) -> String {
    format!("[{}]", msgs.join(" "))
}

/// pod strategy `WarningsOnCreate` (the name warning, then `GetWarningsForPod`); an update's
/// warnings are `GetWarningsForPod(new, old)`.
pub fn pod_warnings(pod: &Json, old: Option<&Json>) -> Vec<String> {
    let mut w = Vec::new();
    if old.is_none() {
        let name = str(field(pod, "metadata"), "name");
        let msgs = is_dns1123_label(name);
        if !msgs.is_empty() {
            w.push(format!(
                "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: {}",
                go_list(&msgs)
            ));
        }
    }
    w.extend(spec_and_meta(None, field(pod, "spec"), field(pod, "metadata")));
    w
}

/// `GetWarningsForPodTemplate` at `path` (`spec.template`, `template`).
pub fn pod_template_warnings(template: &Json, path: &Path<'_>) -> Vec<String> {
    spec_and_meta(Some(path), field(template, "spec"), field(template, "metadata"))
}

/// A warning path: `fieldPath.Child(...)` (a nil `fieldPath` for a pod: the path starts at
/// the child).
fn p(base: Option<&Path<'_>>, rest: &str) -> String {
    match base {
        Some(b) => format!("{b}.{rest}"),
        None => String::from(rest),
    }
}

/// `warningsForPodSpecAndMeta`.
fn spec_and_meta(base: Option<&Path<'_>>, spec: &Json, meta: &Json) -> Vec<String> {
    let mut w = Vec::new();
    for (k, _) in string_map(spec, "nodeSelector") {
        if let Some(msg) = node_label_deprecated(k) {
            w.push(format!("{}[{k}]: {msg}", p(base, "spec.nodeSelector")));
        }
    }
    if let Some(na) = get(field(spec, "affinity"), "nodeAffinity") {
        const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
        const PREFERRED: &str = "preferredDuringSchedulingIgnoredDuringExecution";
        if let Some(r) = get(na, REQUIRED) {
            for (i, term) in list(r, "nodeSelectorTerms").iter().enumerate() {
                let at = p(base, &format!("spec.affinity.nodeAffinity.{REQUIRED}.nodeSelectorTerms[{i}]"));
                w.extend(super::pod_affinity::node_selector_term_warnings(term, false, &at, node_label_deprecated));
            }
        }
        for (i, term) in list(na, PREFERRED).iter().enumerate() {
            let at = p(base, &format!("spec.affinity.nodeAffinity.{PREFERRED}[{i}].preference"));
            w.extend(super::pod_affinity::node_selector_term_warnings(
                field(term, "preference"),
                true,
                &at,
                node_label_deprecated,
            ));
        }
    }
    for (i, t) in list(spec, "topologySpreadConstraints").iter().enumerate() {
        let key = str(t, "topologyKey");
        let at = p(base, &format!("spec.topologySpreadConstraints[{i}]"));
        if let Some(msg) = node_label_deprecated(key) {
            w.push(format!("{at}.topologyKey: {key} is {msg}"));
        }
        if get(t, "labelSelector").is_none() {
            w.push(format!("{at}.labelSelector: a null labelSelector results in matching no pod"));
        }
    }
    let annotations = object(meta, "annotations");
    let has = |k: &str| annotations.is_some_and(|a| a.contains_key(k));
    for (key, msg) in [
        (
            "scheduler.alpha.kubernetes.io/critical-pod",
            "non-functional in v1.16+; use the \"priorityClassName\" field instead",
        ),
        ("security.alpha.kubernetes.io/sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead"),
        ("security.alpha.kubernetes.io/unsafe-sysctls", "non-functional in v1.11+; use the \"sysctls\" field instead"),
    ] {
        if has(key) {
            w.push(format!("{}[{key}]: {msg}", p(base, "metadata.annotations")));
        }
    }
    for (i, v) in list(spec, "volumes").iter().enumerate() {
        let at = p(base, &format!("spec.volumes[{i}]"));
        for (key, shown, msg) in [
            ("photonPersistentDisk", "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
            ("gitRepo", "gitRepo", "deprecated in v1.11, and disabled by default in v1.33+"),
            ("scaleIO", "scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
            ("flocker", "flocker", "deprecated in v1.22, non-functional in v1.25+"),
            ("storageos", "storageOS", "deprecated in v1.22, non-functional in v1.25+"),
            ("quobyte", "quobyte", "deprecated in v1.22, non-functional in v1.25+"),
            ("glusterfs", "glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
            ("cephfs", "cephfs", "deprecated in v1.28, non-functional in v1.31+"),
            ("rbd", "rbd", "deprecated in v1.28, non-functional in v1.31+"),
        ] {
            if get(v, key).is_some() {
                w.push(format!("{at}.{shown}: {msg}"));
            }
        }
    }
    w.extend(overlapping_paths(list(spec, "volumes")));
    let aliases = list(spec, "hostAliases");
    if aliases.len() > 1 {
        let mut seen: Vec<&str> = Vec::new();
        for (i, a) in aliases.iter().enumerate() {
            let ip = str(a, "ip");
            if seen.contains(&ip) {
                w.push(format!("{}: duplicate ip {}", p(base, &format!("spec.hostAliases[{i}].ip")), go_quote(ip)));
            } else {
                seen.push(ip);
            }
        }
    }
    let secrets = list(spec, "imagePullSecrets");
    if secrets.len() > 1 {
        let mut seen: Vec<&str> = Vec::new();
        for (i, s) in secrets.iter().enumerate() {
            let name = str(s, "name");
            if seen.contains(&name) {
                w.push(format!(
                    "{}: duplicate name {}",
                    p(base, &format!("spec.imagePullSecrets[{i}].name")),
                    go_quote(name)
                ));
            } else {
                seen.push(name);
            }
        }
    }
    for (i, s) in secrets.iter().enumerate() {
        let name = str(s, "name");
        if name.is_empty() {
            w.push(format!(
                "{}: invalid empty name {}",
                p(base, &format!("spec.imagePullSecrets[{i}].name")),
                go_quote(name)
            ));
        }
    }
    for res in ["memory", "ephemeral-storage"] {
        if let Some(q) = field(spec, "overhead").get(res).and_then(quantity::from_json) {
            if q.milli_value() % 1000 != 0 {
                w.push(format!(
                    "{}[{res}]: fractional byte value {} is invalid, must be an integer",
                    p(base, "spec.overhead"),
                    go_quote(&q.canonical())
                ));
            }
        }
    }
    let pod_seccomp = get(field(spec, "securityContext"), "seccompProfile").is_some();
    if !pod_seccomp && has("seccomp.security.alpha.kubernetes.io/pod") {
        w.push(format!(
            "{}[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the \"seccompProfile\" field instead",
            p(base, "metadata.annotations")
        ));
    }
    let containers = containers_with_path(spec);
    for (cp, c) in &containers {
        let cpath = p(base, cp);
        let name = str(c, "name");
        let key = format!("container.seccomp.security.alpha.kubernetes.io/{name}");
        if get(field(c, "securityContext"), "seccompProfile").is_none() && has(&key) {
            w.push(format!(
                "{}[{key}]: non-functional in v1.27+; use the \"seccompProfile\" field instead",
                p(base, "metadata.annotations")
            ));
        }
        // A pod's AppArmor annotations are warned about by the create strategy
        // (`applyAppArmorVersionSkew`); a template's here.
        if base.is_some() && super::pod_security::template_app_armor_warns(spec, meta, c) {
            w.push(format!(
                "{}[container.apparmor.security.beta.kubernetes.io/{name}]: deprecated since v1.30; use the \"appArmorProfile\" field instead",
                p(base, "metadata.annotations")
            ));
        }
        let r = field(c, "resources");
        for (kind, res) in [
            ("limits", "memory"),
            ("requests", "memory"),
            ("limits", "ephemeral-storage"),
            ("requests", "ephemeral-storage"),
        ] {
            if let Some(q) = field(r, kind).get(res).and_then(quantity::from_json) {
                if q.milli_value() % 1000 != 0 {
                    w.push(format!(
                        "{cpath}.resources.{kind}[{res}]: fractional byte value {} is invalid, must be an integer",
                        go_quote(&q.canonical())
                    ));
                }
            }
        }
        let env = list(c, "env");
        if env.len() > 1 {
            let mut seen: Vec<&str> = Vec::new();
            for (i, e) in env.iter().enumerate() {
                let n = str(e, "name");
                if seen.contains(&n) {
                    let reference = format!("$({n})");
                    let value = str(e, "value");
                    let bad = get(e, "valueFrom").is_some() || value == reference || !value.contains(&reference);
                    if bad {
                        w.push(format!(
                            "{cpath}.env[{i}]: hides previous definition of {}, which may be dropped when using apply",
                            go_quote(n)
                        ));
                    }
                } else {
                    seen.push(n);
                }
            }
        }
    }
    // Ports.
    let mut all: Vec<(String, String, &Json)> = Vec::new();
    for (cp, c) in &containers {
        let cpath = p(base, cp);
        for (i, port) in list(c, "ports").iter().enumerate() {
            let here = format!("{cpath}.ports[{i}]");
            let host_ip = str(port, "hostIP");
            let host_port = int(port, "hostPort").unwrap_or(0);
            if !host_ip.is_empty() && host_port == 0 {
                w.push(format!("{here}: hostIP set without hostPort: {}", port_plus_v(port)));
            }
            let k = format!("{}/{}", int(port, "containerPort").unwrap_or(0), str(port, "protocol"));
            for (ok, other_path, other) in all.iter().filter(|(ok, _, _)| *ok == k) {
                let _ = ok;
                let (oip, ohp) = (str(other, "hostIP"), int(other, "hostPort").unwrap_or(0));
                if host_ip == oip && host_port == ohp {
                    w.push(format!("{here}: duplicate port definition with {other_path}"));
                } else if host_port == 0 || ohp == 0 {
                    w.push(format!("{here}: overlapping port definition with {other_path}"));
                } else if host_port == ohp && (host_ip.is_empty() != oip.is_empty()) {
                    w.push(format!("{here}: dangerously ambiguous port definition with {other_path}"));
                }
            }
            all.push((k, here, port));
        }
    }
    let mut names: Vec<(&str, String)> = Vec::new();
    for (cp, c) in &containers {
        let cpath = p(base, cp);
        for (i, port) in list(c, "ports").iter().enumerate() {
            let name = str(port, "name");
            if name.is_empty() {
                continue;
            }
            let here = format!("{cpath}.ports[{i}]");
            match names.iter().find(|(n, _)| *n == name) {
                Some((_, other)) => w.push(format!(
                    "{here}: duplicate port name {} with {other}, services and probes that select ports by name will use {other}",
                    go_quote(name)
                )),
                None => names.push((name, here)),
            }
        }
    }
    if int(spec, "terminationGracePeriodSeconds").is_some_and(|g| g < 0) {
        w.push(format!(
            "{}: must be >= 0; negative values are invalid and will be treated as 1",
            p(base, "spec.terminationGracePeriodSeconds")
        ));
    }
    let affinity = field(spec, "affinity");
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(a) = get(affinity, kind) else { continue };
        for (i, t) in list(a, "requiredDuringSchedulingIgnoredDuringExecution").iter().enumerate() {
            if get(t, "labelSelector").is_none() {
                w.push(format!(
                    "{}: a null labelSelector results in matching no pod",
                    p(
                        base,
                        &format!(
                            "spec.affinity.{kind}.requiredDuringSchedulingIgnoredDuringExecution[{i}].labelSelector"
                        )
                    )
                ));
            }
        }
        for (i, t) in list(a, "preferredDuringSchedulingIgnoredDuringExecution").iter().enumerate() {
            if get(field(t, "podAffinityTerm"), "labelSelector").is_none() {
                w.push(format!(
                    "{}: a null labelSelector results in matching no pod",
                    p(
                        base,
                        &format!("spec.affinity.{kind}.preferredDuringSchedulingIgnoredDuringExecution[{i}].podAffinityTerm.labelSelector")
                    )
                ));
            }
        }
    }
    for (i, ns) in list(field(spec, "dnsConfig"), "nameservers").iter().enumerate() {
        let at = p(base, &format!("spec.dnsConfig.nameservers[{i}]"));
        w.extend(super::netip::warnings_for_ip(&at, ns.as_str().unwrap_or("")));
    }
    for (i, alias) in list(spec, "hostAliases").iter().enumerate() {
        let at = p(base, &format!("spec.hostAliases[{i}].ip"));
        w.extend(super::netip::warnings_for_ip(&at, str(alias, "ip")));
    }
    w
}

/// `%+v` of a `ContainerPort` (`{Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:1.2.3.4}`).
fn port_plus_v(port: &Json) -> String {
    format!(
        "{{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
        str(port, "name"),
        int(port, "hostPort").unwrap_or(0),
        int(port, "containerPort").unwrap_or(0),
        str(port, "protocol"),
        str(port, "hostIP")
    )
}

/// `pods.VisitContainersWithPath`: init, regular, then ephemeral containers, with their paths
/// under `spec`.
fn containers_with_path(spec: &Json) -> Vec<(String, &Json)> {
    let mut out = Vec::new();
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for (i, c) in list(spec, key).iter().enumerate() {
            out.push((format!("spec.{key}[{i}]"), c));
        }
    }
    out
}

/// `pathAndSource.String()`.
fn ps(path: &str, source: &str) -> String {
    if source.is_empty() {
        go_quote(path)
    } else {
        format!("{} ({source})", go_quote(path))
    }
}

/// `checkForOverlap`.
fn overlaps<'a>(haystack: &'a [(String, String)], needle: &(String, String)) -> Vec<&'a (String, String)> {
    if needle.0.is_empty() {
        return Vec::new();
    }
    haystack
        .iter()
        .filter(|item| {
            !item.0.is_empty()
                && (*item == needle
                    || format!("{}/", item.0).starts_with(&format!("{}/", needle.0))
                    || format!("{}/", needle.0).starts_with(&format!("{}/", item.0)))
        })
        .collect()
}

/// `checkVolumeMappingForOverlap`.
fn mapping_overlaps(paths: Vec<(String, String)>) -> Vec<String> {
    let mut out = Vec::new();
    let mut all: Vec<(String, String)> = Vec::new();
    for (path, source) in paths {
        let needle = (String::from(path.trim_end_matches('/')), source);
        for c in overlaps(&all, &needle) {
            out.push(format!("{} with {}", ps(&needle.0, &needle.1), ps(&c.0, &c.1)));
        }
        all.push(needle);
    }
    out
}

fn item_paths(items: &[Json], source: &str) -> Vec<(String, String)> {
    items.iter().map(|i| (String::from(str(i, "path")), String::from(source))).collect()
}

/// `warningsForOverlappingVirtualPaths`.
fn overlapping_paths(volumes: &[Json]) -> Vec<String> {
    let mut w = Vec::new();
    for v in volumes {
        let name = go_quote(str(v, "name"));
        let warn = |desc: &str, body: &str| format!("volume {name} ({desc}): overlapping paths: {body}");
        if let Some(cm) = get(v, "configMap").filter(|c| get(c, "items").is_some()) {
            let desc = format!("ConfigMap {}", go_quote(str(cm, "name")));
            for o in mapping_overlaps(item_paths(list(cm, "items"), "")) {
                w.push(warn(&desc, &o));
            }
        }
        if let Some(s) = get(v, "secret").filter(|c| get(c, "items").is_some()) {
            let desc = format!("Secret {}", go_quote(str(s, "secretName")));
            for o in mapping_overlaps(item_paths(list(s, "items"), "")) {
                w.push(warn(&desc, &o));
            }
        }
        if let Some(d) = get(v, "downwardAPI").filter(|c| get(c, "items").is_some()) {
            for o in mapping_overlaps(item_paths(list(d, "items"), "")) {
                w.push(warn("DownwardAPI", &o));
            }
        }
        if let Some(pr) = get(v, "projected") {
            let mut all: Vec<(String, String)> = Vec::new();
            for source in list(pr, "sources") {
                if source.as_object().is_none_or(|m| m.values().all(Json::is_null)) {
                    w.push(format!("volume {name} (Projected) has no sources provided"));
                    continue;
                }
                let paths: Vec<(String, String)> =
                    if let Some(c) = get(source, "configMap").filter(|c| get(c, "items").is_some()) {
                        item_paths(list(c, "items"), &format!("ConfigMap {}", go_quote(str(c, "name"))))
                    } else if let Some(s) = get(source, "secret").filter(|c| get(c, "items").is_some()) {
                        item_paths(list(s, "items"), &format!("Secret {}", go_quote(str(s, "name"))))
                    } else if let Some(d) = get(source, "downwardAPI").filter(|c| get(c, "items").is_some()) {
                        item_paths(list(d, "items"), "DownwardAPI")
                    } else if let Some(t) = get(source, "serviceAccountToken") {
                        alloc::vec![(String::from(str(t, "path")), String::from("ServiceAccountToken"))]
                    } else if let Some(b) = get(source, "clusterTrustBundle") {
                        let n = b.get("name").or_else(|| b.get("signerName")).and_then(Json::as_str).unwrap_or("");
                        alloc::vec![(String::from(str(b, "path")), format!("ClusterTrustBundle {}", go_quote(n)))]
                    } else {
                        Vec::new()
                    };
                for (path, source) in paths {
                    let needle = (String::from(path.trim_end_matches('/')), source);
                    for c in overlaps(&all, &needle) {
                        w.push(warn("Projected", &format!("{} with {}", ps(&needle.0, &needle.1), ps(&c.0, &c.1))));
                    }
                    all.push(needle);
                }
            }
        }
    }
    w
}

/// replicationcontroller strategy `WarningsOnCreate`'s name warning.
pub fn rc_name_warning(name: &str) -> Option<String> {
    let msgs = is_dns1123_label(name);
    (!msgs.is_empty()).then(|| {
        format!(
            "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: {}",
            go_list(&msgs)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // TestWarnings (pkg/api/pod/warnings_test.go): duplicate ports, negative grace period.
    #[test]
    fn warnings() {
        let pod = json!({"metadata": {"name": "p"}, "spec": {
            "terminationGracePeriodSeconds": -1,
            "containers": [{"name": "a", "ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 80, "protocol": "TCP"}]}]
        }});
        assert_eq!(
            pod_warnings(&pod, None),
            [
                "spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]",
                "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1",
            ]
        );
        let root = Path::root();
        let spec = root.child("spec");
        let t = spec.child("template");
        let tmpl = json!({"spec": {"nodeSelector": {"beta.kubernetes.io/os": "linux"}, "containers": []}});
        assert_eq!(
            pod_template_warnings(&tmpl, &t),
            ["spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use \"kubernetes.io/os\" instead"]
        );
    }
}
