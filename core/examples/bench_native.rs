//! The native side of `cargo xtask bench`: the npm benchmarks' workloads (www/bench/cel.mjs,
//! www/bench/validate.mjs) run by the Rust engine, timed the same way, printed one
//! `name<TAB>nanoseconds` line each.
//!
//! - `cel <rule>`: one evaluation with the variables bound once (what `program.test(celVars)`
//!   does in WebAssembly);
//! - `cel-text <rule>`: parsing the object's JSON text and evaluating (what a plain object
//!   costs natively);
//! - `validate`: parsing 1,000 Deployments' JSON texts and validating them (per 1,000).
//!
//!   cargo run --release -p kubedv-core --example bench_native

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use kubedv_core::cel::{from_json, Program};
use kubedv_core::declarative::{Options, Schema};

include!("../benches/data/cel_rules.rs");

/// Nanoseconds per call: the median of 7 rounds of at least 100 ms each.
fn time(mut f: impl FnMut()) -> f64 {
    for _ in 0..2000 {
        f();
    }
    let mut samples: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed().as_millis() < 100 {
                for _ in 0..1000 {
                    f();
                }
                n += 1000;
            }
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[3]
}

fn variables(text: &str) -> BTreeMap<String, kubedv_core::cel::Value> {
    let json: BTreeMap<String, serde_json::Value> = serde_json::from_str(text).expect("the object parses");
    json.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()
}

fn main() {
    for (name, rule) in RULES {
        let program = Program::compile_optimized(rule).expect("the rule compiles");
        let text = format!("{{\"self\": {OBJECT}}}");
        let bound = program.bind(variables(&text));
        assert!(program.eval(&bound).is_ok_and(|r| matches!(r.value, kubedv_core::cel::Value::Bool(true))));
        println!("cel {name}\t{:.1}", time(|| drop(black_box(program.eval(black_box(&bound))))));
        println!("cel-text {name}\t{:.1}", time(|| drop(black_box(program.eval(&variables(black_box(OBJECT)))))));
    }
    let types = include_str!("../benches/data/deployment_types.go");
    let base: serde_json::Value = serde_json::from_str(include_str!("../benches/data/deployment.json")).unwrap();
    let texts: Vec<String> = (0..1000)
        .map(|i| {
            let mut o = base.clone();
            o["metadata"]["name"] = format!("web-{i}").into();
            o["spec"]["replicas"] = (i % 13).into();
            o.to_string()
        })
        .collect();
    let schema = Schema::compile(types);
    let root = schema.type_named("Deployment").expect("the types have Deployment");
    let options = Options::default();
    let start = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        for t in &texts {
            let o: serde_json::Value = serde_json::from_str(t).unwrap();
            black_box(schema.validate(root, &o, &options));
        }
    }
    println!("validate\t{:.1}", start.elapsed().as_nanos() as f64 / rounds as f64);
}
