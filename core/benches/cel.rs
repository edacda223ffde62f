//! CEL: kubedv against the `cel` crate (cel-rust) on typical Kubernetes rule expressions,
//! in one run: parsing, and evaluation of a compiled program against a bound `self`.
//!
//! `cargo bench -p kubedv-core --bench cel`

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kubedv_core::cel::{from_json, Program, Value};

/// Rules of the kinds CRDs use: comparisons, `all`/`exists` over a list of objects,
/// `filter().map()`, map membership, `matches`.
const RULES: &[(&str, &str)] = &[
    ("comparison", "self.spec.replicas >= 1 && self.spec.replicas <= 10"),
    ("all", "self.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"),
    ("exists", "self.spec.containers.exists(c, c.name == 'sidecar')"),
    ("filter_map", "self.spec.containers.filter(c, size(c.ports) > 0).map(c, c.name) == ['web', 'metrics']"),
    ("map_membership", "'app' in self.metadata.labels && self.metadata.labels['app'] == 'web'"),
    ("matches", "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"),
];

fn object() -> serde_json::Value {
    serde_json::json!({
        "metadata": {"name": "web-frontend", "labels": {"app": "web", "tier": "frontend", "team": "payments"}},
        "spec": {
            "replicas": 3,
            "containers": [
                {"name": "web", "image": "registry.example.com/web:1.2.3", "ports": [{"containerPort": 8080}]},
                {"name": "metrics", "image": "registry.example.com/metrics:0.9", "ports": [{"containerPort": 9090}]},
                {"name": "sidecar", "image": "registry.example.com/proxy:2.0", "ports": []}
            ]
        }
    })
}

fn bench(c: &mut Criterion) {
    let json = object();
    let mut vars: BTreeMap<String, Value> = BTreeMap::new();
    vars.insert("self".into(), from_json(&json));
    let mut ctx = cel::Context::default();
    ctx.add_variable("self", json.clone()).expect("cel-rust takes serde values");

    for (name, rule) in RULES {
        let mut group = c.benchmark_group(format!("cel/{name}"));
        // Both engines must agree before their speed means anything.
        let ours = Program::compile(rule).expect("kubedv compiles").eval(&vars).expect("kubedv evaluates").value;
        let theirs = cel::Program::compile(rule).expect("cel-rust compiles").execute(&ctx).expect("cel-rust evaluates");
        assert_eq!(
            format!("{:?}", kubedv_core::cel::to_json(&ours)),
            format!("{:?}", serde_json::json!(theirs == cel::Value::Bool(true))),
            "{rule}"
        );

        group.bench_function("parse/kubedv", |b| b.iter(|| Program::compile(black_box(rule)).expect("compiles")));
        group
            .bench_function("parse/cel-rust", |b| b.iter(|| cel::Program::compile(black_box(rule)).expect("compiles")));
        let program = Program::compile(rule).expect("compiles");
        group.bench_function("eval/kubedv", |b| b.iter(|| program.eval(black_box(&vars)).expect("evaluates")));
        let theirs = cel::Program::compile(rule).expect("compiles");
        group.bench_function("eval/cel-rust", |b| b.iter(|| theirs.execute(black_box(&ctx)).expect("evaluates")));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
