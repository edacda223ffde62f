use kubedv_core::cel::{from_json, Program, Value};
use std::collections::BTreeMap;
fn main() {
    let rule = std::env::args().nth(1).unwrap();
    let json = serde_json::json!({
      "metadata": { "name": "web-frontend", "labels": { "app": "web", "tier": "frontend", "team": "payments" } },
      "spec": { "replicas": 3, "containers": [
          { "name": "web", "image": "registry.example.com/web:1.2.3", "ports": [{ "containerPort": 8080 }] },
          { "name": "metrics", "image": "registry.example.com/metrics:0.9", "ports": [{ "containerPort": 9090 }] },
          { "name": "sidecar", "image": "registry.example.com/proxy:2.0", "ports": [] } ] } });
    let mut vars: BTreeMap<String, Value> = BTreeMap::new();
    vars.insert("self".into(), from_json(&json));
    let p = Program::compile_optimized(&rule).unwrap();
    let t = std::time::Instant::now();
    let n = 3_000_000;
    for _ in 0..n {
        std::hint::black_box(p.eval(std::hint::black_box(&vars)).unwrap());
    }
    println!("{:.1} ns", t.elapsed().as_nanos() as f64 / n as f64);
}
