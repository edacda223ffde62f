// `checkManifests` (kubedv/full): `kubedv check` for files held in JavaScript. The expectation is
// the CLI's own output: the repository fixture the CLI checks in cli/tests/suite/check.rs, given as
// files in memory, yields cli/tests/fixtures/repo-expected/check.json (texts from the CRD's
// rules, validation-gen's generated code and the deprecated API migration guide, as named there).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import init, { checkManifests } from "kubedv/full";
import { loadCatalog } from "kubedv/catalog";

await init({ module_or_path: readFileSync(new URL("../node_modules/kubedv/full/kubedv_full_bg.wasm", import.meta.url)) });

const cli = new URL("../../cli/", import.meta.url);
const file = (path) => ({ path, text: readFileSync(new URL(path, cli), "utf8") });
const repo = [
  "tests/fixtures/repo/base/gizmos.json",
  "tests/fixtures/repo/base/legacy.yaml",
  "tests/fixtures/repo/base/widgets.yaml",
  "tests/fixtures/repo/crds/widget.yaml",
  "tests/fixtures/repo/overlays/prod/bigger.yaml",
  "tests/fixtures/repo/overlays/prod/kustomization.yaml",
].map(file);

test("the CLI's repository fixture gives the CLI's JSON report", async () => {
  const catalog = await loadCatalog("1.37");
  const report = checkManifests(repo, {
    crds: [file("tests/fixtures/repo/crds/widget.yaml")],
    types: [file("tests/fixtures/repo/types/gizmo_types.go").text],
    catalog,
  });
  const expected = JSON.parse(readFileSync(new URL("tests/fixtures/repo-expected/check.json", cli), "utf8"));
  assert.deepEqual(report, expected);
});

test("one bad document among several does not hide the others", () => {
  const text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n---\nkind: [\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: old\n";
  const report = checkManifests([{ path: "s.yaml", text }, { path: "bin.yaml", text: "\0" }]);
  assert.deepEqual(report.documents.map((d) => [d.file, d.index, d.status]), [
    ["s.yaml", 0, "skipped"], ["s.yaml", 1, "unreadable"], ["s.yaml", 2, "invalid"], ["bin.yaml", 0, "unreadable"],
  ]);
  const removed = report.documents[2].errors[0];
  assert.equal(removed.text, 'apiVersion: Invalid value: "extensions/v1beta1": extensions/v1beta1 Ingress is not served since v1.22; use networking.k8s.io/v1 Ingress');
  assert.deepEqual([removed.line, removed.column], [8, 1]);
  assert.deepEqual(report.summary, { documents: 4, valid: 0, invalid: 1, skipped: 1, unreadable: 2 });
});

test("update checks pair documents with the old revision", () => {
  const crd = file("tests/fixtures/repo/crds/widget.yaml");
  const widget = (size) => ({ path: "w.yaml", text: `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: ${size}\n  max: 5\n` });
  const report = checkManifests([widget(3)], { crds: [crd], old: [widget(2)] });
  const [d] = report.documents;
  assert.deepEqual(d.errors, []);
  assert.deepEqual(d.updateErrors.map((e) => [e.line, e.column, e.text]), [[5, 1, "spec: Invalid value: size is immutable"]]);
});

test("options that cannot be used are thrown, with what was expected", async () => {
  assert.throws(() => checkManifests([{ path: "a.yaml" }]), /`files` must be a list of \{path, text\}/);
  assert.throws(() => checkManifests([], { k8sVersion: "1.40" }), /k8sVersion 1\.40: expected 1\.16 to 1\.37/);
  assert.throws(() => checkManifests([], { strictt: true }), /unknown field `strictt`/);
  assert.throws(() => checkManifests([], { types: ["package v1\ntype T struct { X int `json:\"x\"` \n"] }), /the types cannot be used/);
  assert.throws(() => checkManifests([], { catalog: 3 }), /`catalog` must be a Catalog/);
  const catalog = await loadCatalog("1.36");
  assert.throws(() => checkManifests([], { catalog, k8sVersion: "1.37" }), /the catalog is Kubernetes 1\.36's, not 1\.37's/);
  // Without k8sVersion the catalog's release is the one checked against.
  const text = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: f\n";
  const [d] = checkManifests([{ path: "f.yaml", text }], { catalog }).documents;
  assert.match(d.errors[0].text, /is not served since v1\.32/);
});

test("custom resources no CRD given serves are checked with the CRD catalog's, loading only what they need", async () => {
  const { crdCatalogNeeds } = await import("kubedv/full");
  const { loadCrdCatalog } = await import("kubedv/crds");
  // A cert-manager Certificate with an algorithm its CRD does not list (cert-manager v1.21.1,
  // deploy/crds/cert-manager.io_certificates.yaml: spec.privateKey.algorithm enum RSA, ECDSA, Ed25519).
  const text = "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web\n  namespace: default\nspec:\n  secretName: web-tls\n  issuerRef:\n    name: ca\n  privateKey:\n    algorithm: RSB\n";
  const files = [{ path: "cert.yaml", text }];
  const crdCatalog = await loadCrdCatalog();
  assert.ok(crdCatalog.list().length >= 30);
  const options = { crdCatalog };
  const needs = crdCatalogNeeds(files, options);
  assert.deepEqual(needs, ["cert-manager"]);
  assert.throws(() => checkManifests(files, options), /the CRD catalog's cert-manager: not loaded/);
  await crdCatalog.load(needs);
  assert.deepEqual(Object.keys(crdCatalog.projects), ["cert-manager"]);
  const [d] = checkManifests(files, options).documents;
  assert.equal(d.crdCatalog, "cert-manager@v1.21.1");
  assert.deepEqual(d.errors.map((e) => [e.line, e.text]), [
    [11, 'spec.privateKey.algorithm: Unsupported value: "RSB": supported values: "RSA", "ECDSA", "Ed25519"'],
  ]);
  // Pinned to the other release.
  crdCatalog.pins = ["cert-manager@v1.21.0"];
  assert.equal(checkManifests(files, options).documents[0].crdCatalog, "cert-manager@v1.21.0");
  crdCatalog.pins = ["cert-manager@v9"];
  assert.throws(() => checkManifests(files, options), /no release "v9" of cert-manager in the CRD catalog/);
});
