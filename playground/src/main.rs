//! kubedv's browser playground. It calls `kubedv-core` directly (it is Rust too), so what it
//! shows is exactly what the CLI and the npm package compute.

mod app;
mod cel_view;
mod crd_view;
mod cri;
mod declarative;
mod docs;
mod examples;
mod format_check;
mod hooks;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
