// The soak test: one Node process calls `program.test({self})` and `schema.validate(obj)` many
// times and checks that nothing grows — the WebAssembly memory, the table of JS values the
// module holds (`__wbindgen_externrefs`) and the JS heap after a garbage collection — as a
// long-running editor or server needs. Each is sampled once the calls have warmed up (a tenth
// of them) and again at the end.
//
//   node --expose-gc bench/soak.mjs          (by hand: 1,000,000 CEL calls, 100,000 validations)
//
// The package's tests run a tenth of that on both builds (test/soak.test.mjs).
import { readFile } from "node:fs/promises";
import * as node from "kubedv";
import initWeb, * as web from "../node_modules/kubedv/kubedv.js";

const webExports = await initWeb({
  module_or_path: await readFile(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)),
});
const builds = { node: { kubedv: node, wasm: node.__wasm }, web: { kubedv: web, wasm: webExports } };

const types = await readFile(new URL("../../core/benches/data/deployment_types.go", import.meta.url), "utf8");
const base = JSON.parse(await readFile(new URL("../../core/benches/data/deployment.json", import.meta.url), "utf8"));
const RULE = "self.spec.template.containers.all(c, c.image.startsWith('registry.') || c.name != '')";

function sample(wasm) {
  globalThis.gc?.();
  return {
    wasmMemory: wasm.memory.buffer.byteLength,
    externrefs: wasm.__wbindgen_externrefs?.length ?? 0,
    jsHeap: process.memoryUsage().heapUsed,
  };
}

/** Runs `calls` CEL evaluations then `validations` validations (a fresh object each time, as
 *  a server receives them) in one build; returns the samples after a tenth and at the end. */
export function run({ build = "node", calls = 1_000_000, validations = 100_000 } = {}) {
  const { kubedv, wasm } = builds[build];
  const program = kubedv.compileCel(RULE, { self: "dyn" });
  const schema = kubedv.compileTypes(types);
  const object = (i) => {
    const o = structuredClone(base);
    o.metadata.name = `web-${i}`;
    o.spec.replicas = i % 13;
    return o;
  };
  const objects = Array.from({ length: 100 }, (_, i) => object(i));
  const out = {};
  let failures = 0;
  for (const [what, n, step] of [
    ["cel", calls, (i) => program.test({ self: objects[i % 100] }) || failures++],
    ["validate", validations, (i) => schema.validate(object(i), undefined, { type: "Deployment" }).errors.length && failures++],
  ]) {
    const warm = Math.ceil(n / 10);
    for (let i = 0; i < warm; i++) step(i);
    const before = sample(wasm);
    for (let i = warm; i < n; i++) step(i);
    out[what] = { calls: n, before, after: sample(wasm) };
  }
  program.free();
  schema.free();
  return { build, failures, ...out };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!globalThis.gc) console.log("(run with --expose-gc for exact JS heap numbers)");
  for (const build of ["node", "web"]) {
    const r = run({ build });
    console.log(`${build} build: ${r.failures} wrong results`);
    for (const what of ["cel", "validate"]) {
      const { calls, before, after } = r[what];
      const mb = (x) => (x / 1048576).toFixed(1);
      console.log(
        `  ${what} ×${calls}: WebAssembly memory ${mb(before.wasmMemory)} → ${mb(after.wasmMemory)} MiB, ` +
          `JS values held ${before.externrefs} → ${after.externrefs}, JS heap ${mb(before.jsHeap)} → ${mb(after.jsHeap)} MiB`,
      );
    }
  }
}
