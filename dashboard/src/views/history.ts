import * as Plot from "@observablehq/plot";
import { loadTrends } from "../data/load";
import { historyWorkloads, type HistoryPoint, shapeHistory, type TriggerFilter } from "../shape/history";
import { type Child, h } from "../ui/dom";
import { date, num } from "../ui/format";
import { type Context, empty, link, phaseOf, phasePicker, plotWidth, section, select, table } from "./common";

/** Beyond this many small multiples the page asks for a narrower choice rather than drawing a wall. */
const MAX_PANELS = 40;

export async function historyView(ctx: Context): Promise<Child[]> {
  const workloads = historyWorkloads(ctx.index);
  if (workloads.length === 0) return [h("h1", {}, "History"), empty("No runs published yet.")];
  const workload = workloads.includes(ctx.params.workload ?? "") ? ctx.params.workload! : workloads[0];
  const trends = await loadTrends(workload);
  const trigger = (["all", "scheduled", "pull_request"].includes(ctx.params.trigger ?? "") ? ctx.params.trigger : "all") as TriggerFilter;
  const cellsOfWorkload = [...new Set(trends.series.map((s) => s.cellId))].sort();
  const variants = [...new Set(trends.series.map((s) => s.variant))].sort();
  const shape = shapeHistory(trends, ctx.index, {
    cell: ctx.params.cell,
    variant: ctx.params.variant,
    trigger,
    jdk: ctx.params.jdk,
    phase: phaseOf(ctx),
  });
  const jdks = [...new Set(cellsOfWorkload.map((c) => c.split(".")[0]))].sort();

  const controls = h(
    "form",
    { class: "controls", "aria-label": "History options" },
    select("Workload", "workload", workloads.map((w) => ({ value: w, text: w })), workload, (w) =>
      ctx.go({ workload: w, cell: undefined, variant: undefined }),
    ),
    select("JDK", "jdk", [{ value: "", text: "all JDKs" }, ...jdks.map((j) => ({ value: j, text: j }))], ctx.params.jdk ?? "", (j) =>
      ctx.go({ jdk: j, cell: undefined }),
    ),
    select("Cell", "cell", [{ value: "", text: "every cell" }, ...cellsOfWorkload.map((c) => ({ value: c, text: c }))], ctx.params.cell ?? "", (c) =>
      ctx.go({ cell: c }),
    ),
    select("Variant", "variant", [{ value: "", text: "every variant" }, ...variants.map((v) => ({ value: v, text: v }))], ctx.params.variant ?? "", (v) =>
      ctx.go({ variant: v }),
    ),
    select(
      "Runs",
      "trigger",
      [
        { value: "all", text: "scheduled and pull-request runs" },
        { value: "scheduled", text: "scheduled and manual runs only" },
        { value: "pull_request", text: "pull-request runs only" },
      ],
      trigger,
      (t) => ctx.go({ trigger: t }),
    ),
    phasePicker(ctx),
  );

  const header = [
    h("h1", {}, "History", h("span", { class: "subtitle" }, ` · ${workload}`)),
    controls,
    h(
      "p",
      { class: "explain" },
      `Each line is one cell variant's median ${shape.metric ?? ""} over the runs — ${phaseOf(ctx) === "steady" ? "its steady state (each fork's measured iterations; a fork that ran once: its cold run)" : "its cold start (each fork's first iteration)"}. Filled dots: scheduled or manual runs;` +
        ` hollow diamonds: pull-request runs. Red rules: change points (${trends.method}). Grey dashed rules: something other` +
        " than the code changed (JDK build, image, runner) — see the table below.",
    ),
  ];
  if (shape.points.length === 0) return [...header, empty("No points match these filters.")];
  if (shape.cells.length > MAX_PANELS) {
    return [
      ...header,
      empty(`${shape.cells.length} cells match: choose a JDK or a cell to draw at most ${MAX_PANELS} panels.`),
    ];
  }
  return [
    ...header,
    tooFewRuns(shape.points),
    h("figure", { class: "history" }, chart(shape.cells, shape.points, shape.changes, shape.annotations, shape.metric, variants)),
    section(
      `Change points (${shape.changes.length})`,
      shape.changes.length
        ? table(
            ["run", "date", "cell", "variant", "median", "commit", "branch"],
            shape.changes.map((p) => [
              link("matrix", { run: p.runId, workload }, p.runId),
              date(p.date.toISOString()),
              link("history", { workload, cell: p.cellId }, p.cellId),
              p.variant,
              num(p.median),
              p.commit,
              p.branch,
            ]),
            { id: "change-points" },
          )
        : empty("No change points in these series."),
    ),
    section(
      `Annotations (${shape.annotations.length})`,
      shape.annotations.length
        ? table(
            ["run", "date", "cell", "what changed", "from", "to"],
            shape.annotations.map((a) => [link("run", { run: a.runId }, a.runId), date(a.date.toISOString()), a.cellId, a.kind, a.from, a.to]),
            { id: "annotations" },
          )
        : empty("Nothing but the code changed over these runs."),
    ),
  ];
}

/** The workload's variants in a fixed order, then any labelled series the view adds (profile or design). */
function colourDomain(variants: string[], points: HistoryPoint[]): string[] {
  const extra = [...new Set(points.map((p) => p.variant))].filter((v) => !variants.includes(v)).sort();
  return [...variants, ...extra];
}

/**
 * Change points need at least two segments of three scheduled runs (ChangePoints.MIN_SEGMENT): with fewer
 * runs a reader is told that no change could have been found, rather than shown an empty table.
 */
function tooFewRuns(points: HistoryPoint[]): HTMLElement | null {
  const runs = new Set(points.filter((p) => !p.pullRequest).map((p) => p.runId)).size;
  if (runs >= 6) return null;
  return h(
    "p",
    { class: "banner too-few-runs", role: "note" },
    `${runs} scheduled run${runs === 1 ? "" : "s"} in this view: change points need at least 6 (two levels of 3 runs each), so none can be found yet, and two noisy points are not a trend.`,
  );
}

function chart(
  cells: string[],
  points: HistoryPoint[],
  changes: HistoryPoint[],
  annotations: { date: Date; cellId: string; kind: string; from: string; to: string }[],
  metric: string | undefined,
  variants: string[],
): Element {
  const scheduled = points.filter((p) => !p.pullRequest);
  const pulls = points.filter((p) => p.pullRequest);
  const tip = (p: HistoryPoint) =>
    `${date(p.date.toISOString())}\n${p.cellId} · ${p.variant}\nmedian ${num(p.median)} ${metric ?? ""}\n` +
    `${p.trigger} · ${p.branch} @ ${p.commit}${p.changePoint ? "\nchange point: a new level starts here" : ""}`;
  return Plot.plot({
    width: plotWidth(1000),
    height: 40 + cells.length * 150,
    marginLeft: 60,
    marginRight: 300,
    style: { fontSize: "12px", background: "transparent" },
    x: { type: "utc", label: null },
    y: { label: metric ?? null, grid: true, zero: false },
    // the panel label drops what every panel shares (the workload), to fit beside the chart
    fy: { domain: cells, label: null, tickFormat: (id: string) => id.replace(/\.[^.]+$/, "").replace(".linux.", " ") },
    // every variant of the workload keeps its colour whatever the filters leave in the view (issue #19)
    color: { legend: true, label: "variant", domain: colourDomain(variants, points) },
    marks: [
      Plot.ruleX(annotations, { x: "date", fy: "cellId", stroke: "var(--muted)", strokeDasharray: "3,3", title: (a) => `${a.kind}: ${a.from} → ${a.to}` }),
      Plot.ruleX(changes, { x: "date", fy: "cellId", stroke: "var(--bad)", strokeWidth: 2, strokeOpacity: 0.8 }),
      Plot.lineY(scheduled, { x: "date", y: "median", fy: "cellId", stroke: "variant", z: "variant", strokeWidth: 1.5 }),
      Plot.dot(scheduled, { x: "date", y: "median", fy: "cellId", fill: "variant", r: 2.5, title: tip }),
      Plot.dot(pulls, { x: "date", y: "median", fy: "cellId", stroke: "variant", symbol: "diamond", r: 4, strokeWidth: 1.5, title: tip }),
    ],
  });
}
