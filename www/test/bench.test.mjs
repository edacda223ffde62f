// The CEL benchmark compares like with like: on every rule, each way kubedv evaluates gives
// the value @marcbachmann/cel-js gives (the benchmark itself is `node bench/cel.mjs`).
import { test } from "node:test";
import assert from "node:assert/strict";

test("kubedv and cel-js agree on the benchmark's rules", async () => {
  const { prepare } = await import("../bench/cel.mjs");
  const rules = prepare();
  assert.equal(rules.length, 6);
  for (const { program, vars } of rules) assert.equal(program.test(vars), true);
});

test("the validation benchmark's types compile and its 1,000 Deployments validate clean", async () => {
  // The benchmark's types must stay acceptable to the newest version's lint (a refusal once
  // broke `cargo xtask bench` with no test noticing).
  const { run } = await import("../bench/validate.mjs");
  const { errors } = run(1);
  assert.equal(errors, 0);
});

test("the results benchmark's workloads give the results it times", async () => {
  const { prepare } = await import("../bench/results.mjs");
  assert.equal(prepare().length, 9);
});
