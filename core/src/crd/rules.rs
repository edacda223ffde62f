//! `x-kubernetes-validations`: rules compiled when the CRD is loaded (type-checked against the
//! schema, estimated against the cost limits) and evaluated at each node of a custom resource
//! with `self` and the correlated `oldSelf`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

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

/// The rules of a schema, by node.
pub struct Rules {
    list: Vec<CompiledRule>,
    by_node: BTreeMap<String, Vec<usize>>,
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// cel-go's `Issues.String()` for an error in `source`: the position, then the source line
/// with a caret under the column (common/error.go `ToDisplayString`: tabs shown as spaces,
/// full-width dot and caret under multi-byte characters, no excerpt past 16,384 bytes).
fn compile_error(prefix: &str, e: &cel::CelError, source: &str) -> String {
    let mut out = format!("{prefix}ERROR: <input>:{}:{}: {}", e.line, e.column, e.message);
    let Some(line) = source.split('\n').nth((e.line as usize).saturating_sub(1)) else { return out };
    if line.len() > 16_384 {
        return out;
    }
    let snippet = line.replace('\t', " ");
    out.push_str("\n | ");
    out.push_str(&snippet);
    out.push_str("\n | ");
    let mut chars = snippet.chars();
    for _ in 1..e.column {
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => out.push('\u{ff0e}'),
            Some(_) => out.push('.'),
            None => break,
        }
    }
    out.push(if chars.next().is_some_and(|c| c.len_utf8() > 1) { '\u{ff3e}' } else { '^' });
    out
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
    let value = Json::Object(fields.into_iter().map(|(k, v)| (String::from(k), v)).collect());
    let mut e = Error::new(ErrorType::Invalid, &Path::named(path), Some(value), detail);
    e.rendered_value = Some(format!("{{{}}}", rendered.join(",")));
    e
}

impl Rules {
    /// Compiles every rule under `schema` (its location for messages is `base`).
    pub fn compile(schema: &Json, base: &str) -> Result<Rules, Vec<Error>> {
        let mut rules = Rules { list: Vec::new(), by_node: BTreeMap::new() };
        let mut errors = Vec::new();
        rules.walk(schema, String::new(), String::from(base), true, 1, &mut errors);
        let total = rules.list.iter().fold(0u64, |a, r| a.saturating_add(r.estimated_cost));
        if total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            errors.push(Error::new(
                ErrorType::Forbidden,
                &Path::named(base),
                None,
                cost_error_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                    total,
                    STATIC_ESTIMATED_CRD_COST_LIMIT,
                ),
            ));
        }
        if errors.is_empty() {
            Ok(rules)
        } else {
            Err(errors)
        }
    }

    /// The compiled rules.
    pub fn list(&self) -> &[CompiledRule] {
        &self.list
    }

    fn walk(
        &mut self,
        schema: &Json,
        pointer: String,
        location: String,
        resource_root: bool,
        cardinality: u64,
        errors: &mut Vec<Error>,
    ) {
        if let Some(list) = schema.get("x-kubernetes-validations").and_then(Json::as_array) {
            for (i, rule) in list.iter().enumerate() {
                let at = format!("{location}.x-kubernetes-validations[{i}]");
                match compile_rule(schema, rule, &at, resource_root, cardinality) {
                    Ok(r) => {
                        self.by_node.entry(pointer.clone()).or_default().push(self.list.len());
                        self.list.push(r);
                    }
                    Err(e) => errors.push(e),
                }
            }
        }
        if let Some(props) = schema.get("properties").and_then(Json::as_object) {
            for (k, v) in props {
                let embedded = flag(v, "x-kubernetes-embedded-resource");
                self.walk(
                    v,
                    format!("{pointer}/properties/{k}"),
                    format!("{location}.properties[{k}]"),
                    embedded,
                    cardinality,
                    errors,
                );
            }
        }
        let bound = |s: &Json| sized_type(s).map_or(1, |t| t.max_elements.max(1));
        if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
            let n = cardinality.saturating_mul(bound(schema));
            self.walk(
                items,
                format!("{pointer}/items"),
                format!("{location}.items"),
                flag(items, "x-kubernetes-embedded-resource"),
                n,
                errors,
            );
        }
        if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            let n = cardinality.saturating_mul(bound(schema));
            self.walk(
                ap,
                format!("{pointer}/additionalProperties"),
                format!("{location}.additionalProperties"),
                flag(ap, "x-kubernetes-embedded-resource"),
                n,
                errors,
            );
        }
    }

    /// Evaluates the rules over an object (and its old version on update).
    pub fn validate(&self, schema: &Json, obj: &Json, old: Option<&Json>) -> Vec<Error> {
        let mut run = Run { rules: self, errors: Vec::new(), budget: cost::RUNTIME_BUDGET, stopped: false };
        let root = Path::root();
        run.node(schema, "", &root, obj, old, true);
        run.errors
    }
}

// One error per rule, made once at load: its size does not matter.
#[allow(clippy::result_large_err)]
fn compile_rule(
    schema: &Json,
    rule: &Json,
    at: &str,
    resource_root: bool,
    cardinality: u64,
) -> Result<CompiledRule, Error> {
    let text = String::from(rule.get("rule").and_then(Json::as_str).unwrap_or(""));
    let rule_path = format!("{at}.rule");
    // apiextensions validation.go: compile errors carry the whole rule as the value.
    let invalid = |path: &str, detail: String| rule_error(path, rule, detail);
    let self_type = cel::schema::decl_type(schema, resource_root).unwrap_or(CelType::Dyn);
    let optional_old_self = flag(rule, "optionalOldSelf");
    let mut decls = Decls::default();
    decls.declare("self", self_type.clone());
    decls.declare("oldSelf", if optional_old_self { CelType::Optional(Rc::new(self_type)) } else { self_type });
    let failed = |e: &cel::CelError| invalid(&rule_path, compile_error("compilation failed: ", e, &text));
    // Checked before folding (cel-go validates the checked AST; the API server folds when it
    // builds the program), evaluated folded.
    let unoptimized = Program::compile(&text).map_err(|e| failed(&e))?;
    match checker::check_kubernetes(&unoptimized, &decls) {
        Ok(CelType::Bool) | Ok(CelType::Dyn) => {}
        // compilation.go: any other output type.
        Ok(_) => return Err(invalid(&rule_path, String::from("cel expression must evaluate to a bool"))),
        Err(e) => return Err(failed(&e)),
    }
    let program = Program::compile_optimized(&text).map_err(|e| failed(&e))?;
    let uses_old_self = program.variables().any(|v| v == "oldSelf");
    if optional_old_self && !uses_old_self {
        return Err(Error::new(
            ErrorType::Invalid,
            &Path::named(&format!("{at}.optionalOldSelf")),
            Some(Json::Bool(true)),
            "may not be set if oldSelf is not used in rule",
        ));
    }
    let sized = sized_type(schema);
    let vars: Vec<(&str, crate::cel::estimate::SizedType)> =
        sized.iter().flat_map(|t| [("self", t.clone()), ("oldSelf", t.clone())]).collect();
    let estimated_cost = estimate(&unoptimized, &vars).max.saturating_mul(cardinality);
    if estimated_cost > STATIC_ESTIMATED_COST_LIMIT {
        // The estimate itself rides along in `origin` (Kubernetes prints only the factor).
        let e = Error::new(
            ErrorType::Forbidden,
            &Path::named(&rule_path),
            None,
            cost_error_message("estimated rule cost", estimated_cost, STATIC_ESTIMATED_COST_LIMIT),
        );
        return Err(e.with_origin(format!("estimatedCost={estimated_cost}")));
    }
    let message_expression = match rule.get("messageExpression").and_then(Json::as_str) {
        Some(src) => {
            let path = format!("{at}.messageExpression");
            let failed =
                |e: &cel::CelError| invalid(&path, compile_error("messageExpression compilation failed: ", e, src));
            let checked = Program::compile(src).and_then(|p| checker::check_kubernetes(&p, &decls));
            match checked {
                Ok(CelType::String) | Ok(CelType::Dyn) => {
                    Some(Program::compile_optimized(src).map_err(|e| failed(&e))?)
                }
                Ok(_) => return Err(invalid(&path, String::from("messageExpression must evaluate to a string"))),
                Err(e) => return Err(failed(&e)),
            }
        }
        None => None,
    };
    Ok(CompiledRule {
        location: String::from(at),
        rule: text,
        estimated_cost,
        message: rule.get("message").and_then(Json::as_str).map(|m| String::from(m.trim())),
        message_expression,
        reason: rule.get("reason").and_then(Json::as_str).map(String::from),
        field_path: rule.get("fieldPath").and_then(Json::as_str).map(String::from),
        optional_old_self,
        uses_old_self,
        program,
    })
}

struct Run<'r> {
    rules: &'r Rules,
    errors: Vec<Error>,
    budget: u64,
    stopped: bool,
}

/// `ruleErrorString`: the message, or else the rule.
fn rule_text(r: &CompiledRule) -> &str {
    r.message.as_deref().filter(|m| !m.is_empty()).unwrap_or(&r.rule)
}

impl Run<'_> {
    fn node(
        &mut self,
        schema: &Json,
        pointer: &str,
        path: &Path<'_>,
        value: &Json,
        old: Option<&Json>,
        resource_root: bool,
    ) {
        if self.stopped || value.is_null() {
            return;
        }
        if let Some(ids) = self.rules.by_node.get(pointer) {
            let schema_type = schema.get("type").and_then(Json::as_str).unwrap_or("");
            let this = cel::schema::value(value, schema, resource_root);
            let old_value = old.map(|o| cel::schema::value(o, schema, resource_root));
            for &id in ids {
                let rule = &self.rules.list[id];
                if rule.uses_old_self && old.is_none() && !rule.optional_old_self {
                    continue; // a transition rule runs only with a correlated old value
                }
                let mut vars = BTreeMap::new();
                vars.insert(String::from("self"), this.clone());
                match (&old_value, rule.optional_old_self) {
                    (Some(o), false) => {
                        vars.insert(String::from("oldSelf"), o.clone());
                    }
                    (o, true) => {
                        vars.insert(String::from("oldSelf"), Value::Optional(o.clone().map(Rc::new)));
                    }
                    (None, false) => {}
                }
                if !self.evaluate(rule, &vars, schema_type, path, value, old) {
                    self.stopped = true;
                    return;
                }
            }
        }
        match value {
            Json::Object(fields) => {
                if let Some(props) = schema.get("properties").and_then(Json::as_object) {
                    for (k, v) in fields {
                        let Some(s) = props.get(k) else { continue };
                        let o = old.and_then(|o| o.get(k));
                        self.node(
                            s,
                            &format!("{pointer}/properties/{k}"),
                            &path.child(k),
                            v,
                            o,
                            flag(s, "x-kubernetes-embedded-resource"),
                        );
                    }
                } else if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                    for (k, v) in fields {
                        let o = old.and_then(|o| o.get(k));
                        self.node(
                            ap,
                            &format!("{pointer}/additionalProperties"),
                            &path.key(k),
                            v,
                            o,
                            flag(ap, "x-kubernetes-embedded-resource"),
                        );
                    }
                }
            }
            Json::Array(items) => {
                let Some(item_schema) = schema.get("items") else { return };
                let keys: Vec<&str> = schema
                    .get("x-kubernetes-list-map-keys")
                    .and_then(Json::as_array)
                    .map_or(Vec::new(), |k| k.iter().filter_map(Json::as_str).collect());
                let map_list =
                    schema.get("x-kubernetes-list-type").and_then(Json::as_str) == Some("map") && !keys.is_empty();
                for (i, item) in items.iter().enumerate() {
                    // Only list-map items correlate with an old item (by their keys).
                    let o = if map_list {
                        old.and_then(Json::as_array)
                            .and_then(|olds| olds.iter().find(|x| keys.iter().all(|k| x.get(*k) == item.get(*k))))
                    } else {
                        None
                    };
                    self.node(
                        item_schema,
                        &format!("{pointer}/items"),
                        &path.index(i),
                        item,
                        o,
                        flag(item_schema, "x-kubernetes-embedded-resource"),
                    );
                }
            }
            _ => {}
        }
    }

    /// Runs one rule; false when validation must stop (budget or call limit exhausted).
    fn evaluate(
        &mut self,
        rule: &CompiledRule,
        vars: &BTreeMap<String, Value>,
        schema_type: &str,
        path: &Path<'_>,
        value: &Json,
        old: Option<&Json>,
    ) -> bool {
        let type_value = Some(Json::from(schema_type));
        let limit = cost::PER_CALL_LIMIT.min(self.budget);
        let result = rule.program.eval_with_limit(vars, limit);
        let outcome = match result {
            Ok(r) => {
                self.budget = self.budget.saturating_sub(r.cost);
                r.value
            }
            Err(e) if e.kind == ErrorKind::Cost && limit < cost::PER_CALL_LIMIT => {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    "validation failed due to running out of cost budget, no further validation rules will be run",
                ));
                return false;
            }
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
                return false;
            }
            Err(e)
                if e.message.starts_with("found no matching overload") || e.message.starts_with("no such overload") =>
            {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    format!("'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {}", rule_text(rule)),
                ));
                return true;
            }
            Err(e) => {
                self.errors.push(Error::new(
                    ErrorType::Invalid,
                    path,
                    type_value,
                    format!("{} evaluating rule: {}", e.message, rule_text(rule)),
                ));
                return true;
            }
        };
        if matches!(outcome, Value::Bool(true)) {
            return true;
        }
        // Ratcheting: an error on a value that did not change is dropped.
        if !rule.uses_old_self && old.is_some_and(|o| o == value) {
            return true;
        }
        let mut detail = None;
        if let Some(m) = &rule.message_expression {
            match m.eval_with_limit(vars, cost::PER_CALL_LIMIT.min(self.budget)) {
                Ok(r) => {
                    self.budget = self.budget.saturating_sub(r.cost);
                    if let Value::String(s) = r.value {
                        let s = s.trim();
                        if !s.is_empty() && !s.contains('\n') && s.len() <= 5 * 1024 {
                            detail = Some(String::from(s));
                        }
                    }
                }
                Err(e) if e.kind == ErrorKind::Cost => {
                    self.errors.push(Error::new(
                        ErrorType::Invalid,
                        path,
                        type_value,
                        "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run",
                    ));
                    return false;
                }
                Err(_) => {}
            }
        }
        let detail = detail.unwrap_or_else(|| match &rule.message {
            Some(m) if !m.is_empty() => m.clone(),
            _ => format!("failed rule: {}", rule.rule.trim()),
        });
        // Since Kubernetes 1.35 objects and lists print no value; scalars print themselves.
        let shown = match value {
            Json::Object(_) | Json::Array(_) => None,
            v => Some(v.clone()),
        };
        let extra = rule.field_path.as_deref().map(normalize_field_path).unwrap_or_default();
        let target = if extra.is_empty() {
            path.render()
        } else if path.is_root() {
            extra.trim_start_matches('.').into()
        } else {
            format!("{}{extra}", path.render())
        };
        let at = Path::named(&target);
        let error = match rule.reason.as_deref() {
            Some("FieldValueForbidden") => Error::new(ErrorType::Forbidden, &at, None, detail),
            Some("FieldValueRequired") => Error::new(ErrorType::Required, &at, None, detail),
            Some("FieldValueDuplicate") => Error::new(ErrorType::Duplicate, &at, shown, ""),
            _ => Error::new(ErrorType::Invalid, &at, shown, detail),
        };
        self.errors.push(error);
        true
    }
}

/// A rule's `fieldPath` (`.spec.x`, `.items['a.b']`) in the form field paths print.
fn normalize_field_path(fp: &str) -> String {
    let mut out = String::new();
    let mut rest = fp;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']").unwrap_or(r.len());
            out.push('[');
            out.push_str(&r[..end]);
            out.push(']');
            rest = r.get(end + 2..).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            out.push('.');
            out.push_str(&r[..end]);
            rest = &r[end..];
        } else {
            out.push_str(rest);
            break;
        }
    }
    out
}
