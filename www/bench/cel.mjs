// CEL in Node: kubedv's compiled program against @marcbachmann/cel-js (the fastest JS CEL,
// JIT-compiled by V8) on typical rule expressions, in one run.
//
//   node bench/cel.mjs            (after `cargo xtask npm` and `npm install` in www/)
//
// kubedv is measured three ways, all with the same compiled program: `program.test(vars)` (the
// rule's bool, with `celVars` bound once: the values cross into WebAssembly once; the number
// compared with cel-js, which also returns the bare value), `program.evalVars(vars)` (the
// result document: value, type and cost) and `program.eval({self})` (converts `self` every call).
import { readFile } from "node:fs/promises";
import init, { compileCel, celVars } from "kubedv";
import { parse } from "@marcbachmann/cel-js";

await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });

const RULES = [
  ["comparison", "self.spec.replicas >= 1 && self.spec.replicas <= 10"],
  ["all", "self.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"],
  ["exists", "self.spec.containers.exists(c, c.name == 'sidecar')"],
  ["filter_map", "self.spec.containers.filter(c, size(c.ports) > 0).map(c, c.name) == ['web', 'metrics']"],
  ["map_membership", "'app' in self.metadata.labels && self.metadata.labels['app'] == 'web'"],
  ["matches", "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"],
];

const self = {
  metadata: { name: "web-frontend", labels: { app: "web", tier: "frontend", team: "payments" } },
  spec: {
    replicas: 3,
    containers: [
      { name: "web", image: "registry.example.com/web:1.2.3", ports: [{ containerPort: 8080 }] },
      { name: "metrics", image: "registry.example.com/metrics:0.9", ports: [{ containerPort: 9090 }] },
      { name: "sidecar", image: "registry.example.com/proxy:2.0", ports: [] },
    ],
  },
};

function time(f) {
  for (let i = 0; i < 2000; i++) f(); // warm up (and let V8 compile)
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 100_000_000n) {
    for (let i = 0; i < 1000; i++) f();
    n += 1000;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / n;
}

/** The median of `rounds` measurements of each candidate, taken in turns (so a slow patch of
 *  the machine or a garbage collection hits all of them alike). */
function compare(candidates, rounds = 7) {
  const samples = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(candidates)) samples[name].push(time(f));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
}

/** The rules compiled by both engines, checked to agree (their speed means nothing otherwise):
 *  every way of evaluating with kubedv gives cel-js's value. */
export function prepare() {
  return RULES.map(([name, rule]) => {
    const program = compileCel(rule, { self: "dyn" });
    const vars = celVars({ self });
    const theirs = parse(rule);
    const other = theirs({ self });
    for (const [how, ours] of [
      ["test", program.test(vars)],
      ["evalVars", program.evalVars(vars).value],
      ["eval", program.eval({ self }).value],
    ]) {
      if (ours !== other) throw new Error(`${name}: kubedv ${how} says ${ours}, cel-js says ${other}`);
    }
    return { name, program, vars, theirs };
  });
}

export function run() {
  const rows = [];
  for (const { name, program, vars, theirs } of prepare()) {
    const { bound, test, plain, celJs } = compare({
      bound: () => program.evalVars(vars),
      test: () => program.test(vars),
      plain: () => program.eval({ self }),
      celJs: () => theirs({ self }),
    });
    rows.push({ name, bound, test, plain, celJs });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log("rule              kubedv test   kubedv evalVars   kubedv eval({self})   cel-js    cel-js / kubedv test");
  for (const r of run()) {
    console.log(
      `${r.name.padEnd(17)} ${r.test.toFixed(0).padStart(7)} ns   ${r.bound.toFixed(0).padStart(10)} ns   ${r.plain.toFixed(0).padStart(12)} ns   ${r.celJs.toFixed(0).padStart(6)} ns   ${(r.celJs / r.test).toFixed(2)}x`,
    );
  }
}
