import { metricWords } from "../ui/format";
import type { HeadlineTrend, IndexEntry, TrendAnnotation, Trends, TrendSeries } from "../data/types";
import { cellIdTitle, shortBenchmark } from "./cell";
import { COLD_START, type Phase } from "./phase";

// The history view's data: each cell variant's median over the runs, joined with the index (date,
// commit, branch, trigger), with the change points the runner found and the annotations for things
// that changed other than the code (JDK build, image, runner).

export type TriggerFilter = "all" | "scheduled" | "pull_request";

export interface HistoryPoint {
  cellId: string;
  variant: string;
  runId: string;
  date: Date;
  median: number;
  /** The median's interval, where the run recorded one. */
  ci?: [number, number];
  n?: number;
  commit: string;
  branch: string;
  trigger: string;
  pullRequest: boolean;
  changePoint: boolean;
  /** Measured beside other work: the figure (issue #32); drawn ringed, never a change point. */
  disturbed?: string;
}

export interface HistoryShape {
  cells: string[];
  points: HistoryPoint[];
  changes: HistoryPoint[];
  /** Each annotation in each panel it concerns; `everyCell`: a runner's, which no one cell recorded. */
  annotations: (TrendAnnotation & { date: Date; cellId: string; everyCell: boolean })[];
  metric?: string;
}

export function shapeHistory(
  trends: Trends,
  index: IndexEntry[],
  options: { cell?: string; variant?: string; trigger?: TriggerFilter; jdk?: string; phase?: Phase },
): HistoryShape {
  const cold = options.phase === "cold-start";
  const runs = new Map(index.map((e) => [e.runId, e]));
  const series = trends.series.filter(
    (s) =>
      // the cold start has its own series; a user workload's have none (its iterations are its own)
      (s.metric === COLD_START) === cold &&
      (!options.cell || s.cellId === options.cell) &&
      (!options.variant || s.variant === options.variant) &&
      (!options.jdk || s.cellId.startsWith(`${options.jdk}.`)),
  );
  // the profile names a series only where the view holds more than one (quick dispatches beside nightlies)
  const profiles = new Set(series.map((s) => s.profile ?? ""));
  // likewise the design of the forks, where it changed: one cold run each is not a steady state
  const designs = new Set(series.map((s) => s.iterations ?? ""));
  const points = series
    .flatMap((s) => pointsOf(s, runs, profiles.size > 1, designs.size > 1))
    .filter((p) => keep(p, options.trigger ?? "all"));
  const cells = [...new Set(series.map((s) => s.cellId))].sort();
  const cellSet = new Set(cells);
  const dates = new Map(points.map((p) => [p.runId, p.date]));
  const annotations = trends.annotations.flatMap((a) => {
    const date = dates.get(a.runId) ?? dateOf(runs.get(a.runId)?.startedAt);
    if (!date) return [];
    // a runner change concerns every cell of its run: drawn in the panels of the cells that run measured, not in
    // those of cells it never ran (issue #54)
    const targets = a.cellId
      ? cellSet.has(a.cellId)
        ? [a.cellId]
        : []
      : cells.filter((c) => points.some((p) => p.cellId === c && p.runId === a.runId));
    return targets.map((cellId) => ({ ...a, cellId, date, everyCell: !a.cellId }));
  });
  return {
    cells,
    points,
    changes: points.filter((p) => p.changePoint),
    annotations,
    metric: series[0]
      ? series[0].unit && series[0].unit !== series[0].metric
        ? `${metricWords(series[0].metric)} (${series[0].unit})`
        : metricWords(series[0].metric)
      : undefined,
  };
}

function pointsOf(s: TrendSeries, runs: Map<string, IndexEntry>, nameProfile: boolean, nameDesign: boolean): HistoryPoint[] {
  const changes = new Set(s.changePoints);
  return s.points.map((p) => {
    const run = runs.get(p.runId);
    return {
      cellId: s.cellId,
      variant:
        (s.benchmark ? `${s.variant} · ${shortBenchmark(s.benchmark)}` : s.variant) +
        (nameProfile ? ` [${s.profile ?? "no profile"}]` : "") +
        (nameDesign ? ` [${s.iterations ? `${s.iterations.replace("+", " warmup + ")} iterations` : "one cold run"}]` : ""),
      runId: p.runId,
      date: new Date(p.startedAt),
      median: p.median,
      ci: p.ci95,
      n: p.n,
      commit: run?.git.commit ?? "?",
      branch: run?.git.branch ?? "?",
      trigger: run?.trigger ?? "?",
      pullRequest: run?.trigger === "pull_request",
      changePoint: changes.has(p.runId),
      disturbed: p.disturbed,
    };
  });
}

/**
 * A panel's y domain: its own points and intervals, padded by a tenth of their range on each side so no
 * point sits on an axis (issue #19: facets shared one scale, so a slow cell flattened a fast one).
 */
export function panelDomain(points: HistoryPoint[]): [number, number] {
  const values = points.flatMap((p) => (p.ci ? [p.median, p.ci[0], p.ci[1]] : [p.median]));
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!Number.isFinite(lo)) return [0, 1];
  const pad = hi > lo ? (hi - lo) * 0.1 : Math.abs(hi) * 0.05 || 1;
  lo -= pad;
  hi += pad;
  return [lo < 0 && Math.min(...values) >= 0 ? 0 : lo, hi];
}

function keep(p: HistoryPoint, trigger: TriggerFilter): boolean {
  return trigger === "all" || (trigger === "pull_request" ? p.pullRequest : !p.pullRequest);
}

function dateOf(iso: string | undefined): Date | undefined {
  return iso ? new Date(iso) : undefined;
}

/** Every workload any run of the history had, for the history view's picker. */
export function historyWorkloads(index: IndexEntry[]): string[] {
  return [...new Set(index.flatMap((e) => e.workloads ?? []))].sort();
}

/**
 * A panel's y scale: linear over its domain, or logarithmic where its variants lie more than 20× apart (issue #54:
 * a 0–15,000 ms axis flattened the 30–200 ms series beside a queueing pool into one line).
 */
export function panelY(points: HistoryPoint[]): { type: "linear" | "log"; domain: [number, number] } {
  const values = points.flatMap((p) => (p.ci ? [p.median, p.ci[0], p.ci[1]] : [p.median]));
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (!(lo > 0) || !Number.isFinite(hi) || hi / lo <= 20) return { type: "linear", domain: panelDomain(points) };
  // a twentieth of a decade's room at each end, so no point sits on the axis
  return { type: "log", domain: [lo / 10 ** 0.05, hi * 10 ** 0.05] };
}

/** Each series' newest point in a panel: where its direct label goes (variants by name, not by colour alone). */
export function lastPoints(points: HistoryPoint[]): HistoryPoint[] {
  const last = new Map<string, HistoryPoint>();
  for (const p of points) {
    const was = last.get(p.variant);
    if (!was || p.date > was.date) last.set(p.variant, p);
  }
  return [...last.values()];
}

/**
 * The headline over the runs (issue #54): each cell's headline value as a history point, its line named by the cell
 * in words (the page is the workload's) and by the profile where the view holds more than one; the same cell, JDK
 * and trigger filters as the variants' panels. Its kind is the first series' (a workload has one contrast).
 */
export function shapeHeadlines(
  trends: Trends,
  index: IndexEntry[],
  options: { cell?: string; trigger?: TriggerFilter; jdk?: string },
): { points: HistoryPoint[]; kind?: HeadlineTrend["kind"]; words?: string } {
  const runs = new Map(index.map((e) => [e.runId, e]));
  const series = (trends.headlineSeries ?? []).filter(
    (s) => (!options.cell || s.cellId === options.cell) && (!options.jdk || s.cellId.startsWith(`${options.jdk}.`)),
  );
  const profiles = new Set(series.map((s) => s.profile ?? ""));
  const points = series
    .flatMap((s) =>
      pointsOf(
        { cellId: s.cellId, workload: s.workload, variant: cellIdTitle(s.cellId, false), metric: "headline", points: s.points, changePoints: s.changePoints, profile: s.profile },
        runs,
        profiles.size > 1,
        false,
      ),
    )
    .filter((p) => keep(p, options.trigger ?? "all"));
  return { points, kind: series[0]?.kind, words: series[0]?.words };
}
