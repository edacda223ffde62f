#!/usr/bin/env node
// Validates every manifest (.yaml, .yml, .json; several YAML documents per file are fine) in a
// directory with the npm package, like the CLI:
//   node validate-manifests.mjs --crd certificate-crd.yaml manifests/
//   node validate-manifests.mjs --types types.go [--type Widget] manifests/
// Prints one Kubernetes error line per error, prefixed with the file. Exit status: 0 valid,
// 1 validation errors, 2 bad usage or unreadable input.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { parseAllDocuments, parse } from "yaml";
import init, { compileCrd, compileTypes } from "kubedv";

function usage(message) {
  console.error(`${message}\nusage: node validate-manifests.mjs (--crd CRD.yaml | --types types.go [--type NAME]) DIR`);
  process.exit(2);
}

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const crdFile = opt("--crd");
const typesFile = opt("--types");
const typeName = opt("--type");
const [dir] = args;
if (!dir || (!crdFile && !typesFile)) usage("give a directory and --crd or --types");

await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });

let validate;
try {
  if (crdFile) {
    const crd = compileCrd(parse(await readFile(crdFile, "utf8")));
    validate = (o) => crd.validate(o).errors;
  } else {
    const schema = compileTypes(await readFile(typesFile, "utf8"));
    validate = (o) => schema.validate(o, undefined, typeName ? { type: typeName } : undefined).errors.filter((e) => e.enforced);
  }
} catch (e) {
  console.error(`kubedv: ${e.message}`);
  process.exit(2);
}

let files;
try {
  files = (await readdir(dir)).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
} catch (e) {
  usage(`cannot read ${dir}: ${e.message}`);
}
let errors = 0;
let objects = 0;
for (const file of files) {
  const text = await readFile(join(dir, file), "utf8");
  const docs = file.endsWith(".json") ? [JSON.parse(text)] : parseAllDocuments(text).map((d) => d.toJS()).filter((d) => d != null);
  for (const doc of docs) {
    objects++;
    for (const e of validate(doc)) {
      errors++;
      console.log(`${file}: ${e.text}`);
    }
  }
}
console.error(`${objects} object${objects === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"}: ${errors} error${errors === 1 ? "" : "s"}`);
process.exit(errors > 0 ? 1 : 0);
