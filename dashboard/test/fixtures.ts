import type { CellRecord, CompareReport, Coordinates } from "../src/data/types";
import { cellId, golden } from "../e2e/fixtures";

// Fixtures are the runner's own golden files (runner/src/test/resources/golden): real records, so the
// dashboard is tested against what publish actually writes.

export const sleepBound = (): CellRecord => golden("cell-sleep-bound.json");
export const massStart = (): CellRecord => golden("cell-mass-start.json");
export const compareReport = (): CompareReport => golden("compare.json");

/** A copy of a real cell moved to other coordinates (and optionally another status). */
export function variant(cell: CellRecord, changes: Partial<Coordinates>, patch: Partial<CellRecord> = {}): CellRecord {
  const coordinates = { ...cell.coordinates, ...changes };
  return { ...structuredClone(cell), cellId: cellId(coordinates), coordinates, ...patch };
}
export const userJmh = (): CellRecord => golden("cell-jmh-blocking.json");
/**
 * Real A/B runs' verdicts (runner/src/test/resources/fixtures/records, copied from
 * benchmarks/results/2026-11-26-ab-budget): a harness 5 % slower in two workloads against this one (ab profile, 14
 * comparisons, a 10-minute budget), and an A/A run of the example JMH suite.
 */
export const abRegression = (): CompareReport => golden("../fixtures/records/ab-5pct-regression.json");
export const abJmhAa = (): CompareReport => golden("../fixtures/records/ab-jmh-aa.json");
