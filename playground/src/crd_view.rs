//! The CRD view: a CustomResourceDefinition, a custom resource and (for an update) its old
//! version → the errors the API server would return, or why it would refuse the CRD.

use kubedv_core::crd::Crd;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::declarative::parse_object;
use crate::hooks::{text_input, use_debounced, use_persisted};

/// The CLI's CRD fixtures (the realistic CRDs the tests use).
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../cli/tests/fixtures/crd/", $name))
    };
}

/// (title, CRD, object, old object).
pub const EXAMPLES: &[(&str, &str, &str, &str)] = &[
    ("Certificate: rules fail", fixture!("certificate.yaml"), fixture!("certificate-bad.yaml"), ""),
    (
        "Certificate: schema errors block the rules",
        fixture!("certificate.yaml"),
        fixture!("certificate-schema-bad.yaml"),
        "",
    ),
    ("Certificate: valid", fixture!("certificate.yaml"), fixture!("certificate-good.yaml"), ""),
    (
        "HTTPRoute: wildcards, paths, weights, duplicate headers",
        fixture!("httproute.yaml"),
        fixture!("httproute-bad.yaml"),
        "",
    ),
    (
        "Policy update: transition rules",
        fixture!("policy.yaml"),
        fixture!("policy-new.yaml"),
        fixture!("policy-old.yaml"),
    ),
    ("A rule over the cost limit", fixture!("expensive.yaml"), fixture!("certificate-good.yaml"), ""),
];

#[function_component(CrdView)]
pub fn crd_view() -> Html {
    let crd = use_persisted("crd.crd", EXAMPLES[0].1);
    let object = use_persisted("crd.object", EXAMPLES[0].2);
    let old = use_persisted("crd.old", EXAMPLES[0].3);
    let d_crd = use_debounced((*crd).clone(), 200);
    let d_object = use_debounced((*object).clone(), 200);
    let d_old = use_debounced((*old).clone(), 200);

    let on_example = {
        let (crd, object, old) = (crd.clone(), object.clone(), old.clone());
        Callback::from(move |e: Event| {
            let i: usize = e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(0);
            if let Some((_, c, o, p)) = EXAMPLES.get(i) {
                crd.set((*c).into());
                object.set((*o).into());
                old.set((*p).into());
            }
        })
    };

    let result = (|| -> Result<Html, String> {
        let doc = parse_object(&d_crd).map_err(|e| e.replace("object:", "CRD:"))?;
        let loaded = match Crd::load(&doc, None) {
            Ok(c) => c,
            Err(errors) => {
                return Ok(html! {
                    <div id="crd-refused">
                        <p class="error">{ "The API server would refuse this CRD:" }</p>
                        <ul class="errors">{ for errors.iter().map(|e| html! { <li>{ e.text() }</li> }) }</ul>
                    </div>
                })
            }
        };
        let obj = parse_object(&d_object)?;
        let old_obj = if d_old.trim().is_empty() {
            None
        } else {
            Some(parse_object(&d_old).map_err(|e| e.replace("object:", "old object:"))?)
        };
        let errors = loaded.validate(&obj, old_obj.as_ref());
        Ok(html! {
            <>
                <p class="summary">{ format!("{} {} · {} rules compiled", loaded.kind, loaded.version, loaded.rules().len()) }</p>
                if errors.is_empty() {
                    <p class="ok">{ "no errors: the API server accepts this object" }</p>
                } else {
                    <ul class="errors">{ for errors.iter().map(|e| html! { <li>{ e.text() }</li> }) }</ul>
                }
            </>
        })
    })();
    let result = result.unwrap_or_else(|e| html! { <p class="error">{ e }</p> });

    html! {
        <section class="view crd">
            <h2>{ "Custom resources against a CRD: OpenAPI schema and x-kubernetes-validations" }</h2>
            <label for="crd-example">{ "Example" }</label>
            <select id="crd-example" onchange={on_example}>
                { for EXAMPLES.iter().enumerate().map(|(i, (title, ..))| html! { <option value={i.to_string()}>{ *title }</option> }) }
            </select>
            <div class="columns">
                <div>
                    <label for="crd-crd">{ "CustomResourceDefinition (YAML or JSON)" }</label>
                    <textarea id="crd-crd" rows="24" spellcheck="false" value={(*crd).clone()} oninput={text_input(&crd)} />
                </div>
                <div>
                    <label for="crd-object">{ "Custom resource" }</label>
                    <textarea id="crd-object" rows="24" spellcheck="false" value={(*object).clone()} oninput={text_input(&object)} />
                </div>
                <div>
                    <label for="crd-old">{ "Old object (an update; empty for a create)" }</label>
                    <textarea id="crd-old" rows="24" spellcheck="false" value={(*old).clone()} oninput={text_input(&old)} />
                </div>
            </div>
            <div id="crd-result" class="result">{ result }</div>
        </section>
    }
}
