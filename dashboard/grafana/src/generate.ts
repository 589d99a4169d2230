import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DASHBOARDS, render } from "./dashboards";

// Writes dashboards/<name>.json from the typed source; provisioning loads them.
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "dashboards");
for (const name of Object.keys(DASHBOARDS) as (keyof typeof DASHBOARDS)[]) {
  writeFileSync(join(out, `${name}.json`), render(name));
  console.log(`wrote dashboards/${name}.json`);
}
