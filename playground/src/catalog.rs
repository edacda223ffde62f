//! The built-in kinds catalogs (`catalog/1.N.gz`, copied beside the page by Trunk) and the CRD
//! catalog (`catalog/crds/`: its index, then the project files a stream needs), fetched when a
//! view first needs one and kept for the page's life: the playground's `.wasm` carries none of
//! them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use kubedv_input::crd_catalog::Index;

thread_local! {
    static LOADED: RefCell<HashMap<u32, Rc<String>>> = RefCell::new(HashMap::new());
    static CRD_INDEX: RefCell<Option<Rc<Index>>> = const { RefCell::new(None) };
    /// The CRD catalog's project files fetched so far (a failed fetch is not retried).
    static CRD_PROJECTS: RefCell<HashMap<String, Option<Rc<String>>>> = RefCell::new(HashMap::new());
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

async fn fetch_bytes(url: &str) -> Option<Vec<u8>> {
    let window = web_sys::window()?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.ok()?;
    let response: web_sys::Response = response.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    Some(js_sys::Uint8Array::new(&buffer).to_vec())
}

async fn fetch(minor: u32) -> Option<String> {
    gunzip(&fetch_bytes(&format!("catalog/1.{minor}.gz")).await?)
}

/// The CRD catalog's index, once fetched (`None` until then).
#[hook]
pub fn use_crd_index() -> Option<Rc<Index>> {
    let loaded = use_state(|| CRD_INDEX.with(|i| i.borrow().clone()));
    {
        let loaded = loaded.clone();
        use_effect_with((), move |_| {
            if CRD_INDEX.with(|i| i.borrow().is_none()) {
                wasm_bindgen_futures::spawn_local(async move {
                    let text = fetch_bytes("catalog/crds/index.txt").await.and_then(|b| String::from_utf8(b).ok());
                    if let Some(index) = text.and_then(|t| Index::parse(&t).ok()) {
                        let index = Rc::new(index);
                        CRD_INDEX.with(|i| *i.borrow_mut() = Some(index.clone()));
                        loaded.set(Some(index));
                    }
                });
            }
        });
    }
    (*loaded).clone()
}

/// Fetches the CRD catalog's project files named (those not fetched yet); the view renders
/// again as each arrives. Returns how many have arrived (a value that changes with them).
#[hook]
pub fn use_crd_projects(needed: Vec<String>) -> usize {
    let arrived = use_state(|| 0usize);
    {
        let arrived = arrived.clone();
        use_effect_with(needed, move |needed| {
            for name in needed.iter().filter(|n| CRD_PROJECTS.with(|p| !p.borrow().contains_key(*n))) {
                CRD_PROJECTS.with(|p| p.borrow_mut().insert(name.clone(), None));
                let (name, arrived) = (name.clone(), arrived.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some(text) =
                        fetch_bytes(&format!("catalog/crds/{name}.json.gz")).await.and_then(|b| gunzip(&b))
                    {
                        CRD_PROJECTS.with(|p| p.borrow_mut().insert(name, Some(Rc::new(text))));
                        arrived.set(*arrived + 1);
                    }
                });
            }
        });
    }
    *arrived
}

/// A CRD catalog project's file, when fetched.
pub fn crd_project(name: &str) -> Result<String, String> {
    CRD_PROJECTS
        .with(|p| p.borrow().get(name).cloned().flatten().map(|t| (*t).clone()))
        .ok_or_else(|| String::from("still being fetched"))
}

/// Whether every project named has been fetched.
pub fn crd_projects_loaded(names: &[String]) -> bool {
    CRD_PROJECTS.with(|p| names.iter().all(|n| p.borrow().get(n).is_some_and(Option::is_some)))
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
        let project = gunzip(include_bytes!("../../catalog/crds/cert-manager.json.gz")).expect("gzip");
        assert!(project.starts_with("{\"crds\":"));
    }
}
