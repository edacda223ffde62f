//! Fields of feature gates off by default at 1.37, dropped before validation, after
//! `pkg/api/pod/util.go`: `DropDisabledTemplateFields`, `DropDisabledPodFields`,
//! `dropDisabledFields` and, for the gates off at 1.37, `dropDisabledAtomicWriteVolumeUserFields`
//! (AtomicWriteVolumeUserFields), `dropDisabledSchedulingGroup` (GenericWorkload),
//! `dropDisabledGRPCContainerProbeTLS` (GRPCContainerProbeTLS),
//! `dropDisabledEvictionResponders` (EvictionRequestAPI), the emptyDir `mode`
//! (EmptyDirVolumeMode), the mounts' `bindMountOptions` (VolumeBindMountOptions),
//! `dropContainerStopSignals` (ContainerStopSignals), `dropHTTPProbeProtocol`
//! (H2CContainerProbe), each kept when the old object already uses it (`…InUse`), and
//! `DropInitContainerAnnotations`. The gates on at 1.37 drop nothing.

use serde_json::Value as Json;

use super::super::json::{field, get, list};

const CONTAINER_KINDS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];
const PROBES: [&str; 3] = ["livenessProbe", "readinessProbe", "startupProbe"];

fn remove(v: &mut Json, key: &str) {
    if let Json::Object(m) = v {
        m.remove(key);
    }
}

fn containers(spec: &Json) -> impl Iterator<Item = &Json> {
    CONTAINER_KINDS.into_iter().flat_map(move |k| list(spec, k).iter())
}

fn for_each_container(spec: &mut Json, mut f: impl FnMut(&mut Json)) {
    for key in CONTAINER_KINDS {
        if let Some(Json::Array(items)) = spec.get_mut(key) {
            for c in items.iter_mut() {
                f(c);
            }
        }
    }
}

fn for_each_volume(spec: &mut Json, mut f: impl FnMut(&mut Json)) {
    if let Some(Json::Array(items)) = spec.get_mut("volumes") {
        for v in items.iter_mut() {
            f(v);
        }
    }
}

fn items_user(v: &Json, key: &str) -> bool {
    list(v, key).iter().any(|i| get(i, "user").is_some())
}

/// `atomicWriteVolumeUserFieldsInUse`.
fn atomic_write_user_in_use(spec: &Json) -> bool {
    list(spec, "volumes").iter().any(|v| {
        if let Some(s) = get(v, "secret").or_else(|| get(v, "configMap")).or_else(|| get(v, "downwardAPI")) {
            return get(s, "defaultUser").is_some() || items_user(s, "items");
        }
        if let Some(p) = get(v, "projected") {
            return get(p, "defaultUser").is_some()
                || list(p, "sources").iter().any(|s| {
                    for key in ["secret", "downwardAPI", "configMap"] {
                        if let Some(x) = get(s, key) {
                            return items_user(x, "items");
                        }
                    }
                    for key in ["serviceAccountToken", "clusterTrustBundle", "podCertificate"] {
                        if let Some(x) = get(s, key) {
                            return get(x, "user").is_some();
                        }
                    }
                    false
                });
        }
        false
    })
}

fn drop_items_user(v: &mut Json) {
    if let Some(Json::Array(items)) = v.get_mut("items") {
        for i in items.iter_mut() {
            remove(i, "user");
        }
    }
}

/// `dropDisabledAtomicWriteVolumeUserFields` (the first source of each volume, as Go's switch).
fn drop_atomic_write_user(spec: &mut Json) {
    for_each_volume(spec, |v| {
        for key in ["secret", "configMap", "downwardAPI"] {
            if let Some(s) = v.get_mut(key).filter(|s| !s.is_null()) {
                remove(s, "defaultUser");
                drop_items_user(s);
                return;
            }
        }
        let Some(p) = v.get_mut("projected").filter(|p| !p.is_null()) else { return };
        remove(p, "defaultUser");
        if let Some(Json::Array(sources)) = p.get_mut("sources") {
            for s in sources.iter_mut() {
                for key in ["secret", "downwardAPI", "configMap"] {
                    if let Some(x) = s.get_mut(key).filter(|x| !x.is_null()) {
                        drop_items_user(x);
                        break;
                    }
                }
                if ["secret", "downwardAPI", "configMap"].iter().any(|k| get(s, k).is_some()) {
                    continue;
                }
                for key in ["serviceAccountToken", "clusterTrustBundle", "podCertificate"] {
                    if let Some(x) = s.get_mut(key).filter(|x| !x.is_null()) {
                        remove(x, "user");
                        break;
                    }
                }
            }
        }
    });
}

fn probe_has(c: &Json, f: impl Fn(&Json) -> bool) -> bool {
    PROBES.iter().any(|p| get(c, p).is_some_and(&f))
}

/// `dropDisabledFields` for the gates off at 1.37; `old` is the old object's spec.
fn drop_disabled_spec(spec: &mut Json, old: Option<&Json>) {
    let old = old.filter(|o| !o.is_null());
    let uses = |f: &dyn Fn(&Json) -> bool| old.is_some_and(f);
    if !uses(&atomic_write_user_in_use) {
        drop_atomic_write_user(spec);
    }
    if !uses(&|o| get(o, "schedulingGroup").is_some()) {
        remove(spec, "schedulingGroup");
    }
    let grpc_mode = |c: &Json| probe_has(c, |p| get(field(p, "grpc"), "mode").is_some());
    if !uses(&|o| containers(o).any(grpc_mode)) {
        for_each_container(spec, |c| {
            for p in PROBES {
                if let Some(g) = c.get_mut(p).and_then(|p| p.get_mut("grpc")) {
                    remove(g, "mode");
                }
            }
        });
    }
    if !uses(&|o| !list(o, "evictionResponders").is_empty()) {
        remove(spec, "evictionResponders");
    }
    if !uses(&|o| list(o, "volumes").iter().any(|v| get(field(v, "emptyDir"), "mode").is_some())) {
        for_each_volume(spec, |v| {
            if let Some(e) = v.get_mut("emptyDir") {
                remove(e, "mode");
            }
        });
    }
    if !uses(&|o| {
        containers(o).any(|c| list(c, "volumeMounts").iter().any(|m| !list(m, "bindMountOptions").is_empty()))
    }) {
        for_each_container(spec, |c| {
            if let Some(Json::Array(mounts)) = c.get_mut("volumeMounts") {
                for m in mounts.iter_mut() {
                    remove(m, "bindMountOptions");
                }
            }
        });
    }
    if !uses(&|o| containers(o).any(|c| get(field(c, "lifecycle"), "stopSignal").is_some())) {
        for_each_container(spec, |c| {
            let Some(l) = c.get_mut("lifecycle").filter(|l| !l.is_null()) else { return };
            if get(l, "stopSignal").is_some() {
                remove(l, "stopSignal");
                if get(l, "postStart").is_none() && get(l, "preStop").is_none() {
                    remove(c, "lifecycle");
                }
            }
        });
    }
    let http_protocol = |c: &Json| {
        probe_has(c, |p| get(field(p, "httpGet"), "protocol").is_some())
            || ["postStart", "preStop"]
                .iter()
                .any(|h| get(field(field(field(c, "lifecycle"), h), "httpGet"), "protocol").is_some())
    };
    if !uses(&|o| containers(o).any(http_protocol)) {
        for_each_container(spec, |c| {
            for p in PROBES {
                if let Some(h) = c.get_mut(p).and_then(|p| p.get_mut("httpGet")) {
                    remove(h, "protocol");
                }
            }
            if let Some(l) = c.get_mut("lifecycle") {
                for h in ["postStart", "preStop"] {
                    if let Some(g) = l.get_mut(h).and_then(|h| h.get_mut("httpGet")) {
                        remove(g, "protocol");
                    }
                }
            }
        });
    }
}

/// `DropInitContainerAnnotations`.
fn drop_init_container_annotations(meta: &mut Json) {
    if let Some(a) = meta.get_mut("annotations") {
        for key in [
            "pod.beta.kubernetes.io/init-containers",
            "pod.alpha.kubernetes.io/init-containers",
            "pod.beta.kubernetes.io/init-container-statuses",
            "pod.alpha.kubernetes.io/init-container-statuses",
        ] {
            remove(a, key);
        }
    }
}

/// `pod.DropDisabledTemplateFields` of a `PodTemplateSpec` (`{metadata, spec}`), `old` the
/// old object's template on an update. Every strategy with a pod template calls it in
/// `PrepareForCreate` / `PrepareForUpdate`.
pub fn drop_disabled_template_fields(template: &mut Json, old: Option<&Json>) {
    let old_spec = old.and_then(|o| o.get("spec"));
    if let Some(spec) = template.get_mut("spec").filter(|s| s.is_object()) {
        drop_disabled_spec(spec, old_spec);
    }
    if let Some(meta) = template.get_mut("metadata") {
        drop_init_container_annotations(meta);
    }
}

/// `podutil.DropDisabledPodFields` (the spec and metadata parts; a Pod is `{metadata, spec}`
/// as a template is).
pub fn drop_disabled_pod_fields(pod: &mut Json, old: Option<&Json>) {
    drop_disabled_template_fields(pod, old);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // TestDropDisabledFields-style cases for the gates off at 1.37.
    #[test]
    fn drops() {
        let mut t = json!({
            "metadata": {"annotations": {"pod.beta.kubernetes.io/init-containers": "[]", "a": "b"}},
            "spec": {
                "schedulingGroup": {"podGroupName": "g"},
                "volumes": [{"name": "v", "emptyDir": {"mode": 448}}, {"name": "s", "secret": {"secretName": "s", "defaultUser": 1}}],
                "containers": [{"name": "c", "lifecycle": {"stopSignal": "SIGTERM"},
                    "livenessProbe": {"httpGet": {"port": 80, "protocol": "h2c"}},
                    "volumeMounts": [{"name": "v", "mountPath": "/v", "bindMountOptions": ["x"]}]}]
            }
        });
        drop_disabled_template_fields(&mut t, None);
        assert_eq!(
            t,
            json!({
                "metadata": {"annotations": {"a": "b"}},
                "spec": {
                    "volumes": [{"name": "v", "emptyDir": {}}, {"name": "s", "secret": {"secretName": "s"}}],
                    "containers": [{"name": "c", "livenessProbe": {"httpGet": {"port": 80}},
                        "volumeMounts": [{"name": "v", "mountPath": "/v"}]}]
                }
            })
        );
        // Kept when the old object uses it.
        let old = json!({"spec": {"schedulingGroup": {}}});
        let mut t = json!({"spec": {"schedulingGroup": {"podGroupName": "g"}}});
        drop_disabled_template_fields(&mut t, Some(&old));
        assert_eq!(t["spec"]["schedulingGroup"], json!({"podGroupName": "g"}));
    }
}
