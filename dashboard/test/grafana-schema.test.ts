// The provisioned Grafana dashboards checked against Grafana's own published dashboard schema, the
// @grafana/schema package (its TypeScript model of the dashboard JSON, at the Grafana version compose.yaml
// runs), not only against our expectations of them (issue #29). Each dashboard's JSON is compiled as an object
// literal that must satisfy that type: unknown keys, wrong types and wrong enum values are compile errors.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dashboards = join(root, "grafana", "dashboards");
// inside the project, so that "@grafana/schema" resolves from its node_modules
const work = join(root, "node_modules", ".cache", "grafana-schema-check");

/**
 * The schema with its string enums read as their values: the JSON says "absolute" where the type says
 * ThresholdsMode.Absolute, which TypeScript would not accept from a literal. Numeric enums take numbers as
 * they are.
 */
const PRELUDE = `import type { Dashboard } from "@grafana/schema";
type Plain<T> = T extends string
  ? \`\${T}\`
  : T extends readonly (infer U)[]
    ? Plain<U>[]
    : T extends object
      ? { [K in keyof T]: Plain<T[K]> }
      : T;
`;

/** The compiler's complaints about a dashboard JSON text, one line each. */
function check(name: string, json: string): string[] {
  mkdirSync(work, { recursive: true });
  const file = join(work, `${name}.ts`);
  writeFileSync(file, `${PRELUDE}export const dashboard = (${json.trim()}) satisfies Plain<Dashboard>;\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${name}.json near line ${line}: ${text}`;
  });
}

describe("the provisioned dashboards and Grafana's published schema", () => {
  const files = readdirSync(dashboards).filter((f) => f.endsWith(".json"));

  it("finds the three dashboards", () => {
    expect(files.sort()).toEqual(["compare.json", "history.json", "matrix.json"]);
  });

  for (const f of files) {
    it(`${f} satisfies @grafana/schema's Dashboard`, () => {
      expect(check(f.replace(/\.json$/, ""), readFileSync(join(dashboards, f), "utf8"))).toEqual([]);
    }, 60_000);
  }

  it("refuses a dashboard Grafana's schema does not describe (the check can fail)", () => {
    const matrix = JSON.parse(readFileSync(join(dashboards, "matrix.json"), "utf8"));
    const wrong = { ...matrix, graphTooltip: "shared", refresh: 30, timezonee: "utc" };
    const complaints = check("wrong", JSON.stringify(wrong, null, 2));
    // graphTooltip is Grafana's DashboardCursorSync (0, 1, 2), refresh a string such as "30s"
    expect(complaints.join("\n")).toContain("is not assignable to type 'DashboardCursorSync | undefined'");
    expect(complaints.join("\n")).toContain("Type 'number' is not assignable to type 'string'");
  }, 60_000);
});
