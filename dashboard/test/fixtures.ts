import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CellRecord, CompareReport, Coordinates } from "../src/data/types";

// Fixtures are the runner's own golden files (runner/src/test/resources/golden): real records, so the
// dashboard is tested against what publish actually writes.
const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "runner", "src", "test", "resources", "golden");
const golden = (name: string) => JSON.parse(readFileSync(join(GOLDEN, name), "utf8"));

export const sleepBound = (): CellRecord => golden("cell-sleep-bound.json");
export const massStart = (): CellRecord => golden("cell-mass-start.json");
export const compareReport = (): CompareReport => golden("compare.json");

/** A copy of a real cell moved to other coordinates (and optionally another status). */
export function variant(cell: CellRecord, changes: Partial<Coordinates>, patch: Partial<CellRecord> = {}): CellRecord {
  const coordinates = { ...cell.coordinates, ...changes };
  const c = coordinates;
  const cellId = `${c.jdk}.${c.os}.cpus-${c.cpus}.par-${c.parallelism}.max-${c.maxPoolSize}.minr-${c.minRunnable}.${c.workload}`;
  return { ...structuredClone(cell), cellId, coordinates, ...patch };
}
