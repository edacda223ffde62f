// The Node example validating a directory of manifests: output and exit codes like the CLI's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../validate-manifests.mjs", import.meta.url));
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const run = (...args) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });

test("a directory of custom resources against a CRD", () => {
  const r = run("--crd", here("manifests/crd.yaml.txt"), here("manifests"));
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout,
    "bad.yaml: spec: Invalid value: at least one of commonName or dnsNames must be set\n" +
      "bad.yaml: spec: Invalid value: renewBefore must be shorter than duration\n" +
      "bad.yaml: spec.privateKey.size: Invalid value: RSA keys must be 2048, 3072 or 4096 bits, not 1024\n",
  );
  assert.equal(r.stderr, "2 objects in 2 files: 3 errors\n");
});

test("bad usage exits 2", () => {
  assert.equal(run(here("manifests")).status, 2);
  assert.equal(run("--crd", here("manifests/bad.yaml"), here("manifests")).status, 2); // not a CRD
});
