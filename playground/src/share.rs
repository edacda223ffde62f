//! Share links: the whole playground state (the open tab and every editor, as kept in
//! localStorage under `kubedv.*`) deflated and base64url-encoded into the URL fragment
//! (`#s=...`). Opening such a link restores the state before the app first renders.

use gloo_storage::{LocalStorage, Storage};
use kubedv_core::cel::functions::{base64_decode, base64_encode};
use std::collections::BTreeMap;

const PREFIX: &str = "#s=";

/// The link to the current state.
pub fn link() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    let mut state = BTreeMap::new();
    for i in 0..storage.length().ok()? {
        let Some(key) = storage.key(i).ok()? else { continue };
        if let Some(short) = key.strip_prefix("kubedv.") {
            if let Ok(value) = LocalStorage::get::<String>(&key) {
                state.insert(String::from(short), value);
            }
        }
    }
    let json = serde_json::to_vec(&state).ok()?;
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let encoded = base64_encode(&packed).replace('+', "-").replace('/', "_").trim_end_matches('=').to_string();
    let location = web_sys::window()?.location();
    let base = format!("{}{}", location.origin().ok()?, location.pathname().ok()?);
    Some(format!("{base}{PREFIX}{encoded}"))
}

/// Restores the state of a share link in the URL, if there is one; returns whether it did.
pub fn restore() -> bool {
    let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else { return false };
    let Some(encoded) = hash.strip_prefix(PREFIX) else { return false };
    let mut b64 = encoded.replace('-', "+").replace('_', "/");
    while b64.len() % 4 != 0 {
        b64.push('=');
    }
    // A link that does not decode is ignored (the saved state stays).
    let Some(packed) = base64_decode(&b64) else { return false };
    let Ok(json) = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, 4 << 20) else { return false };
    let Ok(state) = serde_json::from_slice::<BTreeMap<String, String>>(&json) else { return false };
    for (key, value) in state {
        let _ = LocalStorage::set(format!("kubedv.{key}"), value);
    }
    true
}
