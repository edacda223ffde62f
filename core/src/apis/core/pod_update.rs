//! Pod updates, after `pkg/apis/core/validation/validation.go` (`ValidatePodUpdate`,
//! `ValidatePodSpecificAnnotationUpdates`, `ValidateContainerUpdates`,
//! `validateOnlyAddedTolerations`, `validateOnlyDeletedSchedulingGates`,
//! `validateNodeSelectorMutation`, `validateNodeAffinityMutation`,
//! `validateNodeSelectorTermHasOnlyAdditions`), `pkg/api/pod/util.go`
//! (`GetValidationOptionsFromPodSpecAndMeta`, the options kubedv models) and the pod
//! strategy's `PrepareForUpdate` (`updatePodGeneration`).
//!
//! `apiequality.Semantic.DeepEqual` of two specs is the equality of their internal Go JSON
//! with empty slices and maps read as nil ([`super::pod_gojson::semantic`]: quantities
//! compare by their canonical text). The "pod updates may not change fields other than …"
//! error carries apimachinery `diff.Diff` of the old spec (read back from storage: empty
//! slices and maps are nil) and the munged new one ([`super::pod_diff`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{field, get, int, list, object, str, string_map};
use super::pod_affinity::{
    has_invalid_label_value_in_affinity_selector, has_invalid_label_value_in_required_node_affinity,
};
use super::pod_common::*;
use super::pod_gojson::{marshal, marshal_indent, semantic};
use super::pod_schema::T;
use super::pod_topology::{has_invalid_label_selector, has_invalid_match_label_keys};
use crate::field::{Error, Path};

/// `GetValidationOptionsFromPodSpecAndMeta` for the options kubedv reads (`old`: the old
/// object's spec and metadata on an update).
pub fn pod_opts(old: Option<(&Json, &Json)>) -> PodOpts {
    let mut opts = PodOpts::default();
    if let Some((spec, meta)) = old {
        opts.allow_invalid_label_value_in_selector = has_invalid_label_value_in_affinity_selector(spec);
        opts.allow_invalid_label_value_in_required_node_affinity =
            has_invalid_label_value_in_required_node_affinity(spec);
        opts.allow_invalid_topology_spread_constraint_label_selector = has_invalid_label_selector(spec);
        opts.old_pod_violates_match_label_keys_validation = has_invalid_match_label_keys(spec);
        let annotations = string_map(meta, "annotations");
        opts.allow_invalid_pod_deletion_cost = annotations
            .iter()
            .find(|(k, _)| *k == "controller.kubernetes.io/pod-deletion-cost")
            .is_some_and(|(_, v)| !deletion_cost_valid(v));
    }
    opts
}

/// `GetDeletionCostFromPodAnnotations` succeeds on the value (`validFirstDigit`, then
/// `strconv.ParseInt(value, 10, 32)`).
pub fn deletion_cost_valid(v: &str) -> bool {
    let first = v.as_bytes().first().copied();
    let first_ok = match first {
        Some(b'-') => true,
        Some(b'0') => v == "0",
        Some(c) => c.is_ascii_digit(),
        None => false,
    };
    if !first_ok {
        return false;
    }
    let digits = v.strip_prefix('-').unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) && v.parse::<i32>().is_ok()
}

/// `ValidatePodSpecificAnnotationUpdates` minus its final `ValidatePodSpecificAnnotations`
/// (the caller runs it).
pub fn validate_annotation_updates(new_meta: &Json, old_meta: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    const APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/";
    const MIRROR: &str = "kubernetes.io/config.mirror";
    let new = object(new_meta, "annotations");
    let old = object(old_meta, "annotations");
    for (k, old_val) in old.into_iter().flatten() {
        if new.and_then(|n| n.get(k)) == Some(old_val) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errors.push(forbidden(&path.key(k), "may not remove or update AppArmor annotations"));
        }
        if k == MIRROR {
            errors.push(forbidden(&path.key(k), "may not remove or update mirror pod annotation"));
        }
    }
    for (k, _) in new.into_iter().flatten() {
        if old.is_some_and(|o| o.contains_key(k)) {
            continue;
        }
        if k.starts_with(APPARMOR) {
            errors.push(forbidden(&path.key(k), "may not add AppArmor annotations"));
        }
        if k == MIRROR {
            errors.push(forbidden(&path.key(k), "may not add mirror pod annotation"));
        }
    }
}

/// `ValidateContainerUpdates`: whether validation stops.
fn container_updates(new: &[Json], old: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) -> bool {
    if new.len() != old.len() {
        errors.push(forbidden(path, "pod updates may not add or remove containers"));
        return true;
    }
    for (i, c) in new.iter().enumerate() {
        let image = str(c, "image");
        let ip = path.index(i);
        if image.is_empty() {
            errors.push(required(&ip.child("image"), ""));
        }
        if image.trim().len() != image.len() {
            errors.push(Error::invalid(&ip.child("image"), image, "must not have leading or trailing whitespace"));
        }
    }
    false
}

/// `validateOnlyAddedTolerations` (then `ValidateTolerations` of the new list).
fn only_added_tolerations(new: &[Json], old: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let same = |a: &Json, b: &Json| ["key", "operator", "value", "effect"].iter().all(|k| str(a, k) == str(b, k));
    for o in old {
        if !new.iter().any(|n| same(o, n)) {
            errors.push(forbidden(path, "existing toleration can not be modified except its tolerationSeconds"));
            return;
        }
    }
    super::pod_fields::validate_tolerations(new, path, errors);
}

/// `validateOnlyDeletedSchedulingGates` (Go walks a map: the new gates in order here).
fn only_deleted_scheduling_gates(new: &[Json], old: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut added: Vec<(&str, usize)> = Vec::new();
    for (i, g) in new.iter().enumerate() {
        let name = str(g, "name");
        match added.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = i,
            None => added.push((name, i)),
        }
    }
    added.retain(|(n, _)| !old.iter().any(|g| str(g, "name") == *n));
    added.sort_by_key(|(_, i)| *i);
    for (name, i) in added {
        let ip = path.index(i);
        let msg = format!("only deletion is allowed, but found new scheduling gate '{name}'");
        errors.push(forbidden(&ip.child("name"), &msg));
    }
}

/// `validateNodeSelectorMutation`.
fn node_selector_mutation(path: &Path<'_>, new: Option<&Json>, old: Option<&Json>, errors: &mut Vec<Error>) {
    let new_map = new.and_then(Json::as_object);
    for (k, v) in old.and_then(Json::as_object).into_iter().flatten() {
        if new_map.and_then(|n| n.get(k)) != Some(v) {
            let mut e = Error::invalid(
                path,
                new.cloned().unwrap_or(Json::Null),
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            );
            e.rendered_value = Some(super::super::json::go_string_map(new_map));
            errors.push(e);
            return;
        }
    }
}

/// `validateNodeSelectorTermHasOnlyAdditions`.
fn term_has_only_additions(new: &Json, old: &Json) -> bool {
    let req = T::L(&T::S("NodeSelectorRequirement"));
    let (oe, of) = (list(old, "matchExpressions"), list(old, "matchFields"));
    let (ne, nf) = (list(new, "matchExpressions"), list(new, "matchFields"));
    if oe.is_empty() && of.is_empty() && (!ne.is_empty() || !nf.is_empty()) {
        return false;
    }
    for (o, n) in [(oe, ne), (of, nf)] {
        if !o.is_empty() {
            let Some(prefix) = n.get(..o.len()) else { return false };
            let a = Json::Array(prefix.to_vec());
            let b = Json::Array(o.to_vec());
            if semantic(Some(&a), &req) != semantic(Some(&b), &req) {
                return false;
            }
        }
    }
    true
}

/// `validateNodeAffinityMutation`.
fn node_affinity_mutation(path: &Path<'_>, new: Option<&Json>, old: Option<&Json>, errors: &mut Vec<Error>) {
    const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
    let Some(old_required) = old.and_then(|o| get(o, REQUIRED)) else { return };
    let old_terms = list(old_required, "nodeSelectorTerms");
    let new_required = new.and_then(|n| get(n, REQUIRED));
    let new_terms = new_required.map_or(&[][..], |r| list(r, "nodeSelectorTerms"));
    let rp = path.child(REQUIRED);
    let tp = rp.child("nodeSelectorTerms");
    let terms_type = T::L(&T::S("NodeSelectorTerm"));
    if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
        let value = new_required.and_then(|r| r.get("nodeSelectorTerms")).filter(|t| !t.is_null());
        let mut e = Error::invalid(
            &tp,
            value.cloned().unwrap_or(Json::Null),
            "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
        );
        e.rendered_value = Some(marshal(value, &terms_type));
        errors.push(e);
        return;
    }
    for (i, (o, n)) in old_terms.iter().zip(new_terms).enumerate() {
        if !term_has_only_additions(n, o) {
            let mut e =
                Error::invalid(&tp.index(i), n.clone(), "only additions are allowed (no mutations or deletions)");
            e.rendered_value = Some(marshal(Some(n), &T::S("NodeSelectorTerm")));
            errors.push(e);
        }
    }
}

fn set(v: &mut Json, key: &str, value: Option<Json>) {
    if let Json::Object(m) = v {
        match value {
            Some(x) if !x.is_null() => {
                m.insert(String::from(key), x);
            }
            _ => {
                m.remove(key);
            }
        }
    }
}

/// An old (stored) value copied into the munged spec: an empty list or map is nil.
fn stored(v: Option<&Json>) -> Option<Json> {
    match v {
        Some(Json::Array(a)) if a.is_empty() => None,
        Some(Json::Object(m)) if m.is_empty() => None,
        other => other.cloned(),
    }
}

/// The munged containers of `ValidatePodUpdate` (each image set to the old one; nil when
/// there are none).
fn munge_images(munged: &mut Json, old_spec: &Json, key: &str) {
    let old_items = list(old_spec, key);
    let new: Vec<Json> = list(munged, key)
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut c = c.clone();
            let image = old_items.get(i).and_then(|o| o.get("image")).cloned();
            set(&mut c, "image", image);
            c
        })
        .collect();
    set(munged, key, if new.is_empty() { None } else { Some(Json::Array(new)) });
}

const UPDATABLE: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate` after `validatePodMetadataAndSpec` and
/// `ValidatePodSpecificAnnotationUpdates` (the caller runs them): the updatable fields, then
/// the spec equality with its diff.
pub fn validate_pod_spec_update(new: &Json, old: &Json, errors: &mut Vec<Error>) {
    let sp = Path::named("spec");
    let (ns, os) = (field(new, "spec"), field(old, "spec"));
    if container_updates(list(ns, "containers"), list(os, "containers"), &sp.child("containers"), errors) {
        return;
    }
    if container_updates(list(ns, "initContainers"), list(os, "initContainers"), &sp.child("initContainers"), errors) {
        return;
    }
    let ap = sp.child("activeDeadlineSeconds");
    match (int(ns, "activeDeadlineSeconds"), int(os, "activeDeadlineSeconds")) {
        (Some(n), old_value) => {
            if n < 0 || n > i64::from(i32::MAX) {
                errors.push(Error::invalid(&ap, n, inclusive_range(0, i64::from(i32::MAX))));
                return;
            }
            if old_value.is_some_and(|o| o < n) {
                errors.push(Error::invalid(&ap, n, "must be less than or equal to previous value"));
                return;
            }
        }
        (None, Some(_)) => {
            let mut e = Error::invalid(&ap, Json::Null, "must not update from a positive integer to nil value");
            e.rendered_value = Some(String::from("null"));
            errors.push(e);
        }
        (None, None) => {}
    }
    only_added_tolerations(list(ns, "tolerations"), list(os, "tolerations"), &sp.child("tolerations"), errors);
    only_deleted_scheduling_gates(
        list(ns, "schedulingGates"),
        list(os, "schedulingGates"),
        &sp.child("schedulingGates"),
        errors,
    );
    let spec_type = T::S("PodSpec");
    if semantic(Some(ns), &spec_type) == semantic(Some(os), &spec_type) {
        return;
    }
    let mut munged = ns.clone();
    munge_images(&mut munged, os, "containers");
    munge_images(&mut munged, os, "initContainers");
    set(&mut munged, "activeDeadlineSeconds", os.get("activeDeadlineSeconds").cloned());
    set(&mut munged, "schedulingGates", stored(os.get("schedulingGates")));
    set(&mut munged, "tolerations", stored(os.get("tolerations")));
    if int(os, "terminationGracePeriodSeconds").is_some_and(|g| g < 0)
        && int(&munged, "terminationGracePeriodSeconds") == Some(1)
    {
        set(&mut munged, "terminationGracePeriodSeconds", os.get("terminationGracePeriodSeconds").cloned());
    }
    if !list(os, "schedulingGates").is_empty() {
        munge_gated(&mut munged, os, &sp, errors);
    }
    if semantic(Some(&munged), &spec_type) != semantic(Some(os), &spec_type) {
        let diff = super::pod_diff::unified_diff(
            &marshal_indent(os, "PodSpec", true),
            &marshal_indent(&munged, "PodSpec", false),
        );
        let detail = format!("pod updates may not change fields other than {UPDATABLE}\n{diff}");
        errors.push(forbidden(&sp, &detail));
    }
}

/// The gated pod's part of `ValidatePodUpdate`: node selector additions and node affinity
/// additions allowed, then munged back.
fn munge_gated(munged: &mut Json, os: &Json, sp: &Path<'_>, errors: &mut Vec<Error>) {
    let map_type = T::M(&T::Str);
    let new_sel = get(munged, "nodeSelector").cloned();
    let old_sel = get(os, "nodeSelector");
    if semantic(new_sel.as_ref(), &map_type) != semantic(old_sel, &map_type) {
        node_selector_mutation(&sp.child("nodeSelector"), new_sel.as_ref(), old_sel, errors);
        set(munged, "nodeSelector", stored(old_sel));
    }
    let old_affinity = get(os, "affinity");
    let old_na = old_affinity.and_then(|a| get(a, "nodeAffinity")).cloned();
    let munged_affinity = get(munged, "affinity").cloned();
    let munged_na = munged_affinity.as_ref().and_then(|a| get(a, "nodeAffinity")).cloned();
    let na_type = T::P(&T::S("NodeAffinity"));
    if semantic(old_na.as_ref(), &na_type) == semantic(munged_na.as_ref(), &na_type) {
        return;
    }
    let ap = sp.child("affinity");
    node_affinity_mutation(&ap.child("nodeAffinity"), munged_na.as_ref(), old_na.as_ref(), errors);
    match (&munged_affinity, &old_na) {
        (None, None) => {}
        (None, Some(na)) => set(munged, "affinity", Some(serde_json::json!({ "nodeAffinity": na }))),
        (Some(a), _)
            if old_affinity.is_none() && get(a, "podAntiAffinity").is_none() && get(a, "podAffinity").is_none() =>
        {
            set(munged, "affinity", None);
        }
        (Some(a), _) => {
            let mut a = a.clone();
            set(&mut a, "nodeAffinity", old_na.clone());
            if let Json::Object(m) = munged {
                m.insert(String::from("affinity"), a);
            }
        }
    }
}

/// pod strategy `PrepareForUpdate`: the old status kept, pod-level resources kept when the
/// new object dropped them (PodLevelResourcesFixDefaulting), disabled fields dropped, and
/// `metadata.generation` bumped when the spec changed.
pub fn prepare_pod_for_update(pod: &mut Json, old: &Json) {
    let old_spec = field(old, "spec");
    if let Json::Object(map) = pod {
        map.insert(String::from("status"), old.get("status").cloned().unwrap_or(Json::Null));
        if let Some(Json::Object(spec)) = map.get_mut("spec") {
            if spec.get("resources").is_none_or(Json::is_null) {
                if let Some(r) = get(old_spec, "resources") {
                    spec.insert(String::from("resources"), r.clone());
                }
            }
        }
    }
    super::pod_drop::drop_disabled_pod_fields(pod, Some(old));
    let spec_type = T::S("PodSpec");
    if semantic(pod.get("spec"), &spec_type) != semantic(Some(old_spec), &spec_type) {
        if let Some(Json::Object(meta)) = pod.get_mut("metadata") {
            let generation = meta.get("generation").and_then(Json::as_i64).unwrap_or(0);
            meta.insert(String::from("generation"), Json::from(generation.saturating_add(1)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(spec: Json) -> Json {
        let mut p = json!({"metadata": {"name": "p"}, "spec": spec});
        for c in super::super::super::json::list_mut(&mut p["spec"], "containers") {
            c["imagePullPolicy"] = json!("IfNotPresent");
        }
        super::super::pod_defaults::default_pod(&mut p);
        p
    }

    fn texts(new: &Json, old: &Json) -> Vec<String> {
        let mut errors = Vec::new();
        validate_pod_spec_update(new, old, &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidatePodUpdate: image and activeDeadlineSeconds updates, container count,
    // tolerations and scheduling gates.
    #[test]
    fn updatable_fields() {
        let old = pod(json!({"containers": [{"name": "c", "image": "a"}]}));
        let new = pod(json!({"containers": [{"name": "c", "image": "b"}], "activeDeadlineSeconds": 10}));
        assert!(texts(&new, &old).is_empty());
        let new = pod(json!({"containers": [{"name": "c", "image": " b"}, {"name": "d", "image": "x"}]}));
        assert_eq!(texts(&new, &old), ["spec.containers: Forbidden: pod updates may not add or remove containers"]);
        let new = pod(json!({"containers": [{"name": "c", "image": " b"}]}));
        assert_eq!(
            texts(&new, &old),
            ["spec.containers[0].image: Invalid value: \" b\": must not have leading or trailing whitespace"]
        );
        let old_ads = pod(json!({"containers": [{"name": "c", "image": "a"}], "activeDeadlineSeconds": 10}));
        let new = pod(json!({"containers": [{"name": "c", "image": "a"}], "activeDeadlineSeconds": 11}));
        assert_eq!(
            texts(&new, &old_ads),
            ["spec.activeDeadlineSeconds: Invalid value: 11: must be less than or equal to previous value"]
        );
        let new = pod(json!({"containers": [{"name": "c", "image": "a"}]}));
        assert_eq!(
            texts(&new, &old_ads),
            ["spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value"]
        );
        let old_t = pod(
            json!({"containers": [{"name": "c", "image": "a"}], "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]}),
        );
        assert_eq!(
            texts(&new, &old_t),
            ["spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"]
        );
        let new_g = pod(json!({"containers": [{"name": "c", "image": "a"}], "schedulingGates": [{"name": "g"}]}));
        assert_eq!(
            texts(&new_g, &old),
            ["spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'g'"]
        );
    }

    // TestValidatePodUpdate: any other change is refused, with the spec diff.
    #[test]
    fn other_fields() {
        let old = pod(json!({"containers": [{"name": "c", "image": "a"}]}));
        let new = pod(json!({"containers": [{"name": "c", "image": "a", "workingDir": "/w"}]}));
        let t = texts(&new, &old);
        assert_eq!(t.len(), 1);
        let text = t.first().cloned().unwrap_or_default();
        assert!(text
            .starts_with("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"));
        assert!(text.contains("\n@@ "));
        assert!(text.contains("\n-   \"WorkingDir\": \"\",\n+   \"WorkingDir\": \"/w\",\n"));
    }

    // TestValidatePodUpdate: gated pods may add node selectors, not change them.
    #[test]
    fn gated() {
        let old = pod(
            json!({"containers": [{"name": "c", "image": "a"}], "schedulingGates": [{"name": "g"}], "nodeSelector": {"a": "1"}}),
        );
        let new = pod(
            json!({"containers": [{"name": "c", "image": "a"}], "schedulingGates": [{"name": "g"}], "nodeSelector": {"a": "1", "b": "2"}}),
        );
        assert!(texts(&new, &old).is_empty());
        let new = pod(
            json!({"containers": [{"name": "c", "image": "a"}], "schedulingGates": [{"name": "g"}], "nodeSelector": {"a": "2"}}),
        );
        assert_eq!(
            texts(&new, &old),
            ["spec.nodeSelector: Invalid value: {\"a\":\"2\"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)"]
        );
    }

    #[test]
    fn deletion_cost() {
        assert!(deletion_cost_valid("10"));
        assert!(deletion_cost_valid("-5"));
        assert!(!deletion_cost_valid("+10"));
        assert!(!deletion_cost_valid("008"));
        assert!(!deletion_cost_valid("99999999999"));
    }
}
