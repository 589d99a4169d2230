import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DASHBOARDS, render } from "../grafana/src/dashboards";

// The provisioned JSON is generated from the typed source; a stale file would ship old panels.
// Every panel's SQL is executed against a real PostgreSQL by the runner's GrafanaDashboardsIT.
const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "grafana", "dashboards");

describe("the Grafana dashboards", () => {
  for (const name of Object.keys(DASHBOARDS) as (keyof typeof DASHBOARDS)[]) {
    it(`${name}.json is generated from grafana/src (npm run grafana)`, () => {
      expect(readFileSync(join(dir, `${name}.json`), "utf8")).toBe(render(name));
    });
  }

  it("reads only the loom-matrix Postgres data source", () => {
    for (const name of Object.keys(DASHBOARDS) as (keyof typeof DASHBOARDS)[]) {
      const json = JSON.parse(render(name));
      for (const panel of json.panels) {
        expect(panel.targets.length).toBeGreaterThan(0);
        for (const t of panel.targets) expect(t.datasource.uid).toBe("loom-matrix-postgres");
      }
    }
  });
});
