// The CEL benchmarks' rules and object, shared by core/benches/cel.rs (criterion, against
// cel-rust), core/examples/bench_native.rs (`cargo xtask bench`) and, as the same text,
// www/bench/cel.mjs (WebAssembly and cel-js).

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

/// The object the rules read as `self`.
const OBJECT: &str = r#"{
  "metadata": {"name": "web-frontend", "labels": {"app": "web", "tier": "frontend", "team": "payments"}},
  "spec": {"replicas": 3, "containers": [
    {"name": "web", "image": "registry.example.com/web:1.2.3", "ports": [{"containerPort": 8080}]},
    {"name": "metrics", "image": "registry.example.com/metrics:0.9", "ports": [{"containerPort": 9090}]},
    {"name": "sidecar", "image": "registry.example.com/proxy:2.0", "ports": []}]}}"#;
