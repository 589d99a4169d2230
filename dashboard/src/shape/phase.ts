import type { CellRecord, Measurement, Speedup } from "../data/types";

// Cold start and steady state (issue #18). A fork — one fresh JVM — may run its workload several times:
// warmup iterations, then measured ones whose median is the fork's value (its steady state). Its first
// iteration is its cold start, recorded apart as `coldStartMs`. A fork that ran once has only a cold start.

/** Which state of the JVM a view shows; the URL's `phase`. */
export type Phase = "steady" | "cold-start";

export const COLD_START = "coldStartMs";

/** Whether the measurement's forks ran more than one iteration (so its value is a steady state). */
export const iterated = (m: Measurement) => m.iterations !== undefined;

/** Whether every measurement of the cell is one cold run per fork: its numbers have no steady state. */
export const coldOnly = (cell: CellRecord) => cell.measurements.length > 0 && !cell.measurements.some(iterated);

/** How many forks of the measurement still trended over their measured iterations (Mann-Kendall, 5 %). */
export const notSteadyForks = (m: Measurement) => m.samples.filter((s) => s["steady"] === false).length;

/**
 * The speedups of a cell in one phase. Steady: the judged metric's. Cold start: `coldStartMs`'s where the
 * forks iterated; where they ran once, their one run was a cold start, so the judged metric's stand for it.
 */
export function speedupsIn(cell: CellRecord, phase: Phase): Speedup[] {
  const all = cell.speedups ?? [];
  const cold = all.filter((s) => s.metric === COLD_START);
  if (phase === "steady") return all.filter((s) => s.metric !== COLD_START);
  return cold.length || cell.measurements.some(iterated) ? cold : all;
}

/**
 * A measurement's efficiency in one phase: its bound over its median time (the cold start's: over the first
 * iterations' median). A load test (http-server) has a throughput bound instead: the median of its forks'
 * throughput ÷ bound, which it runs once per fork (no cold start apart).
 */
export function efficiencyIn(m: Measurement, phase: Phase): number | undefined {
  if (m.efficiency === undefined && m.lowerBoundMs === undefined) return throughputEfficiency(m);
  if (phase === "steady" || !m.coldStart || m.lowerBoundMs === undefined) return m.efficiency;
  return m.coldStart.median > 0 ? m.lowerBoundMs / m.coldStart.median : undefined;
}

function throughputEfficiency(m: Measurement): number | undefined {
  const values = m.samples.map((s) => s["throughputEfficiency"]).filter((v): v is number => typeof v === "number");
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "3 forks × 5 iterations (+2 warmup)", or "3 forks" for single cold runs: what a summary rests on. */
export function basis(m: Measurement): string {
  const forks = m.summary?.n ?? m.samples.length;
  const text = `${forks} fork${forks === 1 ? "" : "s"}`;
  const it = m.iterations;
  if (!it) return text;
  return `${text} × ${it.measure} iteration${it.measure === 1 ? "" : "s"}${it.warmup ? ` (+${it.warmup} warmup)` : ""}`;
}

export type IterationRole = "cold start" | "warmup" | "measured";

export interface IterationPoint {
  variant: string;
  fork: number;
  iteration: number;
  value: number;
  role: IterationRole;
}

/**
 * Every iteration of every fork, in order: the first is the cold start (also a warmup when there are
 * warmups, else also measured — it is marked as the cold start), the rest warmups then measured ones.
 */
export function iterationPoints(cell: CellRecord, seriesOf: (m: Measurement) => string): IterationPoint[] {
  return cell.measurements.flatMap((m) => {
    const warmup = m.iterations?.warmup ?? 0;
    return m.samples.flatMap((s, f) => {
      const times = s["iterationsWallMs"];
      if (!Array.isArray(times)) return [];
      return times.flatMap((v, i) =>
        typeof v === "number"
          ? [{ variant: seriesOf(m), fork: f + 1, iteration: i + 1, value: v, role: i === 0 ? "cold start" : i < warmup ? "warmup" : "measured" } as IterationPoint]
          : [],
      );
    });
  });
}
