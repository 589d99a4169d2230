// Generates src/data/results.schema.ts — the TypeScript types of the results format — from the one
// definition of that format, schemas/results.schema.json (the runner's readers validate against the same
// file). `npm run schema-types` rewrites it; test/schema-drift.test.ts fails when it is stale.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { compileFromFile } from "json-schema-to-typescript";

// Paths from the dashboard directory, where npm scripts and the tests run.
export const TARGET = resolve("src/data/results.schema.ts");
const SCHEMA = resolve("../schemas/results.schema.json");

export async function generate(): Promise<string> {
  const body = await compileFromFile(SCHEMA, {
    bannerComment:
      "// Generated from schemas/results.schema.json by `npm run schema-types`: do not edit by hand.\n",
    unreachableDefinitions: true,
    style: { printWidth: 120 },
  });
  return body;
}

if (process.argv[1]?.endsWith("schema-types.ts")) {
  writeFileSync(TARGET, await generate());
}
