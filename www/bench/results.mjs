// What results cost on their way back into JavaScript (issue 20's third goal): a validation
// with no error (made in JS, no JSON text) against one with an error (its list crosses as JSON
// text), and CEL results of each kind (`evalVars`, one bound object: a bool, an int, a string,
// a map through JSON text, a list element by element).
//
//   node bench/results.mjs            (after `cargo xtask npm` and `npm install` in www/)
import { readFile } from "node:fs/promises";
import init, { compileTypes, compileCel, celVars } from "kubedv";

await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });

const TYPES = `package t
type T struct {
	// +k8s:maxItems=0
	// +k8s:eachVal=+k8s:minimum=10
	Items []int \`json:"items,omitempty"\`
}`;

function time(f) {
  for (let i = 0; i < 2000; i++) f();
  const xs = [];
  for (let r = 0; r < 7; r++) {
    let n = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < 50_000_000n) {
      for (let i = 0; i < 200; i++) f();
      n += 200;
      elapsed = process.hrtime.bigint() - start;
    }
    xs.push(Number(elapsed) / n);
  }
  return xs.sort((a, b) => a - b)[3];
}

/** The workloads, each with the result it must give (the timings mean nothing otherwise). */
export function prepare() {
  const schema = compileTypes(TYPES);
  const vars = celVars({ self: { n: 3, names: Array.from({ length: 100 }, (_, i) => `name-${i}`) } });
  const validate = (items, opts) => () => schema.validate({ items }, undefined, opts);
  const cel = (expr) => {
    const p = compileCel(expr, { self: "dyn" });
    return () => p.evalVars(vars);
  };
  return [
    // maxItems short-circuits: the ten-item list gives one error too.
    ["validate, valid, {type}", validate([], { type: "T" }), (r) => r.errors.length === 0],
    ["validate, valid, no options", validate([]), (r) => r.errors.length === 0],
    ["validate, 1 error", validate([1], { type: "T" }), (r) => r.errors.length === 1],
    ["validate, 1 error, 10 items", validate([1, 2, 3, 4, 5, 6, 7, 8, 9, 0], { type: "T" }), (r) => r.errors.length === 1],
    ["evalVars bool", cel("self.n > 1"), (r) => r.value === true],
    ["evalVars int", cel("self.n + 1"), (r) => r.value === 4],
    ["evalVars string", cel("'x' + string(self.n)"), (r) => r.value === "x3"],
    ["evalVars map", cel("{'a': self.n}"), (r) => r.value.a === 3],
    ["evalVars list of 100 strings", cel("self.names"), (r) => r.value.length === 100 && r.value[99] === "name-99"],
  ].map(([name, f, ok]) => {
    if (!ok(f())) throw new Error(`${name}: unexpected result ${JSON.stringify(f())}`);
    return { name, f };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { name, f } of prepare()) console.log(`${name.padEnd(30)} ${time(f).toFixed(0).padStart(7)} ns`);
}
