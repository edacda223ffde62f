//! Validating a Deployment-sized object (≈5 KB JSON, ~30 tagged fields, lists and maps)
//! against a compiled schema, beside serde_json parsing the same object, in one run.

use criterion::{criterion_group, criterion_main, Criterion};
use kubedv_core::declarative::{Options, Schema};
use std::hint::black_box;

const TYPES: &str = include_str!("data/deployment_types.go");
const OBJECT: &str = include_str!("data/deployment.json");

fn bench(c: &mut Criterion) {
    let schema = Schema::compile(TYPES);
    assert!(!schema.has_errors(), "{:?}", schema.diagnostics);
    let root = schema.type_named("Deployment").unwrap();
    let value: serde_json::Value = serde_json::from_str(OBJECT).unwrap();
    let options = Options::default();
    let report = schema.validate(root, &value, &options);
    assert!(report.errors.is_empty() && report.diagnostics.is_empty(), "{:?}", report.errors);

    let mut group = c.benchmark_group("deployment");
    group.bench_function("serde_json parse", |b| {
        b.iter(|| black_box(serde_json::from_str::<serde_json::Value>(black_box(OBJECT)).unwrap()))
    });
    group.bench_function("validate (compiled schema)", |b| {
        b.iter(|| black_box(schema.validate(root, black_box(&value), &options)))
    });
    // An update where old and new differ in one field: ratcheting compares and skips the rest.
    let mut old = value.clone();
    old["spec"]["replicas"] = 2.into();
    group.bench_function("validate update (one field changed)", |b| {
        b.iter(|| black_box(schema.validate_update(root, black_box(&value), Some(black_box(&old)), &options)))
    });
    group.bench_function("compile types", |b| b.iter(|| black_box(Schema::compile(black_box(TYPES)))));
    // The same 1,000 objects as www/bench/validate.mjs (the WASM side of the comparison).
    let objects = thousand_objects(&value);
    group.bench_function("validate 1000 objects", |b| {
        b.iter(|| {
            for o in &objects {
                black_box(schema.validate(root, black_box(o), &options));
            }
        })
    });
    group.finish();
}

/// 1,000 variations of the Deployment: names `web-0`..`web-999`, replicas `i % 13` (so some
/// are over the maximum), as www/bench/validate.mjs builds them.
fn thousand_objects(base: &serde_json::Value) -> Vec<serde_json::Value> {
    (0..1000)
        .map(|i| {
            let mut o = base.clone();
            o["metadata"]["name"] = format!("web-{i}").into();
            o["spec"]["replicas"] = (i % 13).into();
            o
        })
        .collect()
}

criterion_group!(benches, bench);
criterion_main!(benches);
