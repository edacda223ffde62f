// The package's builds: in Node, `require("kubedv")` and `import "kubedv"` get the Node build
// (optimised for speed, loaded synchronously: `init` is kept and does nothing); a browser (the
// `browser` condition, which bundlers for the web set) the web build, optimised for size;
// `kubedv/bundler` the bundler build (here through Node's WebAssembly ES modules). The other
// tests run twice (package.json): once in Node as it is, once with `--conditions=browser`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";

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

test("import in Node gets the Node build, a browser the web build", () => {
  const code = `
    const k = await import("kubedv");
    await k.default();
    k.initSync();
    console.log(import.meta.resolve("kubedv"), k.compileCel("1 + 1").eval().value);
  `;
  const inNode = node(["--input-type=module"], code);
  assert.equal(inNode.status, 0, inNode.stderr);
  assert.match(inNode.stdout, /\/node\/kubedv\.mjs 2\n$/);
  // The web build's init needs the module's bytes (there is no fetch of a file: URL in Node).
  const web = node(["--input-type=module", "--conditions=browser"], code.replace("k.default()", "k.default({ module_or_path: (await import('node:fs')).readFileSync(new URL(import.meta.resolve('kubedv/kubedv_bg.wasm'))) })").replace("k.initSync();", ""));
  assert.equal(web.status, 0, web.stderr);
  assert.match(web.stdout, /\/pkg\/kubedv\.js 2\n$/);
  // The two modules differ: the Node one is built for speed (larger), the web one for size.
  const size = (p) => readFileSync(new URL(p, import.meta.url)).length;
  assert.ok(size("../node_modules/kubedv/node/kubedv_bg.wasm") > size("../node_modules/kubedv/kubedv_bg.wasm"));
});
