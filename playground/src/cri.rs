//! The CRI views: version skew on a node, and the feature-maturity policy.

use kubedv_core::cri::maturity::{self, Feature, Stage, Status};
use kubedv_core::cri::skew;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::hooks::{text_input, use_persisted};

#[function_component(Cri)]
pub fn cri() -> Html {
    let kubelet = use_persisted("cri.kubelet", "1.30.2");
    let runtime = use_persisted("cri.runtime", "containerd=1.7.20");
    let clients = use_persisted("cri.clients", "crictl=1.27.0");
    let stage = use_persisted("cri.stage", "beta-on");
    let containerd = use_persisted("cri.containerd", "released-ga");
    let crio = use_persisted("cri.crio", "released");

    let client_list: Vec<String> = clients.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    let verdicts = match skew::check_node(&kubelet, &runtime, &client_list, &[]) {
        Err(e) => html! { <p class="bad">{ e }</p> },
        Ok(report) => html! {
            <>
                <p class={if report.supported { "ok" } else { "bad" }}>{
                    if report.supported { "supported: every pair is within the CRI API version skew policy" } else { "not supported: a pair is outside the policy" }
                }</p>
                <ul class="pairs">{ for report.pairs.iter().map(|p| html! {
                    <li class={if p.supported { "pair ok" } else { "pair bad" }}>
                        <strong>{ format!("{} {} → {} {}: {}", p.client, p.client_version, p.server, p.server_version, if p.supported { "supported" } else { "NOT supported" }) }</strong>
                        <div class="meta">{ p.reason.clone() }</div>
                    </li>
                }) }</ul>
            </>
        },
    };
    let select = |state: &UseStateHandle<String>, id: &'static str, names: Vec<&'static str>| {
        let s = state.clone();
        let on = Callback::from(move |e: Event| s.set(e.target_unchecked_into::<HtmlSelectElement>().value()));
        html! {
            <select id={id} onchange={on}>
                { for names.into_iter().map(|n| html! { <option value={n} selected={**state == n}>{ n }</option> }) }
            </select>
        }
    };
    let feature = Feature {
        stage: Stage::from_name(&stage).unwrap_or(Stage::Alpha),
        containerd: Status::from_name(&containerd).unwrap_or(Status::None),
        crio: Status::from_name(&crio).unwrap_or(Status::None),
        shipped_beta_on: false,
    };
    let verdict = maturity::check(&feature);
    let statuses: Vec<&str> = Status::ALL.iter().map(|(_, n)| *n).collect();
    html! {
        <section class="view">
            <h2>{ "CRI version skew on a node" }</h2>
            <div class="row">
                <label>{ "kubelet " }<input id="cri-kubelet" value={(*kubelet).clone()} oninput={text_input(&kubelet)} /></label>
                <label>{ "runtime " }<input id="cri-runtime" value={(*runtime).clone()} oninput={text_input(&runtime)} /></label>
            </div>
            <label for="cri-clients">{ "other CRI clients, NAME=VERSION, one per line" }</label>
            <textarea id="cri-clients" class="short" value={(*clients).clone()} oninput={text_input(&clients)} />
            <div id="cri-result" class="result">{ verdicts }</div>
            <h2>{ "Feature maturity (containerd and CRI-O)" }</h2>
            <div class="row">
                <label>{ "stage " }{ select(&stage, "cri-stage", Stage::ALL.iter().map(|(_, n)| *n).collect()) }</label>
                <label>{ "containerd " }{ select(&containerd, "cri-containerd", statuses.clone()) }</label>
                <label>{ "CRI-O " }{ select(&crio, "cri-crio", statuses) }</label>
            </div>
            <div id="cri-maturity" class="result">
                <p class={if verdict.allowed { "ok" } else { "bad" }}>{ verdict.summary.clone() }</p>
                <ul>{ for verdict.reminders.iter().map(|r| html! { <li class="meta">{ *r }</li> }) }</ul>
            </div>
        </section>
    }
}
