//! MutatingAdmissionPolicy: its mutations applied in order, as the API server's generic
//! dispatcher and mutating patchers do (apiserver `pkg/admission/plugin/policy/mutating/
//! {dispatcher.go,patch/json_patch.go,patch/smd.go}`, `policy/generic/policy_dispatcher.go`).
//!
//! Each mutation sees the object as the mutations before it left it. JSONPatch results are
//! applied with json-patch's semantics (a failed `test` drops the mutation silently); an
//! ApplyConfiguration is merged field by field. Errors deny unless `failurePolicy: Ignore`,
//! worded `policy 'p' with binding 'b' denied request: ...`, with code 403. DELETE is never
//! mutated. A policy with `reinvocationPolicy: IfNeeded` runs once more when a later policy
//! changed the object.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::apply::{apply, ApplyError};
use super::compile::{compile_common, Common, Compiled, Env, Pass, Returns, Variable};
use super::matching::Match;
use super::model::{Binding, FailurePolicy, Policy, PolicyKind};
use super::patch::{apply_json_patch, PatchError};
use super::validating::{Bindings, MATCH_CONDITIONS_BUDGET, OUT_OF_BUDGET, RUNTIME_BUDGET};
use super::{bindings_for, note, object_ref, params, Denial, Evaluation, Gvr, Outcome, Request, ValidationResult};
use crate::cel::k8s::authz;
use crate::cel::{to_json, Value};
use crate::field::go_quote;

/// A mutation, compiled.
pub struct CompiledMutation {
    /// `JSONPatch` or `ApplyConfiguration`.
    pub patch_type: String,
    /// The expression.
    pub expr: Compiled,
    /// An `Object` literal whose nested type names do not follow its field names (found in
    /// the expression; the API server reports it when the mutation runs).
    pub type_mismatch: Option<String>,
}

/// A mutating policy, compiled.
pub struct CompiledMutatingPolicy {
    /// The policy.
    pub policy: Policy,
    /// Composited variables.
    pub variables: Vec<Variable>,
    /// Match conditions.
    pub match_conditions: Vec<(String, Compiled)>,
    /// The mutations, in order.
    pub mutations: Vec<CompiledMutation>,
}

impl CompiledMutatingPolicy {
    /// Compiles a policy: variables and conditions without the mutation types, mutations with.
    pub fn new(policy: Policy, compatibility: u32) -> CompiledMutatingPolicy {
        // Mutations are compiled with the mutation types; variables and conditions without.
        let Common { variables, match_conditions, other: with_types, .. } =
            compile_common(&policy.spec, Env { params: false, authorizer: true, patch_types: true, compatibility });
        let mutations = policy
            .spec
            .mutations
            .iter()
            .map(|m| {
                let (source, returns) = match m.patch_type.as_str() {
                    "JSONPatch" => (m.json_patch.as_ref().map_or("", |e| e.expression.as_str()), Returns::JsonPatches),
                    _ => (m.apply_configuration.as_ref().map_or("", |e| e.expression.as_str()), Returns::ApplyObject),
                };
                let expr = with_types.compile(source, returns);
                let type_mismatch = expr.program.as_ref().ok().and_then(|p| type_names(p.ast()));
                CompiledMutation { patch_type: m.patch_type.clone(), expr, type_mismatch }
            })
            .collect();
        CompiledMutatingPolicy { policy, variables, match_conditions, mutations }
    }
}

/// `CheckTypeNamesMatchFieldPathNames`, on the literals of an expression: `Object.spec{...}`
/// under the field `spec` of `Object{...}`, and so on (list and map literals are unnamed).
fn type_names(e: &crate::cel::ast::Expr) -> Option<String> {
    use crate::cel::ast::Kind;
    fn walk(e: &crate::cel::ast::Expr, expected: Option<&str>, errs: &mut Vec<String>) {
        match &e.kind {
            Kind::Message { name, fields } if name.starts_with("Object") => {
                if let Some(want) = expected {
                    if **name != *want {
                        errs.push(format!(
                            "unexpected type name {}, expected {}, which matches field name path from root Object type",
                            go_quote(name),
                            go_quote(want)
                        ));
                    }
                }
                for (f, v, _) in fields {
                    walk(v, Some(&format!("{name}.{f}")), errs);
                }
            }
            Kind::List(items) => items.iter().for_each(|(v, _)| walk(v, expected, errs)),
            Kind::Map(entries) => entries.iter().for_each(|(_, v, _)| walk(v, expected, errs)),
            _ => {}
        }
    }
    let mut errs = Vec::new();
    walk(e, None, &mut errs);
    (!errs.is_empty()).then(|| format!("type mismatch: {}", errs.join("\n")))
}

/// The error of a mutating policy (`PolicyError.Error()`).
fn policy_error(policy: &str, binding: Option<&str>, message: String) -> Denial {
    let text = match binding {
        Some(b) => format!("policy '{policy}' with binding '{b}' denied request: {message}"),
        None => format!("policy {} denied request: {message}", go_quote(policy)),
    };
    Denial {
        policy: String::from(policy),
        binding: binding.map(String::from),
        message,
        reason: String::from("Invalid"),
        code: 403,
        text,
    }
}

/// What a mutation did.
enum Mutated {
    /// The new object (`None`: a `test` operation failed, nothing is applied).
    Object(Option<Json>),
    /// The API server's error.
    Error(String),
    /// kubedv cannot tell what the API server would make of it.
    Unsupported(String),
}

/// Runs one mutation on `object`.
fn run_mutation(m: &CompiledMutation, pass: &Pass<'_>, object: &Json, schema: Option<&Json>) -> (Mutated, u64) {
    let (result, cost) = mutation_result(m, pass, object, schema);
    let result = match result {
        Ok(o) => Mutated::Object(o),
        Err(e) if e.starts_with("kubedv ") => Mutated::Unsupported(e),
        Err(e) => Mutated::Error(e),
    };
    (result, cost)
}

fn mutation_result(
    m: &CompiledMutation,
    pass: &Pass<'_>,
    object: &Json,
    schema: Option<&Json>,
) -> (Result<Option<Json>, String>, u64) {
    let (result, cost) = pass.eval(&m.expr);
    if cost > RUNTIME_BUDGET {
        return (Err(String::from(OUT_OF_BUDGET)), cost);
    }
    let value = match result {
        Ok(v) => v,
        Err(e) => return (Err(e), cost),
    };
    if let Some(e) = &m.type_mismatch {
        return (Err(e.clone()), cost);
    }
    let value = to_json(&value);
    let outcome = if m.patch_type == "JSONPatch" {
        let Some(ops) = value.as_array() else {
            return (Err(String::from("type mismatch: JSONPatchType.expression should evaluate to array")), cost);
        };
        match apply_json_patch(object, ops) {
            Ok(o) => Ok(Some(o)),
            Err(PatchError::TestFailed) => Ok(None),
            Err(PatchError::Failed(e)) => Err(format!("JSON Patch: {e}")),
        }
    } else {
        let mut patch = value;
        // The object's apiVersion and kind replace any the expression sets.
        for k in ["apiVersion", "kind"] {
            if let (Some(p), Some(v)) = (patch.as_object_mut(), object.get(k)) {
                p.insert(String::from(k), v.clone());
            }
        }
        match apply(object, &patch, schema) {
            Ok(merged) => Ok(Some(merged)),
            Err(ApplyError::Server(e)) => Err(e),
            Err(ApplyError::Unsupported(e)) => Err(e),
        }
    };
    (outcome, cost)
}

/// Mutates the request's object with every matching mutating policy; the object the
/// validating policies then see is `outcome.patched` (or the original).
#[allow(clippy::too_many_arguments)]
pub fn mutate(
    policies: &[CompiledMutatingPolicy],
    bindings: &[Binding],
    req: &Request,
    params: &[Json],
    rules: &authz::Rules,
    schema: Option<&Json>,
    equivalents: &dyn Fn(&Gvr) -> Vec<Gvr>,
    out: &mut Outcome,
) -> Option<Json> {
    if req.operation == "DELETE" {
        return None;
    }
    let original = req.object.clone()?;
    let mut object = original.clone();
    let mut invoked_if_needed: Vec<usize> = Vec::new();
    for (i, p) in policies.iter().enumerate() {
        let before = object.clone();
        run_policy(p, bindings, req, &mut object, params, rules, schema, equivalents, out);
        if p.policy.spec.reinvocation_policy.as_deref() == Some("IfNeeded") && object != before {
            invoked_if_needed.push(i);
        }
    }
    // Reinvocation: policies that asked for it run once more when the object changed after them.
    if object != original {
        for i in invoked_if_needed {
            run_policy(&policies[i], bindings, req, &mut object, params, rules, schema, equivalents, out);
        }
    }
    (object != original).then_some(object)
}

#[allow(clippy::too_many_arguments)]
fn run_policy(
    p: &CompiledMutatingPolicy,
    all_bindings: &[Binding],
    req: &Request,
    object: &mut Json,
    params: &[Json],
    rules: &authz::Rules,
    schema: Option<&Json>,
    equivalents: &dyn Fn(&Gvr) -> Vec<Gvr>,
    out: &mut Outcome,
) {
    let name = p.policy.name.as_str();
    let ignore = p.policy.failure_policy() == FailurePolicy::Ignore;
    let deny = |out: &mut Outcome, binding: Option<&str>, message: String| {
        if !ignore {
            out.denials.push(policy_error(name, binding, message));
        }
    };
    let bindings: Vec<&Binding> =
        all_bindings.iter().filter(|b| b.kind == PolicyKind::Mutating && b.spec.policy_name == name).collect();
    if bindings.is_empty() {
        return note(out, name, None, false, String::from("no binding names this policy"));
    }
    let Some(constraints) = &p.policy.matcher else {
        note(out, name, None, false, String::from("error: policy contained no match constraints, a required field"));
        return deny(
            out,
            None,
            String::from("failed to configure policy: policy contained no match constraints, a required field"),
        );
    };
    let mut current = req.clone();
    current.object = Some(object.clone());
    let (resource, kind) = match constraints.matches(&current, equivalents) {
        Match::No(why) => return note(out, name, None, false, format!("matchConstraints: {why}")),
        Match::Error(e) => return deny(out, None, format!("failed to configure policy: {e}")),
        Match::Yes { resource, kind, .. } => (resource, kind),
    };
    for b in bindings {
        let bname = b.name.as_str();
        let why = match &b.matcher {
            None => String::from("matchConstraints match; the binding has no matchResources"),
            Some(m) => match m.matches(&current, equivalents) {
                Match::No(why) => {
                    note(out, name, Some(bname), false, format!("matchResources: {why}"));
                    continue;
                }
                Match::Error(e) => {
                    deny(out, Some(bname), format!("failed to configure binding: {e}"));
                    continue;
                }
                Match::Yes { why, .. } => format!("matchConstraints and matchResources match ({why})"),
            },
        };
        let list =
            match params::collect(p.policy.spec.param_kind.as_ref(), b.spec.param_ref.as_ref(), &req.namespace, params)
            {
                Ok(l) => l,
                Err(e) => {
                    note(out, name, Some(bname), false, format!("error: {e}"));
                    deny(out, Some(bname), format!("failed to configure binding: {e}"));
                    continue;
                }
            };
        for param in list {
            let mut e = Evaluation {
                policy: String::from(name),
                binding: Some(String::from(bname)),
                params: param.map(object_ref),
                matched: true,
                why: why.clone(),
                validations: Vec::new(),
            };
            current.object = Some(object.clone());
            let (with, _) = bindings_for(&current, &kind, &resource, param, rules);
            if let Some(condition) = match_conditions(p, &with) {
                match condition {
                    Err(err) => deny(out, Some(bname), err),
                    Ok(false_name) => {
                        e.matched = false;
                        e.why = format!("{why}; matchCondition {} is false", go_quote(&false_name));
                    }
                }
                if !e.matched {
                    out.evaluations.push(e);
                    continue;
                }
            }
            for m in &p.mutations {
                current.object = Some(object.clone());
                let (with, _) = bindings_for(&current, &kind, &resource, param, rules);
                let pass = Pass::new(with, &p.variables);
                let (result, cost) = run_mutation(m, &pass, object, schema);
                let (result_text, message) = match result {
                    Mutated::Object(Some(new)) => {
                        let changed = new != *object;
                        *object = new;
                        (if changed { "applied" } else { "unchanged" }, String::new())
                    }
                    Mutated::Object(None) => {
                        ("test failed", String::from("a test operation failed: the patch is not applied"))
                    }
                    Mutated::Error(err) => {
                        deny(out, Some(bname), err.clone());
                        ("error", err)
                    }
                    Mutated::Unsupported(why) => {
                        out.unsupported.push(format!("policy '{name}' with binding '{bname}': {why}"));
                        ("unsupported", why)
                    }
                };
                e.validations.push(ValidationResult {
                    expression: format!("{}: {}", m.patch_type, m.expr.source),
                    result: Json::from(result_text),
                    message,
                    cost,
                });
            }
            out.evaluations.push(e);
        }
    }
}

/// The match conditions: `None` when they all hold, `Some(Ok(name))` for the false one,
/// `Some(Err(..))` for errors under `failurePolicy: Fail`.
fn match_conditions(p: &CompiledMutatingPolicy, with: &Bindings) -> Option<Result<String, String>> {
    if p.match_conditions.is_empty() {
        return None;
    }
    let pass = Pass::new(with.clone(), &p.variables);
    let mut spent = 0u64;
    let mut errors: Vec<String> = Vec::new();
    for (name, c) in &p.match_conditions {
        let (r, cost) = pass.eval(c);
        spent = spent.saturating_add(cost);
        if spent > MATCH_CONDITIONS_BUDGET {
            errors.push(String::from(OUT_OF_BUDGET));
            break;
        }
        match r {
            Ok(Value::Bool(false)) => return Some(Ok(name.clone())),
            Err(e) => errors.push(e),
            _ => {}
        }
    }
    if errors.is_empty() {
        return None;
    }
    if p.policy.failure_policy() == FailurePolicy::Ignore {
        return Some(Ok(String::from("(error, failurePolicy: Ignore)")));
    }
    errors.dedup();
    Some(Err(if errors.len() == 1 { errors.remove(0) } else { format!("[{}]", errors.join(", ")) }))
}
