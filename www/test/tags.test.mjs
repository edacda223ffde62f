// The tag documentation ships beside the module as kubedv/tags.json (so the core .wasm carries
// no documentation text): every tag of the catalog, each with its description and example.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

test("kubedv/tags.json documents every tag, resolvable through the package's exports", () => {
  const tags = require("kubedv/tags.json");
  assert.ok(tags.length >= 45, `${tags.length} tags`);
  for (const t of tags) {
    assert.match(t.name, /^k8s:[a-zA-Z]+$/);
    assert.ok(t.description.length > 10, t.name);
    assert.ok(t.example.includes(`+${t.name}`) || t.example.includes(`+${t.name}(`), `${t.name}: ${t.example}`);
    assert.ok(["alpha", "beta", "stable", "metadata"].includes(t.stability), t.name);
  }
  const maxLength = tags.find((t) => t.name === "k8s:maxLength");
  assert.deepEqual(maxLength.scopes, ["type", "field", "listVal", "mapKey"]);
});
