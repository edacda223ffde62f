//! `cargo xtask bench-check [N...]`: a generated repository of N mixed resources (custom
//! resources of three CRDs with CEL rules, some invalid; Deployments, Services and ConfigMaps;
//! a few removed API versions), checked by the release CLI; prints resources per second, per
//! core, and peak RSS. By hand only (it builds the release CLI and writes under target/).
//! Anchor: kubeconform's published figure, 50,714 resources in 6.7 s with 8 workers on a
//! 4-core laptop (JSON Schema only, no CEL).

use std::fmt::Write as _;
use std::path::Path;

use crate::env::Env;

const CRDS: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.bench.example.com}
spec:
  group: bench.example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [size, max]
              x-kubernetes-validations:
                - {rule: "self.size <= self.max", message: "size must not exceed max"}
                - {rule: "self.tags.all(t, t.size() <= 20)", message: "tags are short"}
                - {rule: "!has(self.owner) || self.owner.matches('^[a-z]+$')", message: "owner is lower case"}
              properties:
                size: {type: integer, minimum: 1}
                max: {type: integer, maximum: 1000}
                owner: {type: string, maxLength: 63}
                tags: {type: array, maxItems: 16, items: {type: string}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.bench.example.com}
spec:
  group: bench.example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                ports:
                  type: array
                  maxItems: 32
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  x-kubernetes-validations:
                    - {rule: "self.all(p, p.port > 0 && p.port < 65536)", message: "ports are in range"}
                  items:
                    type: object
                    required: [name, port]
                    properties:
                      name: {type: string}
                      port: {type: integer}
                      protocol: {type: string, enum: [TCP, UDP], default: TCP}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.bench.example.com}
spec:
  group: bench.example.com
  names: {kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}
  scope: Cluster
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - {rule: "self.mode == 'Fast' ? self.limit >= 10 : true", messageExpression: "'the limit is too low for mode ' + self.mode"}
              properties:
                mode: {type: string, enum: [Fast, Slow]}
                limit: {type: integer}
                url: {type: string, format: uri}
"#;

fn resource(i: usize) -> String {
    let bad = i % 10 == 7;
    match i % 10 {
        0..=2 => format!(
            "apiVersion: bench.example.com/v1\nkind: Widget\nmetadata:\n  name: widget-{i}\n  namespace: ns-{}\n  labels:\n    app: bench\nspec:\n  size: {}\n  max: 100\n  owner: team\n  tags: [a, b, c]\n",
            i % 50,
            if bad { 500 } else { 1 + i % 90 }
        ),
        3 | 4 | 7 => format!(
            "apiVersion: bench.example.com/v1\nkind: Gadget\nmetadata:\n  name: gadget-{i}\n  namespace: ns-{}\nspec:\n  ports:\n    - name: http\n      port: 80\n    - name: https\n      port: {}\n",
            i % 50,
            if bad { 70000 } else { 443 }
        ),
        5 => format!(
            "apiVersion: bench.example.com/v1\nkind: Gizmo\nmetadata:\n  name: gizmo-{i}\nspec:\n  mode: Fast\n  limit: {}\n  url: https://example.com/{i}\n",
            10 + i % 5
        ),
        6 => format!("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-{i}\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n"),
        8 => format!("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-{i}\nspec:\n  ports:\n    - port: 80\n"),
        _ if i % 100 == 9 => format!("apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb-{i}\n"),
        _ => format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\ndata:\n  key: value-{i}\n"),
    }
}

fn generate(dir: &Path, n: usize) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("manifests")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("crds.yaml"), CRDS).map_err(|e| e.to_string())?;
    for file in 0..n.div_ceil(100) {
        let mut text = String::new();
        for i in file * 100..((file + 1) * 100).min(n) {
            let _ = writeln!(text, "---");
            text.push_str(&resource(i));
        }
        let path = dir.join("manifests").join(format!("part-{file:04}.yaml"));
        std::fs::write(path, text).map_err(|e| e.to_string())?;
    }
    Ok(())
}

pub fn run(env: &Env, sizes: &[usize]) -> Result<(), String> {
    env.run(
        "cargo build --release -p kubedv-cli",
        env.command("cargo").args(["build", "--release", "-p", "kubedv-cli"]),
    )?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let kubedv = env.root.join("target/release/kubedv");
    println!("| resources | seconds | resources/s | per core ({cores} cores) | peak RSS |");
    println!("| --- | --- | --- | --- | --- |");
    for &n in sizes {
        let dir = env.root.join(format!("target/bench-check/{n}"));
        generate(&dir, n)?;
        let out = std::process::Command::new("/usr/bin/time")
            .args(["-f", "%e %M"])
            .arg(&kubedv)
            .args(["--format", "json", "check"])
            .arg(dir.join("manifests"))
            .arg("--crds")
            .arg(dir.join("crds.yaml"))
            .stdout(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("bench-check: cannot run /usr/bin/time: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().last().unwrap_or("");
        let mut parts = last.split_whitespace();
        let secs: f64 =
            parts.next().and_then(|s| s.parse().ok()).ok_or(format!("bench-check: no timing in {last:?}"))?;
        let rss_kb: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
        let rate = n as f64 / secs.max(0.001);
        println!("| {n} | {secs:.2} | {rate:.0} | {:.0} | {:.0} MB |", rate / cores as f64, rss_kb / 1024.0);
    }
    Ok(())
}
