// `kubedv check --format sarif` against the SARIF 2.1.0 JSON schema (OASIS; the copy that
// @microsoft/jest-sarif ships, sarif-2.1.0-rtm.5.json, validated with the ajv it uses). The report
// checked is cli/tests/fixtures/repo-expected/check.sarif, which cli/tests/suite/check.rs holds equal,
// byte for byte, to the CLI's output on the fixture repository.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv = require("ajv");
const schema = require("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");

test("the check report is valid SARIF 2.1.0", () => {
  const ajv = new Ajv({ schemaId: "id", allErrors: true, unknownFormats: "ignore", logger: false });
  ajv.addMetaSchema(require("ajv/lib/refs/json-schema-draft-04.json"));
  const validate = ajv.compile(schema);
  const report = JSON.parse(readFileSync(new URL("../../cli/tests/fixtures/repo-expected/check.sarif", import.meta.url), "utf8"));
  const ok = validate(report);
  assert.ok(ok, JSON.stringify(validate.errors, null, 2));
  assert.ok(report.runs[0].results.length > 0);
  // The schema is not vacuous: a result without a message is refused.
  const broken = structuredClone(report);
  delete broken.runs[0].results[0].message;
  assert.equal(validate(broken), false);
});
