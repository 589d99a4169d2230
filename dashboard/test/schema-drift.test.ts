import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CELL_STATUSES, DIRECTIONS, RUN_STATUSES, VERDICTS } from "../src/data/types";

// The results format is defined once, in schemas/results.schema.json (the Java readers validate against
// it); the dashboard's types name its enums, and this test fails the moment the two drift apart.
const schema = JSON.parse(readFileSync(resolve(process.cwd(), "../schemas/results.schema.json"), "utf8"));
const defs = schema.$defs;

describe("the dashboard's types agree with the results schema", () => {
  it("src/data/results.schema.ts is generated from schemas/results.schema.json (npm run schema-types)", async () => {
    const { generate } = await import("../scripts/schema-types");
    expect(readFileSync(resolve(process.cwd(), "src/data/results.schema.ts"), "utf8")).toBe(await generate());
  });
  it("cell statuses", () => {
    expect([...CELL_STATUSES]).toEqual(defs.cell.properties.status.enum);
    expect([...CELL_STATUSES]).toEqual(defs.cell.properties.execution.properties.earlierAttempts.items.properties.status.enum);
  });
  it("run statuses", () => {
    expect([...RUN_STATUSES]).toEqual(defs.run.properties.status.enum);
  });
  it("verdicts", () => {
    expect([...VERDICTS]).toEqual(defs.compare.properties.comparisons.items.properties.verdict.enum);
  });
  it("metric descriptors", () => {
    expect([...DIRECTIONS]).toEqual(defs.metricDescriptor.properties.direction.enum);
    expect(defs.metricDescriptor.required).toEqual(["name", "unit", "direction"]);
    expect(defs.measurement.properties.metric.$ref).toBe("#/$defs/metricDescriptor");
  });
});
