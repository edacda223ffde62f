// The package's TypeScript declarations: a program using every export type-checks with
// `tsc --strict`, and the deliberate misuses in it (marked @ts-expect-error) are rejected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

test("the declarations type-check a program using every export, strictly", () => {
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  const file = fileURLToPath(new URL("./typecheck.ts", import.meta.url));
  const r = spawnSync(
    process.execPath,
    [tsc, "--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,esnext.disposable,dom", file],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});

test("no declaration of the package is `any`", async () => {
  const { readFile } = await import("node:fs/promises");
  for (const f of ["kubedv.d.ts", "kubedv_bg.wasm.d.ts", "node/kubedv.d.ts", "bundler/kubedv.d.ts"]) {
    const text = await readFile(new URL(`../node_modules/kubedv/${f}`, import.meta.url), "utf8");
    assert.doesNotMatch(text, /\bany\b/, f);
  }
});
