//! One ValidatingAdmissionPolicy evaluated for one binding and one params object, as the
//! API server's validator does it (apiserver `pkg/admission/plugin/policy/validating/
//! validator.go` `Validate`, with `webhook/matchconditions/matcher.go` for the conditions).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::Value;

use super::compile::{compile_common, Common, Compiled, Env, Pass, Returns, Variable};
use super::model::{FailurePolicy, Policy};

/// `celconfig.RuntimeCELCostBudget`: per policy, binding and params object.
pub const RUNTIME_BUDGET: u64 = 10_000_000;
/// `celconfig.RuntimeCELCostBudgetMatchConditions`.
pub const MATCH_CONDITIONS_BUDGET: u64 = 2_500_000;
/// `celconfig.MaxEvaluatedMessageExpressionSizeBytes`.
const MAX_MESSAGE_BYTES: usize = 5 * 1024;
/// The error when a pass runs out of budget (`activation.go`).
pub const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// A validation, compiled.
pub struct CompiledValidation {
    /// The expression.
    pub expr: Compiled,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`, compiled without the authorizer.
    pub message_expr: Option<Compiled>,
    /// `reason`.
    pub reason: Option<String>,
}

/// A policy with its expressions compiled in the environments the API server uses for each
/// (`validating/plugin.go` `compilePolicy`).
pub struct CompiledPolicy {
    /// The policy.
    pub policy: Policy,
    /// Composited variables.
    pub variables: Vec<Variable>,
    /// Match conditions, by name.
    pub match_conditions: Vec<(String, Compiled)>,
    /// Validations.
    pub validations: Vec<CompiledValidation>,
    /// Audit annotations: key and value expression.
    pub audit_annotations: Vec<(String, Compiled)>,
}

impl CompiledPolicy {
    /// Compiles a policy's expressions in the CEL environment at compatibility version
    /// 1.`compatibility` (a new policy's: [`crate::cel::environment::new_expressions`]).
    pub fn new(policy: Policy, compatibility: u32) -> CompiledPolicy {
        // Message expressions are compiled without the authorizer (validating/plugin.go).
        let Common { decls: full, variables, match_conditions, other: messages } =
            compile_common(&policy.spec, Env { params: false, authorizer: false, patch_types: false, compatibility });
        let validations = policy
            .spec
            .validations
            .iter()
            .map(|v| CompiledValidation {
                expr: full.compile(&v.expression, Returns::Bool),
                message: v.message.clone(),
                message_expr: v
                    .message_expression
                    .as_deref()
                    .filter(|m| !m.is_empty())
                    .map(|m| messages.compile(m, Returns::String)),
                reason: v.reason.clone(),
            })
            .collect();
        let audit_annotations = policy
            .spec
            .audit_annotations
            .iter()
            .map(|a| (a.key.clone(), full.compile(&a.value_expression, Returns::StringOrNull)))
            .collect();
        CompiledPolicy { policy, variables, match_conditions, validations, audit_annotations }
    }
}

/// What a validation decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// It passed (or its error was ignored).
    Admit,
    /// It failed, or errored under `failurePolicy: Fail`.
    Deny,
}

/// One decision (`PolicyDecision`).
#[derive(Clone, Debug)]
pub struct Decision {
    /// Admit or deny.
    pub action: Action,
    /// The validation's index (0 for a decision about the whole evaluation).
    pub index: usize,
    /// The message (for denials).
    pub message: String,
    /// The reason (`Invalid` by default for a false validation; empty for errors).
    pub reason: String,
    /// `true`, `false` or `error`, for the report.
    pub result: Outcome,
    /// The cost of the expression (and its message expression).
    pub cost: u64,
}

/// How an expression ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It was true.
    True,
    /// It was false.
    False,
    /// It failed to compile or evaluate.
    Error,
}

/// What an audit annotation gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// Published under the key.
    Publish(String, String),
    /// Not published (null or empty).
    Exclude,
    /// An error, which denies.
    Error(String),
}

/// What `Validate` returns.
#[derive(Clone, Debug, Default)]
pub struct Validated {
    /// The match conditions' verdict, when they did not match: the condition that was false.
    pub not_matched: Option<String>,
    /// The decisions.
    pub decisions: Vec<Decision>,
    /// The audit annotations.
    pub annotations: Vec<Annotation>,
}

fn for_error(f: FailurePolicy) -> Action {
    match f {
        FailurePolicy::Ignore => Action::Admit,
        FailurePolicy::Fail => Action::Deny,
    }
}

fn error_decision(f: FailurePolicy, message: String) -> Decision {
    Decision { action: for_error(f), index: 0, message, reason: String::new(), result: Outcome::Error, cost: 0 }
}

/// An expression's value (or error text) and cost.
type Evaluated = (Result<Value, String>, u64);

/// Evaluates a list of expressions in one pass against a budget (`ForInput`): each result and
/// cost, or the out-of-budget error once the total passes the budget.
fn for_input<'e>(
    pass: &Pass<'_>,
    exprs: impl Iterator<Item = Option<&'e Compiled>>,
    budget: u64,
) -> Result<(Vec<Option<Evaluated>>, u64), &'static str> {
    let mut remaining = budget;
    let mut out = Vec::new();
    for e in exprs {
        let Some(e) = e else {
            out.push(None);
            continue;
        };
        let (result, cost) = pass.eval(e);
        if cost > remaining {
            return Err(OUT_OF_BUDGET);
        }
        remaining -= cost;
        out.push(Some((result, cost)));
    }
    Ok((out, remaining))
}

/// The bound variables of a pass.
pub type Bindings = BTreeMap<&'static str, Value>;

/// `Validate`: the match conditions, the validations and their messages, the audit
/// annotations. `with_authz` binds `authorizer` (validations and conditions);
/// `without_authz` does not (messages and audit annotations, as the API server evaluates them).
pub fn validate(p: &CompiledPolicy, with_authz: &Bindings, without_authz: &Bindings) -> Validated {
    let f = p.policy.failure_policy();
    let mut out = Validated::default();
    // matchConditions (matchconditions/matcher.go): any false wins; otherwise errors follow
    // the failure policy.
    if !p.match_conditions.is_empty() {
        let pass = Pass::new(with_authz.clone(), &p.variables);
        match for_input(&pass, p.match_conditions.iter().map(|(_, c)| Some(c)), MATCH_CONDITIONS_BUDGET) {
            Err(e) => match f {
                FailurePolicy::Fail => {
                    out.decisions.push(error_decision(f, String::from(e)));
                    return out;
                }
                FailurePolicy::Ignore => {
                    out.not_matched = Some(String::from("(cost budget)"));
                    return out;
                }
            },
            Ok((results, _)) => {
                let mut errors: Vec<String> = Vec::new();
                for ((name, _), r) in p.match_conditions.iter().zip(results) {
                    match r {
                        Some((Ok(Value::Bool(false)), _)) => {
                            out.not_matched = Some(name.clone());
                            return out;
                        }
                        Some((Err(e), _)) => errors.push(e),
                        _ => {}
                    }
                }
                if !errors.is_empty() {
                    if f == FailurePolicy::Ignore {
                        out.not_matched = Some(String::from("(error, failurePolicy: Ignore)"));
                        return out;
                    }
                    out.decisions.push(error_decision(f, aggregate(errors)));
                    return out;
                }
            }
        }
    }
    // Validations, then every message expression with what is left of the budget.
    let pass = Pass::new(with_authz.clone(), &p.variables);
    let (results, remaining) = match for_input(&pass, p.validations.iter().map(|v| Some(&v.expr)), RUNTIME_BUDGET) {
        Ok(r) => r,
        Err(e) => {
            out.decisions.push(error_decision(f, String::from(e)));
            return out;
        }
    };
    let message_pass = Pass::new(without_authz.clone(), &p.variables);
    let messages = for_input(&message_pass, p.validations.iter().map(|v| v.message_expr.as_ref()), remaining);
    for (i, (v, r)) in p.validations.iter().zip(results).enumerate() {
        let (result, cost) = r.unwrap_or((Err(String::new()), 0));
        let message_result = messages.as_ref().ok().and_then(|(m, _)| m[i].clone());
        let cost = cost + message_result.as_ref().map_or(0, |(_, c)| *c);
        let d = match (result, &messages) {
            (Err(e), _) => Decision { message: e, cost, ..error_decision(f, String::new()) },
            (_, Err(e)) => {
                Decision { message: format!("failed messageExpression: {e}"), cost, ..error_decision(f, String::new()) }
            }
            (Ok(Value::Bool(true)), _) => Decision {
                action: Action::Admit,
                index: i,
                message: String::new(),
                reason: String::new(),
                result: Outcome::True,
                cost,
            },
            (Ok(_), _) => Decision {
                action: Action::Deny,
                index: i,
                message: denial_message(v, message_result.map(|(r, _)| r)),
                reason: v.reason.clone().unwrap_or_else(|| String::from("Invalid")),
                result: Outcome::False,
                cost,
            },
        };
        out.decisions.push(Decision { index: i, ..d });
    }
    // Audit annotations: a fresh budget, no authorizer.
    let audit_pass = Pass::new(without_authz.clone(), &p.variables);
    match for_input(&audit_pass, p.audit_annotations.iter().map(|(_, c)| Some(c)), RUNTIME_BUDGET) {
        Err(e) => {
            out.decisions = Vec::from([error_decision(f, String::from(e))]);
            return out;
        }
        Ok((results, _)) => {
            for ((key, c), r) in p.audit_annotations.iter().zip(results) {
                let (result, _) = r.unwrap_or((Ok(Value::Null), 0));
                out.annotations.push(match result {
                    Err(_) if f == FailurePolicy::Ignore => Annotation::Exclude,
                    Err(e) => Annotation::Error(e),
                    Ok(Value::String(s)) if s.trim().is_empty() => Annotation::Exclude,
                    Ok(Value::String(s)) => Annotation::Publish(key.clone(), String::from(s.trim())),
                    Ok(Value::Null) => Annotation::Exclude,
                    Ok(other) => Annotation::Error(format!(
                        "valueExpression '{}' resulted in unsupported return type: {}. Return type must be either string or null.",
                        c.source,
                        other.type_name()
                    )),
                });
            }
        }
    }
    out
}

/// The message of a false validation: the message expression's string (trimmed; not empty,
/// one line, at most 5 KiB), else `message`, else `failed expression: <expression>`.
fn denial_message(v: &CompiledValidation, evaluated: Option<Result<Value, String>>) -> String {
    if let Some(Ok(Value::String(s))) = evaluated {
        let s = s.trim();
        if !s.is_empty() && s.len() <= MAX_MESSAGE_BYTES && !s.contains('\n') {
            return String::from(s);
        }
    }
    match v.message.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => String::from(m),
        _ => format!("failed expression: {}", v.expr.source.trim()),
    }
}

/// apimachinery `utilerrors.NewAggregate(...).Error()`: one message, or `[a, b]` with
/// duplicates removed.
fn aggregate(errors: Vec<String>) -> String {
    let mut unique: Vec<String> = Vec::new();
    for e in errors {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    if unique.len() == 1 {
        return unique.remove(0);
    }
    format!("[{}]", unique.join(", "))
}
