// Compiled by types.test.mjs with `tsc --strict --noEmit`: every export used as a TypeScript
// user would, with the result shapes the declarations promise. The `@ts-expect-error` lines
// must fail to type-check — they prove the declarations are precise, not `any`.
import init, {
  celVars, checkFormat, compileCel, compileCrd, compileTypes, evalCel,
  formats, validate, validateCrd, version,
  type CelResult, type CrdResult, type FieldError, type TagDoc, type ValidationResult,
} from "kubedv";
// The CRI skew, range and feature policy are in kubedv/full (the core module's size budget).
import { criFeature, criRange, criSkew } from "kubedv/full";

export async function use(bytes: Uint8Array): Promise<string[]> {
  await init({ module_or_path: bytes });
  const out: string[] = [version()];

  const schema = compileTypes("package v1\ntype W struct {\n\t// +k8s:minimum=0\n\tN int32 `json:\"n\"`\n}\n");
  const created: ValidationResult = schema.validate({ n: -1 });
  const updated = schema.validate("n: -1\n", { n: 1 }, { options: ["X"], k8sVersion: "1.36" });
  const first: FieldError | undefined = created.errors[0];
  if (first) out.push(first.field, first.type, first.detail, first.text, String(first.enforced));
  out.push(...updated.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`));
  out.push(...validate("package v1\ntype W struct{}\n", {}).errors.map((e) => e.text));
  schema.free();

  const rule = compileCel("self.n >= 0", { self: { type: "object", properties: { n: { type: "integer" } } } });
  const result: CelResult = rule.eval({ self: { n: 1 } });
  const vars = celVars({ self: { n: 1 } });
  const ok: boolean = rule.test(vars) && rule.test({ self: { n: 1 } });
  out.push(String(result.value), result.type, String(result.cost + rule.lastCost), String(ok));
  out.push(String(compileCel("1 + 1").evalVars(vars).value), String(evalCel("2 * 3").value));

  const crd = compileCrd("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n");
  const checked: CrdResult = crd.validate({ spec: {} });
  out.push(crd.kind, crd.version, ...checked.errors.map((e) => e.text));
  out.push(...validateCrd({}, "spec: {}\n").errors.map((e) => e.field));

  out.push(...checkFormat("k8s-short-name", "A").map((e) => e.text), ...formats().map((f) => f.name));
  // The tag documentation ships as kubedv/tags.json, typed by TagDoc.
  const docs: TagDoc[] = JSON.parse("[]");
  out.push(...docs.map((d) => `${d.name} ${d.stability} ${d.scopes.join(",")}`));
  out.push(String(criSkew({ kubelet: "1.30.2", runtime: "containerd=1.7.20" }).supported));
  out.push(JSON.stringify(criRange({ kubelet: "1.30" })));
  out.push(JSON.stringify(criFeature({ stage: "beta-on", containerd: "released-ga", crio: "released" })));

  // @ts-expect-error: the object is required
  schema.validate();
  // @ts-expect-error: errors are FieldError objects, not strings
  const wrong: string = created.errors[0];
  // @ts-expect-error: an unknown stage
  criFeature({ stage: "gamma", containerd: "none", crio: "none" });
  // @ts-expect-error: CEL results have no `errors`
  result.errors;
  out.push(String(wrong));
  return out;
}

// kubedv/policy: the admission policy module, typed as precisely.
import initPolicy, { compilePolicies, evaluatePolicies, type PolicyOutcome, type PolicyProblem } from "kubedv/policy";

export async function usePolicies(bytes: Uint8Array): Promise<string[]> {
  await initPolicy({ module_or_path: bytes });
  const set = compilePolicies("kind: List\n");
  const problems: PolicyProblem[] = set.problems;
  const outcome: PolicyOutcome = set.evaluate({ object: { kind: "ConfigMap" }, userInfo: { username: "a", groups: ["g"] }, allow: ["verb=get"] });
  const out = [String(outcome.allowed), ...outcome.denials.map((d) => `${d.code} ${d.text}`), ...problems.map((p) => p.message)];
  out.push(...evaluatePolicies([], { oldObject: {}, operation: "DELETE" }).warnings);
  // @ts-expect-error: the request is an object, not a string
  set.evaluate("object: {}");
  // @ts-expect-error: a denial's code is a number
  const code: string = outcome.denials[0].code;
  out.push(code);
  return out;
}

// kubedv/full: the core API with the CRD's own checks, the same declarations.
import initFull, {
  checkManifests,
  compileCrd as compileCrdFull,
  type CheckReport,
  type CheckedDocument,
  type CrdResult as CrdResultFull,
} from "kubedv/full";

export function useCheckManifests(): string[] {
  const report: CheckReport = checkManifests([{ path: "a.yaml", text: "kind: X\n" }], { k8sVersion: "1.37", strict: true, types: [{ source: "package v1\n" }] });
  const doc: CheckedDocument = report.documents[0];
  // @ts-expect-error: files are {path, text}
  checkManifests(["kind: X"]);
  return [doc.status, ...doc.errors.map((e) => `${e.line}:${e.column}: ${e.text}`)];
}

export async function useFull(bytes: Uint8Array): Promise<string[]> {
  await initFull({ module_or_path: bytes });
  const result: CrdResultFull = compileCrdFull("kind: CustomResourceDefinition\n", { version: "v1" }).validate({ spec: {} });
  // @ts-expect-error: the options are an object
  compileCrdFull("{}", "v1");
  return result.errors.map((e) => e.text);
}

// kubedv/catalog: built-in kinds, loaded on demand, compiled with the caller's compileTypes.
import { loadCatalog, type BuiltinResult, type CatalogPackage } from "kubedv/catalog";

export async function useCatalog(): Promise<string[]> {
  const catalog = await loadCatalog("1.37");
  const apps: CatalogPackage | undefined = catalog.serving("apps/v1");
  const result: BuiltinResult = catalog.validate(compileTypes, { apiVersion: "apps/v1", kind: "Deployment" });
  const kind = catalog.kind(compileTypes, "v1", "Pod");
  // @ts-expect-error: the first argument is compileTypes, not an object
  catalog.validate({ apiVersion: "v1", kind: "Pod" });
  return [apps?.importPath ?? "", result.coverage, kind.coverage, ...Object.keys(catalog.imports(apps?.source ?? ""))];
}
