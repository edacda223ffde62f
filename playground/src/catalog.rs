//! The built-in kinds catalogs (`catalog/1.N.gz`, copied beside the page by Trunk), fetched
//! when a view first needs one and kept for the page's life: the playground's `.wasm` carries
//! none of them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

thread_local! {
    static LOADED: RefCell<HashMap<u32, Rc<String>>> = RefCell::new(HashMap::new());
}

/// The text of a gzip file written by `cargo xtask catalog` (no name, no extra fields).
pub fn gunzip(bytes: &[u8]) -> Option<String> {
    // RFC 1952: ID1 ID2 CM=8, FLG (none of FEXTRA/FNAME/FCOMMENT/FHCRC set here), then the
    // deflate stream and an 8-byte trailer.
    if bytes.len() < 18 || bytes[..3] != [0x1f, 0x8b, 8] || bytes[3] & 0x1e != 0 {
        return None;
    }
    let raw = miniz_oxide::inflate::decompress_to_vec(&bytes[10..bytes.len() - 8]).ok()?;
    String::from_utf8(raw).ok()
}

async fn fetch(minor: u32) -> Option<String> {
    let window = web_sys::window()?;
    let response = JsFuture::from(window.fetch_with_str(&format!("catalog/1.{minor}.gz"))).await.ok()?;
    let response: web_sys::Response = response.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    gunzip(&js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The catalog text of Kubernetes 1.`minor`, once fetched (`None` until then, or when the
/// page has no catalog for it: built-in kinds then stay unchecked).
#[hook]
pub fn use_catalog(minor: u32) -> Option<Rc<String>> {
    let loaded = use_state(|| LOADED.with(|l| l.borrow().get(&minor).cloned()));
    {
        let loaded = loaded.clone();
        use_effect_with(minor, move |&minor| match LOADED.with(|l| l.borrow().get(&minor).cloned()) {
            Some(text) => loaded.set(Some(text)),
            None if minor >= kubedv_core::declarative::shadow::OLDEST_MINOR => {
                loaded.set(None);
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some(text) = fetch(minor).await {
                        let text = Rc::new(text);
                        LOADED.with(|l| l.borrow_mut().insert(minor, text.clone()));
                        loaded.set(Some(text));
                    }
                });
            }
            None => loaded.set(None),
        });
    }
    (*loaded).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_files_decompress() {
        let text = gunzip(include_bytes!("../../catalog/1.37.gz")).expect("gzip");
        let catalog = kubedv_core::builtin::Catalog::parse(&text).expect("catalog");
        assert_eq!(catalog.kubernetes, "1.37");
        assert!(gunzip(b"not gzip at all, not at all").is_none());
    }
}
