// `kubedv/full`: the core module's API with the CRD's own checks. `compileCrd` there refuses
// what apiextensions-apiserver's ValidateCustomResourceDefinition refuses (texts:
// pkg/apis/apiextensions/validation/validation.go, pkg/registry/customresourcedefinition/strategy.go);
// the core module `kubedv` leaves those checks out to stay within its size budget and takes a
// CRD as one the API server accepted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import init, { compileCrd, criFeature, criRange, criSkew, validateCrd } from "kubedv/full";
import initCore, { compileCrd as compileCrdCore } from "kubedv";

await init({ module_or_path: readFileSync(new URL("../node_modules/kubedv/full/kubedv_full_bg.wasm", import.meta.url)) });
await initCore({ module_or_path: readFileSync(new URL("../node_modules/kubedv/kubedv_bg.wasm", import.meta.url)) });

const crd = (name) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", kind: "Widget" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object",
        properties: { size: { type: "integer", maximum: 10 } } } } } },
    }],
  },
});
const widget = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { size: 11 } };

test("the CRD's own checks refuse what the API server refuses", () => {
  assert.throws(() => compileCrd(crd("widgets.example.org")), (e) => {
    assert.deepEqual(e.errors.map((x) => x.text),
      ['metadata.name: Invalid value: "widgets.example.org": must be spec.names.plural+"."+spec.group']);
    return true;
  });
  // The core module does not run them: the same CRD serves its objects there.
  assert.equal(compileCrdCore(crd("widgets.example.org")).validate(widget).errors.length, 1);
});

test("objects are validated as in the core module", () => {
  const texts = (r) => r.errors.map((e) => e.text);
  const expected = ["spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10"];
  assert.deepEqual(texts(compileCrd(crd("widgets.example.com")).validate(widget)), expected);
  assert.deepEqual(texts(validateCrd(crd("widgets.example.com"), widget)), expected);
  assert.deepEqual(texts(compileCrdCore(crd("widgets.example.com")).validate(widget)), expected);
});

// apiserver pkg/cel/environment/base.go: ext lists came in 1.34 and reach new expressions in 1.35
// (the API server compiles a new CRD's rules at its minimum compatibility version, one minor back).
test("k8sVersion picks the CEL environment the CRD's rules are compiled in", () => {
  const sorted = crd("widgets.example.com");
  sorted.spec.versions[0].schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"] =
    [{ rule: "[2, 1].sort() == [1, 2]" }];
  for (const load of [compileCrd, compileCrdCore]) {
    assert.throws(() => load(sorted, { k8sVersion: "1.34" }), /undeclared reference to 'sort' \(in container ''\)/);
    assert.equal(load(sorted, { k8sVersion: "1.35" }).validate(widget).errors.length, 1);
    assert.throws(() => load(sorted, { k8sVersion: "1.40" }), /Kubernetes version "1.40" is not supported/);
  }
});

test("require() loads its Node build", () => {
  const k = createRequire(import.meta.url)("kubedv/full");
  assert.throws(() => k.compileCrd(crd("wrong")), /must be spec\.names\.plural/);
});

test("the CRI skew, range and feature policy are in kubedv/full, not in the core module", async () => {
  assert.deepEqual(criRange({ kubelet: "1.30" }).subject, "kubelet 1.30");
  // The CLI's `kubedv cri-feature --stage beta-on --containerd released-ga --cri-o released`.
  const verdict = criFeature({ stage: "beta-on", containerd: "released-ga", crio: "released" });
  assert.equal(verdict.allowed, false);
  assert.ok(verdict.rules.length > 0);
  // As wasm/tests/api.rs and behaviour.rs check them (run there with --features full).
  assert.equal(criRange({ runtime: "cri-o=1.30.1" }).text, "cri-o 1.30.1 works with kubelet 1.27 through 1.33 (CRI v1)");
  const kubelet = criRange({ kubelet: "1.30.0" });
  assert.ok(kubelet.from <= kubelet.to && kubelet.text.includes("1.30"));
  const ga = criFeature({ stage: "ga", containerd: "released-ga", crio: "released-ga" });
  assert.equal(ga.allowed, false);
  assert.equal(ga.rules[2].rule, "Safe Kubernetes defaults");
  assert.ok(ga.summary.startsWith('GA is blocked by "Safe Kubernetes defaults"'));
  assert.throws(() => criRange({ runtime: "dockershim=1.0" }));
  assert.throws(() => criRange({ kubelet: "1.30", runtime: "v0.30.0" }));
  assert.throws(() => criFeature({ stage: "beta", containerd: "none", crio: "none" }));
  // criSkew, as wasm/tests/api.rs checks it (shared/reference/cri-api-version-skew-policy.md).
  const node = criSkew({ kubelet: "1.30.2", runtime: "containerd=1.7.20", clients: ["crictl=1.27.0"] });
  assert.equal(node.supported, true);
  assert.equal(node.pairs[1].client, "crictl");
  assert.equal(node.pairs[0].serverVersion, "1.7.20");
  assert.equal(criSkew({ kubelet: "1.26.0", runtime: "v0.22.0" }).supported, false);
  assert.throws(() => criSkew({ kubelet: "1.30" }), /missing field `runtime`/);
  assert.throws(() => criSkew({ kubelet: "1.30", runtime: "v0.30.0", extra: 1 }));
  // The core module has none of the CRI policy (its size budget).
  const core = await import("kubedv");
  assert.equal(core.criRange, undefined);
  assert.equal(core.criFeature, undefined);
  assert.equal(core.criSkew, undefined);
});
