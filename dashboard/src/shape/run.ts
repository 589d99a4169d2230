import type { CellRecord, Compared } from "../data/types";

// The run view's data: what failed and why, and where the time went.

export interface Failure {
  cellId: string;
  status: string;
  reason: string;
}

/**
 * Cells that failed, timed out or measured something else than they ask (invalid); a skipped cell is not a
 * failure (see {@link skipped}).
 */
export function failures(cells: CellRecord[]): Failure[] {
  return cells
    .filter((c) => c.status === "failed" || c.status === "timeout" || c.status === "invalid")
    .map((c) => ({ cellId: c.cellId, status: c.status, reason: c.reason ?? "no reason recorded" }))
    .sort((a, b) => a.status.localeCompare(b.status) || a.cellId.localeCompare(b.cellId));
}

/** Cells this runner could not run (no such JDK, another OS), each with the reason that names the fix. */
export function skipped(cells: CellRecord[]): Failure[] {
  return cells
    .filter((c) => c.status === "skipped")
    .map((c) => ({ cellId: c.cellId, status: c.status, reason: c.reason ?? "no reason recorded" }))
    .sort((a, b) => a.status.localeCompare(b.status) || a.cellId.localeCompare(b.cellId));
}

export interface Duration {
  cellId: string;
  workload: string;
  seconds: number;
  backend: string;
}

export function durations(cells: CellRecord[]): Duration[] {
  return cells
    .filter((c) => c.execution)
    .map((c) => ({
      cellId: c.cellId,
      workload: c.coordinates.workload,
      seconds: c.execution.durationMs / 1000,
      backend: c.execution.backend,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

export interface Coverage {
  jdks: string[];
  workloads: string[];
  statuses: Record<string, number>;
  attested: number;
  unattested: number;
}

export function coverage(cells: CellRecord[]): Coverage {
  const statuses: Record<string, number> = {};
  for (const c of cells) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
  return {
    jdks: [...new Set(cells.map((c) => c.coordinates.jdk))].sort(),
    workloads: [...new Set(cells.map((c) => c.coordinates.workload))].sort(),
    statuses,
    attested: cells.filter((c) => c.environment?.attested === true).length,
    unattested: cells.filter((c) => c.environment?.attested === false).length,
  };
}

/**
 * A run's comparison with its baseline in a few words, leading with the verdict reached (issue #31: "0
 * regressions, 0 improvements" was all a run whose 24 comparisons were all inconclusive said).
 */
export function comparedWords(c: Compared): string {
  const counts = `${c.regressions} regression${c.regressions === 1 ? "" : "s"}, ${c.improvements} improvement${c.improvements === 1 ? "" : "s"}`;
  if (!c.inconclusive) return counts;
  return c.regressions + c.improvements === 0
    ? `no verdict: ${c.inconclusive} inconclusive (${counts})`
    : `${counts}; no verdict on ${c.inconclusive} (inconclusive)`;
}
