// `program.eval(obj)` and `program.test(obj)` with plain JS objects read only what the rule
// selects (the program's access plan), and must give exactly what converting the whole object
// gives: `celVars(obj)` (the object through JSON.stringify) is the reference — values, costs
// and error messages — for every rule and object below, edge cases included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import init, { compileCel, celVars } from "kubedv";

await init({ module_or_path: readFileSync(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

const deployment = {
  metadata: { name: "web", labels: { app: "web", tier: "frontend" }, annotations: {} },
  spec: {
    replicas: 3,
    paused: false,
    containers: [
      { name: "web", image: "registry.example.com/web:1", ports: [{ containerPort: 8080 }] },
      { name: "sidecar", image: "proxy:2", ports: [] },
    ],
  },
};

const RULES = [
  "self.spec.replicas >= 1 && self.spec.replicas <= 10",
  "self.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
  "self.spec.containers.filter(c, size(c.ports) > 0).map(c, c.name) == ['web']",
  "'app' in self.metadata.labels && self.metadata.labels['app'] == 'web'",
  "has(self.spec.paused) && !self.spec.paused",
  "has(self.metadata.namespace)",
  "self.metadata.name.matches('^[a-z]+$') && size(self.metadata) == 3",
  "self.spec.missing == 1",
  "self.spec.replicas.x == 1",
  "self.metadata.name.size() > 0 && self == self",
  "self.?spec.?replicas.orValue(0) == 3",
  "type(self.spec) == map && type(self.spec.replicas) == int",
  "self.spec.containers[0].ports[0].containerPort == 8080",
];

/** The outcome of one way of evaluating: the value and cost, or the error's message. */
function outcome(f, program) {
  try {
    const r = f();
    return typeof r === "boolean" ? { value: r, cost: program.lastCost } : { value: r.value, type: r.type, cost: r.cost };
  } catch (e) {
    return { error: e.message };
  }
}

function agree(rule, vars, decls = { self: "dyn" }) {
  const program = compileCel(rule, decls);
  const bound = celVars(vars);
  const reference = outcome(() => program.evalVars(bound), program);
  assert.deepEqual(outcome(() => program.eval(vars), program), reference, `eval: ${rule}`);
  const testRef = outcome(() => program.test(bound), program);
  assert.deepEqual(outcome(() => program.test(vars), program), testRef, `test: ${rule}`);
  bound.free();
  program.free();
}

test("plain objects give what celVars gives, rule by rule", () => {
  for (const rule of RULES) agree(rule, { self: deployment });
});

test("values as JSON.stringify renders them, on the paths a rule reads", () => {
  const odd = {
    neg0: -0,
    nan: NaN,
    inf: -Infinity,
    big: 2 ** 60,
    huge: 1e21,
    frac: 0.5,
    undef: undefined,
    fn: () => 1,
    date: new Date(0),
    nested: { toJSON: () => "replaced" },
    bare: Object.assign(Object.create(null), { k: 1 }),
    instance: new (class Thing { constructor() { this.own = 1; } })(),
    boxed: new Number(4),
    text: "é\u2028",
  };
  for (const rule of [
    "self.neg0 == 0 && type(self.neg0) == int",
    "self.nan == null && self.inf == null",
    "self.big == 1152921504606846976",
    "type(self.huge) == double && self.frac == 0.5",
    "!has(self.undef) && !has(self.fn)",
    "self.date == '1970-01-01T00:00:00.000Z'",
    "self.nested == 'replaced'",
    "self.bare.k == 1",
    "self.instance.own == 1",
    "self.boxed == 4",
    "size(self.text) == 2",
  ]) {
    agree(rule, { self: odd });
  }
});

test("what the rule does not read is not converted; what it reads fails as JSON.stringify does", () => {
  const cyclic = { spec: { replicas: 2 } };
  cyclic.self = cyclic;
  const dyn = { self: "dyn" };
  const program = compileCel("self.spec.replicas == 2", dyn);
  assert.equal(program.test({ self: cyclic }), true);
  assert.equal(program.test({ self: { spec: { replicas: 2 }, big: 10n } }), true);
  const throwing = { spec: { replicas: 2 }, get other() { throw new Error("no"); } };
  assert.equal(program.test({ self: throwing }), true);
  // On a read path: the error JSON.stringify gives, as eval's usual message.
  assert.throws(() => compileCel("self == {}", dyn).test({ self: cyclic }), /test expects an object of variables: .*circular/i);
  assert.throws(() => compileCel("self.big == 1", dyn).eval({ self: { big: 10n } }), /eval expects an object of variables: .*BigInt/);
  assert.throws(() => compileCel("self.other == 1", dyn).test({ self: throwing }), /test expects an object of variables: no/);
});

test("other variables, qualified names, type names and schema-typed variables", () => {
  agree("a.b == 1", { "a.b": 1 }, { "a.b": "dyn" });
  agree("x + y == 3", { x: 1, y: 2, unused: { deep: [1] } }, { x: "dyn", y: "dyn", unused: "dyn" });
  agree("type(self) == map && self.n == 1", { self: { n: 1 } });
  agree("self.n >= 0", { self: { n: 1 } }, { self: { type: "object", properties: { n: { type: "integer" } } } });
  agree("self.n == 1", {});
  agree("1 == 1", { self: deployment });
  // Not an object of variables.
  const program = compileCel("1 == 1");
  assert.throws(() => program.test(5), /test expects an object of variables/);
  assert.throws(() => program.eval([1]), /eval expects an object of variables/);
});

test("test takes a CelVars or a plain object; a freed CelVars is refused clearly", () => {
  const program = compileCel("self.n == 1", { self: "dyn" });
  const vars = celVars({ self: { n: 1 } });
  assert.equal(program.test(vars), true);
  assert.equal(program.test({ self: { n: 1 } }), true);
  assert.equal(program.test({ self: { n: 2 } }), false);
  vars.free();
  assert.throws(() => program.test(vars));
});
