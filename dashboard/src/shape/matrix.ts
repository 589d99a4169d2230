import type { CellRecord, Coordinates } from "../data/types";
import { coldOnly, efficiencyIn, notSteadyForks, type Phase, speedupsIn } from "./phase";
import { disturbedFigure } from "./cell";

// The matrix view's data: one tile per cell of a workload, placed by JDK × VM × OS (rows) and
// CPU limit × scheduler settings (columns), coloured by a speedup or an efficiency, and marked
// when its number should not be trusted as is.

/**
 * What colours the tiles: each workload's headline contrast (issue #19: its declared comparison, the default),
 * or a speedup / an efficiency of a variant the reader picks.
 */
export type ColourMetric = "headline" | "speedup" | "efficiency";

/** What one tile's number is: a speedup (a contest, 1× = no difference) or an efficiency (a measure, 100 % = the bound). */
export type TileKind = "speedup" | "efficiency";

export const VIRTUAL = "virtual";

export interface Tile {
  cellId: string;
  workload: string;
  row: string;
  cpus: string;
  scheduler: string;
  /** A speedup or an efficiency: in the headline view each workload's own. */
  kind: TileKind;
  /** The variant the number is about: virtual threads, or the headline's subject (pinning: synchronized). */
  subject?: string;
  /** The headline contrast in words, when the tile shows it. */
  contrast?: string;
  value?: number;
  ci?: [number, number];
  /** The level the interval really has (older records: unknown, a bootstrap). */
  ciLevel?: number;
  /** The variant the subject is compared with (a speedup), or whose bound the efficiency is against. */
  against?: string;
  /** A user workload's baseline: the value is the speedup of {@link against} over it. */
  baseline?: string;
  status: string;
  attested?: boolean;
  unstable: boolean;
  ceiling: boolean;
  /** The marks drawn on the tile, most serious first; each is explained in the legend. */
  marks: Mark[];
  /**
   * What the tile lets a reader conclude (issues #19, #31): a speedup whose whole interval is above 1 is a win,
   * below 1 a loss, whatever marks the cell carries (unattested, unstable, not steady, cold only are caveats
   * about a result, drawn on the tile, not its absence); one whose interval includes 1, or that has none, is
   * unclear and drawn neutral ("1.2×?"); an efficiency is a measure, not a contest.
   */
  reading: Reading;
  /** The interval's conservative end: the least a win is (≥), the most a loss is (≤). */
  conservative?: number;
  /** Forks the value rests on: the fewer of the two variants'. */
  n?: number;
  reason?: string;
}

export type Reading = "win" | "loss" | "unclear" | "measure" | "none";

/** One colour scale per metric, the same in every view: a speedup between 1/16× and 16× (log), beyond is clamped. */
export const SPEEDUP_DOMAIN: [number, number] = [1 / 16, 16];

export type Mark =
  | "failed"
  | "invalid"
  | "skipped"
  | "unattested"
  | "ceiling"
  | "unstable"
  | "disturbed"
  | "notSteady"
  | "coldOnly";

export const MARK_SYMBOL: Record<Mark, string> = {
  failed: "✕",
  invalid: "⊘",
  skipped: "–",
  unattested: "!",
  ceiling: "⊤",
  unstable: "~",
  disturbed: "≋",
  notSteady: "↗",
  coldOnly: "°",
};

export const MARK_MEANING: Record<Mark, string> = {
  failed: "failed or timed out: no numbers; the cell view has the reason and log tail",
  invalid: "invalid: numbers made but not to be trusted — a load generator, not the service, set them; a footprint fell below zero; or measured beside other work under --on-disturbed fail (the cell view says why)",
  skipped: "skipped: this runner had no such JDK (the cell view says why)",
  unattested: "not attested: the JVM did not see the requested CPU limit or scheduler settings",
  ceiling: "ceiling: a variant hit the thread limit before its target count",
  unstable: "unstable: a variant's repetitions vary by more than 10 % (CV)",
  disturbed: "disturbed: measured beside other work on the host (the cell view has the figure and the threshold)",
  notSteady: "not steady: a fork's measured iterations still trended (Mann-Kendall, 5 %) — its steady state was not reached",
  coldOnly: "cold only: each JVM ran the workload once, so this steady-state tile shows a cold start",
};

/** A mark in a reader's words, for sentences (the legend has its full meaning). */
export const MARK_WORDS: Record<Mark, string> = {
  failed: "failed",
  invalid: "invalid (its numbers cannot be trusted: the cell view says why)",
  skipped: "skipped",
  unattested: "not attested",
  ceiling: "ceiling: a variant hit the thread limit",
  unstable: "unstable (a variant's forks vary by more than 10 %)",
  disturbed: "disturbed (measured beside other work)",
  notSteady: "not steady (a fork's iterations still trended)",
  coldOnly: "cold runs only",
};

/** " at the 90 % level": what "at least" and "at most" rest on, said in the same breath. */
export function atLevel(t: Pick<Tile, "ciLevel">): string {
  return t.ciLevel === undefined ? " (bootstrap interval)" : ` at the ${Math.round(t.ciLevel * 1000) / 10} % level`;
}

export const rowOf = (c: Coordinates) => `${c.jdk} · ${c.vm} ${c.version} · ${c.os}`;

export const cpusOf = (c: Coordinates) =>
  `${c.cpus} CPU${c.cpus === 1 ? "" : "s"}` + (c.cpuset && c.cpuset !== "all" ? ` on CPU${c.cpuset.includes(",") || c.cpuset.includes("-") ? "s" : ""} ${c.cpuset}` : "");

export const SCHEDULER_SETTINGS = ["parallelism", "maxPoolSize", "minRunnable"] as const;

/**
 * A column's label names only the settings that vary in the view (the rest are said once above the
 * chart), so a matrix that sweeps parallelism reads "parallelism 1", not three settings per column.
 */
export function schedulerLabel(c: Coordinates, varying: readonly string[]): string {
  const parts = SCHEDULER_SETTINGS.filter((s) => varying.includes(s)).map((s) => `${s} ${c[s]}`);
  if (parts.length) return parts.join(" · ");
  // nothing varies: "defaults" only when every setting is the JDK's own (a fixed parallelism 1 is not one)
  const set = SCHEDULER_SETTINGS.filter((s) => c[s] !== "auto").map((s) => `${s} ${c[s]}`);
  return set.length ? set.join(" · ") : "scheduler defaults";
}

export function varyingSettings(cells: CellRecord[]): string[] {
  return SCHEDULER_SETTINGS.filter((s) => new Set(cells.map((c) => c.coordinates[s])).size > 1);
}

export function workloadsOf(cells: CellRecord[]): string[] {
  return [...new Set(cells.map((c) => c.coordinates.workload))].sort();
}

export function variantsOf(cells: CellRecord[], workload: string): string[] {
  const seen = new Set<string>();
  for (const cell of cells) {
    if (workload !== "all" && cell.coordinates.workload !== workload) continue;
    for (const m of cell.measurements) seen.add(m.variant);
    for (const v of cell.execution?.variantOrder ?? []) seen.add(v);
  }
  return [...seen].sort((a, b) => (a === VIRTUAL ? -1 : b === VIRTUAL ? 1 : a.localeCompare(b)));
}

/**
 * The headline contrast where the cells carry one (every cell the runner has written since issue #19); for
 * older records, a speedup when the workload has a virtual variant or a baseline, else an efficiency.
 */
export function defaultMetric(cells: CellRecord[], workload: string): ColourMetric {
  if (cells.some((c) => (workload === "all" || c.coordinates.workload === workload) && c.contrast)) return "headline";
  return baselineOf(cells, workload) || variantsOf(cells, workload).includes(VIRTUAL) ? "speedup" : "efficiency";
}

/** Each workload's headline contrast in words, as its cells state it (the first cell that has one). */
export function contrastsOf(cells: CellRecord[], workloads: string[]): { workload: string; words: string; fastestOther: boolean }[] {
  return workloads.flatMap((w) => {
    const c = cells.find((x) => x.coordinates.workload === w && x.contrast)?.contrast;
    return c ? [{ workload: w, words: c.words, fastestOther: c.fastestOther }] : [];
  });
}

/** A user workload's baseline variant, which its speedups are over; undefined for a built-in workload. */
export function baselineOf(cells: CellRecord[], workload: string): string | undefined {
  return cells.find((c) => c.coordinates.workload === workload && c.baseline)?.baseline;
}

/**
 * The variant the colour is about: for a speedup, the variant virtual threads are compared with
 * (platform threads when the cell has them); for an efficiency, the variant whose lower bound is used.
 */
export function defaultVariant(cells: CellRecord[], workload: string, metric: ColourMetric): string | undefined {
  const variants = variantsOf(cells, workload);
  if (metric === "headline") return undefined;
  if (metric === "speedup") {
    const baseline = baselineOf(cells, workload);
    if (baseline) {
      // a user workload: the variant whose speedup over the baseline is shown, virtual when it has one
      const subjects = variants.filter((v) => v !== baseline);
      return subjects.find((v) => v === VIRTUAL) ?? subjects[0];
    }
    const others = variants.filter((v) => v !== VIRTUAL);
    return others.find((v) => v === "platform") ?? others[0];
  }
  const withBound = variants.filter((v) =>
    cells.some((c) => c.measurements.some((m) => m.variant === v && m.efficiency !== undefined)),
  );
  return withBound.find((v) => v === VIRTUAL) ?? withBound[0] ?? variants[0];
}

export interface MatrixShape {
  tiles: Tile[];
  rows: string[];
  cpus: string[];
  schedulers: string[];
  /** Scheduler settings equal in every cell of the view, said once instead of in every column. */
  fixedScheduler: string[];
  workloads: string[];
  domain: [number, number];
  /** Every cell of the view ran once per JVM: said once above the matrix rather than on every tile. */
  allColdOnly: boolean;
  /** The cells with measurements: what the note above the matrix says the numbers are. */
  measured: CellRecord[];
}

export interface MatrixOptions {
  workload: string; // a workload id, or "all"
  metric: ColourMetric;
  variant?: string;
  jdk?: string;
  os?: string;
  /** Steady state (the default) or cold start. */
  phase?: Phase;
}

export function shapeMatrix(cells: CellRecord[], options: MatrixOptions): MatrixShape {
  const chosen = cells.filter(
    (c) =>
      (options.workload === "all" || c.coordinates.workload === options.workload) &&
      (!options.jdk || c.coordinates.jdk === options.jdk) &&
      (!options.os || c.coordinates.os === options.os),
  );
  const varying = varyingSettings(chosen);
  const measured = chosen.filter((c) => c.measurements.length > 0);
  const allColdOnly = measured.length > 0 && measured.every(coldOnly);
  const tiles = chosen.map((cell) => tile(cell, options, cells, varying, allColdOnly));
  const values = tiles.map((t) => t.value).filter((v): v is number => v !== undefined);
  return {
    tiles,
    rows: sortedUnique(chosen, (c) => rowOf(c.coordinates), (a, b) => compareRows(a, b)),
    cpus: sortedUnique(chosen, (c) => cpusOf(c.coordinates), (a, b) => parseFloat(a) - parseFloat(b) || a.localeCompare(b)),
    schedulers: sortedUnique(chosen, (c) => schedulerLabel(c.coordinates, varying), (a, b) => a.localeCompare(b, "en", { numeric: true })),
    fixedScheduler: SCHEDULER_SETTINGS.filter((s) => !varying.includes(s)).map((s) => `${s} ${chosen[0]?.coordinates[s] ?? "?"}`),
    workloads: workloadsOf(chosen),
    domain: domainOf(options.metric, values),
    allColdOnly,
    measured,
  };
}

function tile(cell: CellRecord, options: MatrixOptions, all: CellRecord[], varying: string[], allColdOnly: boolean): Tile {
  const phase = options.phase ?? "steady";
  const c = cell.coordinates;
  const metric = options.metric === "headline" && !cell.contrast ? defaultFallback(all, c.workload) : options.metric;
  // In the all-workloads view each workload is coloured against its own default variant.
  const variant = options.workload === "all" || options.metric === "headline" ? defaultVariant(all, c.workload, metric) : options.variant;
  let shown: Pick<Tile, "kind" | "subject" | "against" | "contrast" | "value" | "ci" | "ciLevel" | "n">;
  if (metric === "headline") {
    const k = cell.contrast!;
    shown =
      k.kind === "speedup"
        ? { ...speedupOf(cell, phase, k.subject, k.reference), contrast: k.words }
        : { ...efficiencyOf(cell, phase, k.subject), subject: k.subject, contrast: k.words };
  } else if (metric === "speedup") {
    // a tile of a workload with a baseline: the chosen variant over it (a user workload: on its first benchmark);
    // else virtual threads over the chosen variant
    shown = cell.baseline ? speedupOf(cell, phase, variant, cell.baseline) : speedupOf(cell, phase, VIRTUAL, variant);
  } else {
    shown = efficiencyOf(cell, phase, variant);
  }
  const { value, ci } = shown;
  const unstable = cell.measurements.some((m) => m.summary?.unstable === true);
  const ceiling = cell.measurements.some((m) => m.ceiling !== undefined);
  const attested = cell.environment?.attested;
  const marks: Mark[] = [];
  if (cell.status === "failed" || cell.status === "timeout") marks.push("failed");
  if (cell.status === "invalid") marks.push("invalid");
  if (cell.status === "skipped") marks.push("skipped");
  if (attested === false) marks.push("unattested");
  if (ceiling) marks.push("ceiling");
  if (unstable) marks.push("unstable");
  if (disturbedFigure(cell)) marks.push("disturbed");
  // a trend in the measured iterations concerns the steady state only; the cold start is one iteration
  if (phase === "steady" && cell.measurements.some((m) => notSteadyForks(m) > 0)) marks.push("notSteady");
  if (phase === "steady" && !allColdOnly && coldOnly(cell)) marks.push("coldOnly");
  const ok = cell.status === "ok" ? value : undefined;
  const { reading, conservative } = readingOf(shown.kind, ok, ci);
  return {
    ...shown,
    reading,
    conservative,
    cellId: cell.cellId,
    workload: c.workload,
    row: rowOf(c),
    cpus: cpusOf(c),
    scheduler: schedulerLabel(c, varying),
    value: ok,
    baseline: cell.baseline,
    status: cell.status,
    attested,
    unstable,
    ceiling,
    marks,
    reason: cell.reason,
  };
}

/** A cell written before contrasts: what its workload's tiles fall back to in the headline view. */
function defaultFallback(all: CellRecord[], workload: string): "speedup" | "efficiency" {
  return baselineOf(all, workload) || variantsOf(all, workload).includes(VIRTUAL) ? "speedup" : "efficiency";
}

/** The recorded speedup of {@code subject} over {@code reference} in the phase shown, and the forks it rests on. */
function speedupOf(cell: CellRecord, phase: Phase, subject: string | undefined, reference: string | undefined) {
  const s = speedupsIn(cell, phase).find((x) => x.over === subject && x.variant === reference);
  const forks = cell.measurements
    .filter((m) => s && (m.variant === s.variant || m.variant === s.over))
    .map((m) => m.summary?.n ?? m.samples.length);
  return {
    kind: "speedup" as const,
    subject,
    against: reference,
    value: s?.ratio,
    ci: s?.ci95,
    ciLevel: s?.ciLevel,
    n: forks.length ? Math.min(...forks) : undefined,
  };
}

/** A variant's efficiency against its own bound in the phase shown. */
function efficiencyOf(cell: CellRecord, phase: Phase, variant: string | undefined) {
  const m = cell.measurements.find((x) => x.variant === variant);
  return { kind: "efficiency" as const, against: variant, value: m && efficiencyIn(m, phase), n: m?.summary?.n };
}

/**
 * What a tile may claim. A speedup is a win only when its whole interval is above 1 (a loss: below); a point
 * estimate without an interval claims nothing. The cell's marks do not change the reading: they qualify it,
 * on the tile and in its words (a sixfold loss on a cell with an unstable variant is still a loss, and hiding
 * it would say less than the data).
 */
export function readingOf(
  metric: TileKind,
  value: number | undefined,
  ci: [number, number] | undefined,
): { reading: Reading; conservative?: number } {
  if (value === undefined) return { reading: "none" };
  if (metric === "efficiency") return { reading: "measure" };
  if (!ci) return { reading: "unclear" };
  if (ci[0] > 1) return { reading: "win", conservative: ci[0] };
  if (ci[1] < 1) return { reading: "loss", conservative: ci[1] };
  return { reading: "unclear" };
}

/**
 * One fixed domain per metric, so a colour means the same in every view and every run (a 3.1× was pale
 * among footprint's 37× and navy on its own): speedups symmetric in log space around 1.
 */
function domainOf(metric: ColourMetric, _values: number[]): [number, number] {
  return metric === "efficiency" ? EFFICIENCY_DOMAIN : SPEEDUP_DOMAIN;
}

export const EFFICIENCY_DOMAIN: [number, number] = [0, 1];

/** A ratio as a tile says it: whole above 10×, one decimal above 1×, two below ("9.2×", "0.13×"). */
export function times(v: number): string {
  return `${v >= 10 ? Math.round(v) : v.toFixed(v >= 1 ? 1 : 2)}×`;
}

/**
 * The tile's text: the conservative end of a win or a loss, the ratio with a question mark when unclear (never
 * "≈", which reads as "about"), and n.
 */
export function tileText(t: Tile): string {
  if (t.value === undefined) return t.status === "ok" ? "n/a" : "";
  if (t.kind === "efficiency") return `${Math.round(t.value * 100)}%`;
  const main =
    t.reading === "win" ? `≥ ${times(t.conservative!)}` : t.reading === "loss" ? `≤ ${times(t.conservative!)}` : `${times(t.value)}?`;
  return t.n === undefined ? main : `${main} n${t.n}`;
}

function compareRows(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

function sortedUnique<T>(items: T[], key: (t: T) => string, order: (a: string, b: string) => number): string[] {
  return [...new Set(items.map(key))].sort(order);
}

/**
 * The tile's second line: what the number is against — the comparator a reader would otherwise have to guess
 * (issue #19), or the bound an efficiency is measured on.
 */
export function tileAgainst(t: Tile): string {
  if (t.value === undefined) return "";
  return t.kind === "efficiency" ? "of its bound" : t.against ? `vs ${t.against}` : "";
}

/** What the tile says in words: for its tooltip, its accessible name and the cells table. */
export function describe(t: Tile): string {
  const variant = t.against;
  const what =
    t.value === undefined
      ? t.status === "ok"
        ? `no ${t.kind} for ${t.subject ?? variant ?? "this variant"}${t.against && t.kind === "speedup" ? ` over ${t.against}` : ""}`
        : t.status
      : t.kind === "speedup"
        ? `${t.subject ?? "virtual"} is ${t.value.toPrecision(3)}× ${variant}` +
          (t.ci
            ? ` (${t.ciLevel === undefined ? "bootstrap" : `${Math.round(t.ciLevel * 1000) / 10} %`} CI ${t.ci[0].toPrecision(3)}–${t.ci[1].toPrecision(3)})`
            : "")
        : `${variant} reaches ${(t.value * 100).toPrecision(3)} % of its bound`;
  // a failed, invalid or skipped cell already says so in place of its number: not again as a mark
  const marks = t.marks
    .filter((m) => !(t.value === undefined && m === t.status))
    .map((m) => MARK_WORDS[m])
    .join(", ");
  const at = atLevel(t);
  const reading =
    t.reading === "win"
      ? `; a win: at least ${t.conservative!.toPrecision(3)}×${at}`
      : t.reading === "loss"
        ? `; a loss: at most ${t.conservative!.toPrecision(3)}×${at}`
        : t.reading === "unclear"
          ? t.ci
            ? "; unclear: its interval includes 1×, so the data show no win or loss"
            : "; unclear: no interval"
          : "";
  const contrast = t.contrast ? ` — ${t.contrast}` : "";
  return `${t.cellId}: ${what}${t.n === undefined ? "" : `, n = ${t.n} forks`}${reading}${marks ? `; ${marks}` : ""}${contrast}`;
}

/**
 * A cell's headline as its matrix tile shows it (issue #19): the same contrast, comparator and reading in the
 * cell view, compare and history, so no view can say more than the matrix does. Undefined for a record
 * written before contrasts existed.
 */
export function headlineOf(cell: CellRecord, phase: Phase = "steady"): Tile | undefined {
  if (!cell.contrast) return undefined;
  return shapeMatrix([cell], { workload: cell.coordinates.workload, metric: "headline", phase }).tiles[0];
}

/** The headline's verdict in a sentence a reader can repeat: the number, its interval and n, and what it shows. */
export function headlineSentence(t: Tile): string {
  const subject = t.subject ?? VIRTUAL;
  if (t.value === undefined) return t.status === "ok" ? `No ${t.kind} of ${subject} was recorded.` : `No numbers: the cell is ${t.status}.`;
  const n = t.n === undefined ? "" : ` over ${t.n} fork${t.n === 1 ? "" : "s"}`;
  if (t.kind === "efficiency") {
    return `${subject} reaches ${Math.round(t.value * 100)} % of its bound${n}: a measure against what physics allows, not a contest.`;
  }
  const level = t.ciLevel === undefined ? "bootstrap interval" : `${Math.round(t.ciLevel * 1000) / 10} % interval`;
  const interval = t.ci ? ` (${level} ${t.ci[0].toPrecision(3)}–${t.ci[1].toPrecision(3)})` : " (no interval)";
  const number = `${subject} runs at ${t.value.toPrecision(3)}× the speed of ${t.against ?? "its reference"}${interval}${n}`;
  const caveats = t.marks.length ? ` Caveat: ${t.marks.map((m) => MARK_WORDS[m]).join(", ")}.` : "";
  switch (t.reading) {
    case "win":
      return `${number}: faster, by at least ${t.conservative!.toPrecision(3)}×${atLevel(t)}.${caveats}`;
    case "loss":
      return `${number}: slower — at most ${t.conservative!.toPrecision(3)}×${atLevel(t)}, so ${t.against} is at least ${(1 / t.conservative!).toPrecision(3)}× faster.${caveats}`;
    default:
      return `${number}: no win or loss the data can show${t.ci ? " (the interval includes 1×)" : ""}.${caveats}`;
  }
}
