import type { CellRecord, Measurement } from "../data/types";
import { num, ratio } from "../ui/format";
import { list } from "./underload";
import { median, seriesOf } from "./cell";

// A capacity search's cell (issue #52) as the cell view shows it: per variant, how many requests/s it carried
// within the objective — with the interval over its repetitions and each repetition's outcome, never one silent
// number — what held it there, and every window the search ran (the throughput–latency curve and its table).

type Sample = Measurement["samples"][number];

/** One window of a search, as the runner keeps it in a sample's `capacityTried`. */
export interface CapacityWindow {
  repetition: number;
  /** the rate asked of the generator, requests/s */
  rate: number;
  /** the window on the second, fresh server at the found rate */
  validation: boolean;
  /** pass, fail, generator-limited, broken */
  verdict: string;
  why: string;
  achievedRate?: number;
  p50?: number;
  p99?: number;
  p999?: number;
  max?: number;
  errors: Record<string, number>;
  generatorCpuShare?: number;
  serverCpuShare?: number;
}

export interface CapacityRepetition {
  repetition: number;
  /** bracketed, lower bound, generator-limited, inconclusive, failed */
  outcome: string;
  why: string;
  capacity?: number;
  firstFailing?: number;
  limitedBy?: string;
  serverCpuShare?: number;
  windows: CapacityWindow[];
}

export interface CapacityVariant {
  series: string;
  variant: string;
  /** the objective in words, as the runner names the level: "p99 ≤ 500 ms, errors ≤ 0.1 %" */
  objective: string;
  /** the latency bounds of the objective, in ms, by percentile key ("p99", "p99.9", "max") */
  bounds: Record<string, number>;
  precision?: number;
  repetitions: CapacityRepetition[];
  /** the median capacity over the repetitions that found one, and the runner's interval on it */
  capacity?: number;
  interval?: [number, number];
  intervalLevel?: number;
  /** why the variant's numbers are not a result (invalid, failed) */
  problem?: string;
}

const CAPACITY = "capacityPerSecond";

const field = (s: Sample, key: string): unknown => (s as Record<string, unknown>)[key];
const numberOf = (o: unknown, key: string): number | undefined => {
  const v = (o as Record<string, unknown> | undefined)?.[key];
  return typeof v === "number" ? v : undefined;
};
const stringOf = (o: unknown, key: string): string | undefined => {
  const v = (o as Record<string, unknown> | undefined)?.[key];
  return typeof v === "string" ? v : undefined;
};

/** Whether the cell ran a capacity search: its samples keep the windows it tried. */
export function isCapacity(cell: CellRecord): boolean {
  return cell.measurements.some((m) => m.samples.some((s) => Array.isArray(field(s, "capacityTried"))));
}

/** "capacity at p99 ≤ 500 ms, errors ≤ 0.1 %" → "p99 ≤ 500 ms, errors ≤ 0.1 %". */
const objectiveOf = (m: Measurement): string => (m.benchmark?.params?.load ?? "").replace(/^capacity at /, "");

/** The objective's latency bounds in ms, read from its words ("p99 ≤ 1.5 s" → { p99: 1500 }). */
export function boundsOf(objective: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of objective.matchAll(/(p[\d.]+|max) ≤ ([\d.]+) (ms|s)\b/g)) {
    out[m[1]] = Number(m[2]) * (m[3] === "s" ? 1000 : 1);
  }
  return out;
}

function windowOf(repetition: number, t: Record<string, unknown>): CapacityWindow {
  const errors: Record<string, number> = {};
  const e = t.errors;
  if (e && typeof e === "object") {
    for (const [kind, n] of Object.entries(e)) if (typeof n === "number") errors[kind] = n;
  }
  return {
    repetition,
    rate: numberOf(t, "rate") ?? NaN,
    validation: t.validation === true,
    verdict: stringOf(t, "verdict") ?? "",
    why: stringOf(t, "why") ?? "",
    achievedRate: numberOf(t, "achievedRate"),
    p50: numberOf(t, "latencyP50Ms"),
    p99: numberOf(t, "latencyP99Ms"),
    p999: numberOf(t, "latencyP999Ms"),
    max: numberOf(t, "latencyMaxMs"),
    errors,
    generatorCpuShare: numberOf(t, "generatorCpuShare"),
    serverCpuShare: numberOf(t, "serverCpuShare"),
  };
}

function repetitionOf(s: Sample, index: number): CapacityRepetition {
  const tried = field(s, "capacityTried");
  return {
    repetition: index + 1,
    outcome: stringOf(s, "capacityOutcome") ?? "",
    why: stringOf(s, "capacityWhy") ?? "",
    capacity: numberOf(s, CAPACITY),
    firstFailing: numberOf(s, "capacityFirstFailingPerSecond"),
    limitedBy: stringOf(s, "capacityLimitedBy"),
    serverCpuShare: numberOf(s, "serverCpuShareAtCapacity"),
    windows: Array.isArray(tried) ? tried.map((t) => windowOf(index + 1, t as Record<string, unknown>)) : [],
  };
}

/** Each variant's search, in the record's order. */
export function capacityVariants(cell: CellRecord): CapacityVariant[] {
  return cell.measurements
    .filter((m) => m.samples.some((s) => Array.isArray(field(s, "capacityTried"))))
    .map((m) => {
      const repetitions = m.samples.map(repetitionOf);
      const found = repetitions.flatMap((r) => (r.capacity === undefined ? [] : [r.capacity]));
      const summarised = m.metric?.name === CAPACITY && m.summary;
      const objective = objectiveOf(m);
      return {
        series: seriesOf(m),
        variant: m.variant,
        objective,
        bounds: boundsOf(objective),
        precision: numberOf(m.samples[0], "capacityPrecision"),
        repetitions,
        capacity: summarised ? m.summary!.median : median(found),
        interval: summarised ? m.summary!.ci95 : undefined,
        intervalLevel: summarised ? m.summary!.ciLevel : undefined,
        problem: m.error ?? undefined,
      };
    });
}

/** A variant whose every repetition passed at the top of the range: its capacity is a floor, not a measurement. */
export const onlyLowerBound = (v: CapacityVariant): boolean =>
  v.repetitions.length > 0 && v.repetitions.every((r) => r.outcome === "lower bound");

const reqs = (v: number | undefined) => `${num(v)} requests/s`;

/** A variant's capacity in words: "69 requests/s (interval 66–72)", "at least 200 requests/s". */
function carried(v: CapacityVariant): string {
  if (onlyLowerBound(v)) return `at least ${reqs(v.capacity)} (it met the objective at the top of the range searched)`;
  const [lo, hi] = v.interval ?? [];
  const interval = lo !== undefined && hi !== undefined && lo !== hi ? `, interval ${num(lo)}–${num(hi)}` : "";
  return `${reqs(v.capacity)}${interval}`;
}

/**
 * The lead: what each variant carries within the objective (medians over its repetitions), the subject against
 * the next best, and the variants that found none with why. A lower bound is said as one, and so is a ratio that
 * rests on it.
 */
export function capacityLead(variants: CapacityVariant[], subject?: string): string {
  if (!variants.length) return "";
  const found = variants.filter((v) => v.capacity !== undefined && !v.problem).sort((a, b) => b.capacity! - a.capacity!);
  const none = variants.filter((v) => v.capacity === undefined || v.problem);
  const objective = variants[0].objective;
  const parts: string[] = [];
  if (found.length) {
    const each = found.map((v) => `${v.variant} carries ${carried(v)}`);
    parts.push(`Within ${objective}, ${list(each)} (medians over ${repetitionWords(found)}).`);
  } else {
    parts.push(`No variant met ${objective} at any rate searched (see each one's outcome below).`);
  }
  const best = found.find((v) => v.variant === subject) ?? found[0];
  const other = found.find((v) => v !== best);
  if (best && other && other.capacity! > 0) {
    const floor = onlyLowerBound(best) ? "at least " : "";
    const beyond = onlyLowerBound(other) ? ", which is itself only a floor" : "";
    parts.push(`${best.variant} carries ${floor}${ratio(best.capacity! / other.capacity!)} as much as ${other.variant}${beyond}.`);
  }
  for (const v of none) {
    const why = v.repetitions.find((r) => r.capacity === undefined)?.why ?? v.problem ?? "";
    const outcome = unique(v.repetitions.map((r) => r.outcome)).join(", ");
    parts.push(`${v.variant} found none (${outcome}): ${why}.`);
  }
  return parts.join(" ");
}

/** What held each variant where it is, as the runner measured it (the CPU, the pool, errors); none where none did. */
export function limitSentences(variants: CapacityVariant[]): string[] {
  return variants.flatMap((v) => {
    const why = unique(v.repetitions.flatMap((r) => (r.limitedBy ? [r.limitedBy] : [])));
    return why.length ? [`What held ${v.variant}: ${why.join("; ")}.`] : [];
  });
}

/** Each repetition's outcome in a line: "repetition 1: bracketed — it met the objective at …". */
export function outcomeLine(r: CapacityRepetition): string {
  return `repetition ${r.repetition}: ${r.outcome}${r.why ? ` — ${r.why}` : ""}`;
}

/** The curve's points: each window's p50 and p99 against the rate asked, the search's windows only. */
export interface CurvePoint {
  repetition: number;
  rate: number;
  percentile: "p50" | "p99";
  ms: number;
  verdict: string;
  validation: boolean;
}

export function curvePoints(v: CapacityVariant): CurvePoint[] {
  return v.repetitions
    .flatMap((r) => r.windows)
    .flatMap((w) =>
      (["p50", "p99"] as const).flatMap((percentile) => {
        const value = percentile === "p50" ? w.p50 : w.p99;
        return value !== undefined && value > 0 && Number.isFinite(w.rate)
          ? [{ repetition: w.repetition, rate: w.rate, percentile, ms: value, verdict: w.verdict, validation: w.validation }]
          : [];
      }),
    )
    .sort((a, b) => a.repetition - b.repetition || a.percentile.localeCompare(b.percentile) || a.rate - b.rate);
}

function repetitionWords(variants: CapacityVariant[]): string {
  const n = unique(variants.map((v) => v.repetitions.length));
  return n.length === 1 ? `${n[0]} repetition${n[0] === "1" ? "" : "s"} each` : "each variant's repetitions";
}

function unique<T>(values: T[]): string[] {
  return [...new Set(values.map(String))];
}
