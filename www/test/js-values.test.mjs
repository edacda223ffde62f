// JS objects given to `schema.validate`, `crd.validate` and `program.eval/test` cross into
// WebAssembly through the value tape (wasm/src/tape.rs), not through JSON text. The reference
// is the same object as `JSON.stringify` text (what a cluster would receive): every verdict
// must be the one the text gives, and what JSON.stringify refuses is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import init, { compileTypes, compileCrd, compileCel, celVars } from "kubedv";

await init({ module_or_path: readFileSync(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

const TYPES = `package v1

type Thing struct {
	TypeMeta int \`json:",inline"\`
	// +k8s:optional
	// +k8s:maxLength=8
	Name string \`json:"name,omitempty"\`
	// +k8s:optional
	// +k8s:minimum=1
	Count *int32 \`json:"count,omitempty"\`
	// +k8s:optional
	// +k8s:maxItems=2
	// +k8s:eachVal=+k8s:maxLength=3
	Tags []string \`json:"tags,omitempty"\`
	// +k8s:optional
	// +k8s:eachVal=+k8s:minimum=0
	Limits map[string]int64 \`json:"limits,omitempty"\`
}
`;

const CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: {
        type: "object",
        "x-kubernetes-validations": [{ rule: "!has(self.name) || self.name.size() <= 8", message: "name too long" }],
        properties: {
          name: { type: "string" },
          size: { type: "integer", maximum: 10 },
          ratio: { type: "number" },
          tags: { type: "array", items: { type: "string", maxLength: 3 } },
          labels: { type: "object", additionalProperties: { type: "string" } },
        },
      } } } },
    }],
  },
};

// Objects whose JS form and JSON text differ in form but not in content.
const ODD = [
  { name: "ok" },
  { name: "much-too-long" },
  { name: "émoji-😀", count: 0 },
  { name: undefined, count: new Number(0), tags: ["a", undefined, "toolong"], fn: () => 1 },
  { tags: ["x", "y", "z"], limits: { cpu: -1, mem: 2 ** 40 } },
  { name: { toJSON: () => "fromJSON" }, count: -0 },
  { name: new String("boxed"), count: NaN, limits: { a: Infinity } },
  { count: 2 ** 63, limits: { big: 2 ** 64, neg: -(2 ** 63), frac: 0.1 + 0.2 } },
  { name: "x".repeat(200), tags: ["é".repeat(70)] },
  Object.assign(Object.create(null), { name: "bare" }),
  { name: new Date(0) },
];

test("validate: a JS object gives the verdict its JSON text gives", () => {
  const schema = compileTypes(TYPES);
  for (const obj of ODD) {
    const text = JSON.stringify(obj);
    assert.deepEqual(schema.validate(obj), schema.validate(text), text);
    assert.deepEqual(schema.validate(obj, obj), schema.validate(text, text), `update: ${text}`);
  }
});

test("crd.validate: a JS object gives the verdict its JSON text gives", () => {
  const crd = compileCrd(CRD);
  for (const spec of [
    { name: "ok", size: 3, ratio: 0.5, tags: ["a"], labels: { app: "web" } },
    { name: "much-too-long", size: 11, ratio: 1e21, tags: ["abcd", undefined] },
    { name: new String("é😀é😀é😀é😀é"), size: 2 ** 53 + 2, ratio: -0, labels: { k: { toJSON: () => "v" } } },
    { size: 10.5, ratio: NaN, tags: "not-a-list", labels: [] },
  ]) {
    const obj = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec };
    const text = JSON.stringify(obj);
    assert.deepEqual(crd.validate(obj), crd.validate(text), text);
  }
});

test("what JSON.stringify refuses is refused, with its words", () => {
  const schema = compileTypes(TYPES);
  const cyclic = { name: "a" };
  cyclic.self = cyclic;
  assert.throws(() => schema.validate(cyclic), /the object: Converting circular structure to JSON$/);
  assert.throws(() => schema.validate({ count: 1n }), /the object: Do not know how to serialize a BigInt/);
  assert.throws(() => schema.validate({ get name() { throw new Error("getter says no"); } }), /the object: getter says no/);
  assert.throws(() => schema.validate({ name: "a" }, { tags: [{ big: 2n }] }), /the old object: .*BigInt/);
  // A getter calling kubedv while its object is read would overwrite the tape: refused.
  const reentrant = { get name() { return schema.validate({ name: "inner" }).errors.length ? "x" : "y"; } };
  assert.throws(() => schema.validate(reentrant), /the object: a getter or toJSON called kubedv while kubedv was reading its object/);
  const program = compileCel("self.n == 1", { self: "dyn" });
  const sneaky = { get n() { return program.test({ self: { n: 1 } }) ? 1 : 0; } };
  assert.throws(() => program.test({ self: sneaky }), /test expects an object of variables: a getter or toJSON called kubedv/);
  assert.equal(schema.validate({ name: "after" }).errors.length, 0);
  assert.equal(program.test({ self: { n: 1 } }), true);
  // serde_json's depth limit (127 nested arrays and objects), as the JSON text has it.
  const nest = (depth) => {
    let v = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };
  assert.doesNotThrow(() => schema.validate({ tags: nest(126) }));
  assert.throws(() => schema.validate({ tags: nest(127) }), /recursion limit exceeded/);
  assert.throws(() => compileCrd(CRD).validate({ spec: { labels: nest(100_000) } }), /recursion limit exceeded/);
});

test("options are read as JSON.stringify reads them; a valid object's result is a fresh object each call", () => {
  const schema = compileTypes(TYPES);
  // Options cross through the value tape, not JSON text: toJSON and undefined as JSON.stringify
  // has them, a cycle refused with its words, an unknown key refused.
  const opts = { type: "Thing", subresource: undefined, toJSON: undefined };
  assert.deepEqual(schema.validate({ name: "a" }, undefined, opts), { errors: [], diagnostics: [] });
  assert.deepEqual(schema.validate({ name: "a" }, undefined, { toJSON: () => ({ type: "Thing" }) }).errors, []);
  const cyclic = { type: "Thing" };
  cyclic.again = cyclic;
  assert.throws(() => schema.validate({ name: "a" }, undefined, cyclic), /validate options .*: Converting circular structure to JSON$/);
  assert.throws(() => schema.validate({ name: "a" }, undefined, { tpye: "Thing" }), /unknown field `tpye`/);
  // The valid verdict is made in JavaScript without JSON text: a new object every time, so a
  // caller changing one result changes no other.
  const first = schema.validate({ name: "a" });
  first.errors.push("mine");
  first.diagnostics = null;
  assert.deepEqual(schema.validate({ name: "a" }), { errors: [], diagnostics: [] });
  assert.equal(schema.validate({ name: "much-too-long" }).errors.length, 1);
});

test("values larger than the buffers they are written to, read the first time and after", () => {
  // The tape (a few numbers a value) and its text (UTF-8) start at 1024 numbers and 4096
  // bytes in WebAssembly memory; what does not fit is copied after they grow.
  const items = Array.from({ length: 3000 }, (_, i) => ({ name: `item-${i}`, note: "ü".repeat(i % 50) }));
  const rule = "self.items.all(i, i.name.startsWith('item-')) && size(self.items) == 3000 && size(self.items[2999].note) == 49";
  const program = compileCel(rule, { self: "dyn" });
  for (let round = 0; round < 3; round++) {
    assert.equal(program.test({ self: { items } }), true);
    assert.equal(program.test({ self: { items: items.slice(0, 2) } }), false);
  }
  assert.deepEqual(program.eval({ self: { items } }), program.evalVars(celVars({ self: { items } })));
  const schema = compileTypes(TYPES);
  assert.deepEqual(schema.validate({ tags: items.map((i) => i.note) }), schema.validate(JSON.stringify({ tags: items.map((i) => i.note) })));
  // eval takes a CelVars too.
  assert.deepEqual(program.eval(celVars({ self: { items } })).value, true);
});

test("CEL: strings long and short, ASCII or not, read as celVars reads them", () => {
  const dyn = { self: "dyn" };
  for (const [rule, self] of [
    ["self.s == 'é😀'", { s: "é😀" }],
    ["size(self.s) == 2 && self.t.startsWith('x')", { s: "a😀", t: "x".repeat(100) }],
    ["self.s.endsWith('😀') && size(self.s) == 81", { s: "é".repeat(80) + "😀" }],
    ["self.list.all(x, x.size() > 60)", { list: ["α".repeat(61), "β".repeat(62)] }],
    ["self.m['ключ'] == 'значение'", { m: { ключ: "значение", other: "x".repeat(90) } }],
    ["self.s == '\\uFFFD'", { s: "\ud800" }],
  ]) {
    const program = compileCel(rule, dyn);
    assert.equal(program.test({ self }), true, rule);
    // JSON text cannot carry a lone surrogate: celVars (through JSON.stringify) refuses it.
    if (rule.includes("FFFD")) continue;
    assert.equal(program.test(celVars({ self })), true, `celVars: ${rule}`);
    assert.deepEqual(program.eval({ self }), program.evalVars(celVars({ self })), rule);
  }
});
