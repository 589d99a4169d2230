import * as Plot from "@observablehq/plot";
import { loadCells, loadRun } from "../data/load";
import type { CellRecord } from "../data/types";
import { cellTitle, disturbedFigure, metricOf, points, reproduceCommand, seriesOf, shortBenchmark, unitOf, variantStats } from "../shape/cell";
import { basis, forkRun, type IterationPoint, iterated, iterationPoints, notSteadyForks } from "../shape/phase";
import { type Child, h } from "../ui/dom";
import { metricWords, ms, num, percent, ratio } from "../ui/format";
import { headlineOf, headlineSentence } from "../shape/matrix";
import { isService } from "../shape/load";
import { underLoad } from "./underload";
import { capacity } from "./capacity";
import { isCapacity } from "../shape/capacity";
import type { Phase } from "../shape/phase";
import { type Context, chosenRun, unknownRun, empty, keyValues, link, phaseOf, plotWidth, section, table } from "./common";
import { whyPanel } from "./cell-why";
import { environmentBlock, executionBlock, interferenceBlock, telemetryTable } from "./cell-host";

export async function cellView(ctx: Context): Promise<Child[]> {
  const unknown = unknownRun(ctx, "Cell");
  if (unknown) return unknown;
  const run = chosenRun(ctx);
  if (!run) return [empty("No runs published yet.")];
  const [manifest, cells] = await Promise.all([loadRun(run.runId), loadCells(run.runId)]);
  const cell = cells.find((c) => c.cellId === ctx.params.cell);
  if (!cell) {
    return [
      h("h1", {}, "Cell"),
      empty(`Run ${run.runId} has no cell ${ctx.params.cell ?? "(none named)"}. Pick one in the matrix.`),
      link("matrix", { run: run.runId }, "← Matrix of this run"),
    ];
  }
  const c = cell.coordinates;
  const metric = metricOf(cell);
  // a link that asks for the why panel ("why did this regress?" from compare) lands on it once it is drawn
  if (ctx.params.focus === "why") requestAnimationFrame(() => document.getElementById("why")?.scrollIntoView());
  const env = cell.environment;
  const command = reproduceCommand(manifest, cell);
  const copy = h(
    "button",
    {
      type: "button",
      onclick: async (e: Event) => {
        const button = e.currentTarget as HTMLButtonElement;
        try {
          await navigator.clipboard.writeText(command);
          button.textContent = "Copied";
        } catch {
          // no clipboard permission (e.g. not a secure context): select the text so Ctrl+C works
          const selection = getSelection();
          selection?.selectAllChildren(document.getElementById("reproduce")!);
          button.textContent = "Selected — press Ctrl+C";
        }
      },
    },
    "Copy",
  );

  return [
    h(
      "nav",
      { class: "crumbs" },
      link("matrix", { run: run.runId, workload: c.workload }, `← ${c.workload} in run ${run.runId}`),
      " · ",
      link("history", { workload: c.workload, cell: cell.cellId }, "History of this cell"),
    ),
    h("h1", { class: "cell-title" }, cellTitle(c)),
    h("p", { class: "cell-id" }, h("code", {}, cell.cellId)),
    h(
      "p",
      { class: `status status-${cell.status}` },
      `${cell.status}`,
      env ? (env.attested ? " · attested" : " · NOT attested: see the attestation below") : " · no environment recorded",
      disturbedFigure(cell) ? " · DISTURBED: see “Other work on the host” below" : "",
    ),
    headlineBlock(cell, phaseOf(ctx)),
    keyValues([
      ["JDK", `${c.jdk} (${c.vm === "openj9" ? "OpenJ9" : "HotSpot"} ${c.version})`],
      ["OS", c.os === "windows" ? "Windows" : "Linux"],
      ["CPU limit", `${c.cpus}${c.cpuset && c.cpuset !== "all" ? ` on CPUs ${c.cpuset}` : ""}`],
      ["Scheduler", `parallelism ${c.parallelism}, maxPoolSize ${c.maxPoolSize}, minRunnable ${c.minRunnable}`],
      ["Workload", c.workload],
    ]),
    cell.reason || cell.logTail
      ? section(
          cell.status === "skipped"
            ? "Why it was skipped"
            : cell.status === "ok"
              ? "Notes"
              : cell.status === "invalid"
                ? "Why its numbers are invalid"
                : "Why it failed",
          cell.reason ? h("p", { class: cell.status === "skipped" ? "reason reason-skipped" : "reason" }, cell.reason) : null,
          cell.logTail ? h("pre", { class: "log" }, cell.logTail) : null,
        )
      : null,
    section("Reproduce this cell", h("div", { class: "reproduce" }, h("code", { id: "reproduce" }, command), copy)),
    isCapacity(cell) ? capacity(cell) : isService(cell) ? underLoad(cell) : null,
    cell.measurements.length ? repetitions(cell, metric) : null,
    cell.measurements.some(iterated) ? iterationsChart(cell) : null,
    cell.measurements.length ? statsTable(cell, metric) : null,
    cell.speedups?.length
      ? section(
          cell.baseline ? `Speedup over the baseline (${cell.baseline})` : "Speedup of virtual threads",
          table(
            cell.baseline
              ? ["variant", "over", "benchmark", "metric", "ratio", "CI (its level)"]
              : ["over", "metric", "ratio", "CI (its level)"],
            cell.speedups.map((s) =>
              cell.baseline
                ? [s.over, s.variant, s.benchmark ? shortBenchmark(s.benchmark) : "—", metricWords(s.metric), ratio(s.ratio), interval(s)]
                : [s.variant, metricWords(s.metric), ratio(s.ratio), interval(s)],
            ),
          ),
        )
      : null,
    cell.measurements.length ? telemetryTable(cell) : null,
    cell.profiles?.length ? whyPanel(cell, run.runId, run.profiles === true, run.recordings === true) : null,
    env ? environmentBlock(cell) : null,
    interferenceBlock(cell),
    executionBlock(cell),
  ];
}

/**
 * The workload's headline contrast first (issue #19): what this cell is about in words, and the same number,
 * comparator and reading as its matrix tile — so the cell view can never claim more than the matrix.
 */
function headlineBlock(cell: CellRecord, phase: Phase): HTMLElement | null {
  const t = headlineOf(cell, phase);
  if (!t || !cell.contrast) return null;
  return h(
    "section",
    { class: `headline headline-${t.reading}`, "aria-label": "Headline" },
    h("h2", {}, phase === "cold-start" ? "Headline (cold start)" : "Headline"),
    h("p", { class: "contrast-words" }, cell.contrast.words),
    h("p", { class: "headline-verdict" }, headlineSentence(t)),
    cell.profiles?.length
      ? h(
          "p",
          {},
          h(
            "button",
            { type: "button", class: "to-why", onclick: () => document.getElementById("why")?.scrollIntoView() },
            "Why: what the JVM did in each variant ↓",
          ),
        )
      : null,
  );
}

/** A ratio's interval with the level it really has (90 % at 3 against 3); older records: a bootstrap, level unknown. */
function interval(s: { ci95: number[]; ciLevel?: number }): string {
  const level = s.ciLevel === undefined ? "bootstrap" : `${Math.round(s.ciLevel * 1000) / 10} %`;
  return `${num(s.ci95[0])}–${num(s.ci95[1])} (${level})`;
}

function repetitions(cell: CellRecord, metric: string): HTMLElement {
  const data = points(cell, metric);
  const stats = variantStats(cell, metric);
  const unit = unitOf(cell);
  const intervals = stats.filter((s) => s.ci);
  const bounds = metric === "wallMs" ? stats.filter((s) => s.lowerBoundMs !== undefined) : [];
  const width = plotWidth(stats.some((x) => x.variant.length > 18) ? 1100 : 900);
  // room for the longest label (a user workload's is "variant · Class.method(params)"), at most half the plot;
  // a longer one is cut in its middle, so that the variant (first) and the parameters (last) stay (issue #31)
  const marginLeft = Math.min(600, Math.round(width * 0.5), Math.max(130, 16 + 6.8 * Math.max(...stats.map((x) => x.variant.length))));
  return section(
    "Repetitions",
    h(
      "p",
      { class: "explain" },
      (isService(cell)
        ? `Each dot is one repetition: a fresh server JVM measured under load for the window, after a warmup window (${unit});`
        : cell.measurements.some((m) => forkRun(m) === "jmh")
        ? `Each dot is one fork — a fresh JVM — and its JMH score over its measurement iterations, after JMH's warmup iterations (${unit});`
        : cell.measurements.some((m) => forkRun(m) === "program")
        ? `Each dot is one run of the program in a fresh JVM: its own number (or its whole process time, ${unit});`
        : cell.measurements.some(iterated)
        ? `Each dot is one fork — a fresh JVM — at its steady state (the median of its measured iterations, ${unit});`
        : `Each dot is one repetition in a fresh JVM (${unit}), its one run: a cold start;`) +
        ` the bar is the median with its confidence interval` +
        " (order statistics; its real coverage is in the table); the dashed line is the variant's lower bound." +
        " Hollow dots are outliers (modified Z-score above 14.826, hyperfine's threshold), kept in every statistic.",
    ),
    h(
      "figure",
      { class: "repetitions" },
      Plot.plot({
        width,
        height: 60 + stats.length * 46,
        marginLeft,
        marginBottom: 44,
        style: { fontSize: "12px", background: "transparent" },
        // inset: the extreme points sit inside the frame, not on the tick labels; the title below the ticks
        x: { label: `${metricWords(metric)} (${unit}) →`, grid: true, zero: metric !== "wallMs" ? false : undefined, inset: 10, labelOffset: 36 },
        y: { label: null, domain: stats.map((s) => s.variant) },
        marks: [
          Plot.axisY({ lineWidth: (marginLeft - 12) / 12, textOverflow: "ellipsis-middle", tickSize: 0 }),
          // a tick per variant band: Plot.ruleX with a y channel drew nothing (issue #19)
          Plot.tickX(bounds, { x: "lowerBoundMs", y: "variant", stroke: "var(--bound)", strokeDasharray: "4,2", strokeWidth: 2 }),
          Plot.link(intervals, {
            x1: (s) => s.ci![0],
            x2: (s) => s.ci![1],
            y: "variant",
            stroke: "var(--fg)",
            strokeWidth: 6,
            strokeOpacity: 0.3,
          }),
          Plot.tickX(stats.filter((s) => s.median !== undefined), { x: "median", y: "variant", stroke: "var(--fg)", strokeWidth: 3 }),
          Plot.dot(data, {
            x: "value",
            y: "variant",
            fill: (p: { outlier: boolean }) => (p.outlier ? "none" : "var(--accent)"),
            stroke: "var(--accent)",
            r: 4,
            title: (p: { repetition: number; value: number }) => `repetition ${p.repetition}: ${num(p.value)} ${unit}`,
          }),
        ],
      }),
    ),
  );
}

function statsTable(cell: CellRecord, metric: string): HTMLElement {
  const stats = variantStats(cell, metric);
  const unit = unitOf(cell);
  return section(
    "Per variant",
    table(
      [cell.baseline ? "variant · benchmark" : "variant", "rests on", `median ${metricWords(metric)} (${unit})`, "CI", "CV", "cold start (median, CI)", "whole JVM (its start to its exit)", "lower bound", "efficiency", "ceiling / error"],
      stats.map((s, i) => [
        s.variant + (s.unstable ? " ~ unstable" : "") + steadiness(cell.measurements[i]),
        basis(cell.measurements[i]),
        (metric === "wallMs" ? ms(s.median) : num(s.median)) + (s.scoreError === undefined ? "" : ` ± ${num(s.scoreError)} (JMH's error, its 99.9 % level)`),
        s.ci ? `${num(s.ci[0])}–${num(s.ci[1])} (${Math.round((s.ciLevel ?? 0) * 100)} %)` : "—",
        s.cv === undefined ? "—" : percent(s.cv),
        coldStart(cell.measurements[i]),
        ms(s.processMs),
        s.lowerBoundMs !== undefined ? ms(s.lowerBoundMs) : s.throughputBound !== undefined ? `${num(s.throughputBound)} req/s` : "—",
        s.efficiency !== undefined ? percent(s.efficiency) : s.throughputEfficiency !== undefined ? percent(s.throughputEfficiency) : "—",
        s.ceiling ? `ceiling at ${s.ceiling.threads} threads: ${s.ceiling.reason}` : (s.error ?? "—"),
      ]),
      { class: "stats" },
    ),
  );
}

/** " ↗ not steady in 1 of 3 forks" when a fork's measured iterations still trended; else nothing. */
function steadiness(m: CellRecord["measurements"][number]): string {
  const n = notSteadyForks(m);
  return n ? ` ↗ not steady in ${n} of ${m.samples.length} forks` : "";
}

/** The cold start's own summary where the forks iterated; a fork that ran once has only its cold run. */
function coldStart(m: CellRecord["measurements"][number]): string {
  // a service's server was warmed by the load before its window: no cold start was measured
  if (m.samples.some((s) => "latencyDistributionMs" in s)) return "— (warmed by load)";
  const c = m.coldStart;
  if (!c) {
    // JMH measures after its warmup and a program is judged by its own numbers: neither measured a cold start
    const run = forkRun(m);
    return run === "jmh" ? "— (JMH measures after its warmup)" : run === "program" ? "— (not measured apart)" : m.iterations ? "—" : "the median: one cold run per fork";
  }
  return `${ms(c.median)}${c.ci95 ? ` (${num(c.ci95[0])}–${num(c.ci95[1])})` : ""}`;
}

const ROLE_COLOUR: Record<IterationPoint["role"], string> = {
  "cold start": "var(--bad)",
  warmup: "var(--muted)",
  measured: "var(--accent)",
};

/**
 * Every iteration of every fork, in order: one line per fork, the cold start marked, warmups greyed —
 * so a reader sees the JVM warm up and whether the measured iterations settled.
 */
function iterationsChart(cell: CellRecord): HTMLElement {
  const data = iterationPoints(cell, seriesOf);
  const variants = [...new Set(data.map((p) => p.variant))];
  const line = (p: IterationPoint) => `${p.variant} · fork ${p.fork}`;
  return section(
    "Iterations inside each fork",
    h(
      "p",
      { class: "explain" },
      "Each line is one fork (a fresh JVM) running the workload again and again: the first iteration is its cold start" +
        " (red, its own statistic), grey ones are warmup (left out), blue ones are measured — their median is the fork's" +
        " steady state. A fork whose measured iterations still trend (Mann-Kendall, 5 %) is marked not steady in the table.",
    ),
    h(
      "div",
      { class: "iterations" },
      // one chart per variant, each on its own scale: a pool's 500 ms would flatten virtual threads' 50
      variants.map((variant) => {
        const own = data.filter((p) => p.variant === variant);
        return h(
          "figure",
          { class: "iteration-chart", "data-variant": variant },
          h("figcaption", {}, variant),
          Plot.plot({
            width: plotWidth(440),
            height: 200,
            marginLeft: 55,
            style: { fontSize: "12px", background: "transparent" },
            x: { label: "iteration →", ticks: Math.max(...own.map((p) => p.iteration)), tickFormat: "d", grid: true },
            y: { label: "↑ wall time (ms)", grid: true, zero: true, nice: true },
            marks: [
              Plot.lineY(own, { x: "iteration", y: "value", z: "fork", stroke: "var(--muted)", strokeOpacity: 0.6 }),
              ...(["warmup", "measured", "cold start"] as const).map((role) =>
                Plot.dot(
                  own.filter((p) => p.role === role),
                  {
                    x: "iteration",
                    y: "value",
                    fill: ROLE_COLOUR[role],
                    stroke: ROLE_COLOUR[role],
                    r: role === "cold start" ? 6 : 3,
                    symbol: role === "cold start" ? "star" : "circle",
                    title: (p: IterationPoint) => `${line(p)}, iteration ${p.iteration} (${p.role}): ${num(p.value)} ms`,
                  },
                ),
              ),
            ],
          }),
        );
      }),
    ),
    h(
      "p",
      { class: "legend iteration-roles" },
      (["cold start", "warmup", "measured"] as const).map((role) =>
        h("span", { class: "key" }, h("span", { class: "swatch", style: `background:${ROLE_COLOUR[role]}` }), ` ${role} `),
      ),
    ),
  );
}
