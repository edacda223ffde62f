//! `x-kubernetes-validations`: rules compiled when the CRD is loaded (type-checked against the
//! schema, estimated against the cost limits) and evaluated at each node of a custom resource
//! with `self` and the correlated `oldSelf`.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::correlate;
use crate::cel::checker::{self, CelType, Decls};
use crate::cel::estimate::{
    cost_error_message, estimate, sized_type, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT,
};
use crate::cel::{self, cost, ErrorKind, Program, Value};
use crate::field::{go_json, Error, ErrorType, Path};

/// One compiled rule.
pub struct CompiledRule {
    /// Where the rule is in the CRD (`...openAPIV3Schema.properties[spec].x-kubernetes-validations[0]`).
    pub location: String,
    /// The rule's source.
    pub rule: String,
    /// Its static cost estimate times the most times it can run (the cardinality of its node).
    pub estimated_cost: u64,
    message: Option<String>,
    message_expression: Option<Program>,
    reason: Option<String>,
    field_path: Option<String>,
    optional_old_self: bool,
    uses_old_self: bool,
    program: Program,
}

impl CompiledRule {
    /// Whether it is a transition rule (it reads `oldSelf`): it runs on updates only, when the
    /// old value correlates (compilation.go `TransitionRule`).
    pub fn is_transition(&self) -> bool {
        self.uses_old_self
    }
}

/// The rules of a schema, by node.
pub struct Rules {
    list: Vec<CompiledRule>,
    by_node: BTreeMap<String, Vec<usize>>,
    /// The Kubernetes minor of the API server modeled: its rules compile in the CEL environment
    /// of its minimum compatibility version (one minor back), and its failed rules print as it
    /// prints them.
    minor: u32,
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// A rule as the API server prints it in its errors: Go's JSON of the internal
/// `apiextensions.ValidationRule` (no json tags: Go's field names, in declaration order).
fn rule_error(path: &str, rule: &Json, detail: String) -> Error {
    let text = |key: &str| Json::from(rule.get(key).and_then(Json::as_str).unwrap_or(""));
    let fields = [
        ("Rule", text("rule")),
        ("Message", text("message")),
        ("MessageExpression", text("messageExpression")),
        ("Reason", rule.get("reason").and_then(Json::as_str).map_or(Json::Null, Json::from)),
        ("FieldPath", text("fieldPath")),
        ("OptionalOldSelf", rule.get("optionalOldSelf").and_then(Json::as_bool).map_or(Json::Null, Json::Bool)),
    ];
    let rendered: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{}", go_json(v))).collect();
    // Inserted one by one: collecting into a map would instantiate a sort (3 KB of WebAssembly).
    let mut value = serde_json::Map::new();
    for (k, v) in fields {
        value.insert(String::from(k), v);
    }
    let value = Json::Object(value);
    let mut e = Error::new(ErrorType::Invalid, &Path::named(path), Some(value), detail);
    e.rendered_value = Some(format!("{{{}}}", rendered.join(",")));
    e
}

impl Rules {
    /// No rules yet: [`Rules::compile_node`] adds a node's.
    pub(super) fn new(minor: u32) -> Rules {
        Rules { list: Vec::new(), by_node: BTreeMap::new(), minor }
    }

    /// The compiled rules.
    pub fn list(&self) -> &[CompiledRule] {
        &self.list
    }

    /// Compiles the rules of one schema node (validation.go, per node once its schema is
    /// valid): `pointer` is its place in the schema (`/properties/spec`), `location` its path
    /// in the CRD, `cardinality` how many times it can run (`None`: unbounded, compilation.go
    /// maxCardinality: as many of its smallest values as fit in a request), `uncorrelatable`
    /// the first ancestor where `oldSelf` cannot be correlated. Errors go to `errors`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn compile_node(
        &mut self,
        schema: &Json,
        pointer: &str,
        location: &str,
        resource_root: bool,
        cardinality: Option<u64>,
        uncorrelatable: Option<&str>,
        total: &mut TotalCost,
        errors: &mut Vec<Error>,
    ) {
        let Some(list) = schema.get("x-kubernetes-validations").and_then(Json::as_array) else { return };
        let cardinality = cardinality.unwrap_or_else(|| {
            let min = sized_type(schema).map_or(0, |t| t.min_size);
            crate::cel::estimate::MAX_REQUEST_SIZE / min.saturating_add(1)
        });
        for (i, rule) in list.iter().enumerate() {
            let at = format!("{location}.x-kubernetes-validations[{i}]");
            if let Some(r) = compile_rule(
                schema,
                rule,
                &at,
                resource_root,
                cardinality,
                uncorrelatable,
                total,
                errors,
                crate::cel::environment::new_expressions(self.minor),
            ) {
                self.by_node.entry(String::from(pointer)).or_default().push(self.list.len());
                self.list.push(r);
            }
        }
    }

    /// Evaluates the rules over an object (and its old version on update): the errors, and the
    /// warnings of the errors ratcheting dropped.
    pub fn validate(&self, schema: &Json, obj: &Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
        let (errors, warnings, _) = self.validate_with_budget(schema, obj, old, RUNTIME_BUDGET, cost::PER_CALL_LIMIT);
        (errors, warnings)
    }

    /// [`Rules::validate`] within a cost budget and per-expression limit of its own (cel
    /// `Validator.Validate`'s `costBudget` and `NewValidator`'s `perCallLimit`, which the API
    /// server sets to `celconfig.RuntimeCELCostBudget` and `PerCallLimit`): also what is left
    /// of the budget, negative once it ran out or an expression passed its limit.
    pub fn validate_with_budget(
        &self,
        schema: &Json,
        obj: &Json,
        old: Option<&Json>,
        budget: i64,
        per_call: u64,
    ) -> (Vec<Error>, Vec<String>, i64) {
        self.run(schema, obj, old, true, true, budget, per_call)
    }

    /// The rules of a schema and of every node below it, compiled as `cel.NewValidator` does
    /// for a value of that schema alone (a `default`); rules that do not compile are left out
    /// (the CRD's own compilation reports them).
    pub(super) fn of_subtree(schema: &Json, resource_root: bool, minor: u32) -> Rules {
        let mut rules = Rules::new(minor);
        rules.collect(schema, "", resource_root, &mut TotalCost::default());
        rules
    }

    fn collect(&mut self, schema: &Json, pointer: &str, resource_root: bool, total: &mut TotalCost) {
        self.compile_node(schema, pointer, pointer, resource_root, Some(1), None, total, &mut Vec::new());
        let embedded = |s: &Json| flag(s, "x-kubernetes-embedded-resource");
        for (k, v) in schema.get("properties").and_then(Json::as_object).into_iter().flatten() {
            self.collect(v, &format!("{pointer}/properties/{k}"), embedded(v), total);
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child) = schema.get(key).filter(|c| c.is_object()) {
                self.collect(child, &format!("{pointer}/{key}"), embedded(child), total);
            }
        }
    }

    /// Evaluates the rules as `cel.Validator.Validate` does without its ratcheting option: a
    /// `default` is validated against itself as the old value, then (ratcheting on, as it is
    /// from 1.30) without one (defaulting/validation.go `validate`).
    pub(super) fn validate_value(&self, schema: &Json, value: &Json, resource_root: bool) -> Vec<Error> {
        let run = |old| self.run(schema, value, old, resource_root, false, RUNTIME_BUDGET, cost::PER_CALL_LIMIT).0;
        let errors = run(Some(value));
        if !errors.is_empty() {
            return errors;
        }
        run(None)
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        schema: &Json,
        obj: &Json,
        old: Option<&Json>,
        resource_root: bool,
        ratcheting: bool,
        budget: i64,
        per_call: u64,
    ) -> (Vec<Error>, Vec<String>, i64) {
        let mut run = Run { rules: self, errors: Vec::new(), warnings: Vec::new(), budget, per_call, ratcheting };
        let root = Path::root();
        // On update the whole object correlates with the old one.
        let ratchet = Ratchet { current: old, anchor: None };
        run.node(schema, "", &root, obj, old, resource_root, ratchet);
        (run.errors, run.warnings, run.budget)
    }
}

/// The estimated costs of a CRD's expressions (cel_validation.go `TotalCost`): their sum and
/// the four most expensive of those costing at least 1% of the CRD limit.
#[derive(Default)]
pub(super) struct TotalCost {
    pub(super) total: u64,
    pub(super) most_expensive: Vec<(String, u64)>,
}

impl TotalCost {
    fn observe(&mut self, path: String, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        let at = self.most_expensive.iter().position(|(_, c)| *c < cost).unwrap_or(self.most_expensive.len());
        self.most_expensive.insert(at, (path, cost));
        self.most_expensive.truncate(4);
    }
}

/// Compiles one rule as compilation.go `compileRule` and validation.go's loop over its result
/// do: the rule's cost times the node's cardinality against the per-rule limit and into the
/// total, its compile error (the type must be `bool` itself, not `dyn`), its
/// messageExpression (compiled only once the rule is: a `string`, estimated, not multiplied),
/// then `oldSelf` where it cannot be correlated, or an `optionalOldSelf` the rule does not
/// need. The errors go to `errors`.
#[allow(clippy::too_many_arguments)]
fn compile_rule(
    schema: &Json,
    rule: &Json,
    at: &str,
    resource_root: bool,
    cardinality: u64,
    uncorrelatable: Option<&str>,
    total: &mut TotalCost,
    errors: &mut Vec<Error>,
    compatibility: u32,
) -> Option<CompiledRule> {
    let text = String::from(rule.get("rule").and_then(Json::as_str).unwrap_or(""));
    let rule_path = format!("{at}.rule");
    // apiextensions validation.go: compile errors carry the whole rule as the value.
    let invalid = |path: &str, detail: String| rule_error(path, rule, detail);
    let self_type = cel::schema::decl_type(schema, resource_root).unwrap_or(CelType::Dyn);
    let optional_old_self_set = rule.get("optionalOldSelf").and_then(Json::as_bool);
    let optional_old_self = optional_old_self_set == Some(true);
    let mut decls = Decls::default();
    decls.set_compatibility(compatibility);
    decls.declare("self", self_type.clone());
    decls.declare("oldSelf", if optional_old_self { CelType::Optional(Rc::new(self_type)) } else { self_type });
    let sized =
        if resource_root { sized_type(&cel::schema::with_type_and_object_meta(schema)) } else { sized_type(schema) };
    let vars: Vec<(&str, crate::cel::estimate::SizedType)> =
        sized.iter().flat_map(|t| [("self", t.clone()), ("oldSelf", t.clone())]).collect();
    let failed =
        |e: &cel::CelError| Box::new(invalid(&rule_path, cel::display_error("compilation failed: ", e, &text)));
    // Checked before folding (cel-go validates the checked AST; the API server folds when it
    // builds the program), evaluated folded.
    let compiled = Program::compile(&text).map_err(|e| failed(&e)).and_then(|unoptimized| {
        let checked = match checker::check_kubernetes_overloads(&unoptimized, &decls) {
            Ok((CelType::Bool, checked)) => checked,
            // compilation.go: `ast.OutputType() != cel.BoolType`, `dyn` included.
            Ok(_) => return Err(Box::new(invalid(&rule_path, String::from("cel expression must evaluate to a bool")))),
            Err(e) => return Err(failed(&e)),
        };
        let program = checker::instantiate(&unoptimized, &text, &checked)
            .map_err(|m| Box::new(invalid(&rule_path, format!("program instantiation failed: {m}"))))?;
        let cost = estimate(&unoptimized, &vars).max;
        Ok((program, cost))
    });
    // A rule that does not compile costs 0.
    let estimated_cost = compiled.as_ref().map_or(0, |(_, c)| c.saturating_mul(cardinality));
    if estimated_cost > STATIC_ESTIMATED_COST_LIMIT {
        // The estimate itself rides along in `origin` (Kubernetes prints only the factor).
        let e = Error::new(
            ErrorType::Forbidden,
            &Path::named(&rule_path),
            None,
            cost_error_message("estimated rule cost", estimated_cost, STATIC_ESTIMATED_COST_LIMIT),
        );
        errors.push(e.with_origin(format!("estimatedCost={estimated_cost}")));
    }
    total.observe(rule_path.clone(), estimated_cost);
    let (program, uses_old_self) = match compiled {
        Ok((program, _)) => {
            let uses = program.variables().any(|v| v == "oldSelf");
            (Some(program), uses)
        }
        Err(e) => {
            errors.push(*e);
            (None, false)
        }
    };
    let mut message_expression = None;
    if let (Some(src), Some(_)) =
        (rule.get("messageExpression").and_then(Json::as_str).filter(|s| !s.is_empty()), &program)
    {
        let path = format!("{at}.messageExpression");
        let failed =
            |e: &cel::CelError| invalid(&path, cel::display_error("messageExpression compilation failed: ", e, src));
        let checked =
            Program::compile(src).and_then(|p| checker::check_kubernetes_overloads(&p, &decls).map(|t| (p, t)));
        match checked {
            Ok((unoptimized, (CelType::String, checked))) => {
                // compilation.go: after the check, `env.Program`.
                let built = checker::instantiate(&unoptimized, src, &checked)
                    .map_err(|m| invalid(&path, format!("messageExpression instantiation failed: {m}")));
                match built {
                    Ok(p) => {
                        // Not multiplied by the cardinality (validation.go MessageExpressionMaxCost).
                        let cost = estimate(&unoptimized, &vars).max;
                        if cost > STATIC_ESTIMATED_COST_LIMIT {
                            errors.push(Error::new(
                                ErrorType::Forbidden,
                                &Path::named(&path),
                                None,
                                cost_error_message(
                                    "estimated messageExpression cost",
                                    cost,
                                    STATIC_ESTIMATED_COST_LIMIT,
                                ),
                            ));
                        }
                        total.observe(path.clone(), cost);
                        message_expression = Some(p);
                    }
                    Err(e) => errors.push(e),
                }
            }
            Ok(_) => errors.push(invalid(&path, String::from("messageExpression must evaluate to a string"))),
            Err(e) => errors.push(failed(&e)),
        }
    }
    if uses_old_self {
        if let Some(within) = uncorrelatable {
            errors.push(Error::invalid(
                &Path::named(&rule_path),
                text.as_str(),
                format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {within}"),
            ));
        }
    } else if let Some(set) = optional_old_self_set {
        errors.push(Error::new(
            ErrorType::Invalid,
            &Path::named(&format!("{at}.optionalOldSelf")),
            Some(Json::Bool(set)),
            "may not be set if oldSelf is not used in rule",
        ));
    }
    Some(CompiledRule {
        location: String::from(at),
        rule: text,
        estimated_cost,
        message: rule.get("message").and_then(Json::as_str).map(|m| String::from(m.trim())),
        message_expression,
        reason: rule.get("reason").and_then(Json::as_str).map(String::from),
        // compilation.go `NormalizedRuleFieldPath`: the path `ValidFieldPath` gives, printed (a
        // property as `.name`, a map key as `[key]`, escapes undone); the CRD was refused if the
        // path is not valid.
        field_path: rule
            .get("fieldPath")
            .and_then(Json::as_str)
            .and_then(|fp| super::field_path::valid(fp, schema, true).ok())
            .map(|(normalized, _)| normalized)
            .filter(|n| !n.is_empty()),
        optional_old_self,
        uses_old_self,
        program: program?,
    })
}

/// The API server's cost budget for one object's rules (`celconfig.RuntimeCELCostBudget`).
const RUNTIME_BUDGET: i64 = cost::RUNTIME_BUDGET as i64;
const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

struct Run<'r> {
    rules: &'r Rules,
    errors: Vec<Error>,
    /// The errors ratcheting dropped, as the API server sends them back: warnings.
    warnings: Vec<String>,
    /// What is left of the cost budget; negative when validation stopped (cel/validation.go
    /// returns -1 once the budget or an expression's limit is exceeded).
    budget: i64,
    per_call: u64,
    /// Whether unchanged values' errors are ratcheted (custom resources on update; not a
    /// schema's default).
    ratcheting: bool,
}

/// `ruleErrorString`: the message, or else the rule.
fn rule_text(r: &CompiledRule) -> &str {
    r.message.as_deref().filter(|m| !m.is_empty()).unwrap_or(&r.rule)
}

/// The nearest node (itself or an ancestor) that correlates with the old object: when it is
/// unchanged, the errors of rules that do not use `oldSelf` are ratcheted (`ratchetingOptions`
/// in cel/validation.go).
#[derive(Clone, Copy)]
struct Anchor<'a> {
    schema: &'a Json,
    new: &'a Json,
    old: &'a Json,
}

/// Where a node stands for ratcheting: its own correlated old value, and the anchor.
#[derive(Clone, Copy, Default)]
struct Ratchet<'a> {
    current: Option<&'a Json>,
    anchor: Option<Anchor<'a>>,
}

impl<'a> Anchor<'a> {
    /// `shouldRatchetError`: the nearest correlated node is unchanged.
    fn unchanged(&self) -> bool {
        correlate::unchanged(self.schema, self.new, self.old)
    }
}

impl Run<'_> {
    #[allow(clippy::too_many_arguments)]
    fn node<'a>(
        &mut self,
        schema: &'a Json,
        pointer: &str,
        path: &Path<'_>,
        value: &'a Json,
        old: Option<&'a Json>,
        resource_root: bool,
        ratchet: Ratchet<'a>,
    ) {
        if self.budget < 0 || value.is_null() {
            return;
        }
        // The node itself when it correlates, else its nearest correlated ancestor.
        let anchor = match ratchet.current {
            Some(old) => Some(Anchor { schema, new: value, old }),
            None => ratchet.anchor,
        };
        if let Some(ids) = self.rules.by_node.get(pointer) {
            let schema_type = schema.get("type").and_then(Json::as_str).unwrap_or("");
            if self.budget == 0 {
                self.out_of_budget(path, schema_type);
                return;
            }
            let this = cel::schema::value(value, schema, resource_root);
            let old_value = old.map(|o| cel::schema::value(o, schema, resource_root));
            for &id in ids {
                let rule = &self.rules.list[id];
                if rule.uses_old_self && old.is_none() && !rule.optional_old_self {
                    continue; // a transition rule runs only with a correlated old value
                }
                // `validationActivationWithOldSelf`: the rule of an `optionalOldSelf` sees an
                // optional, its messageExpression the plain value (or none).
                let vars = |old_self: Option<Value>| {
                    let mut vars = BTreeMap::new();
                    vars.insert(String::from("self"), this.clone());
                    if let Some(o) = old_self {
                        vars.insert(String::from("oldSelf"), o);
                    }
                    vars
                };
                let plain = vars(old_value.clone());
                let optional =
                    rule.optional_old_self.then(|| vars(Some(Value::Optional(old_value.clone().map(Rc::new)))));
                self.evaluate(rule, optional.as_ref().unwrap_or(&plain), &plain, schema_type, path, value, anchor);
                if self.budget < 0 {
                    return;
                }
            }
        }
        // The child's place for ratcheting (`ratchetingOptions.key` / `.index`).
        let child = |current: Option<&'a Json>| match ratchet.current {
            None => ratchet,
            Some(_) => Ratchet { current, anchor },
        };
        match value {
            Json::Object(fields) => {
                // `MapIsCorrelatable`: granular (the default) and atomic maps pass old values
                // down; a map type the API server does not know does not.
                let correlatable = matches!(
                    schema.get("x-kubernetes-map-type").and_then(Json::as_str),
                    None | Some("granular" | "atomic")
                );
                let props = schema.get("properties").and_then(Json::as_object);
                let additional = schema.get("additionalProperties").filter(|a| a.is_object());
                for (k, v) in fields {
                    let (s, p, at) = match (props, additional) {
                        (Some(props), _) => match props.get(k) {
                            Some(s) => (s, format!("{pointer}/properties/{k}"), path.child(k)),
                            None => continue,
                        },
                        (None, Some(ap)) => (ap, format!("{pointer}/additionalProperties"), path.key(k)),
                        (None, None) => break,
                    };
                    let o = old.filter(|_| correlatable).and_then(|o| o.get(k));
                    let r = if resource_root && ratchet.anchor.is_none() && (k == "apiVersion" || k == "kind") {
                        Ratchet::default() // not visible to ratcheting at the root
                    } else {
                        child(ratchet.current.and_then(|c| correlate::key(schema, value, c, k)))
                    };
                    self.node(s, &p, &at, v, o, flag(s, "x-kubernetes-embedded-resource"), r);
                }
            }
            Json::Array(items) => {
                let Some(item_schema) = schema.get("items") else { return };
                // Only list-map items correlate with an old item (by their keys).
                let keys = correlate::map_keys(schema);
                for (i, item) in items.iter().enumerate() {
                    let o = match (&keys, old) {
                        (Some(keys), Some(old)) => correlate::map_item(keys, item, old),
                        _ => None,
                    };
                    let r = child(ratchet.current.and_then(|c| correlate::index(schema, value, c, i)));
                    self.node(
                        item_schema,
                        &format!("{pointer}/items"),
                        &path.index(i),
                        item,
                        o,
                        flag(item_schema, "x-kubernetes-embedded-resource"),
                        r,
                    );
                }
            }
            _ => {}
        }
    }

    /// cel/validation.go: the cost budget ran out.
    fn out_of_budget(&mut self, path: &Path<'_>, schema_type: &str) {
        self.errors.push(Error::new(ErrorType::Invalid, path, Some(Json::from(schema_type)), OUT_OF_BUDGET));
        self.budget = -1;
    }

    /// Charges an evaluation's cost (even a failed one's) to the budget: false, the budget
    /// spent, when it does not fit.
    fn charge(&mut self, cost: u64) -> bool {
        match i64::try_from(cost) {
            Ok(cost) if cost <= self.budget => {
                self.budget -= cost;
                true
            }
            _ => {
                self.budget = -1;
                false
            }
        }
    }

    /// Runs one rule (cel/validation.go `validateExpressions`), with `vars`, and its
    /// messageExpression with `message_vars`; a budget left negative stops validation.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &mut self,
        rule: &CompiledRule,
        vars: &BTreeMap<String, Value>,
        message_vars: &BTreeMap<String, Value>,
        schema_type: &str,
        path: &Path<'_>,
        value: &Json,
        anchor: Option<Anchor<'_>>,
    ) {
        let type_value = Some(Json::from(schema_type));
        let (result, cost) = rule.program.eval_costed(vars, self.per_call);
        if !self.charge(cost) {
            return self.out_of_budget(path, schema_type);
        }
        let outcome = match result {
            Ok(v) => v,
            Err(e) if e.kind == ErrorKind::Cost => {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    format!(
                        "'{}': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                        e.message,
                        rule_text(rule)
                    ),
                ));
                self.budget = -1;
                return;
            }
            // validation.go: a run-time overload error (only `dyn` values get past the checker)
            // is quoted as cel-go gives it.
            Err(e) if e.message.starts_with("no such overload") => {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    format!("'{}': call arguments did not match a supported operator, function or macro signature for rule: {}", e.message, rule_text(rule)),
                ));
                return;
            }
            Err(e) => {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    format!("{} evaluating rule: {}", e.message, rule_text(rule)),
                ));
                return;
            }
        };
        if matches!(outcome, Value::Bool(true)) {
            return;
        }
        // Ratcheting: the error of a rule that is no transition rule, on a value that did not
        // change, is a warning (validation.go `addErr`: `warning.AddWarning` with its text). The
        // error is made as any other first (its messageExpression costs as much).
        let ratchet = self.ratcheting && !rule.uses_old_self && anchor.is_some_and(|a| a.unchanged());
        // `fldPath.Child(NormalizedRuleFieldPath)`: one more step, however many it names.
        let target = match rule.field_path.as_deref() {
            None => path.render(),
            Some(extra) if path.is_root() => String::from(extra),
            Some(extra) => format!("{}.{extra}", path.render()),
        };
        let at = Path::named(&target);
        // `evalMessageExpression`: its cost is charged whether it gives a message or not; a
        // message is a non-empty string of at most 5120 bytes on one line, trimmed.
        let mut detail = None;
        if let Some(m) = &rule.message_expression {
            let (result, cost) = m.eval_costed(message_vars, self.per_call);
            let stop = match result {
                _ if !self.charge(cost) => Some(String::from(
                    "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
                )),
                Err(e) if e.kind == ErrorKind::Cost => Some(format!(
                    "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                    crate::field::go_quote(m.source())
                )),
                Ok(Value::String(s)) => {
                    let s = s.trim();
                    if !s.is_empty() && !s.contains('\n') && s.len() <= 5 * 1024 {
                        detail = Some(String::from(s));
                    }
                    None
                }
                _ => None,
            };
            if let Some(stop) = stop {
                self.budget = -1;
                return self.add(Error::new(ErrorType::Invalid, &at, type_value, stop), ratchet);
            }
        }
        let detail = detail.unwrap_or_else(|| match &rule.message {
            Some(m) if !m.is_empty() => m.clone(),
            _ => format!("failed rule: {}", rule.rule.trim()),
        });
        // Since Kubernetes 1.35 objects and lists print no value; scalars print themselves
        // (kubernetes PRs #132798, #133832). Before, every failed rule printed its schema's
        // type: `Invalid value: "string": failed rule: ...`.
        let shown = match value {
            _ if self.rules.minor < 35 => type_value,
            Json::Object(_) | Json::Array(_) => None,
            v => Some(v.clone()),
        };
        let error = match rule.reason.as_deref() {
            Some("FieldValueForbidden") => Error::new(ErrorType::Forbidden, &at, None, detail),
            Some("FieldValueRequired") => Error::new(ErrorType::Required, &at, None, detail),
            Some("FieldValueDuplicate") => Error::new(ErrorType::Duplicate, &at, shown, ""),
            _ => Error::new(ErrorType::Invalid, &at, shown, detail),
        };
        self.add(error, ratchet);
    }

    /// validation.go `addErr`: an error, or the warning of a ratcheted one.
    fn add(&mut self, error: Error, ratchet: bool) {
        if ratchet {
            self.warnings.push(error.text());
        } else {
            self.errors.push(error);
        }
    }
}
