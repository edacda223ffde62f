//! The CEL view: an expression, `self` / `oldSelf` (YAML or JSON) and an optional OpenAPI
//! schema; the value, its type, the runtime cost against Kubernetes' limit, the static
//! estimate, and errors at their position in the expression.

use std::collections::BTreeMap;

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::estimate::{cost_error_message, estimate, sized_type, STATIC_ESTIMATED_COST_LIMIT};
use kubedv_core::cel::{self, cost, CelError, ErrorKind, Program, Value};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::declarative::parse_object;
use crate::hooks::{text_input, use_debounced, use_persisted};

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

fn run(expr: &str, self_text: &str, old_text: &str, schema_text: &str) -> Result<Outcome, String> {
    let schema = if schema_text.trim().is_empty() {
        None
    } else {
        Some(parse_object(schema_text).map_err(|e| e.replace("object:", "schema:"))?)
    };
    let self_type = match &schema {
        Some(s) => cel::schema::decl_type(s, false).ok_or("the schema gives self no CEL type")?,
        None => CelType::Dyn,
    };
    let convert = |json: &serde_json::Value| match &schema {
        Some(s) => cel::schema::value(json, s, false),
        None => cel::from_json(json),
    };
    let mut vars = BTreeMap::new();
    let mut decls = Decls::default();
    if !self_text.trim().is_empty() {
        vars.insert(
            String::from("self"),
            convert(&parse_object(self_text).map_err(|e| e.replace("object:", "self:"))?),
        );
        decls.declare("self", self_type.clone());
    }
    if !old_text.trim().is_empty() {
        vars.insert(
            String::from("oldSelf"),
            convert(&parse_object(old_text).map_err(|e| e.replace("object:", "oldSelf:"))?),
        );
        decls.declare("oldSelf", self_type);
    }
    let program = match Program::compile_optimized(expr) {
        Ok(p) => p,
        Err(e) => return Ok(Outcome { value: Err(e), checked: None, estimated: None }),
    };
    let checked = match checker::check(&program, &decls) {
        Ok(t) => t.to_string(),
        Err(e) => return Ok(Outcome { value: Err(e), checked: None, estimated: None }),
    };
    let estimated = schema.as_ref().and_then(sized_type).map(|t| {
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

    let on_example = {
        let (expr, this, old, schema) = (expr.clone(), this.clone(), old.clone(), schema.clone());
        Callback::from(move |e: Event| {
            let i: usize = e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0);
            if let Some((_, x, s, o, sc)) = EXAMPLES.get(i) {
                expr.set((*x).into());
                this.set((*s).into());
                old.set((*o).into());
                schema.set((*sc).into());
            }
        })
    };

    let result = match run(&d_expr, &d_self, &d_old, &d_schema) {
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
                    let kind = match e.kind {
                        ErrorKind::Parse => "parse error",
                        ErrorKind::Check => "check error",
                        ErrorKind::Eval => "evaluation error",
                        ErrorKind::Cost => "cost limit exceeded",
                    };
                    html! {
                        <>
                            <p id="cel-error" class="error">{ format!("{kind} at {}:{}: {}", e.line, e.column, e.message) }</p>
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
            <label for="cel-example">{ "Example" }</label>
            <select id="cel-example" onchange={on_example}>
                { for EXAMPLES.iter().enumerate().map(|(i, (title, ..))| html! { <option value={i.to_string()}>{ *title }</option> }) }
            </select>
            <label for="cel-expr">{ "Expression" }</label>
            <textarea id="cel-expr" rows="3" spellcheck="false" value={(*expr).clone()} oninput={text_input(&expr)} />
            <div class="columns">
                <div>
                    <label for="cel-self">{ "self (YAML or JSON)" }</label>
                    <textarea id="cel-self" rows="10" spellcheck="false" value={(*this).clone()} oninput={text_input(&this)} />
                </div>
                <div>
                    <label for="cel-old">{ "oldSelf (for transition rules; empty on create)" }</label>
                    <textarea id="cel-old" rows="10" spellcheck="false" value={(*old).clone()} oninput={text_input(&old)} />
                </div>
                <div>
                    <label for="cel-schema">{ "OpenAPI schema of self (optional)" }</label>
                    <textarea id="cel-schema" rows="10" spellcheck="false" value={(*schema).clone()} oninput={text_input(&schema)} />
                </div>
            </div>
            <div id="cel-result" class="result">{ result }</div>
        </section>
    }
}
