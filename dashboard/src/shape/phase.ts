import type { CellRecord, Measurement, Speedup } from "../data/types";

// Cold start and steady state (issue #18). A fork — one fresh JVM — may run its workload several times:
// warmup iterations, then measured ones whose median is the fork's value (its steady state). Its first
// iteration is its cold start, recorded apart as `coldStartMs`. A fork that ran once has only a cold start.

/** Which state of the JVM a view shows; the URL's `phase`. */
export type Phase = "steady" | "cold-start";

export const COLD_START = "coldStartMs";

/** Whether the measurement's forks ran more than one iteration (so its value is a steady state). */
export const iterated = (m: Measurement) => m.iterations !== undefined;

/**
 * What each fork of a measurement ran (issue #31), so that no view calls a JMH score a cold start:
 * - `jmh`: JMH's own warmup and measurement iterations inside the fork; its score is after the warmup;
 * - `service`: a fresh server measured for its load window after a warmup window;
 * - `program`: a user's program in a fresh JVM, judged by what it reported (or its whole process time);
 * - `iterated`: a built-in workload's iterations: its median after its warmup, its first apart (a cold start);
 * - `once`: a built-in workload run once in the fork: a cold start and nothing else.
 */
export type ForkRun = "jmh" | "service" | "program" | "iterated" | "once";

export function forkRun(m: Measurement): ForkRun {
  if (m.benchmark?.mode !== undefined || m.samples.some((s) => Array.isArray(s["iterations"]))) return "jmh";
  if (m.samples.some((s) => s["latencyDistributionMs"] !== undefined)) return "service";
  // a program's numbers: what it reported in Bencher Metric Format (a benchmark of its own), or its process time
  if (m.benchmark !== undefined || m.metric?.name === "processMs") return "program";
  return iterated(m) ? "iterated" : "once";
}

/** "JMH's 3 measurement iterations after 1 warmup in each fork": how a fork's value came about, in words. */
export function forkRunWords(run: ForkRun): string {
  switch (run) {
    case "jmh":
      return "JMH's score over its measurement iterations, after its warmup iterations, in each fork";
    case "service":
      return "a fresh server measured over its load window, after a warmup window";
    case "program":
      return "the program's own numbers (or its whole process time), a fresh JVM each";
    case "iterated":
      return "the median of the fork's measured iterations, after its warmup";
    case "once":
      return "the fork's one run: a cold start";
  }
}

/** Whether every measurement of the cell is one cold run per fork: its numbers have no steady state. */
export const coldOnly = (cell: CellRecord) =>
  cell.measurements.length > 0 && cell.measurements.every((m) => forkRun(m) === "once");

/**
 * What the matrix's numbers are in the phase shown, said per kind of fork the run has (issue #31): a run of
 * built-in workloads that ran once says they are cold starts; a JMH suite says its scores are JMH's, after its
 * warmup; a cold-start view says which cells have none.
 */
export function phaseNote(cells: CellRecord[], phase: Phase): string {
  const runs = new Set(cells.flatMap((c) => c.measurements.map(forkRun)));
  if (runs.size === 0) return "";
  if (runs.size === 1 && runs.has("once")) {
    return "Every JVM of this run ran its workload once: each number is a cold start (class loading, JIT, the first carriers or pool threads included), not a steady state. Set iterations in the matrix to measure both.";
  }
  const order: ForkRun[] = ["iterated", "jmh", "program", "service", "once"];
  const present = order.filter((r) => runs.has(r));
  if (phase === "cold-start") {
    const none = present.filter((r) => r === "jmh" || r === "program" || r === "service");
    return (
      "Cold start: each fork's first iteration — how a freshly started JVM behaves; a built-in fork that ran once has only that." +
      (none.length
        ? ` ${none.map((r) => ({ jmh: "JMH benchmarks", program: "programs", service: "services" })[r as "jmh"]).join(", ")} measured no cold start apart: their tiles are empty here.`
        : "")
    );
  }
  const what: Record<ForkRun, string> = {
    iterated: "a built-in workload's, the median of its measured iterations after its warmup (its cold start, the first iteration, is one choice away: Phase)",
    jmh: "a JMH benchmark's, JMH's score over its measurement iterations after its warmup iterations",
    program: "a program's, its own numbers (or its whole process time) in a fresh JVM",
    service: "a service's, a fresh server over its load window after a warmup window",
    once: "a built-in workload that ran once per JVM, a cold start (marked °)",
  };
  return `Each fork's value is ${present.map((r) => what[r]).join("; ")}.`;
}

/**
 * Whether a choice of phase means anything for these cells: some fork iterated, so its cold start and its steady
 * state differ (issue #54: the picker was offered beside JMH suites, programs and services, which have no cold
 * start apart, and beside cells that ran once, whose one run is both).
 */
export const phaseApplies = (cells: CellRecord[]) => cells.some((c) => c.measurements.some((m) => forkRun(m) === "iterated"));

/** Whether a measurement has a cold start to show: a built-in's first iteration, or its one run. */
export const hasColdStart = (m: Measurement) => forkRun(m) === "iterated" || forkRun(m) === "once";

/** How many forks of the measurement still trended over their measured iterations (Mann-Kendall, 5 %). */
export const notSteadyForks = (m: Measurement) => m.samples.filter((s) => s["steady"] === false).length;

/**
 * The speedups of a cell in one phase. Steady: the judged metric's. Cold start: `coldStartMs`'s where the
 * forks iterated; where they ran once, their one run was a cold start, so the judged metric's stand for it; a
 * JMH benchmark, a program or a service measured no cold start: none (showing their scores as cold starts
 * would say what was not measured).
 */
export function speedupsIn(cell: CellRecord, phase: Phase): Speedup[] {
  const all = cell.speedups ?? [];
  const cold = all.filter((s) => s.metric === COLD_START);
  if (phase === "steady") return all.filter((s) => s.metric !== COLD_START);
  if (cold.length || cell.measurements.some(iterated)) return cold;
  return coldOnly(cell) ? all : [];
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

/** "3 forks × 5 iterations (+2 warmup)", "3 forks × 5 JMH iterations", or "3 forks" for single runs: what a summary rests on. */
export function basis(m: Measurement): string {
  const forks = m.summary?.n ?? m.samples.length;
  const text = `${forks} fork${forks === 1 ? "" : "s"}`;
  const it = m.iterations;
  if (!it) {
    // JMH's iterations are JMH's: the count it measured in each fork (its warmup is not in the record)
    // a sample's `iterations`: per JMH fork of the repetition, its measurement iterations' scores
    const jmh = m.samples.map((s) => s["iterations"]).find((v): v is unknown[] => Array.isArray(v));
    const count = jmh && (Array.isArray(jmh[0]) ? (jmh[0] as unknown[]).length : jmh.length);
    return count ? `${text} × ${count} JMH iteration${count === 1 ? "" : "s"}` : text;
  }
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
