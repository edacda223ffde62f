// Runs the Node example as a user would and checks its output and exit status.
// Expected text: apimachinery pkg/api/validate/strfmt.go (LabelKey) + content/kube.go.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../check-format.mjs", import.meta.url));
const run = (...args) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });

test("valid values exit 0 and print nothing on stdout", () => {
  const r = run("k8s-label-key", "app.kubernetes.io/name", "tier");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
});

test("invalid values print Kubernetes' lines and exit 1", () => {
  const r = run("k8s-label-key", "ok", "/app");
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, '[1]: Invalid value: "/app": prefix part must be non-empty\n');
});

test("an unknown format is a usage error (exit 2)", () => {
  const r = run("k8s-nope", "x");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown format "k8s-nope"; the formats are: k8s-short-name, /);
});
