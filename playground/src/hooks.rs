//! Hooks shared by the views: state kept in localStorage, and debounced values.

use gloo_storage::{LocalStorage, Storage};
use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// A string state that survives reloads (localStorage under `kubedv.<key>`).
#[hook]
pub fn use_persisted(key: &'static str, default: &'static str) -> UseStateHandle<String> {
    let state = use_state(|| LocalStorage::get::<String>(&storage_key(key)).unwrap_or_else(|_| default.to_string()));
    {
        let value = (*state).clone();
        use_effect_with(value, move |v| {
            let _ = LocalStorage::set(storage_key(key), v);
        });
    }
    state
}

/// Stores a value for `use_persisted(key, ..)` to read when its view next mounts (how the
/// gallery and "Try it" load an example into another view).
pub fn persist(key: &str, value: &str) {
    let _ = LocalStorage::set(storage_key(key), value);
}

fn storage_key(key: &str) -> String {
    format!("kubedv.{key}")
}

/// `value`, updated only after it has stopped changing for `millis` (typing stays smooth).
#[hook]
pub fn use_debounced(value: String, millis: u32) -> String {
    let debounced = use_state(|| value.clone());
    {
        let debounced = debounced.clone();
        use_effect_with(value, move |v| {
            let v = v.clone();
            let timer = Timeout::new(millis, move || debounced.set(v));
            move || drop(timer)
        });
    }
    (*debounced).clone()
}

/// An `oninput` handler for a `<textarea>` or `<input>` that stores its text. (The two DOM
/// types have separate `value` accessors: calling the wrong one throws.)
pub fn text_input(state: &UseStateHandle<String>) -> Callback<InputEvent> {
    let state = state.clone();
    Callback::from(move |e: InputEvent| {
        let Some(target) = e.target() else { return };
        let value = match target.dyn_ref::<HtmlTextAreaElement>() {
            Some(area) => area.value(),
            None => target.unchecked_into::<HtmlInputElement>().value(),
        };
        state.set(value);
    })
}
