// kubedv/catalog: the built-in kinds catalog of one Kubernetes version (k8s.io/api's types.go
// files, comment text stripped), loaded on demand from `kubedv/catalog/1.N.gz` so the core
// .wasm stays small. Plain JavaScript: it reads the catalog and hands its sources to the
// `compileTypes` of whichever kubedv module the caller loaded (kubedv, kubedv/full, ...).
// The text form is written by `cargo xtask catalog` and read by kubedv-core's `builtin` module.

/** The Kubernetes versions that have a catalog, oldest first; the last is the default. */
export const CATALOG_VERSIONS = ["1.33", "1.34", "1.35", "1.36", "1.37"];

const MAGIC = "kubedv-catalog 1\n";

/** Reads a catalog's text. */
export function parseCatalog(text) {
  if (!text.startsWith(MAGIC)) {
    throw new Error("not a kubedv catalog (it must begin with `kubedv-catalog 1`)");
  }
  let at = MAGIC.length;
  let kubernetes = "";
  const sources = [];
  const packages = [];
  // Lengths are UTF-8 bytes: the catalog's sources are ASCII except in string constants, so
  // the text is walked as bytes.
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  while (at < bytes.length) {
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    const line = decoder.decode(bytes.subarray(at, end));
    at = end + 1;
    if (line.startsWith("kubernetes ")) kubernetes = line.slice(11);
    else if (line.startsWith("source ")) sources.push(line.slice(7));
    else if (line.startsWith("package ")) {
      const [importPath, group, len, extra] = line.slice(8).split(" ");
      const n = Number(len);
      if (extra !== undefined || !Number.isInteger(n) || n < 0) throw new Error(`catalog: malformed package line \`${line}\``);
      if (at + n > bytes.length) throw new Error(`catalog: ${importPath} is cut short`);
      const source = decoder.decode(bytes.subarray(at, at + n));
      at += n;
      packages.push({ importPath, group: group === "-" ? "" : group, version: importPath.split("/").pop(), source });
    } else if (line !== "") throw new Error(`catalog: unexpected line \`${line}\``);
  }
  if (!kubernetes) throw new Error("catalog: no `kubernetes` line");
  return new Catalog(kubernetes, sources, packages, text);
}

/** Loads the catalog of a Kubernetes version ("1.37" by default) from the package's files. */
export async function loadCatalog(version = CATALOG_VERSIONS[CATALOG_VERSIONS.length - 1]) {
  if (!CATALOG_VERSIONS.includes(version)) {
    throw new Error(`no built-in kinds catalog for Kubernetes ${JSON.stringify(version)}: expected one of ${CATALOG_VERSIONS.join(", ")}`);
  }
  const url = new URL(`./${version}.gz`, import.meta.url);
  let gz;
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    gz = await readFile(url);
  } else {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    gz = new Uint8Array(await response.arrayBuffer());
  }
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
  return parseCatalog(await new Response(stream).text());
}

const IMPORT = /^\s*(?:import\s+)?(?:[A-Za-z_][A-Za-z0-9_]*\s+|[._]\s+)?"([^"]+)"/;

/** The import paths of a Go source (its `import "x"` and `import ( ... )` blocks). */
function importsOf(source) {
  const out = [];
  let inBlock = false;
  for (const line of source.split("\n")) {
    const t = line.trim();
    if (inBlock) {
      if (t.startsWith(")")) inBlock = false;
      else {
        const m = IMPORT.exec(t);
        if (m) out.push(m[1]);
      }
    } else if (t.startsWith("import (")) inBlock = true;
    else if (t.startsWith("import ")) {
      const m = IMPORT.exec(t);
      if (m) out.push(m[1]);
    } else if (t.startsWith("type ") || t.startsWith("func ")) break;
  }
  return out;
}

/** One Kubernetes version's API packages. */
export class Catalog {
  constructor(kubernetes, sources, packages, text = "") {
    this.kubernetes = kubernetes;
    /** The catalog's text, as `checkManifests` (kubedv/full) takes it. */
    this.text = text;
    this.sources = sources;
    this.packages = packages;
    this.#byImport = new Map(packages.map((p) => [p.importPath, p]));
  }
  #byImport;
  #compiled = new Map();

  /** The package serving an apiVersion ("apps/v1", "v1"). */
  serving(apiVersion) {
    const slash = apiVersion.lastIndexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = apiVersion.slice(slash + 1);
    return this.packages.find((p) => p.group === group && p.version === version);
  }

  /** The catalog packages a Go source imports, and theirs, as `compileTypes`' `imports`. */
  imports(source) {
    const out = {};
    const queue = importsOf(source);
    while (queue.length) {
      const path = queue.pop();
      const p = this.#byImport.get(path);
      if (!p || path in out) continue;
      out[path] = p.source;
      queue.push(...importsOf(p.source));
    }
    return out;
  }

  /** A built-in kind, compiled once per package with the given `compileTypes` (from "kubedv"). */
  kind(compileTypes, apiVersion, kind) {
    const pkg = this.serving(apiVersion);
    if (!pkg) {
      throw new Error(`${apiVersion} is not a built-in API version in the built-in catalog of Kubernetes ${this.kubernetes}`);
    }
    let schema = this.#compiled.get(pkg.importPath);
    if (!schema) {
      schema = compileTypes(pkg.source, { imports: this.imports(pkg.source), k8sVersion: this.kubernetes });
      this.#compiled.set(pkg.importPath, schema);
    }
    if (!schema.types.includes(kind)) {
      throw new Error(`${pkg.importPath}/types.go has no kind ${kind}`);
    }
    const coverage = `${pkg.importPath}/types.go ${kind}: declarative rules only; Kubernetes' handwritten validation is not modeled`;
    const k8sVersion = this.kubernetes;
    return {
      coverage,
      validate(object, old = null, opts = {}) {
        const result = schema.validate(object, old, { k8sVersion, ...opts, type: kind });
        return { ...result, diagnostics: [], coverage };
      },
    };
  }

  /** Validates a built-in object, routed by its apiVersion and kind. */
  validate(compileTypes, object, old = null, opts = {}) {
    const obj = typeof object === "string" ? JSON.parse(object) : object;
    const { apiVersion, kind } = obj ?? {};
    if (typeof apiVersion !== "string" || typeof kind !== "string" || !apiVersion || !kind) {
      throw new Error("the object needs apiVersion and kind to pick its built-in type");
    }
    return this.kind(compileTypes, apiVersion, kind).validate(obj, old, opts);
  }
}
