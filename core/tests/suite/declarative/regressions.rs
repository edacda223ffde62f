//! Inputs the fuzzer found slow or crashing, kept as tests.

use std::time::{Duration, Instant};

use kubedv_core::declarative::{Options, Schema};
use serde_json::json;

/// A struct embedding, twice, a pointer-to-struct type that embeds itself: ratcheting's
/// semantic equality fanned out exponentially over the embedded fields (tests/fuzz, 2026-11-21).
#[test]
fn self_embedding_twice_does_not_explode_equality() {
    let src = "package p\n\ntype S struct {\n\tA T `json:\"a\"`\n}\n\ntype T *struct {\n\tName string `json:\"name\"`\n\tT\n\tT\n}\n";
    let schema = Schema::compile(src);
    let start = Instant::now();
    for name in schema.type_names() {
        let id = schema.type_named(name).expect("named type");
        let _ = schema.validate_update(id, &json!({}), Some(&json!({})), &Options::default());
    }
    assert!(start.elapsed() < Duration::from_secs(2), "took {:?}", start.elapsed());
}
