use yew::prelude::*;

use crate::format_check::FormatCheck;

#[function_component(App)]
pub fn app() -> Html {
    html! {
        <>
            <header>
                <h1>{ "kubedv playground" }</h1>
                <p>{ format!("Kubernetes API validation in your browser · v{}", kubedv_core::VERSION) }</p>
            </header>
            <main>
                <FormatCheck />
            </main>
        </>
    }
}
