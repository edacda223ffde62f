// CEL in Node: kubedv's compiled program against @marcbachmann/cel-js (the fastest JS CEL,
// JIT-compiled by V8) on typical rule expressions, in one run, with both of kubedv's builds
// loaded in the same process: the Node build (what `import "kubedv"` gets in Node: built for
// speed) and the web build (what a browser gets: built for size).
//
//   node bench/cel.mjs            (after `cargo xtask npm` and `npm install` in www/)
//
// kubedv is measured four ways, all with the same compiled program: `program.test({self})` and
// `program.eval({self})` with the plain object (what a JS user writes first: each call reads
// what the rule selects of `self`), `program.test(vars)` with `celVars` bound once (the values
// cross into WebAssembly once) and `program.evalVars(vars)` (the result document: value, type
// and cost). cel-js, like `test`, returns the bare value. Every candidate is timed in turn,
// round after round, and the median of the rounds kept (A/B in one process).
import { readFile } from "node:fs/promises";
import * as node from "kubedv";
import initWeb, * as web from "../node_modules/kubedv/kubedv.js";
import { parse } from "@marcbachmann/cel-js";

await initWeb({ module_or_path: await readFile(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

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
 *  every way of evaluating with kubedv, in either build, gives cel-js's value. */
export function prepare() {
  return RULES.map(([name, rule]) => {
    const theirs = parse(rule);
    const other = theirs({ self });
    const [n, w] = [node, web].map(({ compileCel, celVars }) => {
      const program = compileCel(rule, { self: "dyn" });
      const vars = celVars({ self });
      for (const [how, ours] of [
        ["test", program.test(vars)],
        ["evalVars", program.evalVars(vars).value],
        ["eval", program.eval({ self }).value],
        ["test({self})", program.test({ self })],
      ]) {
        if (ours !== other) throw new Error(`${name}: kubedv ${how} says ${ours}, cel-js says ${other}`);
      }
      return { program, vars };
    });
    return { name, program: n.program, vars: n.vars, web: w, theirs };
  });
}

export function run() {
  const rows = [];
  for (const { name, program, vars, web, theirs } of prepare()) {
    rows.push({
      name,
      ...compare({
        bound: () => program.evalVars(vars),
        test: () => program.test(vars),
        plain: () => program.eval({ self }),
        plainTest: () => program.test({ self }),
        webTest: () => web.program.test(web.vars),
        webPlainTest: () => web.program.test({ self }),
        celJs: () => theirs({ self }),
      }),
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log("Node build (ns per call, median of 7 rounds); web build; cel-js");
  console.log(
    "rule             test({self}) eval({self}) test(celVars) evalVars | web: test({self}) test(celVars) | cel-js | test({self})/cel-js test({self})/test(celVars) web/node",
  );
  const ns = (x, w) => `${x.toFixed(0).padStart(w)}`;
  for (const r of run()) {
    console.log(
      `${r.name.padEnd(16)} ${ns(r.plainTest, 12)} ${ns(r.plain, 12)} ${ns(r.test, 13)} ${ns(r.bound, 8)} | ${ns(r.webPlainTest, 17)} ${ns(r.webTest, 13)} | ${ns(r.celJs, 6)} | ${(r.plainTest / r.celJs).toFixed(2).padStart(18)}x ${(r.plainTest / r.test).toFixed(2).padStart(25)}x ${(r.webPlainTest / r.plainTest).toFixed(2).padStart(7)}x`,
    );
  }
}
