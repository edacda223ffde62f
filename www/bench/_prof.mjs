import { readFile } from "node:fs/promises";
import init, { compileCel } from "kubedv";
await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });
const self = {
  metadata: { name: "web-frontend", labels: { app: "web", tier: "frontend", team: "payments" } },
  spec: { replicas: 3, containers: [
      { name: "web", image: "registry.example.com/web:1.2.3", ports: [{ containerPort: 8080 }] },
      { name: "metrics", image: "registry.example.com/metrics:0.9", ports: [{ containerPort: 9090 }] },
      { name: "sidecar", image: "registry.example.com/proxy:2.0", ports: [] } ] } };
const p = compileCel("self.spec.replicas >= 1 && self.spec.replicas <= 10", {self: "dyn"});
for (let i = 0; i < 300000; i++) p.eval({self});
