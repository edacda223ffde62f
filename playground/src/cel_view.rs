//! The CEL view: an expression, `self` / `oldSelf` (YAML or JSON) and an optional OpenAPI
//! schema; the value, its type, the runtime cost against Kubernetes' limit, the static
//! estimate, and errors at their position in the expression.

use std::collections::BTreeMap;

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::estimate::{cost_error_message, estimate, sized_type, STATIC_ESTIMATED_COST_LIMIT};
use kubedv_core::cel::{self, cost, CelError, ErrorKind, Program, Value};
use kubedv_input::ParseError;
use yew::prelude::*;

use crate::editor::{goto, parse_marks, use_focus, Editor, Mark};
use crate::hooks::{text_input, use_debounced, use_persisted};
use crate::picker::example_picker;

/// Realistic rules: (title, expression, self, oldSelf, schema).
pub const EXAMPLES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "Bounded replicas",
        "self.replicas >= 1 && self.replicas <= self.maxReplicas",
        "replicas: 3\nmaxReplicas: 10\n",
        "",
        "type: object\nproperties:\n  replicas: {type: integer}\n  maxReplicas: {type: integer}\n",
    ),
    (
        "Images from a trusted registry",
        "self.containers.all(c, c.image.startsWith('registry.example.com/'))",
        "containers:\n- name: web\n  image: registry.example.com/web:1.2.3\n- name: proxy\n  image: docker.io/envoy:1.30\n",
        "",
        "type: object\nproperties:\n  containers:\n    type: array\n    maxItems: 20\n    items:\n      type: object\n      properties:\n        name: {type: string, maxLength: 63}\n        image: {type: string, maxLength: 256}\n",
    ),
    (
        "Transition rule: replicas may only grow",
        "self.replicas >= oldSelf.replicas",
        "replicas: 2\n",
        "replicas: 5\n",
        "type: object\nproperties:\n  replicas: {type: integer}\n",
    ),
    (
        "Resource quantities",
        "quantity(self.requests.memory).isLessThan(quantity(self.limits.memory))",
        "requests: {memory: 512Mi}\nlimits: {memory: 1Gi}\n",
        "",
        "",
    ),
    (
        "Network ranges",
        "cidr(self.podCIDR).containsIP(self.nodeIP) && ip(self.nodeIP).family() == 4",
        "podCIDR: 10.244.0.0/16\nnodeIP: 10.244.3.7\n",
        "",
        "",
    ),
    (
        "Named formats in messages",
        "format.dns1123Label().validate(self.name).orValue(['ok'])",
        "name: My_Service\n",
        "",
        "",
    ),
    (
        "Escaped property names and timestamps",
        "self.image__dash__tag.matches('^v[0-9]+') && self.created < timestamp('2030-01-01T00:00:00Z')",
        "image-tag: v1.4.0\ncreated: 2024-05-01T10:00:00Z\n",
        "",
        "type: object\nproperties:\n  image-tag: {type: string, maxLength: 32}\n  created: {type: string, format: date-time}\n",
    ),
    (
        "Over the cost limit",
        "self.items.all(a, self.items.all(b, a != b || a == b))",
        "items: [1, 2, 3]\n",
        "",
        "type: object\nproperties:\n  items:\n    type: array\n    items: {type: integer}\n",
    ),
];

struct Outcome {
    value: Result<(Value, u64), CelError>,
    checked: Option<String>,
    estimated: Option<u64>,
}

/// The editors' documents (an empty editor is `None`).
struct Inputs<'a> {
    this: Option<&'a serde_json::Value>,
    old: Option<&'a serde_json::Value>,
    schema: Option<&'a serde_json::Value>,
}

fn run(expr: &str, inputs: &Inputs<'_>) -> Result<Outcome, String> {
    let schema = inputs.schema;
    let self_type = match schema {
        Some(s) => cel::schema::decl_type(s, false).ok_or("the schema gives self no CEL type")?,
        None => CelType::Dyn,
    };
    let convert = |json: &serde_json::Value| match schema {
        Some(s) => cel::schema::value(json, s, false),
        None => cel::from_json(json),
    };
    let mut vars = BTreeMap::new();
    let mut decls = Decls::default();
    if let Some(this) = inputs.this {
        vars.insert(String::from("self"), convert(this));
        decls.declare("self", self_type.clone());
    }
    if let Some(old) = inputs.old {
        vars.insert(String::from("oldSelf"), convert(old));
        decls.declare("oldSelf", self_type);
    }
    let program = match Program::compile_optimized(expr) {
        Ok(p) => p,
        Err(e) => return Ok(Outcome { value: Err(e), checked: None, estimated: None }),
    };
    // Checked as Kubernetes' environment checks (with its literal validators) before folding.
    let checked = match Program::compile(expr).and_then(|p| checker::check_kubernetes(&p, &decls)) {
        Ok(t) => t.to_string(),
        Err(e) => return Ok(Outcome { value: Err(e), checked: None, estimated: None }),
    };
    let estimated = schema.and_then(sized_type).map(|t| {
        let unoptimized = Program::compile(expr).ok();
        unoptimized.map_or(0, |p| estimate(&p, &[("self", t.clone()), ("oldSelf", t)]).max)
    });
    let value = program.eval(&vars).map(|r| (r.value, r.cost));
    Ok(Outcome { value, checked: Some(checked), estimated })
}

/// The expression's line with a caret under the error column.
fn caret(expr: &str, e: &CelError) -> Html {
    let line = expr.lines().nth(e.line.saturating_sub(1) as usize).unwrap_or("");
    let pad: String = " ".repeat(e.column.saturating_sub(1) as usize);
    html! { <pre class="caret">{ format!("{line}\n{pad}^") }</pre> }
}

/// An editor's document: `None` when it is empty, the parser's error when unreadable.
fn document(text: &str) -> Result<Option<serde_json::Value>, ParseError> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        kubedv_input::document(text).map(Some)
    }
}

#[function_component(CelView)]
pub fn cel_view() -> Html {
    let expr = use_persisted("cel.expr", EXAMPLES[0].1);
    let this = use_persisted("cel.self", EXAMPLES[0].2);
    let old = use_persisted("cel.old", EXAMPLES[0].3);
    let schema = use_persisted("cel.schema", EXAMPLES[0].4);
    let d_expr = use_debounced((*expr).clone(), 150);
    let d_self = use_debounced((*this).clone(), 150);
    let d_old = use_debounced((*old).clone(), 150);
    let d_schema = use_debounced((*schema).clone(), 150);
    let (expr_focus, show_expr_line) = use_focus();

    let load = {
        let (expr, this, old, schema) = (expr.clone(), this.clone(), old.clone(), schema.clone());
        Callback::from(move |i: usize| {
            if let Some((_, x, s, o, sc)) = EXAMPLES.get(i) {
                expr.set((*x).into());
                this.set((*s).into());
                old.set((*o).into());
                schema.set((*sc).into());
            }
        })
    };
    let current =
        EXAMPLES.iter().position(|(_, x, s, o, sc)| *x == *expr && *s == *this && *o == *old && *sc == *schema);

    let (self_doc, old_doc, schema_doc) = (document(&d_self), document(&d_old), document(&d_schema));
    let mut expr_marks = Vec::new();
    let outcome = match (&self_doc, &old_doc, &schema_doc) {
        (Err(e), _, _) => Err(format!("self: {e}")),
        (_, Err(e), _) => Err(format!("oldSelf: {e}")),
        (_, _, Err(e)) => Err(format!("schema: {e}")),
        (Ok(this), Ok(old), Ok(schema)) => {
            run(&d_expr, &Inputs { this: this.as_ref(), old: old.as_ref(), schema: schema.as_ref() })
        }
    };
    let result = match outcome {
        Err(input) => html! { <p class="error" id="cel-input-error">{ input }</p> },
        Ok(out) => {
            let estimate = out.estimated.map(|e| {
                let over = e > STATIC_ESTIMATED_COST_LIMIT;
                html! {
                    <>
                        <p id="cel-estimate" class={classes!(over.then_some("error"))}>
                            { format!("estimated cost (Kubernetes, at CRD creation): {e}{}", if over { " — over the 10,000,000 limit: the API server refuses the CRD" } else { "" }) }
                        </p>
                        if over {
                            <p class="error">{ format!("x-kubernetes-validations[0].rule: Forbidden: {}", cost_error_message("estimated rule cost", e, STATIC_ESTIMATED_COST_LIMIT)) }</p>
                        }
                    </>
                }
            });
            match out.value {
                Ok((value, c)) => {
                    let pct = (c as f64 / cost::PER_CALL_LIMIT as f64 * 100.0).min(100.0);
                    html! {
                        <>
                            <pre id="cel-value" class="ok">{ serde_json::to_string_pretty(&cel::to_json(&value)).unwrap_or_default() }</pre>
                            <p id="cel-type">{ format!("type {} (checked: {})", value.type_name(), out.checked.unwrap_or_default()) }</p>
                            <p id="cel-cost">{ format!("runtime cost {c} of the {} per-expression limit ({pct:.4}%)", cost::PER_CALL_LIMIT) }</p>
                            <div class="bar"><div style={format!("width: {pct}%")}></div></div>
                            { for estimate }
                        </>
                    }
                }
                Err(e) => {
                    expr_marks.push(Mark { line: e.line as usize, message: e.message.clone() });
                    let kind = match e.kind {
                        ErrorKind::Parse => "parse error",
                        ErrorKind::Check => "check error",
                        ErrorKind::Eval => "evaluation error",
                        ErrorKind::Cost => "cost limit exceeded",
                    };
                    html! {
                        <>
                            <p id="cel-error" class="error">{ goto(html! { { format!("{kind} at {}:{}: {}", e.line, e.column, e.message) } }, Some(e.line as usize), &show_expr_line) }</p>
                            { caret(&d_expr, &e) }
                            { for estimate }
                        </>
                    }
                }
            }
        }
    };

    html! {
        <section class="view cel">
            <h2>{ "CEL, as Kubernetes runs x-kubernetes-validations rules" }</h2>
            { example_picker("cel-example", EXAMPLES.iter().map(|e| e.0), current, load) }
            <Editor id="cel-expr" label="Expression" class="short" value={(*expr).clone()} oninput={text_input(&expr)}
                marks={expr_marks} focus={expr_focus} />
            <div class="columns">
                <Editor id="cel-self" label="self (YAML or JSON)" class="medium" value={(*this).clone()}
                    oninput={text_input(&this)} marks={parse_marks(&self_doc)} />
                <Editor id="cel-old" label="oldSelf (for transition rules; empty on create)" class="medium"
                    value={(*old).clone()} oninput={text_input(&old)} marks={parse_marks(&old_doc)} />
                <Editor id="cel-schema" label="OpenAPI schema of self (optional)" class="medium"
                    value={(*schema).clone()} oninput={text_input(&schema)} marks={parse_marks(&schema_doc)} />
            </div>
            <div id="cel-result" class="result">{ result }</div>
        </section>
    }
}
