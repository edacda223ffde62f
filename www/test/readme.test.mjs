// Runs every ```js example of the package README (as shipped in node_modules/kubedv) as an ES
// module next to this directory, so `import ... from "kubedv"` resolves as for a user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, rm } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const readme = await readFile(new URL("../node_modules/kubedv/README.md", import.meta.url), "utf8");
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

test("the README has examples", () => assert.ok(examples.length >= 5, `${examples.length} examples`));

examples.forEach((code, i) => {
  test(`README example ${i + 1} runs`, async () => {
    const file = new URL(`../readme-example-${i + 1}.mjs`, import.meta.url);
    await writeFile(file, code);
    try {
      const r = spawnSync(process.execPath, [fileURLToPath(file)], { encoding: "utf8" });
      assert.equal(r.status, 0, `example ${i + 1} failed:\n${r.stderr}`);
    } finally {
      await rm(file);
    }
  });
});
