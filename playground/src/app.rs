use yew::prelude::*;

use crate::cel_view::CelView;
use crate::crd_view::CrdView;
use crate::cri::Cri;
use crate::declarative::Declarative;
use crate::docs::TagDocs;
use crate::format_check::FormatCheck;
use crate::gallery::Gallery;
use crate::hooks::use_persisted;
use crate::manifests_view::ManifestsView;
use crate::policies_view::PoliciesView;

/// The views: (id, label).
pub const TABS: [(&str, &str); 9] = [
    ("declarative", "Declarative validation"),
    ("cel", "CEL"),
    ("crd", "CRD"),
    ("manifests", "Manifests"),
    ("policies", "Policies"),
    ("tags", "Tag docs"),
    ("formats", "Formats"),
    ("cri", "CRI skew"),
    ("gallery", "Examples"),
];

/// Opens a view by its id (the gallery and "Try it" load a case, then open its view).
#[derive(Clone, PartialEq)]
pub struct OpenTab(pub Callback<&'static str>);

#[function_component(App)]
pub fn app() -> Html {
    let tab = use_persisted("tab", "declarative");
    let view = match tab.as_str() {
        "tags" => html! { <TagDocs /> },
        "formats" => html! { <FormatCheck /> },
        "cri" => html! { <Cri /> },
        "cel" => html! { <CelView /> },
        "crd" => html! { <CrdView /> },
        "manifests" => html! { <ManifestsView /> },
        "policies" => html! { <PoliciesView /> },
        "gallery" => html! { <Gallery /> },
        _ => html! { <Declarative /> },
    };
    let open_tab = {
        let tab = tab.clone();
        OpenTab(Callback::from(move |id: &'static str| tab.set(id.to_string())))
    };
    let share = use_state(String::new);
    let on_share = {
        let share = share.clone();
        Callback::from(move |_| share.set(crate::share::link().unwrap_or_default()))
    };
    html! {
        <>
            <header>
                <div class="share">
                    <button id="share" onclick={on_share}>{ "Share" }</button>
                    if !share.is_empty() {
                        <input id="share-link" readonly=true value={(*share).clone()} aria-label="share link" />
                    }
                </div>
                <h1>{ "kubedv playground" }</h1>
                <p>{ format!("Kubernetes API validation in your browser · v{}", kubedv_core::VERSION) }</p>
                <nav>
                    { for TABS.iter().map(|(id, label)| {
                        let t = tab.clone();
                        let id_owned = id.to_string();
                        html! {
                            <button id={format!("tab-{id}")} class={classes!("tab", (tab.as_str() == *id).then_some("active"))}
                                onclick={Callback::from(move |_| t.set(id_owned.clone()))}>{ *label }</button>
                        }
                    }) }
                </nav>
            </header>
            <main><ContextProvider<OpenTab> context={open_tab}>{ view }</ContextProvider<OpenTab>></main>
        </>
    }
}
