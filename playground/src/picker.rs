//! The example picker of a view: a `<select>` that shows which example the editors hold (or
//! that they were edited since) and loads the one picked.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// `titles` as options; `current` is the example the editors hold, if any.
pub fn example_picker<'a>(
    id: &'static str,
    titles: impl Iterator<Item = &'a str>,
    current: Option<usize>,
    load: Callback<usize>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        if let Ok(i) = e.target_unchecked_into::<HtmlSelectElement>().value().parse() {
            load.emit(i);
        }
    });
    html! {
        <>
            <label for={id}>{ "Example" }</label>
            <select {id} {onchange}>
                if current.is_none() {
                    <option value="" selected=true disabled=true>{ "(your own input)" }</option>
                }
                { for titles.enumerate().map(|(i, title)| html! {
                    <option value={i.to_string()} selected={current == Some(i)}>{ title.to_string() }</option>
                }) }
            </select>
        </>
    }
}
