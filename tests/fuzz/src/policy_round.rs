//! Admission policies: mutated policy streams evaluated against random requests.

use super::*;

/// Admission policies: the CLI's fixtures (validating with params, variables, audit
/// annotations; mutating with JSONPatch and ApplyConfiguration).
pub(crate) const POLICIES: &[&str] = &[
    concat!(
        include_str!("../../../cli/tests/fixtures/policy/policy.yaml"),
        "---\n",
        include_str!("../../../cli/tests/fixtures/policy/params.yaml")
    ),
    include_str!("../../../cli/tests/fixtures/policy/mutating.yaml"),
];

pub(crate) const POLICY_TOKENS: &[&str] = &[
    "JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}",
    "Object{spec: Object.spec{replicas: 1}}",
    "authorizer.path('/x').check('get').allowed()",
    "variables.replicas",
    "params.maxReplicas",
    "namespaceObject.metadata.name",
    "request.userInfo.username",
    "object.spec.replicas",
    "'~/'",
    "[",
    "]",
    "{",
    "}",
    "null",
    "\n- ",
    ": ",
    "Ignore",
    "Warn",
    "Audit",
    "IfNeeded",
    "*",
    "/-",
    "remove",
    "test",
];

/// A mutated policy stream, compiled and evaluated against a random object on a random
/// operation, with and without the authorizer allowing anything. Properties beyond "no panic":
/// evaluating twice gives the same outcome, and a denied request names its first denial.
pub(crate) fn policy_round(rng: &mut Rng) -> Result<bool, String> {
    let base = POLICIES[rng.below(POLICIES.len())];
    // One in four streams unmutated: the evaluation paths past compilation get exercised too.
    let text = if rng.below(4) == 0 { String::from(base) } else { mutate_with(rng, base, POLICY_TOKENS) };
    let Ok(docs) = kubedv_input::documents(&text) else { return Ok(false) };
    let (policies, params): (Vec<Value>, Vec<Value>) = docs.into_iter().partition(policy::is_policy_document);
    let set = policy::PolicySet::new(&policies);
    let mut object = random_json(rng, 0);
    if rng.below(4) != 0 {
        object = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns", "labels": {"a": "b"}}, "spec": {"replicas": rng.below(200)}, "extra": object});
    }
    let mut req = policy::Request { object: Some(object.clone()), ..Default::default() };
    match rng.below(6) {
        0..=2 => {}
        3 => req.old_object = Some(random_json(rng, 0)),
        4 => {
            req.old_object = req.object.take();
            req.operation = "DELETE".into();
        }
        _ => req.operation = "CONNECT".into(),
    }
    if rng.below(4) != 0 {
        req.namespace_object = Some(json!({"metadata": {"name": "ns", "labels": {"environment": "test"}}}));
    }
    req.infer();
    let allow = if rng.below(2) == 0 { Vec::new() } else { vec![kubedv_core::cel::k8s::authz::Rule::default()] };
    let outcome = set.evaluate(&req, &params, &allow);
    if set.evaluate(&req, &params, &allow) != outcome {
        return Err(format!("evaluating twice differs:\n{text}"));
    }
    if outcome.allowed == outcome.status.is_some() || outcome.allowed != outcome.denials.is_empty() {
        return Err(format!("the verdict, the status and the denials disagree:\n{text}"));
    }
    Ok(outcome.evaluations.iter().any(|e| e.matched))
}
