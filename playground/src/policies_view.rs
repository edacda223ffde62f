//! The Policies view: admission policies, their bindings and params, and a request → which
//! bindings matched and why, each validation's result and cost, the API server's answer, and
//! the mutated object as a patch.

use kubedv_core::diag::Severity;
use kubedv_core::policy::suite::read_case;
use kubedv_core::policy::{is_policy_document, Outcome, PolicySet};
use yew::prelude::*;

use crate::editor::{goto, parse_marks, use_focus, Editor};
use crate::hooks::{text_input, use_debounced, use_persisted};
use crate::picker::example_picker;

/// The CLI's policy fixtures.
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../cli/tests/fixtures/policy/", $name))
    };
}

const REPLICAS: &str = concat!(fixture!("policy.yaml"), "---\n", fixture!("params.yaml"));

const SUFFIX: &str = r#"# Warn and audit instead of denying (validationActions), with a message expression.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: name-suffix
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
  validations:
  - expression: "object.metadata.name.endsWith('-cfg')"
    messageExpression: "'name ' + object.metadata.name + ' must end in -cfg'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: name-suffix-warn
spec:
  policyName: name-suffix
  validationActions: [Warn, Audit]
"#;

const AUTHZ: &str = r#"# Only users allowed to create deployments in the namespace may set more than 10 replicas.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: big-deployments
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  variables:
  - name: big
    expression: "object.spec.replicas > 10"
  validations:
  - expression: "!variables.big || authorizer.group('apps').resource('deployments/scale').namespace(request.namespace).check('update').allowed()"
    message: "only scalers may create deployments of more than 10 replicas"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: big-deployments
spec:
  policyName: big-deployments
  validationActions: [Deny]
"#;

/// (title, policies with bindings and params, request).
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "Replica limit with params: denied in a test namespace",
        REPLICAS,
        "# The request (the fields of a `kubedv policy test` case).\nobject:\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: staging}\n  spec: {replicas: 5}\nnamespaceObject:\n  apiVersion: v1\n  kind: Namespace\n  metadata: {name: staging, labels: {environment: test}}\n",
    ),
    (
        "Namespace selector: production binding warns and audits",
        REPLICAS,
        "object:\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: shop}\n  spec: {replicas: 120}\nnamespaceObject:\n  apiVersion: v1\n  kind: Namespace\n  metadata: {name: shop, labels: {environment: production}}\n",
    ),
    (
        "Warn + Audit binding with a message expression",
        SUFFIX,
        "object:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: settings, namespace: default}\n  data: {}\n",
    ),
    (
        "Mutating: a label (ApplyConfiguration) and an annotation (JSONPatch)",
        fixture!("mutating.yaml"),
        "object:\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: default}\n  spec: {replicas: 1}\n",
    ),
    (
        "Authorizer: a check answered from the allowed list",
        AUTHZ,
        "object:\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: shop}\n  spec: {replicas: 20}\nuserInfo: {username: alice, groups: [developers]}\n# What the authorizer allows (user, userGroup, verb, apiGroup, resource, subresource, namespace, name, path).\nallow:\n- \"userGroup=developers,verb=update,apiGroup=apps,resource=deployments/scale,namespace=shop\"\n",
    ),
];

fn outcome_view(out: &Outcome) -> Html {
    let verdict = match &out.status {
        Some(s) => {
            html! { <p class="error" id="policy-verdict">{ format!("denied ({} {}): {}", s.code, s.reason, s.message) }</p> }
        }
        None => html! { <p class="ok" id="policy-verdict">{ "allowed" }</p> },
    };
    html! {
        <>
            { verdict }
            if !out.warnings.is_empty() {
                <ul class="warnings">{ for out.warnings.iter().map(|w| html! { <li>{ format!("Warning: {w}") }</li> }) }</ul>
            }
            if !out.audit_annotations.is_empty() {
                <ul class="audit">{ for out.audit_annotations.iter().map(|(k, v)| html! { <li><code>{ k }</code>{ ": " }{ v }</li> }) }</ul>
            }
            <table class="evaluations">
                <thead><tr><th>{ "policy" }</th><th>{ "binding" }</th><th>{ "matched" }</th><th>{ "why" }</th><th>{ "results (cost)" }</th></tr></thead>
                <tbody>{ for out.evaluations.iter().map(|e| html! {
                    <tr class={classes!((!e.matched).then_some("skipped"))}>
                        <td>{ &e.policy }</td>
                        <td>{ e.binding.clone().unwrap_or_default() }{ e.params.as_ref().map(|p| format!(" (params {p})")).unwrap_or_default() }</td>
                        <td>{ if e.matched { "yes" } else { "no" } }</td>
                        <td>{ &e.why }</td>
                        <td><ul>{ for e.validations.iter().map(|v| html! {
                            <li><code>{ &v.expression }</code>{ format!(" → {} ({})", v.result, v.cost) }
                                if !v.message.is_empty() { <br /><span class="message">{ &v.message }</span> }</li>
                        }) }</ul></td>
                    </tr>
                }) }</tbody>
            </table>
            if !out.patch.is_empty() {
                <div id="policy-patch">
                    <p>{ "The mutated object, as a patch of the request's object:" }</p>
                    <pre class="diff">{ for out.patch.iter().map(|op| {
                        let sign = match op["op"].as_str() { Some("remove") => "-", Some("add") => "+", _ => "~" };
                        let value = op.get("value").map(|v| format!(" {v}")).unwrap_or_default();
                        html! { <div class={classes!("diff-line", sign.eq("-").then_some("removed"))}>{ format!("{sign} {}{value}", op["path"].as_str().unwrap_or("")) }</div> }
                    }) }</pre>
                </div>
            }
            if !out.unsupported.is_empty() {
                <p class="error">{ format!("kubedv cannot give the API server's verdict here: {}", out.unsupported.join("; ")) }</p>
            }
        </>
    }
}

#[function_component(PoliciesView)]
pub fn policies_view() -> Html {
    let policies = use_persisted("policy.policies", EXAMPLES[0].1);
    let request = use_persisted("policy.request", EXAMPLES[0].2);
    let d_policies = use_debounced((*policies).clone(), 200);
    let d_request = use_debounced((*request).clone(), 200);
    let (policies_focus, show_policies_line) = use_focus();
    let (request_focus, show_request_line) = use_focus();
    let load = {
        let (policies, request) = (policies.clone(), request.clone());
        Callback::from(move |i: usize| {
            if let Some((_, p, r)) = EXAMPLES.get(i) {
                policies.set((*p).into());
                request.set((*r).into());
            }
        })
    };
    let current = EXAMPLES.iter().position(|(_, p, r)| *p == *policies && *r == *request);
    let docs = kubedv_input::documents(&d_policies);
    let req_doc = kubedv_input::document(&d_request);
    let result = (|| -> Result<Html, Html> {
        let docs = docs.as_ref().map_err(|e| {
            html! { <p class="error">{ goto(html! { { format!("policies: {e}") } }, e.line, &show_policies_line) }</p> }
        })?;
        let (policy_docs, params): (Vec<_>, Vec<_>) = docs.iter().cloned().partition(is_policy_document);
        let set = PolicySet::new(&policy_docs);
        let problems = html! {
            <ul class="errors" id="policy-problems">{ for set.problems.iter().map(|p| html! {
                <li class={classes!((p.severity == Severity::Warning).then_some("warning"))}>
                    { format!("{}: {}{}", p.document, if p.field.is_empty() { String::new() } else { format!("{}: ", p.field) }, p.message) }
                </li>
            }) }</ul>
        };
        if set.problems.iter().any(|p| p.severity == Severity::Error) {
            return Ok(
                html! { <><p class="error">{ "The API server would refuse these policies:" }</p>{ problems }</> },
            );
        }
        let req = req_doc.as_ref().map_err(|e| {
            html! { <p class="error">{ goto(html! { { format!("request: {e}") } }, e.line, &show_request_line) }</p> }
        })?;
        let mut case_doc = req.clone();
        if let Some(o) = case_doc.as_object_mut() {
            o.insert("expect".into(), serde_json::json!({}));
        }
        let case = read_case(&case_doc, 0).map_err(|e| html! { <p class="error">{ format!("request: {e}") }</p> })?;
        let mut all = params;
        all.extend(case.params.iter().cloned());
        let out = set.evaluate(&case.request, &all, &case.allow);
        let (np, nb) = set.counts();
        Ok(html! {
            <>
                <p class="summary">{ format!("{} {} · {np} policies and {nb} bindings read", case.request.operation, case.request.kind.kind) }</p>
                { problems }
                { outcome_view(&out) }
            </>
        })
    })();
    let result = result.unwrap_or_else(|e| e);
    html! {
        <section class="view policies">
            <h2>{ "Admission policies: ValidatingAdmissionPolicy and MutatingAdmissionPolicy, as the API server evaluates them" }</h2>
            { example_picker("policy-example", EXAMPLES.iter().map(|e| e.0), current, load) }
            <div class="columns">
                <Editor id="policy-policies" label="Policies, bindings and params (YAML, several documents)" value={(*policies).clone()}
                    oninput={text_input(&policies)} marks={parse_marks(&docs)} focus={policies_focus} />
                <Editor id="policy-request" label="Request: object, oldObject, operation, namespaceObject, userInfo, allow, params"
                    value={(*request).clone()} oninput={text_input(&request)} marks={parse_marks(&req_doc)} focus={request_focus} />
            </div>
            <div id="policy-result" class="result">{ result }</div>
        </section>
    }
}
