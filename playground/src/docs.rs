//! The tag catalog, searchable.

use kubedv_core::declarative::catalog::TAGS;
use yew::prelude::*;

use crate::app::OpenTab;
use crate::hooks::{persist, text_input, use_persisted};
use crate::try_it;

#[function_component(TagDocs)]
pub fn tag_docs() -> Html {
    let query = use_persisted("tags.query", "");
    let open = use_context::<OpenTab>();
    let try_it = |example: &'static str| {
        let open = open.clone();
        Callback::from(move |_| {
            persist("types", &try_it::types_for(example));
            persist("object", try_it::OBJECT);
            persist("root", "");
            persist("update", "");
            persist("handwritten", "");
            if let Some(open) = &open {
                open.0.emit("declarative");
            }
        })
    };
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
                        <button class="try" id={format!("try-{}", t.name.trim_start_matches("k8s:"))} onclick={try_it(t.example)}>{ "Try it" }</button>
                    </article>
                }) }
            </div>
        </section>
    }
}
