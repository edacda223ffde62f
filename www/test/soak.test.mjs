// A tenth of the soak test (bench/soak.mjs: 1,000,000 `program.test({self})` and 100,000
// `schema.validate` calls, by hand) on both builds: the WebAssembly memory and the JS values
// the module holds do not grow at all once warm, and the JS heap (after a collection) by less
// than 1 MiB.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("..", import.meta.url));

for (const build of ["node", "web"]) {
  test(`the ${build} build does not grow over 100,000 CEL calls and 10,000 validations`, () => {
    const code = `
      const { run } = await import("./bench/soak.mjs");
      console.log(JSON.stringify(run({ build: "${build}", calls: 100000, validations: 10000 })));
    `;
    const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", code], { cwd: dir, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.failures, 0);
    for (const what of ["cel", "validate"]) {
      const { before, after } = out[what];
      assert.equal(after.wasmMemory, before.wasmMemory, `${what}: WebAssembly memory grew`);
      assert.equal(after.externrefs, before.externrefs, `${what}: the table of JS values grew`);
      assert.ok(after.jsHeap - before.jsHeap < 1 << 20, `${what}: the JS heap grew by ${after.jsHeap - before.jsHeap} bytes`);
    }
  });
}
