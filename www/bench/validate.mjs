// Declarative validation in Node: 1,000 Deployments through one compiled `Schema` handle,
// the WASM side of the comparison with the native engine (criterion:
// `cargo bench -p kubedv-core --bench validate -- "1000 objects"`, same objects).
//
//   node bench/validate.mjs
import { readFile } from "node:fs/promises";
import init, { compileTypes } from "kubedv";

await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });

const types = await readFile(new URL("../../core/benches/data/deployment_types.go", import.meta.url), "utf8");
const base = JSON.parse(await readFile(new URL("../../core/benches/data/deployment.json", import.meta.url), "utf8"));

// Names web-0..web-999, replicas i % 13 (as the Rust benchmark builds them).
const objects = Array.from({ length: 1000 }, (_, i) => {
  const o = structuredClone(base);
  o.metadata.name = `web-${i}`;
  o.spec.replicas = i % 13;
  return o;
});

export function run(rounds = 20) {
  const schema = compileTypes(types);
  let errors = 0;
  for (const o of objects) errors += schema.validate(o, undefined, { type: "Deployment" }).errors.length;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const o of objects) schema.validate(o, undefined, { type: "Deployment" });
  }
  const perThousand = Number(process.hrtime.bigint() - start) / rounds / 1e6;
  schema.free();
  return { perThousand, errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { perThousand, errors } = run();
  console.log(`validate 1000 objects (WASM, Node): ${perThousand.toFixed(2)} ms (${errors} errors found)`);
}
