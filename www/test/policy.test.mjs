// `kubedv/policy`: admission policies in JavaScript, as the API server evaluates them (texts:
// apiserver pkg/admission/plugin/policy/validating/dispatcher.go; the fixtures are the CLI's,
// after the Kubernetes documentation's replica-limit and mutating examples).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import init, { compilePolicies, evaluatePolicies, version } from "kubedv/policy";

const fixture = (name) => readFileSync(new URL(`../../cli/tests/fixtures/policy/${name}`, import.meta.url), "utf8");
const wasm = readFileSync(new URL("../node_modules/kubedv/policy/kubedv_policy_bg.wasm", import.meta.url));
await init({ module_or_path: wasm });

const docs = fixture("policy.yaml") + "\n---\n" + fixture("params.yaml") + "\n---\n" + fixture("mutating.yaml");
const deployment = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "staging" }, spec: { replicas: 5 } };
const testNamespace = { apiVersion: "v1", kind: "Namespace", metadata: { name: "staging", labels: { environment: "test" } } };

test("a compiled set evaluates many requests", () => {
  const set = compilePolicies(docs);
  assert.deepEqual(set.problems, []);
  const denied = set.evaluate({ object: deployment, namespaceObject: testNamespace });
  assert.equal(denied.allowed, false);
  assert.equal(denied.denials[0].text,
    "ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no greater than 3");
  assert.equal(denied.status.code, 422);
  assert.match(denied.status.message, /^deployments\.apps "web" is forbidden: /);
  // The mutating policies ran first: the label and the annotation are in the patch.
  assert.deepEqual(denied.patch.map((op) => op.path), ["/metadata/annotations", "/metadata/labels"]);
  const small = set.evaluate({ object: { ...deployment, spec: { replicas: 2 } }, namespaceObject: testNamespace });
  assert.equal(small.allowed, true);
  assert.equal(small.patched.metadata.labels.environment, "test");
});

test("the authorizer answers from the allowed checks", () => {
  const policy = [
    { apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingAdmissionPolicy", metadata: { name: "p" },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"] }] },
        validations: [{ expression: "authorizer.requestResource.check('create').allowed()", message: "not allowed" }] } },
    { apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingAdmissionPolicyBinding", metadata: { name: "b" },
      spec: { policyName: "p", validationActions: ["Deny"] } },
  ];
  const request = { object: deployment, userInfo: { username: "alice" } };
  assert.equal(evaluatePolicies(policy, request).allowed, false);
  assert.equal(evaluatePolicies(policy, { ...request, allow: ["user=alice,verb=create,apiGroup=apps,resource=deployments"] }).allowed, true);
});

test("bad input throws a clear Error", () => {
  const bad = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*']}]}\n  validations: [{expression: 'object.x <'}]\n";
  assert.throws(() => evaluatePolicies(bad, { object: deployment }), (e) => {
    assert.match(e.message, /^the API server would refuse ValidatingAdmissionPolicy "p": spec\.validations\[0\]\.expression: Invalid value: "object\.x <": compilation failed: ERROR: <input>:1:/);
    assert.equal(e.problems[0].severity, "error");
    return true;
  });
  assert.throws(() => compilePolicies(docs).evaluate({ object: deployment, operation: "PATCH" }), /expected CREATE, UPDATE, DELETE or CONNECT/);
  assert.throws(() => compilePolicies(docs).evaluate({ objet: deployment }), /unknown field `objet`/);
  assert.throws(() => compilePolicies("a: [\n"), /the policies: /);
});

test("require() loads the Node build of kubedv/policy", () => {
  const require = createRequire(import.meta.url);
  const k = require("kubedv/policy");
  assert.equal(k.version(), version());
  assert.equal(k.evaluatePolicies([], { object: deployment }).allowed, true);
});

// apiserver pkg/cel/environment/base.go: ext lists came in 1.34, so a new policy may use them
// from 1.35 (new expressions compile at the server's minimum compatibility version, one back).
test("k8sVersion picks the CEL environment the expressions are compiled in", () => {
  const policy = { apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingAdmissionPolicy", metadata: { name: "p" },
    spec: { failurePolicy: "Fail", matchConstraints: { resourceRules: [{ apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"] }] },
      validations: [{ expression: "lists.range(2).size() == 2" }] } };
  const problems = (k8sVersion) => compilePolicies([policy], { k8sVersion }).problems.map((p) => p.message);
  assert.equal(problems("1.35").length, 0);
  assert.match(problems("1.34")[0], /undeclared reference to 'lists' \(in container ''\)/);
  assert.throws(() => compilePolicies([policy], { k8sVersion: "1.40" }), /Kubernetes version "1.40" is not supported/);
});
