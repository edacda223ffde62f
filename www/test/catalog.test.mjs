// `kubedv/catalog`: Kubernetes' own API packages per version, loaded on demand from data files
// beside the module (the core .wasm carries none of it), validating built-in kinds with their
// declarative rules. Expectations: the ResourceClaim errors are those of kubernetes
// pkg/registry/resource/resourceclaim/declarative_validation_test.go (as core/tests/suite/declarative/real_api.rs),
// and the same texts the CLI prints for the same object.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import init, { compileTypes } from "kubedv";
import { CATALOG_VERSIONS, loadCatalog, parseCatalog } from "kubedv/catalog";

await init({ module_or_path: readFileSync(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

const claim = (allocationMode) => ({
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceClaim",
  metadata: { name: "c", namespace: "default" },
  spec: { devices: { requests: [{ name: "r", exactly: { deviceClassName: "gpu", allocationMode, count: 1 } }] } },
});

test("every supported version's catalog loads, each with the core and apps groups", async () => {
  assert.deepEqual(CATALOG_VERSIONS, ["1.33", "1.34", "1.35", "1.36", "1.37"]);
  for (const v of CATALOG_VERSIONS) {
    const catalog = await loadCatalog(v);
    assert.equal(catalog.kubernetes, v);
    assert.match(catalog.sources[0], /^k8s\.io\/api v0\.\d+\.\d+$/);
    assert.match(catalog.sources[1], /^k8s\.io\/kube-aggregator v0\.\d+\.\d+$/);
    assert.ok(catalog.serving("v1") && catalog.serving("apps/v1") && catalog.serving("resource.k8s.io/v1beta1"), v);
    assert.ok(catalog.packages.length >= 58, `${v}: ${catalog.packages.length}`);
  }
  await assert.rejects(loadCatalog("1.40"), /no built-in kinds catalog for Kubernetes "1.40": expected one of 1.33, 1.34, 1.35, 1.36, 1.37/);
});

test("a built-in kind validates with its declarative rules and says what it covers", async () => {
  const catalog = await loadCatalog();
  assert.equal(catalog.kubernetes, "1.37");
  const bad = catalog.validate(compileTypes, claim("Bogus"));
  assert.deepEqual(bad.errors.map((e) => e.text), [
    'spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Bogus": supported values: "All", "ExactCount"',
  ]);
  assert.equal(bad.coverage, "k8s.io/api/resource/v1/types.go ResourceClaim: declarative rules only; Kubernetes' handwritten validation is not modeled");
  assert.deepEqual(catalog.validate(compileTypes, claim("ExactCount")).errors, []);
  // The compiled package is kept: the second kind of the package costs no compilation.
  const deployment = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { replicas: 1 } };
  assert.deepEqual(catalog.validate(compileTypes, deployment).errors, []);
  assert.throws(() => catalog.validate(compileTypes, { apiVersion: "example.com/v1", kind: "Widget" }),
    /example.com\/v1 is not a built-in API version in the built-in catalog of Kubernetes 1.37/);
  assert.throws(() => catalog.kind(compileTypes, "apps/v1", "Nope"), /k8s.io\/api\/apps\/v1\/types.go has no kind Nope/);
  assert.throws(() => catalog.validate(compileTypes, { metadata: {} }), /needs apiVersion and kind/);
});

test("a pasted file's k8s.io/api imports resolve against the catalog", async () => {
  const catalog = await loadCatalog("1.37");
  const src = `package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Widget struct {
	metav1.TypeMeta \`json:",inline"\`
	Spec corev1.PodSpec \`json:"spec"\`
}
`;
  const imports = catalog.imports(src);
  assert.deepEqual(Object.keys(imports), ["k8s.io/api/core/v1"]);
  const schema = compileTypes(src, { imports, k8sVersion: "1.37" });
  assert.deepEqual(schema.diagnostics.filter((d) => d.severity === "error"), []);
  schema.free();
});

test("the catalog files are data, read by the same format the CLI embeds", () => {
  const file = new URL("../node_modules/kubedv/catalog/1.37.gz", import.meta.url);
  const text = gunzipSync(readFileSync(file)).toString("utf8");
  const catalog = parseCatalog(text);
  assert.equal(catalog.packages.length, new Set(catalog.packages.map((p) => p.importPath)).size);
  assert.ok(statSync(file).size < 100_000, `${statSync(file).size} bytes`);
  assert.throws(() => parseCatalog("hello"), /not a kubedv catalog/);
  assert.throws(() => parseCatalog("kubedv-catalog 1\nkubernetes 1.37\npackage a - 99\nshort"), /cut short/);
  assert.throws(() => parseCatalog("kubedv-catalog 1\n"), /no `kubernetes` line/);
});
