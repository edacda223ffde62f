//! The code editor every view uses: a `<textarea>` over a backdrop that draws line numbers,
//! the lines diagnostics point at, the `+k8s:` tags, and a requested line (an error's field).
//! The textarea stays a real textarea (native editing, undo, accessibility); the backdrop
//! behind it repeats the text invisibly to paint backgrounds in the right places.

use kubedv_core::declarative::catalog::{self, TagDoc};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Pixel line height of the editor text; the backdrop, the gutter and the scroll-to-line
/// arithmetic depend on it (style.css uses the same value).
const LINE_HEIGHT_PX: i32 = 20;

/// A diagnostic shown at a line (1-based).
#[derive(Clone, PartialEq, Debug)]
pub struct Mark {
    pub line: usize,
    pub message: String,
}

/// The mark for an editor whose text did not parse (at the parser's line).
pub fn parse_marks<T>(parsed: &Result<T, kubedv_input::ParseError>) -> Vec<Mark> {
    match parsed {
        Err(e) => e.line.map(|line| Mark { line, message: e.to_string() }).into_iter().collect(),
        Ok(_) => Vec::new(),
    }
}

/// A request to show a line (1-based); `nonce` makes asking again for the same line count.
#[derive(Clone, Copy, PartialEq, Default, Debug)]
pub struct Focus {
    pub line: usize,
    pub nonce: u32,
}

/// A focus request and the callback that makes one (e.g. from a clicked error).
#[hook]
pub fn use_focus() -> (Option<Focus>, Callback<usize>) {
    let focus = use_state(|| None::<Focus>);
    let ask = {
        let focus = focus.clone();
        Callback::from(move |line: usize| {
            let nonce = focus.map_or(1, |f| f.nonce.wrapping_add(1));
            focus.set(Some(Focus { line, nonce }));
        })
    };
    (*focus, ask)
}

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub oninput: Callback<InputEvent>,
    /// Diagnostics to show at their lines.
    #[prop_or_default]
    pub marks: Vec<Mark>,
    /// Highlight `+k8s:` tags and document the one under the mouse or the caret.
    #[prop_or_default]
    pub tags: bool,
    /// Select and scroll to this line.
    #[prop_or_default]
    pub focus: Option<Focus>,
    /// `short` for a small editor.
    #[prop_or_default]
    pub class: Classes,
}

#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let area = use_node_ref();
    let gutter = use_node_ref();
    let backdrop = use_node_ref();
    let tag_doc = use_state(|| None::<&'static TagDoc>);
    // The line shown on request, highlighted until the text changes.
    let shown = use_state(|| None::<usize>);

    // Scroll to and select a requested line.
    {
        let (area, shown) = (area.clone(), shown.clone());
        use_effect_with(props.focus, move |focus| {
            if let (Some(f), Some(el)) = (focus, area.cast::<HtmlTextAreaElement>()) {
                show_line(&el, f.line);
                shown.set(Some(f.line));
            }
        });
    }
    let oninput = {
        let (shown, forward) = (shown.clone(), props.oninput.clone());
        Callback::from(move |e: InputEvent| {
            shown.set(None);
            forward.emit(e);
        })
    };

    let onscroll = {
        let (area, gutter, backdrop) = (area.clone(), gutter.clone(), backdrop.clone());
        Callback::from(move |_: Event| {
            let Some(el) = area.cast::<HtmlElement>() else { return };
            for layer in [&gutter, &backdrop] {
                if let Some(l) = layer.cast::<HtmlElement>() {
                    l.set_scroll_top(el.scroll_top());
                    l.set_scroll_left(if layer == &gutter { 0 } else { el.scroll_left() });
                }
            }
        })
    };

    // The tag at the caret (keyboard) or under the pointer.
    let at_caret = {
        let (tag_doc, enabled) = (tag_doc.clone(), props.tags);
        Callback::from(move |area: HtmlTextAreaElement| {
            if !enabled {
                return;
            }
            let text = area.value();
            let offset = byte_offset(&text, area.selection_start().ok().flatten().unwrap_or(0) as usize);
            tag_doc.set(tag_at_offset(&text, offset));
        })
    };
    let on_caret = {
        let at_caret = at_caret.clone();
        move |e: &Event| {
            if let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                at_caret.emit(area);
            }
        }
    };
    let onkeyup = {
        let on_caret = on_caret.clone();
        Callback::from(move |e: KeyboardEvent| on_caret(&e))
    };
    let onclick = {
        let on_caret = on_caret.clone();
        Callback::from(move |e: MouseEvent| on_caret(&e))
    };
    let onmousemove = {
        let (tag_doc, enabled) = (tag_doc.clone(), props.tags);
        Callback::from(move |e: MouseEvent| {
            if !enabled {
                return;
            }
            let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) else { return };
            if let Some(offset) = offset_at_point(&area, e.offset_x(), e.offset_y()) {
                if let Some(doc) = tag_at_offset(&area.value(), offset) {
                    tag_doc.set(Some(doc));
                }
            }
        })
    };

    let text = props.value.as_str();
    let focused_line = *shown;
    let line_count = text.split('\n').count();
    let mark_at = |n: usize| props.marks.iter().find(|m| m.line == n);
    let gutter_lines = (1..=line_count).map(|n| {
        let mark = mark_at(n);
        html! {
            <span class={classes!("ln", mark.map(|_| "marked"))} title={mark.map(|m| m.message.clone())}>{ n }</span>
        }
    });
    let backdrop_lines = text.split('\n').enumerate().map(|(i, line)| {
        let n = i + 1;
        let class = classes!("line", mark_at(n).map(|_| "marked"), (focused_line == Some(n)).then_some("focused"));
        html! { <span {class}>{ highlight(line, props.tags) }</span> }
    });
    let doc_id = format!("{}-tag-doc", props.id);

    html! {
        <div class={classes!("editor", props.class.clone())}>
            <label for={props.id.clone()}>{ props.label.clone() }</label>
            <div class="code">
                <pre class="gutter" ref={gutter} aria-hidden="true">{ for gutter_lines }</pre>
                <div class="layers">
                    <pre class="backdrop" ref={backdrop} aria-hidden="true">{ for backdrop_lines }</pre>
                    <textarea id={props.id.clone()} ref={area} spellcheck="false" wrap="off"
                        aria-describedby={props.tags.then(|| doc_id.clone())}
                        value={props.value.clone()} {oninput} {onscroll} {onkeyup} {onclick} {onmousemove} />
                </div>
            </div>
            if props.tags {
                <p class="tag-doc" id={doc_id} role="status">
                    { match *tag_doc {
                        Some(doc) => html! {
                            <>
                                <code>{ format!("+{}", doc.name) }</code>
                                <span class="badge">{ stability(doc) }</span>
                                { " " }{ doc.description }
                            </>
                        },
                        None => html! { <span class="meta">{ "Point at a +k8s: tag or move the caret onto one to see its documentation." }</span> },
                    } }
                </p>
            }
        </div>
    }
}

/// `label` as a button that shows `line` in an editor (keyboard reachable), or as text when
/// there is no line to show.
pub fn goto(label: Html, line: Option<usize>, show: &Callback<usize>) -> Html {
    match line {
        Some(line) => {
            let show = show.clone();
            html! {
                <button class="goto" title={format!("show line {line}")} onclick={Callback::from(move |_| show.emit(line))}>{ label }</button>
            }
        }
        None => label,
    }
}

fn stability(doc: &TagDoc) -> &'static str {
    match doc.stability {
        catalog::TagStability::Alpha => "alpha",
        catalog::TagStability::Beta => "beta",
        catalog::TagStability::Stable => "stable",
        catalog::TagStability::Metadata => "metadata",
    }
}

/// Selects line `line` and scrolls it into the middle third of the editor.
pub fn show_line(area: &HtmlTextAreaElement, line: usize) {
    let text = area.value();
    let start: usize = text.split('\n').take(line.saturating_sub(1)).map(|l| l.encode_utf16().count() + 1).sum();
    let len = text.split('\n').nth(line.saturating_sub(1)).map_or(0, |l| l.encode_utf16().count());
    let _ = area.focus();
    let _ = area.set_selection_range(start as u32, (start + len) as u32);
    let top = (line as i32 - 1) * LINE_HEIGHT_PX - area.client_height() / 3;
    area.set_scroll_top(top.max(0));
}

/// The byte offset under a point of the textarea (monospace text, fixed line height).
fn offset_at_point(area: &HtmlTextAreaElement, x: i32, y: i32) -> Option<usize> {
    let style = web_sys::window()?.get_computed_style(area).ok()??;
    let pad =
        |side: &str| style.get_property_value(side).ok().and_then(|v| v.trim_end_matches("px").parse::<f64>().ok());
    let (left, top) = (pad("padding-left").unwrap_or(0.0), pad("padding-top").unwrap_or(0.0));
    let font_px = pad("font-size").unwrap_or(13.0);
    // ui-monospace fonts advance ~0.6em per character.
    let char_px = font_px * 0.6;
    let row = ((y as f64 + area.scroll_top() as f64 - top) / LINE_HEIGHT_PX as f64).floor();
    let col = ((x as f64 + area.scroll_left() as f64 - left) / char_px).floor();
    if row < 0.0 || col < 0.0 {
        return None;
    }
    let text = area.value();
    let line = text.split('\n').nth(row as usize)?;
    let start: usize = text.split('\n').take(row as usize).map(|l| l.len() + 1).sum();
    let col = line.char_indices().nth(col as usize).map(|(i, _)| i)?;
    Some(start + col)
}

/// The byte offset of a DOM (UTF-16) offset.
fn byte_offset(text: &str, utf16: usize) -> usize {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units >= utf16 {
            return i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// The tag whose name or arguments contain byte `offset`.
fn tag_at_offset(text: &str, offset: usize) -> Option<&'static TagDoc> {
    let offset = offset.min(text.len());
    let line_start = text[..floor_char(text, offset)].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    let col = offset - line_start;
    tags_in(&text[line_start..line_end])
        .into_iter()
        .find(|(start, end, _)| (*start..=*end).contains(&col))
        .and_then(|(_, _, name)| catalog::lookup(name))
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The `+k8s:name` tags in a line: (start, end of the name and its `(args)`, name without `+`).
fn tags_in(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find("+k8s:") {
        let start = from + i;
        let name_end = line[start + 5..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .map_or(line.len(), |j| start + 5 + j);
        let mut end = name_end;
        if line[end..].starts_with('(') {
            end = line[end..].find(')').map_or(line.len(), |j| end + j + 1);
        }
        out.push((start, end, &line[start + 1..name_end]));
        from = end.max(start + 5);
    }
    out
}

/// A line's text with its tags wrapped in `<mark>`.
fn highlight(line: &str, tags: bool) -> Html {
    let text = if line.is_empty() { " " } else { line };
    if !tags {
        return html! { { text } };
    }
    let mut parts = Vec::new();
    let mut at = 0;
    for (start, end, _) in tags_in(text) {
        parts.push(html! { { &text[at..start] } });
        parts.push(html! { <mark>{ &text[start..end] }</mark> });
        at = end;
    }
    parts.push(html! { { &text[at..] } });
    parts.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tags_and_their_arguments() {
        let line = "\t// +k8s:alpha(since: \"1.36\")=+k8s:maxItems=2";
        let tags: Vec<_> = tags_in(line).into_iter().map(|(s, e, n)| (&line[s..e], n)).collect();
        assert_eq!(tags, [("+k8s:alpha(since: \"1.36\")", "k8s:alpha"), ("+k8s:maxItems", "k8s:maxItems")]);
    }

    #[test]
    fn the_tag_at_an_offset() {
        let text = "type A struct {\n\t// +k8s:maxLength=5\n\tB string\n}";
        let at = text.find("maxLength").unwrap();
        assert_eq!(tag_at_offset(text, at).map(|d| d.name), Some("k8s:maxLength"));
        assert!(tag_at_offset(text, text.find("string").unwrap()).is_none());
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    #[test]
    fn tag_lookup_never_panics_on_odd_text() {
        let sample = "// +k8s:ënum(+k8s:\n+k8s:maxLength=✓ +k8s:(((\n+k8s:";
        for offset in 0..=sample.len() + 3 {
            let _ = tag_at_offset(sample, offset);
        }
        for line in sample.lines() {
            let _ = tags_in(line);
        }
        assert_eq!(byte_offset("é+", 1), 2);
    }
}
