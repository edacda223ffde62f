//! Defaulting of the Pod family, after `pkg/apis/core/v1/zz_generated.defaults.go`
//! (`SetObjectDefaults_Pod`, `SetObjectDefaults_PodTemplate`,
//! `SetObjectDefaults_ReplicationController`, in their order) and `pkg/apis/core/v1/defaults.go`
//! (`SetDefaults_Pod`, `SetDefaults_PodSpec`, `SetDefaults_Volume`, `SetDefaults_Container`,
//! `SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, `SetDefaults_ObjectFieldSelector`,
//! `SetDefaults_SecretVolumeSource`, `SetDefaults_ConfigMapVolumeSource`,
//! `SetDefaults_DownwardAPIVolumeSource`, `SetDefaults_ProjectedVolumeSource`,
//! `SetDefaults_ServiceAccountTokenProjection`, `SetDefaults_HostPathVolumeSource`,
//! `SetDefaults_ResourceList`, `SetDefaults_ReplicationController`, `defaultHostNetworkPorts`).
//! Gates at 1.37: PodLevelResourcesFixDefaulting on (no pod-level request defaulting here),
//! H2CContainerProbe off, ImageVolume on. The ephemeral volume claim template's
//! `SetDefaults_PersistentVolumeClaimSpec` is [`super::pvc::default`]'s.

use alloc::string::String;

use serde_json::{json, Map, Value as Json};

use super::super::json::{default_to, get, list_mut, str, struct_mut};
use super::super::quantity;

fn set(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(m) = v {
        m.insert(String::from(key), value);
    }
}

fn absent(v: &Json, key: &str) -> bool {
    v.get(key).is_none_or(Json::is_null)
}

/// The tag `parsers.ParseImageName` finds: `latest` when neither a tag nor a digest is given,
/// empty when the reference does not parse (github.com/distribution/reference v0.6.0
/// `ParseNormalizedNamed`: Docker Hub's domain and `library/` added, a lowercase repository,
/// then the reference grammar — name components, domain and port, tag, a sha256/384/512
/// digest — and at most 255 characters of name).
fn image_tag(image: &str) -> String {
    match parse_image(image) {
        Some((Some(tag), _)) => tag,
        Some((None, true)) => String::new(),
        Some((None, false)) => String::from("latest"),
        None => String::new(),
    }
}

/// `ParseNormalizedNamed`: the tag and whether a digest is given, or `None` for an error.
fn parse_image(image: &str) -> Option<(Option<String>, bool)> {
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if hex(image, 64) {
        return None;
    }
    // splitDockerDomain.
    let (domain, remainder) = match image.find('/') {
        Some(i)
            if image[..i].contains(['.', ':'])
                || &image[..i] == "localhost"
                || image[..i].to_lowercase() != image[..i] =>
        {
            (&image[..i], &image[i + 1..])
        }
        _ => ("docker.io", image),
    };
    let official = domain == "docker.io" || domain == "index.docker.io";
    let remainder = match official && !remainder.contains('/') {
        true => alloc::format!("library/{remainder}"),
        false => String::from(remainder),
    };
    let remote = remainder.split(':').next().unwrap_or("");
    if remote.to_lowercase() != remote {
        return None;
    }
    // ReferenceRegexp over `domain/remainder`: a name (an optional domain, then components),
    // `:tag`, `@digest`.
    let (named, digest) = match remainder.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (remainder.as_str(), None),
    };
    let (name, tag) = match named.split_once(':') {
        Some((n, t)) => (n, Some(t)),
        None => (named, None),
    };
    let name_ok = name.split('/').all(name_component) && (domain_and_port(domain) || name_component(domain));
    if !name_ok || domain.len() + 1 + name.len() > 255 {
        return None;
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if let Some(t) = tag {
        let mut chars = t.chars();
        if t.len() > 128 || !chars.next().is_some_and(word) || !chars.all(|c| word(c) || c == '.' || c == '-') {
            return None;
        }
    }
    if let Some(d) = digest {
        // go-digest: a registered algorithm, its hex length, lowercase.
        let (alg, encoded) = d.split_once(':')?;
        let size = match alg {
            "sha256" => 64,
            "sha384" => 96,
            "sha512" => 128,
            _ => return None,
        };
        if !hex(encoded, size) {
            return None;
        }
    }
    Some((tag.map(String::from), digest.is_some()))
}

/// `nameComponent`: `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`.
fn name_component(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let mut i = 0;
    loop {
        let start = i;
        while i < b.len() && alnum(b[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
        if i == b.len() {
            return true;
        }
        match b[i] {
            b'.' => i += 1,
            b'_' if b.get(i + 1) == Some(&b'_') => i += 2,
            b'_' => i += 1,
            b'-' => {
                while b.get(i) == Some(&b'-') {
                    i += 1;
                }
            }
            _ => return false,
        }
    }
}

/// `domainAndPort`: dot-separated components of letters, digits and inner `-` (or a bracketed
/// IPv6 address), then an optional `:port`.
fn domain_and_port(s: &str) -> bool {
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = s.strip_prefix('[') {
        let Some((inner, after)) = rest.split_once(']') else { return false };
        let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(digits);
        return port_ok && !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_hexdigit() || b == b':');
    }
    let (host, port) = match s.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    port.is_none_or(digits)
        && host.split('.').all(|c| {
            let b = c.as_bytes();
            !b.is_empty()
                && b.iter().all(|x| x.is_ascii_alphanumeric() || *x == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// `SetDefaults_ResourceList`: each quantity rounded up to the milli.
pub(crate) fn default_resource_list(v: &mut Json) {
    let Json::Object(map) = v else { return };
    for (_, q) in map.iter_mut() {
        if let Some(parsed) = quantity::from_json(q) {
            if let Some(rounded) = parsed.rounded_up(-3) {
                *q = Json::from(rounded.canonical());
            }
        }
    }
}

fn default_http_get(h: &mut Json) {
    default_to(h, "path", json!("/"));
    default_to(h, "scheme", json!("HTTP"));
}

fn default_field_ref(f: &mut Json) {
    default_to(f, "apiVersion", json!("v1"));
}

/// `SetDefaults_Container` and the generated defaults of its members.
fn default_container(c: &mut Json) {
    if str(c, "imagePullPolicy").is_empty() {
        let policy = if image_tag(str(c, "image")) == "latest" { "Always" } else { "IfNotPresent" };
        set(c, "imagePullPolicy", json!(policy));
    }
    default_to(c, "terminationMessagePath", json!("/dev/termination-log"));
    default_to(c, "terminationMessagePolicy", json!("File"));
    for p in list_mut(c, "ports") {
        default_to(p, "protocol", json!("TCP"));
    }
    for e in list_mut(c, "env") {
        if let Some(from) = e.get_mut("valueFrom").filter(|f| f.is_object()) {
            if let Some(f) = from.get_mut("fieldRef").filter(|f| f.is_object()) {
                default_field_ref(f);
            }
            if let Some(f) = from.get_mut("fileKeyRef").filter(|f| f.is_object()) {
                if absent(f, "optional") {
                    set(f, "optional", json!(false));
                }
            }
        }
    }
    if let Some(r) = c.get_mut("resources").filter(|r| r.is_object()) {
        for key in ["limits", "requests"] {
            if let Some(l) = r.get_mut(key) {
                default_resource_list(l);
            }
        }
    }
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        let Some(p) = c.get_mut(key).filter(|p| p.is_object()) else { continue };
        // SetDefaults_Probe: zero values are defaulted.
        for (k, d) in [("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1), ("failureThreshold", 3)] {
            if p.get(k).and_then(Json::as_i64).unwrap_or(0) == 0 {
                set(p, k, json!(d));
            }
        }
        if let Some(h) = p.get_mut("httpGet").filter(|h| h.is_object()) {
            default_http_get(h);
        }
        if let Some(g) = p.get_mut("grpc").filter(|g| g.is_object()) {
            if absent(g, "service") {
                set(g, "service", json!(""));
            }
        }
    }
    if let Some(l) = c.get_mut("lifecycle").filter(|l| l.is_object()) {
        for key in ["postStart", "preStop"] {
            if let Some(h) = l.get_mut(key).and_then(|h| h.get_mut("httpGet")).filter(|h| h.is_object()) {
                default_http_get(h);
            }
        }
    }
}

/// `SetDefaults_Volume` and the generated defaults of the sources.
fn default_volume(v: &mut Json) {
    const SOURCES: &[&str] = &[
        "hostPath",
        "emptyDir",
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "gitRepo",
        "secret",
        "nfs",
        "iscsi",
        "glusterfs",
        "persistentVolumeClaim",
        "rbd",
        "flexVolume",
        "cinder",
        "cephfs",
        "flocker",
        "downwardAPI",
        "fc",
        "azureFile",
        "configMap",
        "vsphereVolume",
        "quobyte",
        "azureDisk",
        "photonPersistentDisk",
        "projected",
        "portworxVolume",
        "scaleIO",
        "storageos",
        "csi",
        "ephemeral",
        "image",
    ];
    if SOURCES.iter().all(|s| absent(v, s)) {
        set(v, "emptyDir", json!({}));
    }
    if let Some(img) = v.get_mut("image").filter(|i| i.is_object()) {
        if str(img, "pullPolicy").is_empty() {
            let policy = if image_tag(str(img, "reference")) == "latest" { "Always" } else { "IfNotPresent" };
            set(img, "pullPolicy", json!(policy));
        }
    }
    let Json::Object(m) = v else { return };
    let mut with = |key: &str, f: &dyn Fn(&mut Json)| {
        if let Some(s) = m.get_mut(key).filter(|s| s.is_object()) {
            f(s);
        }
    };
    with("hostPath", &|s| {
        if absent(s, "type") {
            set(s, "type", json!(""));
        }
    });
    with("secret", &|s| default_mode(s, 0o644));
    with("iscsi", &|s| default_to(s, "iscsiInterface", json!("default")));
    with("rbd", &|s| {
        default_to(s, "pool", json!("rbd"));
        default_to(s, "user", json!("admin"));
        default_to(s, "keyring", json!("/etc/ceph/keyring"));
    });
    with("downwardAPI", &|s| {
        default_mode(s, 0o644);
        for item in list_mut(s, "items") {
            if let Some(f) = item.get_mut("fieldRef").filter(|f| f.is_object()) {
                default_field_ref(f);
            }
        }
    });
    with("configMap", &|s| default_mode(s, 0o644));
    with("azureDisk", &|s| {
        for (k, d) in [
            ("cachingMode", json!("ReadWrite")),
            ("fsType", json!("ext4")),
            ("readOnly", json!(false)),
            ("kind", json!("Shared")),
        ] {
            if absent(s, k) {
                set(s, k, d);
            }
        }
    });
    with("projected", &|s| {
        default_mode(s, 0o644);
        for src in list_mut(s, "sources") {
            if let Some(d) = src.get_mut("downwardAPI").filter(|d| d.is_object()) {
                for item in list_mut(d, "items") {
                    if let Some(f) = item.get_mut("fieldRef").filter(|f| f.is_object()) {
                        default_field_ref(f);
                    }
                }
            }
            if let Some(t) = src.get_mut("serviceAccountToken").filter(|t| t.is_object()) {
                if absent(t, "expirationSeconds") {
                    set(t, "expirationSeconds", json!(3600));
                }
            }
        }
    });
    with("scaleIO", &|s| {
        default_to(s, "storageMode", json!("ThinProvisioned"));
        default_to(s, "fsType", json!("xfs"));
    });
    // SetDefaults_PersistentVolumeClaimSpec and the resource lists of the claim template
    // (the PVC's own defaulting, on a claim wrapped around the template's spec).
    with("ephemeral", &|s| {
        let Some(t) = s.get_mut("volumeClaimTemplate").filter(|t| t.is_object()) else { return };
        let spec = t.get("spec").filter(|x| x.is_object()).cloned().unwrap_or_else(|| json!({}));
        let mut claim = json!({ "spec": spec });
        super::pvc::default(&mut claim);
        if let Some(spec) = claim.get("spec").cloned() {
            set(t, "spec", spec);
        }
    });
}

fn default_mode(s: &mut Json, mode: i64) {
    if absent(s, "defaultMode") {
        set(s, "defaultMode", json!(mode));
    }
}

/// `SetDefaults_PodSpec`.
fn set_defaults_pod_spec(spec: &mut Json) {
    if str(spec, "serviceAccountName").is_empty() {
        let dsa = String::from(str(spec, "serviceAccount"));
        set(spec, "serviceAccountName", json!(dsa));
    }
    let sa = String::from(str(spec, "serviceAccountName"));
    if sa.is_empty() {
        if let Json::Object(m) = spec {
            m.remove("serviceAccount");
            m.remove("serviceAccountName");
        }
    } else {
        set(spec, "serviceAccount", json!(sa));
    }
    default_to(spec, "dnsPolicy", json!("ClusterFirst"));
    default_to(spec, "restartPolicy", json!("Always"));
    let _ = struct_mut(spec, "securityContext");
    if absent(spec, "terminationGracePeriodSeconds") {
        set(spec, "terminationGracePeriodSeconds", json!(30));
    }
    default_to(spec, "schedulerName", json!("default-scheduler"));
}

/// The generated defaults of a PodSpec after `SetDefaults_PodSpec`: volumes, init
/// containers, containers, ephemeral containers, overhead, pod-level resources.
fn default_spec_members(spec: &mut Json) {
    for v in list_mut(spec, "volumes") {
        default_volume(v);
    }
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for c in list_mut(spec, key) {
            default_container(c);
        }
    }
    if let Some(o) = spec.get_mut("overhead") {
        default_resource_list(o);
    }
    if let Some(r) = spec.get_mut("resources").filter(|r| r.is_object()) {
        for key in ["limits", "requests"] {
            if let Some(l) = r.get_mut(key) {
                default_resource_list(l);
            }
        }
    }
}

/// The defaults of a PodSpec embedded in a template (`SetDefaults_PodSpec` and the generated
/// member defaults; no `SetDefaults_Pod`).
pub fn default_pod_spec(spec: &mut Json) {
    if !spec.is_object() {
        return;
    }
    set_defaults_pod_spec(spec);
    default_spec_members(spec);
}

/// The defaults of a `PodTemplateSpec` (its `spec`, created when absent as Go's struct is).
pub fn default_pod_template_spec(template: &mut Json) {
    if let Some(spec) = struct_mut(template, "spec") {
        default_pod_spec(spec);
    }
}

/// `SetObjectDefaults_Pod` (status defaults aside).
pub fn default_pod(pod: &mut Json) {
    let Some(spec) = struct_mut(pod, "spec") else { return };
    // SetDefaults_Pod.
    if spec.get("terminationGracePeriodSeconds").and_then(Json::as_i64).is_some_and(|g| g < 0) {
        set(spec, "terminationGracePeriodSeconds", json!(1));
    }
    for key in ["containers", "initContainers"] {
        for c in list_mut(spec, key) {
            let Some(r) = c.get_mut("resources").filter(|r| r.is_object()) else { continue };
            let Some(limits) = r.get("limits").and_then(Json::as_object).cloned() else { continue };
            if !r.get("requests").is_some_and(Json::is_object) {
                set(r, "requests", Json::Object(Map::new()));
            }
            if let Some(Json::Object(req)) = r.get_mut("requests") {
                for (k, v) in limits {
                    req.entry(k).or_insert(v);
                }
            }
        }
    }
    if absent(spec, "enableServiceLinks") {
        set(spec, "enableServiceLinks", json!(true));
    }
    if spec.get("hostNetwork").and_then(Json::as_bool) == Some(true) {
        for key in ["containers", "initContainers"] {
            for c in list_mut(spec, key) {
                for p in list_mut(c, "ports") {
                    if p.get("hostPort").and_then(Json::as_i64).unwrap_or(0) == 0 {
                        let cp = p.get("containerPort").cloned().unwrap_or(json!(0));
                        set(p, "hostPort", cp);
                    }
                }
            }
        }
    }
    set_defaults_pod_spec(spec);
    default_spec_members(spec);
}

/// `SetObjectDefaults_PodTemplate`.
pub fn default_pod_template(object: &mut Json) {
    default_pod_template_spec_if_present(object, "template");
}

fn default_pod_template_spec_if_present(object: &mut Json, key: &str) {
    if let Some(t) = struct_mut(object, key) {
        default_pod_template_spec(t);
    }
}

/// `SetObjectDefaults_ReplicationController`.
pub fn default_replication_controller(object: &mut Json) {
    // SetDefaults_ReplicationController.
    let labels = object
        .get("spec")
        .and_then(|s| get(s, "template"))
        .and_then(|t| get(t, "metadata"))
        .and_then(|m| get(m, "labels"))
        .cloned();
    if let Some(labels) = labels {
        if let Some(spec) = struct_mut(object, "spec") {
            if spec.get("selector").and_then(Json::as_object).is_none_or(|s| s.is_empty()) {
                set(spec, "selector", labels.clone());
            }
        }
        if let Some(meta) = struct_mut(object, "metadata") {
            if meta.get("labels").and_then(Json::as_object).is_none_or(|l| l.is_empty()) {
                set(meta, "labels", labels);
            }
        }
    }
    let Some(spec) = struct_mut(object, "spec") else { return };
    if absent(spec, "replicas") {
        set(spec, "replicas", json!(1));
    }
    if let Some(t) = spec.get_mut("template").filter(|t| t.is_object()) {
        default_pod_template_spec(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pkg/util/parsers/parsers_test.go `TestParseImageName` (the tag, or none for an error),
    /// and references distribution/reference refuses (the imagePullPolicy of an unparsable
    /// image defaults to IfNotPresent: found by the differential fuzzer on `python.`, `-lead`).
    #[test]
    fn image_tags_as_parse_image_name() {
        let d = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        for (input, tag) in [
            ("root", "latest"),
            ("root:tag", "tag"),
            (&*alloc::format!("root@{d}"), ""),
            ("user/repo", "latest"),
            ("user/repo:tag", "tag"),
            ("url:5000/repo", "latest"),
            ("url:5000/repo:tag", "tag"),
            (&*alloc::format!("url:5000/repo:latest@{d}"), "latest"),
            ("ROOT", ""),
            ("http://root", ""),
            ("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ""),
            ("python.", ""),
            ("-lead", ""),
            ("a__b", "latest"),
            ("a___b", ""),
            ("a--b", "latest"),
            ("my_registry.io/x", "latest"),
            ("Registry.io/x", "latest"),
            ("[::1]:5000/x:v1", "v1"),
            ("localhost/x:.v1", ""),
            ("x@sha256:abc", ""),
            ("x@md5:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ""),
        ] {
            assert_eq!(image_tag(input), tag, "{input}");
        }
    }

    // TestSetDefaultPodSpec / TestSetDefaultContainer (pkg/apis/core/v1/defaults_test.go).
    #[test]
    fn defaults() {
        let mut pod = json!({"spec": {"containers": [
            {"name": "a", "image": "nginx", "ports": [{"containerPort": 80}],
             "resources": {"limits": {"cpu": "1"}},
             "livenessProbe": {"httpGet": {"port": 80}}},
            {"name": "b", "image": "nginx:1.25"}
        ], "volumes": [{"name": "v"}, {"name": "s", "secret": {"secretName": "x"}}]}});
        default_pod(&mut pod);
        let s = &pod["spec"];
        assert_eq!(s["containers"][0]["imagePullPolicy"], "Always");
        assert_eq!(s["containers"][1]["imagePullPolicy"], "IfNotPresent");
        assert_eq!(s["containers"][0]["ports"][0]["protocol"], "TCP");
        assert_eq!(s["containers"][0]["resources"]["requests"]["cpu"], "1");
        assert_eq!(s["containers"][0]["livenessProbe"]["periodSeconds"], 10);
        assert_eq!(s["containers"][0]["livenessProbe"]["httpGet"]["path"], "/");
        assert_eq!(s["containers"][0]["terminationMessagePolicy"], "File");
        assert_eq!(s["volumes"][0]["emptyDir"], json!({}));
        assert_eq!(s["volumes"][1]["secret"]["defaultMode"], 420);
        assert_eq!(s["restartPolicy"], "Always");
        assert_eq!(s["dnsPolicy"], "ClusterFirst");
        assert_eq!(s["terminationGracePeriodSeconds"], 30);
        let mut rc = json!({"spec": {"template": {"metadata": {"labels": {"a": "b"}}, "spec": {}}}});
        default_replication_controller(&mut rc);
        assert_eq!(rc["spec"]["selector"], json!({"a": "b"}));
        assert_eq!(rc["metadata"]["labels"], json!({"a": "b"}));
        assert_eq!(rc["spec"]["replicas"], 1);
    }
}
