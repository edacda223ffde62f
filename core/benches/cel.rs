//! CEL: kubedv against the `cel` crate (cel-rust) on typical Kubernetes rule expressions,
//! in one run: parsing, and evaluation of a compiled program against a bound `self`.
//!
//! `cargo bench -p kubedv-core --bench cel`

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kubedv_core::cel::{from_json, Program, Value};

include!("data/cel_rules.rs");

fn object() -> serde_json::Value {
    serde_json::from_str(OBJECT).expect("the benchmark object parses")
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
