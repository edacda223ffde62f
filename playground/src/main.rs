//! kubedv's browser playground. It calls `kubedv-core` directly (it is Rust too), so what it
//! shows is exactly what the CLI and the npm package compute.

mod app;
mod catalog;
mod cel_view;
mod crd_view;
mod cri;
mod declarative;
mod docs;
mod editor;
mod examples;
mod format_check;
mod gallery;
mod hooks;
mod locate;
mod manifests_view;
mod picker;
mod policies_view;
mod share;
mod try_it;

fn main() {
    // A share link's state goes into localStorage before the first render reads it.
    share::restore();
    yew::Renderer::<app::App>::new().render();
}
