// The package's three builds: `require("kubedv")` gets the CommonJS Node build (synchronous, no
// init), `kubedv/bundler` the bundler build (here through Node's WebAssembly ES modules), and
// the default import the web build (the other tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("..", import.meta.url));
const node = (args, code) => spawnSync(process.execPath, [...args, "-e", code], { cwd: dir, encoding: "utf8" });

test("require() loads the Node build synchronously", () => {
  const r = node([], `
    const k = require("kubedv");
    const out = k.evalCel("quantity('1Gi').isGreaterThan(quantity('1G'))", {}, undefined, undefined);
    if (out.value !== true) throw new Error(JSON.stringify(out));
    const errs = k.checkFormat("k8s-short-name", "Bad_Name");
    if (errs.length !== 1) throw new Error("expected one error");
    console.log(k.version());
  `);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
});

test("kubedv/bundler imports the WebAssembly module directly", () => {
  const r = node(["--experimental-wasm-modules", "--input-type=module"], `
    const k = await import("kubedv/bundler");
    const out = k.evalCel("[1, 2, 3].map(x, x * 2)", {}, undefined, undefined);
    if (JSON.stringify(out.value) !== "[2,4,6]") throw new Error(JSON.stringify(out));
  `);
  assert.equal(r.status, 0, r.stderr);
});
