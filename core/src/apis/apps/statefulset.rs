//! StatefulSet, after Kubernetes' `pkg/apis/apps/validation/validation.go`
//! (`ValidateStatefulSetSpec`, `validateRollingUpdateStatefulSet`,
//! `ValidatePersistentVolumeClaimRetentionPolicy`, `ValidatePodTemplateSpecForStatefulSet`,
//! `volumesToAddForTemplates`, `ValidateStatefulSetUpdate`) and
//! `pkg/registry/apps/statefulset/strategy.go` (its warnings, with
//! `pkg/api/persistentvolumeclaim/util.go` `GetWarningsForPersistentVolumeClaimSpec`).
//! `validateVolumeClaimTemplates` runs core's `ValidatePersistentVolumeClaimSpec`
//! ([`crate::apis::core::pvc::validate_spec`]). Not ported: the second
//! `ValidatePodSpecificAnnotations` of `ValidatePodTemplateSpecForStatefulSet` (core's is private).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::common::{
    immutable, invalid_int_or_string, invalid_rendered, nonnegative, render_opt_int_or_string, required,
    validate_annotations, validate_labels, IntOrString,
};
use super::deployment::{
    immutable_selector, int_or_percent_value, labels_mismatch, not_more_than_100_percent, positive_int_or_percent,
    restart_always_and_no_deadline,
};
use super::selector::{self, Selector};
use crate::apis::json::{field, get, int, list, object, str};
use crate::apis::Context;
use crate::content;
use crate::field::{go_json, Error, Path};

/// `StatefulSetValidationOptions`.
#[derive(Clone, Copy, Default)]
struct Options {
    allow_invalid_service_name: bool,
    skip_validate_pod_template_spec: bool,
    skip_validate_volume_claim_templates: bool,
    allow_recreate_strategy: bool,
}

/// `ValidateStatefulSet` (its metadata aside) on create, `ValidateStatefulSetUpdate` on update,
/// with the strategy's options (`StatefulSetRecreateStrategy` is off in 1.37).
pub(crate) fn validate(object: &Json, old: Option<&Json>, ctx: &Context, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec_path = root.child("spec");
    let spec = field(object, "spec");
    let Some(old) = old else {
        spec_errors(spec, &spec_path, ctx, Options::default(), errors);
        return;
    };
    let old_spec = field(old, "spec");
    let mut opts = Options {
        allow_invalid_service_name: true,
        skip_validate_volume_claim_templates: true,
        allow_recreate_strategy: str(field(old_spec, "updateStrategy"), "type") == "Recreate",
        ..Options::default()
    };
    // Existing StatefulSets whose spec no longer validates keep their pod template unchecked.
    let mut scratch = Vec::new();
    spec_errors(old_spec, &Path::root(), ctx, opts, &mut scratch);
    if !scratch.is_empty() {
        opts.skip_validate_pod_template_spec = true;
    }
    spec_errors(spec, &spec_path, ctx, opts, errors);
    let immutable_origin = |errors: &mut Vec<Error>, from: usize| {
        for e in errors.iter_mut().skip(from) {
            e.origin = String::from("immutable");
        }
    };
    let from = errors.len();
    immutable_selector(get(spec, "selector"), get(old_spec, "selector"), &spec_path.child("selector"), errors);
    let (new_claims, old_claims) = (field(spec, "volumeClaimTemplates"), field(old_spec, "volumeClaimTemplates"));
    use crate::apis::core::pod_schema::T;
    let rendered = crate::apis::core::pod_gojson::marshal(Some(new_claims), &T::L(&T::S("PersistentVolumeClaim")));
    immutable(new_claims, old_claims, &spec_path.child("volumeClaimTemplates"), rendered, errors);
    for key in ["serviceName", "podManagementPolicy"] {
        let (n, o) = (field(spec, key), field(old_spec, key));
        let rendered = go_json(&Json::from(n.as_str().unwrap_or("")));
        immutable(n, o, &spec_path.child(key), rendered, errors);
    }
    immutable_origin(errors, from);
}

/// `json.Marshal` of an internal `*apps.RollingUpdateStatefulSetStrategy`.
fn render_rolling(rolling: Option<&Json>) -> String {
    rolling.map_or_else(
        || String::from("null"),
        |r| {
            let partition = int(r, "partition").unwrap_or(0);
            format!(
                "{{\"Partition\":{partition},\"MaxUnavailable\":{}}}",
                render_opt_int_or_string(get(r, "maxUnavailable"))
            )
        },
    )
}

/// `ValidateStatefulSetSpec`.
fn spec_errors(spec: &Json, path: &Path<'_>, ctx: &Context, opts: Options, errors: &mut Vec<Error>) {
    let policy_path = path.child("podManagementPolicy");
    match str(spec, "podManagementPolicy") {
        "" => errors.push(required(&policy_path, "")),
        "OrderedReady" | "Parallel" => {}
        other => errors.push(Error::invalid(&policy_path, other, "must be 'OrderedReady' or 'Parallel'")),
    }
    update_strategy(field(spec, "updateStrategy"), &path.child("updateStrategy"), opts, errors);
    if let Some(policy) = get(spec, "persistentVolumeClaimRetentionPolicy") {
        // ValidatePersistentVolumeClaimRetentionPolicy.
        let at = path.child("persistentVolumeClaimRetentionPolicy");
        for key in ["whenDeleted", "whenScaled"] {
            let v = str(policy, key);
            if v != "Retain" && v != "Delete" {
                errors.push(Error::not_supported(&at.child(key), v, &["Retain", "Delete"]));
            }
        }
    }
    if !opts.skip_validate_volume_claim_templates {
        // validateVolumeClaimTemplates: each claim's spec with the options of a claim's create.
        let claims_path = path.child("volumeClaimTemplates");
        for (i, claim) in list(spec, "volumeClaimTemplates").iter().enumerate() {
            let at = claims_path.index(i);
            crate::apis::core::pvc::validate_spec(field(claim, "spec"), false, false, &at.child("spec"), errors);
        }
    }
    nonnegative(int(spec, "replicas").unwrap_or(0), &path.child("replicas"), errors);
    nonnegative(int(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds"), errors);
    if let Some(ordinals) = get(spec, "ordinals") {
        nonnegative(int(ordinals, "start").unwrap_or(0), &path.child("ordinals.start"), errors);
    }
    let service = str(spec, "serviceName");
    if !opts.allow_invalid_service_name && !service.is_empty() {
        for msg in content::is_dns1123_label(service) {
            errors.push(Error::invalid(&path.child("serviceName"), service, msg).with_origin("format=k8s-short-name"));
        }
    }
    let sel_path = path.child("selector");
    let sel = get(spec, "selector");
    match sel {
        None => errors.push(required(&sel_path, "")),
        Some(s) => {
            selector::validate(Some(s), false, &sel_path, errors);
            if object(s, "matchLabels").map_or(0, Map::len) + list(s, "matchExpressions").len() == 0 {
                errors.push(selector::invalid(&sel_path, sel, "empty selector is invalid for statefulset"));
            }
        }
    }
    let template = field(spec, "template");
    match selector::as_selector(sel) {
        Err(()) => errors.push(selector::invalid(&sel_path, sel, "")),
        Ok(selector) => {
            let to_validate = template_to_validate(spec, template);
            let template_path = path.child("template");
            template_for_stateful_set(
                to_validate.as_ref().unwrap_or(template),
                &selector,
                &template_path,
                ctx,
                opts,
                errors,
            );
        }
    }
    restart_always_and_no_deadline(template, "StatefulSet", &path.child("template"), errors);
}

/// The template `ValidateStatefulSetSpec` validates: without `subdomain` and `hostname` (the
/// controller sets them), with a volume per claim template (`volumesToAddForTemplates`) in place
/// of a same-named one. `None` when nothing changes.
fn template_to_validate(spec: &Json, template: &Json) -> Option<Json> {
    let pod_spec = field(template, "spec");
    let claims = list(spec, "volumeClaimTemplates");
    if str(pod_spec, "subdomain").is_empty() && str(pod_spec, "hostname").is_empty() && claims.is_empty() {
        return None;
    }
    let mut copy = if template.is_object() { template.clone() } else { json!({}) };
    let obj = copy.as_object_mut()?;
    let spec_slot = obj.entry("spec").or_insert_with(|| json!({}));
    if !spec_slot.is_object() {
        *spec_slot = json!({});
    }
    let pod = spec_slot.as_object_mut()?;
    pod.remove("subdomain");
    pod.remove("hostname");
    if !claims.is_empty() {
        let mut names: Vec<&str> = Vec::new();
        let mut volumes = Vec::new();
        for claim in claims {
            let name = str(field(claim, "metadata"), "name");
            if !names.contains(&name) {
                names.push(name);
                volumes.push(json!({"name": name, "persistentVolumeClaim": {"claimName": name}}));
            }
        }
        let existing = pod.get("volumes").and_then(Json::as_array).cloned().unwrap_or_default();
        volumes.extend(existing.into_iter().filter(|v| !names.contains(&str(v, "name"))));
        pod.insert(String::from("volumes"), Json::Array(volumes));
    }
    Some(copy)
}

/// `ValidatePodTemplateSpecForStatefulSet`.
fn template_for_stateful_set(
    template: &Json,
    selector: &Selector<'_>,
    path: &Path<'_>,
    ctx: &Context,
    opts: Options,
    errors: &mut Vec<Error>,
) {
    let meta = field(template, "metadata");
    if !selector.is_empty() && !selector.matches(object(meta, "labels")) {
        errors.push(labels_mismatch(path, meta));
    }
    if !opts.skip_validate_pod_template_spec {
        crate::apis::core::pod::validate_pod_template_spec(template, path, ctx, errors);
    }
    validate_labels(object(meta, "labels"), &path.child("labels"), errors);
    validate_annotations(object(meta, "annotations"), &path.child("annotations"), errors);
}

/// The `updateStrategy` switch of `ValidateStatefulSetSpec`.
fn update_strategy(strategy: &Json, path: &Path<'_>, opts: Options, errors: &mut Vec<Error>) {
    let rolling = get(strategy, "rollingUpdate");
    let rolling_path = path.child("rollingUpdate");
    let only_rolling = |errors: &mut Vec<Error>| {
        if let Some(r) = rolling {
            let detail = "only allowed for updateStrategy 'RollingUpdate'";
            errors.push(invalid_rendered(&rolling_path, r.clone(), render_rolling(rolling), detail));
        }
    };
    match str(strategy, "type") {
        "" => errors.push(required(path, "")),
        "OnDelete" => only_rolling(errors),
        "RollingUpdate" => {
            if let Some(r) = rolling {
                rolling_update(r, &rolling_path, errors);
            }
        }
        "Recreate" if opts.allow_recreate_strategy => only_rolling(errors),
        t => {
            let detail = if opts.allow_recreate_strategy {
                "must be 'RollingUpdate', 'OnDelete', or 'Recreate'"
            } else {
                "must be 'RollingUpdate' or 'OnDelete'"
            };
            let rendered =
                format!("{{\"Type\":{},\"RollingUpdate\":{}}}", go_json(&Json::from(t)), render_rolling(rolling));
            errors.push(invalid_rendered(path, strategy.clone(), rendered, detail));
        }
    }
}

/// `validateRollingUpdateStatefulSet`.
fn rolling_update(rolling: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let un_path = path.child("maxUnavailable");
    nonnegative(int(rolling, "partition").unwrap_or(0), &path.child("partition"), errors);
    if let Some(v) = get(rolling, "maxUnavailable") {
        let v = IntOrString::of(Some(v));
        positive_int_or_percent(v, &un_path, errors);
        if int_or_percent_value(v) == 0 {
            errors.push(invalid_int_or_string(&un_path, v, "cannot be 0"));
        }
        not_more_than_100_percent(v, &un_path, errors);
    }
}

/// The StatefulSet strategy's own warnings after the pod template's: each claim template's
/// (`GetWarningsForPersistentVolumeClaimSpec`; on update Go names the path's `Spec` with a capital)
/// and a negative `revisionHistoryLimit`.
pub(crate) fn warnings(object: &Json, update: bool, warnings: &mut Vec<String>) {
    let spec = field(object, "spec");
    let root = Path::root();
    let spec_path = root.child("spec");
    let claims_path = spec_path.child("volumeClaimTemplates");
    for (i, claim) in list(spec, "volumeClaimTemplates").iter().enumerate() {
        let at = claims_path.index(i);
        let at = if update { at.child("Spec") } else { at };
        let resources = field(field(claim, "spec"), "resources");
        for kind in ["requests", "limits"] {
            // A quantity may be written as a JSON number (`storage: 1.5`).
            let Some(q) = field(resources, kind).get("storage").and_then(crate::quantity::from_json) else {
                continue;
            };
            let canonical = q.canonical();
            // MilliValue() % 1000 != 0: the canonical form needs a sub-unit suffix.
            let fractional = canonical.ends_with('m')
                || canonical.ends_with('u')
                || canonical.ends_with('n')
                || canonical.contains("e-");
            if fractional {
                let p = at.child("resources");
                let p = p.child(kind);
                let p = p.key("storage");
                warnings.push(format!(
                    "{p}: fractional byte value {} is invalid, must be an integer",
                    crate::field::go_quote(&canonical)
                ));
            }
        }
    }
    if int(spec, "revisionHistoryLimit").is_some_and(|n| n < 0) {
        warnings.push(String::from(
            "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended",
        ));
    }
}
