import type { Coordinates } from "../data/results.schema";
import type { CellRecord, Measurement, RunManifest } from "../data/types";
import { bytes, ms, num } from "../ui/format";

// The cell view's data: every repetition as a point, each variant's median and interval, the lower
// bound, and the telemetry the harness recorded per JVM run.

/**
 * The metric a cell's speedups and comparisons use. The runner records it with every speedup; a cell
 * without one (no virtual variant) is judged on wall time, as the runner's Metric does.
 */
/**
 * What other work the cell was measured beside, when it was flagged disturbed (issue #32). Never for a skipped cell:
 * it was not measured, and runs before this was mended recorded a reading of its few milliseconds all the same.
 */
export function disturbedFigure(cell: CellRecord): string | undefined {
  return cell.status === "skipped" ? undefined : cell.execution?.interference?.disturbed;
}

/** The metric the cell is judged by, as its record says (older records: their speedups', else wall time). */
export function metricOf(cell: CellRecord): string {
  return cell.measurements[0]?.metric?.name ?? cell.speedups?.[0]?.metric ?? "wallMs";
}

/** A measurement's metric unit as the record says ("ms/op", "req/s"); wall time's is ms. */
export function unitOf(cell: CellRecord): string {
  const m = cell.measurements[0];
  return m?.metric?.unit ?? (metricOf(cell) === "wallMs" ? "ms" : metricOf(cell));
}

/**
 * A JMH benchmark as people read it: the class's simple name and the method, with the parameters
 * ("BlockingServiceBenchmark.threadsByParam(poolSize=50)"), not the package.
 */
export function shortBenchmark(label: string): string {
  const paren = label.indexOf("(");
  const name = paren < 0 ? label : label.slice(0, paren);
  const parts = name.split(".");
  const short = parts.length > 2 ? parts.slice(-2).join(".") : name;
  return short + (paren < 0 ? "" : label.slice(paren));
}

/** The benchmark with its shared parameters, as the runner labels it (Benchmark.label()). */
export function benchmarkLabel(m: Measurement): string | undefined {
  const b = m.benchmark;
  if (!b) return undefined;
  const params = Object.entries(b.params ?? {}).sort(([a], [c]) => a.localeCompare(c));
  return params.length ? `${b.name}(${params.map(([k, v]) => `${k}=${v}`).join(", ")})` : b.name;
}

/** What a measurement is within its cell: the variant, and for a user workload its benchmark. */
export function seriesOf(m: Measurement): string {
  const label = benchmarkLabel(m);
  return label ? `${m.variant} · ${shortBenchmark(label)}` : m.variant;
}

/** Whether the runner's summary is of this metric: wall time for built-in workloads, the judged metric for a user's. */
function summarises(m: Measurement, metric: string): boolean {
  return m.benchmark ? m.metric?.name === metric : metric === "wallMs";
}

export interface Point {
  variant: string;
  repetition: number;
  value: number;
  outlier: boolean;
}

export interface VariantStats {
  variant: string;
  n: number;
  median?: number;
  ci?: [number, number];
  ciLevel?: number;
  cv?: number;
  unstable: boolean;
  lowerBoundMs?: number;
  efficiency?: number;
  ceiling?: { threads: number; reason: string };
  error?: string;
  /** The whole JVM as the driver timed it (median over forks): beside wallMs, what JVM start-up adds. */
  processMs?: number;
  /** A JMH score's error (JMH's own 99.9 % half-width, median over forks). */
  scoreError?: number;
  /** A load test's Little's-law bound and its throughput over it (http-server), medians over forks. */
  throughputBound?: number;
  throughputEfficiency?: number;
}

export function points(cell: CellRecord, metric: string): Point[] {
  return cell.measurements.flatMap((m) => {
    const outliers = new Set(summarises(m, metric) ? (m.summary?.outliers ?? []) : []);
    return m.samples.flatMap((s, i) => {
      const v = s[metric];
      return typeof v === "number" ? [{ variant: seriesOf(m), repetition: i + 1, value: v, outlier: outliers.has(i) }] : [];
    });
  });
}

/** The runner's summary (order-statistic CI) of the metric it summarised; for another metric, its median only. */
export function variantStats(cell: CellRecord, metric: string): VariantStats[] {
  return cell.measurements.map((m) => {
    const values = m.samples.map((s) => s[metric]).filter((v): v is number => typeof v === "number");
    const summary = summarises(m, metric) ? m.summary : undefined;
    const med = (key: string) =>
      median(m.samples.map((s) => s[key]).filter((v): v is number => typeof v === "number"));
    return {
      processMs: m.processSummary?.median ?? med("processMs"),
      scoreError: med("scoreError"),
      throughputBound: med("throughputBoundPerSecond"),
      throughputEfficiency: med("throughputEfficiency"),
      variant: seriesOf(m),
      n: values.length,
      median: summary?.median ?? median(values),
      ci: summary?.ci95,
      ciLevel: summary?.ciLevel,
      cv: summary?.cv,
      unstable: m.summary?.unstable ?? false,
      lowerBoundMs: m.lowerBoundMs,
      efficiency: m.efficiency,
      ceiling: m.ceiling,
      error: m.error,
    };
  });
}

export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Telemetry {
  variant: string;
  carriers?: number;
  pinnedEvents?: number;
  pinnedEventsUnavailable: boolean;
  gcCount?: number;
  gcMs?: number;
  cpuMs?: number;
  peakRssBytes?: number;
  /** Time virtual threads spent pinned (JFR), and where: the most frequent frame the samples name. */
  pinnedMs?: number;
  pinnedAt?: string;
}

/** Per variant, the median over repetitions of what the JVM reported about itself. */
export function telemetry(m: Measurement): Telemetry {
  const med = (key: string) =>
    median(m.samples.map((s) => s[key]).filter((v): v is number => typeof v === "number"));
  return {
    variant: seriesOf(m),
    carriers: med("carriers"),
    pinnedEvents: med("pinnedEvents"),
    pinnedEventsUnavailable: m.samples.some((s) => s["pinnedEventsUnavailable"] === true),
    gcCount: med("gcCount"),
    gcMs: med("gcMs"),
    cpuMs: med("cpuMs"),
    peakRssBytes: med("peakRssBytes"),
    pinnedMs: med("pinnedMs"),
    pinnedAt: mostFrequent(m.samples.map((s) => s["pinnedAt"]).filter((v): v is string => typeof v === "string")),
  };
}

function mostFrequent(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

/** A POSIX shell word: single quotes, with any single quote closed, escaped and reopened. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs this one cell again, from the same matrix file and profile. */
export function reproduceCommand(manifest: RunManifest, cell: CellRecord): string {
  const words = ["./loom-matrix", "run", "--matrix", shellWord(manifest.matrix.file)];
  if (manifest.matrix.profile) words.push("--profile", shellWord(manifest.matrix.profile));
  words.push("--cell", shellWord(cell.cellId));
  if (cell.execution?.backend === "local") words.push("--backend", "local");
  return words.join(" ");
}

/**
 * The cell's earlier attempts in a line ("1 before this one: failed — Docker engine error …"), or
 * undefined when it ran once: a reader should know a result needed a second go.
 */
export function earlierAttempts(cell: CellRecord): string | undefined {
  const attempts = cell.execution?.earlierAttempts ?? [];
  if (attempts.length === 0) return undefined;
  const each = attempts.map((a) => (a.reason ? `${a.status} — ${a.reason}` : a.status));
  return `${attempts.length} before this one: ${each.join("; ")}`;
}

/** A variant's profiling run as the record has it (issue #20). */
export type CellProfile = NonNullable<CellRecord["profiles"]>[number];
type Jfr = NonNullable<CellProfile["jfr"]>;
type Frame = Jfr["pinnedFrames"][number];

/** One row of the "why" table: what the JVM did, a cell per variant, side by side. */
export interface WhyRow {
  label: string;
  values: string[];
}

const frameText = (f: Frame) => `${f.frame} ×${f.count}${f.totalMs === undefined ? "" : `, ${ms(f.totalMs)}`}`;

/**
 * The "why" panel's table (issue #20): for each variant's profiling run, what the JVM did — pins and where, the
 * scheduler's failures, the collector, allocation, contention, parks and sleeps, where the CPU went — or why the
 * variant has no profile, in its column (never a zero in place of a missing source).
 */
export function whyRows(cell: CellRecord): { variants: string[]; rows: WhyRow[] } {
  const profiles = cell.profiles ?? [];
  const variants = profiles.map((p) => p.variant);
  const row = (label: string, value: (j: Jfr) => string): WhyRow => ({
    label,
    values: profiles.map((p) => (p.jfr ? value(p.jfr) : `— ${p.unavailable ?? (p.flame ? "JFR not asked for" : "no profile")}`)),
  });
  const rows = [
    row("virtual threads pinned (JFR)", (j) => (j.pinnedEvents ? `${num(j.pinnedEvents)} times, ${ms(j.pinnedMs)} in all` : "never")),
    row("pinned at (longest first)", (j) => (j.pinnedFrames.length ? j.pinnedFrames.slice(0, 3).map(frameText).join("; ") : "—")),
    row("failed to start or continue (submit failed)", (j) => num(j.submitFailed)),
    row("GC pauses", (j) => (j.gcPauses ? `${j.gcPauses}, ${ms(j.gcPauseMs)} in all, longest ${ms(j.gcMaxPauseMs)}` : "none")),
    row("allocation (sampled)", (j) => `${bytes(j.allocatedBytes)}, ${bytes(j.allocationBytesPerSecond)}/s`),
    row("contended monitor entries", (j) =>
      j.monitorEnters ? `${num(j.monitorEnters)}, ${ms(j.monitorEnterMs)} waited${j.monitorFrames[0] ? ` — most at ${j.monitorFrames[0].frame}` : ""}` : "none above JFR's threshold",
    ),
    // JFR's profile settings record a park or a sleep only from 10 ms: a flame graph full of shorter sleeps is no
    // contradiction of a count of 0
    row("parks · sleeps of 10 ms or longer (shorter ones are not recorded)", (j) => `${num(j.parks)} · ${num(j.sleeps)}`),
    row("where the CPU went (JFR's execution samples, top of stack)", (j) => cpuShares(j.cpuSamples, j.cpuFrames)),
    row("CPU load (JVM · machine)", (j) =>
      j.jvmCpu === undefined ? "not sampled (a run under JFR's 1 s period)" : `${Math.round(j.jvmCpu * 100)} % · ${Math.round((j.machineCpu ?? 0) * 100)} %`,
    ),
    row("recording", (j) => ms(j.durationMs)),
  ];
  if (profiles.some((p) => p.flame || p.flameUnavailable)) {
    rows.push({
      label: "flame graphs (async-profiler)",
      values: profiles.map((p) =>
        p.flame
          ? `${p.flame.cpuSamples} CPU samples (${engineWords(p.flame.engine)}), ${p.flame.wallSamples} wall-clock samples`
          : `— ${p.flameUnavailable ?? "none"}`,
      ),
    });
  }
  return { variants, rows };
}

/** Fewer samples than this, and a method's share is not said as a percentage (issue #31: 37 % of 6 samples). */
export const FEW_SAMPLES = 50;

/**
 * The methods on top of a profile's CPU samples, each with its count, and its share only where the samples are
 * enough to say one: "12 samples: a.B 7, c.D 3 — too few for shares" or "633 samples: a.B 37 % (234)".
 */
export function cpuShares(samples: number, frames: { frame: string; count: number }[]): string {
  if (!samples) return "no CPU samples";
  const top = frames.slice(0, 3);
  if (samples < FEW_SAMPLES) {
    return `${num(samples)} samples: ${top.map((f) => `${f.frame} ×${num(f.count)}`).join("; ")} — too few for shares`;
  }
  return `${num(samples)} samples: ${top.map((f) => `${f.frame} ${Math.round((f.count / samples) * 100)} % (${num(f.count)})`).join("; ")}`;
}

/** How async-profiler sampled CPU, in words: its timer where the cell may not open perf events. */
export function engineWords(engine: string): string {
  return engine === "perf_events"
    ? "perf events"
    : engine === "ctimer" || engine === "itimer"
      ? `${engine}: a timer, as the cell may not open perf events`
      : engine;
}

/** One method's share of CPU samples in two variants: a row of the differential view. */
export interface CpuShare {
  frame: string;
  subject?: number;
  reference?: number;
  /** subject − reference, in points of share; a method absent from a side's list counts as under its last. */
  difference: number;
}

/**
 * The differential view of where the CPU went (issue #20): the cell's headline subject against the variant it is
 * compared with (else the first two profiled variants), each method's share of its variant's CPU samples, the
 * largest differences first. It rests on each side's listed hottest methods (8 each), so a method missing from a
 * list is at most that list's smallest share.
 */
export function cpuDifferential(
  cell: CellRecord,
): { subject: string; reference: string; rows: CpuShare[]; samples: [number, number] } | undefined {
  const profiles = (cell.profiles ?? []).filter((p) => (p.flame ?? p.jfr)?.cpuSamples);
  const byVariant = new Map(profiles.map((p) => [p.variant, p]));
  const c = cell.contrast;
  let pair: [string, string] | undefined =
    c && c.reference && byVariant.has(c.subject) && byVariant.has(c.reference) ? [c.subject, c.reference] : undefined;
  if (!pair && profiles.length >= 2) pair = [profiles[0].variant, profiles[1].variant];
  if (!pair) return undefined;
  const shares = (variant: string) => {
    const p = byVariant.get(variant)!;
    const samples = p.flame?.cpuSamples ?? p.jfr!.cpuSamples;
    return new Map((p.flame?.cpuFrames ?? p.jfr!.cpuFrames).map((f) => [f.frame, f.count / samples]));
  };
  const [a, b] = [shares(pair[0]), shares(pair[1])];
  const rows = [...new Set([...a.keys(), ...b.keys()])].map((frame) => {
    const subject = a.get(frame);
    const reference = b.get(frame);
    return { frame, subject, reference, difference: (subject ?? 0) - (reference ?? 0) };
  });
  rows.sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference) || x.frame.localeCompare(y.frame));
  const count = (v: string) => byVariant.get(v)!.flame?.cpuSamples ?? byVariant.get(v)!.jfr!.cpuSamples;
  return { subject: pair[0], reference: pair[1], rows, samples: [count(pair[0]), count(pair[1])] };
}

/**
 * A cell as a reader names it: "spring-boot-capacity — HotSpot 25 (debian-25), Linux, 1 CPU, default scheduler".
 * Its id ("debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.spring-boot-capacity") stays beneath, for the CLI.
 */
export function cellTitle(c: Coordinates): string {
  const vm = c.vm === "openj9" ? "OpenJ9" : "HotSpot";
  return `${c.workload} — ${vm} ${c.version} (${c.jdk}), ${placementWords(c)}`;
}

/** "Linux, 2 CPUs, scheduler parallelism 4" or "…, default scheduler": where a cell ran and how it was set. */
function placementWords(c: Pick<Coordinates, "os" | "cpus" | "cpuset" | "parallelism" | "maxPoolSize" | "minRunnable">): string {
  const os = c.os === "windows" ? "Windows" : "Linux";
  const cpus = `${c.cpus} CPU${c.cpus === 1 ? "" : "s"}${c.cpuset && c.cpuset !== "all" ? ` (cpuset ${c.cpuset})` : ""}`;
  const settings = [
    c.parallelism !== "auto" ? `parallelism ${c.parallelism}` : "",
    c.maxPoolSize !== "auto" ? `maxPoolSize ${c.maxPoolSize}` : "",
    c.minRunnable !== "auto" ? `minRunnable ${c.minRunnable}` : "",
  ].filter(Boolean);
  return `${os}, ${cpus}, ${settings.length ? `scheduler ${settings.join(", ")}` : "default scheduler"}`;
}

/**
 * A cell id in words, for the pages that have only the id (history, A/B, compare):
 * "debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.pool-4" → "pool-4 — debian-25, Linux, 1 CPU, default
 * scheduler", or without the workload where the page is the workload's. The id's format is Coordinates.cellId's
 * (a CPU limit may hold a dot: cpus-1.5); an id that is not in it is returned as it is.
 */
export function cellIdTitle(id: string, withWorkload = true): string {
  const m = /^([^.]+)\.(linux|windows)\.cpus-(\d+(?:\.\d+)?)(?:\.cpuset-([\d_-]+))?\.par-([^.]+)\.max-([^.]+)\.minr-([^.]+)\.(.+)$/.exec(id);
  if (!m) return id;
  const [, jdk, os, cpus, cpuset, parallelism, maxPoolSize, minRunnable, workload] = m;
  const where = `${jdk}, ${placementWords({ os: os as Coordinates["os"], cpus: Number(cpus), cpuset: cpuset?.replaceAll("_", ","), parallelism, maxPoolSize, minRunnable })}`;
  return withWorkload ? `${workload} — ${where}` : where;
}
