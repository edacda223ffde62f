//! Type checking a ValidatingAdmissionPolicy against the schemas of the kinds it matches, as
//! the API server does for the policy's status (apiserver `pkg/admission/plugin/policy/
//! validating/typechecking.go`): warnings only, never a change in what the policy does.
//!
//! The kinds are those the match constraints name without wildcards (at most 10, sorted by
//! group, version and kind) whose schemas are known: here, custom resources whose CRD is given.
//! Each validation's expression and message expression is compiled with `object` and
//! `oldObject` (and `params`, when its kind's CRD is given) typed by those schemas.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::compile::{compile_variables, Declarations, Env, Returns};
use super::model::Policy;
use super::request::{split_api_version, Gvk};
use crate::cel::environment::schema::decl_type;

const MAX_TYPES_TO_CHECK: usize = 10;

/// A CRD's kind and the schema of one of its versions.
fn crd_versions(crd: &Json) -> impl Iterator<Item = (Gvk, &str, &Json)> {
    let s = |p: &str| crd.pointer(p).and_then(Json::as_str).unwrap_or("");
    let (group, kind, plural) = (s("/spec/group"), s("/spec/names/kind"), s("/spec/names/plural"));
    crd.pointer("/spec/versions").and_then(Json::as_array).into_iter().flatten().filter_map(move |v| {
        let schema = v.pointer("/schema/openAPIV3Schema")?;
        let version = v.get("name")?.as_str()?;
        Some((Gvk { group: group.into(), version: version.into(), kind: kind.into() }, plural, schema))
    })
}

/// `typesToCheck`: the kinds (with schemas) the match constraints name explicitly.
fn types_to_check<'c>(policy: &Policy, crds: &'c [Json]) -> Vec<(Gvk, &'c Json)> {
    let mut out: Vec<(Gvk, &Json)> = Vec::new();
    let Some(m) = &policy.spec.match_constraints else { return out };
    for rule in &m.resource_rules {
        // extractGroups / extractVersions give up on a wildcard; resources skip wildcards
        // and subresources.
        if rule.api_groups.iter().any(|g| g.contains('*')) || rule.api_versions.iter().any(|v| v.contains('*')) {
            continue;
        }
        let resources: Vec<&String> = rule.resources.iter().filter(|r| !r.contains(['*', '/'])).collect();
        for crd in crds {
            for (gvk, plural, schema) in crd_versions(crd) {
                let named = rule.api_groups.contains(&gvk.group)
                    && rule.api_versions.contains(&gvk.version)
                    && resources.iter().any(|r| **r == plural);
                if named && !out.iter().any(|(g, _)| *g == gvk) && out.len() < MAX_TYPES_TO_CHECK {
                    out.push((gvk, schema));
                }
            }
        }
    }
    out.sort_by(|(a, _), (b, _)| (&a.group, &a.version, &a.kind).cmp(&(&b.group, &b.version, &b.kind)));
    out
}

/// The schema of the params' kind, if its CRD is given.
fn params_schema<'c>(policy: &Policy, crds: &'c [Json]) -> Option<&'c Json> {
    let pk = policy.spec.param_kind.as_ref()?;
    let (group, version) = split_api_version(&pk.api_version);
    crds.iter()
        .flat_map(crd_versions)
        .find(|(g, _, _)| g.group == group && g.version == version && g.kind == pk.kind)
        .map(|(_, _, s)| s)
}

/// `TypeChecker.Check`: (field, warning) for each expression with issues.
pub fn check(policy: &Policy, crds: &[Json]) -> Vec<(String, String)> {
    let types = types_to_check(policy, crds);
    if types.is_empty() {
        return Vec::new();
    }
    let has_params = policy.spec.param_kind.is_some();
    let params_type = params_schema(policy, crds).and_then(|s| decl_type(s, true));
    let mut checkers = Vec::new();
    for (gvk, schema) in &types {
        let mut decls = Declarations::new(Env {
            params: has_params,
            authorizer: true,
            patch_types: false,
            compatibility: crate::cel::environment::ALL,
        })
        .with_types(decl_type(schema, true), params_type.clone());
        compile_variables(&mut decls, &policy.spec.variables);
        checkers.push((gvk, decls));
    }
    let check_one = |source: &str| -> Option<String> {
        let messages: Vec<String> = checkers
            .iter()
            .filter_map(|(gvk, decls)| {
                let compiled = decls.compile(source, Returns::Any);
                let issue = compiled.program.err()?;
                // TypeCheckingResult.String: "<gvk>: <issues>\n", results joined with "\n".
                Some(format!("{}/{}, Kind={}: {issue}\n", gvk.group, gvk.version, gvk.kind))
            })
            .collect();
        (!messages.is_empty()).then(|| messages.join("\n"))
    };
    let mut out = Vec::new();
    for (i, v) in policy.spec.validations.iter().enumerate() {
        if let Some(w) = check_one(&v.expression) {
            out.push((format!("spec.validations[{i}].expression"), w));
        }
        if let Some(m) = v.message_expression.as_deref().filter(|m| !m.is_empty()) {
            if let Some(w) = check_one(m) {
                out.push((format!("spec.validations[{i}].messageExpression"), w));
            }
        }
    }
    out
}
