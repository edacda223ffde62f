#!/usr/bin/env node
// Checks values against a +k8s:format with the npm package, like `kubedv check-format`:
//   node check-format.mjs k8s-short-name my-app My_App
// Prints one Kubernetes error line per error. Exit status: 0 valid, 1 errors, 2 bad usage.
import { readFile } from "node:fs/promises";
import init, { checkFormat, version } from "kubedv";

const [format, ...values] = process.argv.slice(2);
if (!format || values.length === 0) {
  console.error("usage: node check-format.mjs FORMAT VALUE...");
  process.exit(2);
}

// The ES module build loads its .wasm with fetch() in browsers; in Node we hand it the bytes.
await init({ module_or_path: await readFile(new URL(import.meta.resolve("kubedv/kubedv_bg.wasm"))) });

let errors = [];
try {
  values.forEach((value, i) => {
    errors.push(...checkFormat(format, value, values.length === 1 ? undefined : `[${i}]`));
  });
} catch (e) {
  console.error(`kubedv: ${e.message}`);
  process.exit(2);
}
for (const e of errors) console.log(e.text);
console.error(`kubedv ${version()}: ${values.length} value(s) checked against ${format}: ${errors.length} error(s)`);
process.exit(errors.length === 0 ? 0 : 1);
