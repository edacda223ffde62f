// What results cost on their way back into JavaScript (issue 20's third goal): a validation
// with no error (made in JS, no JSON text) against one with an error (its list crosses as JSON
// text), and CEL results of each kind (`evalVars`, one bound object: a bool, an int, a string,
// a map through JSON text, a list element by element).
//
//   node bench/results.mjs            (after `cargo xtask npm` and `npm install` in www/)
import { readFile } from "node:fs/promises";
import init, { compileTypes, compileCel, celVars } from "kubedv";
await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });
function time(f) {
  for (let i = 0; i < 2000; i++) f();
  const xs = [];
  for (let r = 0; r < 7; r++) { let n = 0; const s = process.hrtime.bigint(); let el = 0n;
    while (el < 50_000_000n) { for (let i = 0; i < 200; i++) f(); n += 200; el = process.hrtime.bigint() - s; }
    xs.push(Number(el) / n); }
  return xs.sort((a, b) => a - b)[3];
}
const types = `package t
type T struct {
	// +k8s:maxItems=0
	// +k8s:eachVal=+k8s:minimum=10
	Items []int \`json:"items,omitempty"\`
}`;
const schema = compileTypes(types);
const ok = { items: [] };
const bad1 = { items: [1] };
const bad10 = { items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] }; // maxItems short-circuits: one error too
console.log("errors (0, 1, 1):", schema.validate(ok, undefined, { type: "T" }).errors.length, schema.validate(bad1, undefined, { type: "T" }).errors.length, schema.validate(bad10, undefined, { type: "T" }).errors.length);
const v0 = time(() => schema.validate(ok, undefined, { type: "T" }));
const v0n = time(() => schema.validate(ok));
const v1 = time(() => schema.validate(bad1, undefined, { type: "T" }));
const v10 = time(() => schema.validate(bad10, undefined, { type: "T" }));
console.log(`validate: 0 errors ${v0.toFixed(0)} ns (no options ${v0n.toFixed(0)} ns), 1 error ${v1.toFixed(0)} ns, 1 error of a 10-item list ${v10.toFixed(0)} ns`);
const vars = celVars({ self: { n: 3, names: Array.from({ length: 100 }, (_, i) => `name-${i}`) } });
for (const [name, e] of [["bool", "self.n > 1"], ["int", "self.n + 1"], ["string", "'x' + string(self.n)"], ["list of 100 strings", "self.names"], ["map", "{'a': self.n}"]]) {
  const p = compileCel(e, { self: "dyn" });
  const tv = time(() => p.evalVars(vars));
  const tt = e === "self.n > 1" ? time(() => p.test(vars)) : NaN;
  console.log(`evalVars ${name}: ${tv.toFixed(0)} ns` + (isNaN(tt) ? "" : ` (test: ${tt.toFixed(0)} ns)`));
}
