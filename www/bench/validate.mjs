// Declarative validation in Node: 1,000 Deployments through one compiled `Schema` handle, in
// both of kubedv's builds (the Node build, built for speed, and the web build, built for size)
// loaded in one process and timed in turns; the WASM side of the comparison with the native
// engine (criterion: `cargo bench -p kubedv-core --bench validate -- "1000 objects"`, same
// objects).
//
//   node bench/validate.mjs
import { readFile } from "node:fs/promises";
import * as node from "kubedv";
import initWeb, * as web from "../node_modules/kubedv/kubedv.js";

await initWeb({ module_or_path: await readFile(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

const types = await readFile(new URL("../../core/benches/data/deployment_types.go", import.meta.url), "utf8");
const base = JSON.parse(await readFile(new URL("../../core/benches/data/deployment.json", import.meta.url), "utf8"));

// Names web-0..web-999, replicas i % 13 (as the Rust benchmark builds them).
const objects = Array.from({ length: 1000 }, (_, i) => {
  const o = structuredClone(base);
  o.metadata.name = `web-${i}`;
  o.spec.replicas = i % 13;
  return o;
});

/** Milliseconds per 1,000 objects in each build (the median of `rounds` rounds, the builds in
 *  turns), and the errors found (none: the objects are valid). */
export function run(rounds = 9) {
  const schemas = { node: node.compileTypes(types), web: web.compileTypes(types) };
  let errors = 0;
  for (const schema of Object.values(schemas)) {
    for (const o of objects) errors += schema.validate(o, undefined, { type: "Deployment" }).errors.length;
  }
  const samples = { node: [], web: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [build, schema] of Object.entries(schemas)) {
      const start = process.hrtime.bigint();
      for (const o of objects) schema.validate(o, undefined, { type: "Deployment" });
      samples[build].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  Object.values(schemas).forEach((s) => s.free());
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { perThousand: median(samples.node), web: median(samples.web), errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { perThousand, web, errors } = run();
  console.log(
    `validate 1000 objects (Node): Node build ${perThousand.toFixed(2)} ms, web build ${web.toFixed(2)} ms (${errors} errors found)`,
  );
}
