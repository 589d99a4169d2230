import type { CellRecord, Measurement } from "../data/types";
import { benchmarkLabel, median, seriesOf } from "./cell";

// A service cell (issue #28) as the cell view shows it: each variant's latency percentile distribution (the
// HdrHistogram percentile plot users know: percentiles spread on a log scale of 1 / (1 − p), so the tail gets
// the room), and beside it throughput, errors by kind, and what the load generator did.

/** The numbers a service sample carries beside its metrics: oha's percentiles, in ms, with the maximum as "100". */
type Distribution = Record<string, number>;

const distributionOf = (
  s: Measurement["samples"][number],
): Distribution | undefined => {
  const d = (s as Record<string, unknown>).latencyDistributionMs;
  return d && typeof d === "object" ? (d as Distribution) : undefined;
};

const numberOf = (
  s: Measurement["samples"][number],
  key: string,
): number | undefined => {
  const v = (s as Record<string, unknown>)[key];
  return typeof v === "number" ? v : undefined;
};

/** Whether the cell measured a service under load. */
export function isService(cell: CellRecord): boolean {
  return cell.measurements.some((m) =>
    m.samples.some((s) => distributionOf(s) !== undefined),
  );
}

export interface PercentilePoint {
  series: string;
  repetition: number;
  /** the percentile, 50 … 99.99; the maximum is 100 */
  percentile: number;
  /** where it sits on the plot's axis: 1 / (1 − p), the maximum one decade past the last percentile */
  x: number;
  ms: number;
}

/** The position of a percentile on the plot's axis; the maximum (100) is drawn a decade past 99.99. */
export const percentileX = (p: number): number =>
  p >= 100 ? 1e5 : 1 / (1 - p / 100);

/** The axis' ticks and their words. */
export const PERCENTILE_TICKS: { x: number; label: string }[] = [
  { x: percentileX(50), label: "50 %" },
  { x: percentileX(90), label: "90 %" },
  { x: percentileX(99), label: "99 %" },
  { x: percentileX(99.9), label: "99.9 %" },
  { x: percentileX(99.99), label: "99.99 %" },
  { x: percentileX(100), label: "max" },
];

/** Every repetition's distribution from the median up (the lower percentiles say little about a tail). */
export function percentilePoints(cell: CellRecord): PercentilePoint[] {
  const out: PercentilePoint[] = [];
  for (const m of cell.measurements) {
    m.samples.forEach((s, i) => {
      const d = distributionOf(s);
      if (!d) return;
      for (const [key, ms] of Object.entries(d)) {
        const percentile = Number(key);
        if (!Number.isFinite(percentile) || percentile < 50 || !(ms > 0))
          continue;
        out.push({
          series: seriesOf(m),
          repetition: i + 1,
          percentile,
          x: percentileX(percentile),
          ms,
        });
      }
    });
  }
  return out.sort(
    (a, b) =>
      a.series.localeCompare(b.series) ||
      a.repetition - b.repetition ||
      a.x - b.x,
  );
}

export interface LoadRow {
  series: string;
  variant: string;
  /** what the variant was measured at, the same for every variant it is compared with: "GET /work(load=users=100)" */
  benchmark?: string;
  /** the load level the runner names it by: "users=100" (closed model), "rate=500/s" (open model) */
  load?: string;
  repetitions: number;
  /** medians over the repetitions */
  throughput?: number;
  p50?: number;
  p99?: number;
  p999?: number;
  max?: number;
  /** a built-in service's throughput bound (Little's law) and the throughput's share of it */
  bound?: number;
  efficiency?: number;
  /** failed requests by kind, summed over the repetitions */
  errors: Record<string, number>;
  askedRate?: number;
  achievedRate?: number;
  /** the generator's CPU use as a share of the CPUs it had (the highest repetition's) */
  generatorCpuShare?: number;
  generatorCpus?: number;
  /**
   * requests still in flight when a repetition's window closed (the generator aborts them: neither answers nor
   * errors), the median over the repetitions, and the median of their share of the requests sent (answered,
   * failed or cut)
   */
  cut?: number;
  cutShare?: number;
  /** why the variant's numbers are not a result (invalid, failed) */
  problem?: string;
}

export function loadRows(cell: CellRecord): LoadRow[] {
  return cell.measurements
    .filter((m) => m.samples.some((s) => distributionOf(s) !== undefined))
    .map((m) => {
      const all = (key: string) =>
        m.samples
          .map((s) => numberOf(s, key))
          .filter((v): v is number => v !== undefined);
      const errors: Record<string, number> = {};
      for (const s of m.samples) {
        for (const [key, v] of Object.entries(s)) {
          if (
            key.startsWith("errors") &&
            key !== "errors" &&
            typeof v === "number"
          ) {
            const kind = key.slice("errors".length).toLowerCase();
            errors[kind] = (errors[kind] ?? 0) + v;
          }
        }
      }
      const shares = m.samples
        .map((s) => {
          const cpu = numberOf(s, "generatorCpuSeconds");
          const cpus = numberOf(s, "generatorCpus");
          const d = distributionOf(s);
          const answered = numberOf(s, "answered");
          const throughput = numberOf(s, "throughputPerSecond");
          // the window's length: answers over their rate
          const seconds =
            answered !== undefined && throughput
              ? answered / throughput
              : undefined;
          return cpu !== undefined && cpus && seconds && d
            ? cpu / seconds / cpus
            : undefined;
        })
        .filter((v): v is number => v !== undefined);
      return {
        series: seriesOf(m),
        variant: m.variant,
        benchmark: benchmarkLabel(m),
        load: m.benchmark?.params?.load,
        repetitions: m.samples.length,
        throughput: median(all("throughputPerSecond")),
        p50: median(all("latencyP50Ms")),
        p99: median(all("latencyP99Ms")),
        p999: median(all("latencyP999Ms")),
        max: median(all("latencyMaxMs")),
        bound: median(all("throughputBoundPerSecond")),
        efficiency: median(all("throughputEfficiency")),
        errors,
        askedRate: median(all("askedRate")),
        achievedRate: median(all("achievedRate")),
        generatorCpuShare: shares.length ? Math.max(...shares) : undefined,
        generatorCpus: median(all("generatorCpus")),
        cut: median(all("cutAtDeadline")),
        cutShare: median(cutShares(m.samples)),
        problem: m.error ?? undefined,
      };
    });
}

/** Each repetition's cut requests as a share of the requests it sent: answered, failed or cut. */
function cutShares(samples: Measurement["samples"]): number[] {
  return samples.flatMap((s) => {
    const cut = numberOf(s, "cutAtDeadline");
    const sent = (numberOf(s, "answered") ?? 0) + (numberOf(s, "errors") ?? 0) + (cut ?? 0);
    return cut !== undefined && sent > 0 ? [cut / sent] : [];
  });
}
