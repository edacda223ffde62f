//! Check a value against a `+k8s:format` and show the errors Kubernetes would print.

use kubedv_core::field::Path;
use kubedv_core::format::Format;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::hooks::text_input;

#[function_component(FormatCheck)]
pub fn format_check() -> Html {
    let format = use_state(|| Format::ShortName);
    let field = use_state(|| String::from("metadata.name"));
    let value = use_state(|| String::from("my-app"));

    let on_format = {
        let format = format.clone();
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(f) = Format::from_name(&name) {
                format.set(f);
            }
        })
    };
    let on_field = text_input(&field);
    let on_value = text_input(&value);

    let path = Path::named(&field);
    let errors = format.validate(&path, &value);

    html! {
        <section class="view">
            <h2>{ "Check a value against a +k8s:format" }</h2>
            <label for="format">{ "Format" }</label>
            <select id="format" onchange={on_format}>
                { for Format::ALL.iter().map(|f| html! {
                    <option value={f.name()} selected={*f == *format}>{ f.name() }</option>
                }) }
            </select>
            <p class="summary">{ format.summary() }</p>
            <label for="field">{ "Field path" }</label>
            <input id="field" value={(*field).clone()} oninput={on_field} spellcheck="false" />
            <label for="value">{ "Value" }</label>
            <input id="value" value={(*value).clone()} oninput={on_value} spellcheck="false" />
            <div id="result" class="result">
                if errors.is_empty() {
                    <p class="ok">{ format!("valid {}", format.name()) }</p>
                } else {
                    <ul class="errors">
                        { for errors.iter().map(|e| html! {
                            <li>{ e.text() }<div class="meta">{ format!("{} · origin {}", e.kind.name(), e.origin) }</div></li>
                        }) }
                    </ul>
                }
            </div>
        </section>
    }
}
