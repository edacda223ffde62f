//! The tag catalog, searchable.

use kubedv_core::declarative::catalog::TAGS;
use yew::prelude::*;

use crate::hooks::text_input;

#[function_component(TagDocs)]
pub fn tag_docs() -> Html {
    let query = use_state(String::new);
    let q = query.to_ascii_lowercase();
    let hits = TAGS.iter().filter(|t| {
        q.is_empty() || t.name.to_ascii_lowercase().contains(&q) || t.description.to_ascii_lowercase().contains(&q)
    });
    html! {
        <section class="view">
            <label for="tag-search">{ "Search the +k8s: tags" }</label>
            <input id="tag-search" placeholder="e.g. maxLength, enum, subfield" value={(*query).clone()} oninput={text_input(&query)} />
            <div id="tag-list">
                { for hits.map(|t| html! {
                    <article class="tag">
                        <h3>{ format!("+{}", t.name) }<span class={classes!("badge", format!("{:?}", t.stability).to_lowercase())}>{ format!("{:?}", t.stability).to_lowercase() }</span></h3>
                        <p>{ t.description }</p>
                        if !t.args.is_empty() {
                            <p class="meta">{ format!("Arguments: {}", t.args.join("; ")) }</p>
                        }
                        if !t.payload.is_empty() {
                            <p class="meta">{ format!("Payload: {}", t.payload) }</p>
                        }
                        <pre>{ t.example }</pre>
                    </article>
                }) }
            </div>
        </section>
    }
}
