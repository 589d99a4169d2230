import * as Plot from "@observablehq/plot";
import { loadRegressions, loadTrends, loadTrendsIndex } from "../data/load";
import type { Regression, Trends } from "../data/types";
import type { HistoryShape } from "../shape/history";
import { COLD_START } from "../shape/phase";
import { historyWorkloads, type HistoryPoint, lastPoints, panelY, shapeHeadlines, shapeHistory, type TriggerFilter } from "../shape/history";
import { headlineChart } from "./history-headline";
import { cellIdTitle } from "../shape/cell";
import { variantScale } from "../ui/colours";
import { type Child, h } from "../ui/dom";
import { date, num, utcTicks } from "../ui/format";
import { type Context, unknownParams, empty, link, methodFold, phaseOf, phasePicker, plotWidth, section, select, table } from "./common";

/** Beyond this many small multiples the page asks for a narrower choice rather than drawing a wall. */
const MAX_PANELS = 40;

export async function historyView(ctx: Context): Promise<Child[]> {
  const workloads = historyWorkloads(ctx.index);
  if (workloads.length === 0) return [h("h1", {}, "History"), empty("No runs published yet.")];
  const workload = workloads.includes(ctx.params.workload ?? "") ? ctx.params.workload! : workloads[0];
  const available = await loadTrendsIndex(workload);
  const jdks = Object.keys(available.jdks).sort();
  const totalCells = jdks.reduce((n, j) => n + available.jdks[j], 0);
  // a JDK the URL names, else every JDK when they fit the page, else the first JDK (said so below)
  const asked = ctx.params.jdk && jdks.includes(ctx.params.jdk) ? ctx.params.jdk : undefined;
  const cellJdk = ctx.params.cell?.split(".")[0];
  const narrowed = !asked && totalCells > MAX_PANELS && !(cellJdk && jdks.includes(cellJdk)) ? jdks[0] : undefined;
  const load = asked ? [asked] : narrowed ? [narrowed] : cellJdk && jdks.includes(cellJdk) ? [cellJdk] : jdks;
  const [parts, regressions] = await Promise.all([Promise.all(load.map((j) => loadTrends(workload, j))), loadRegressions()]);
  performance.mark("loom:history:loaded"); // the first-paint benchmark reports the load apart from the drawing
  const trends: Trends = {
    schemaVersion: available.schemaVersion,
    method: available.method,
    series: parts.flatMap((t) => t.series),
    // a runner annotation is in every JDK's file: once each
    annotations: [...new Map(parts.flatMap((t) => t.annotations).map((a) => [JSON.stringify(a), a])).values()],
    headlines: available.headlines,
    headlineSeries: parts.flatMap((t) => t.headlineSeries ?? []),
  };
  const trigger = (["all", "scheduled", "pull_request"].includes(ctx.params.trigger ?? "") ? ctx.params.trigger : "all") as TriggerFilter;
  const cellsOfWorkload = [...new Set(trends.series.map((s) => s.cellId))].sort();
  const variants = [...new Set(trends.series.map((s) => s.variant))].sort();
  const shape = shapeHistory(trends, ctx.index, {
    cell: ctx.params.cell,
    variant: ctx.params.variant,
    trigger,
    jdk: asked ?? narrowed,
    phase: phaseOf(ctx),
  });

  const controls = h(
    "form",
    { class: "controls", "aria-label": "History options" },
    select("Workload", "workload", workloads.map((w) => ({ value: w, text: w })), workload, (w) =>
      ctx.go({ workload: w, cell: undefined, variant: undefined }),
    ),
    select("JDK", "jdk", [{ value: "", text: "all JDKs" }, ...jdks.map((j) => ({ value: j, text: `${j} (${available.jdks[j]} cells)` }))], asked ?? narrowed ?? "", (j) =>
      ctx.go({ jdk: j, cell: undefined }),
    ),
    select("Cell", "cell", [{ value: "", text: "every cell" }, ...cellsOfWorkload.map((c) => ({ value: c, text: cellIdTitle(c, false) }))], ctx.params.cell ?? "", (c) =>
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
    // a cold start apart exists only where forks iterated: its series say so
    phaseOf(ctx) === "cold-start" || trends.series.some((t) => t.metric === COLD_START) ? phasePicker(ctx) : null,
  );

  const header = [
    h("h1", {}, "History", h("span", { class: "subtitle" }, ` · ${workload}`)),
    controls,
    unknownParams(ctx, [
      { param: "workload", what: "workload in the history", known: workloads, instead: workload },
      { param: "jdk", what: `JDK in ${workload}'s history`, known: jdks, instead: narrowed ?? "every JDK" },
      { param: "cell", what: `cell in ${workload}'s history`, known: cellsOfWorkload, instead: "no points" },
      { param: "variant", what: `variant in ${workload}'s history`, known: variants, instead: "no points" },
    ]),
    narrowed
      ? h(
          "p",
          { class: "banner narrowed", role: "note" },
          `${workload} has ${totalCells} cells over ${jdks.length} JDKs, more than ${MAX_PANELS} panels: showing ${narrowed}'s ${available.jdks[narrowed]}. Pick another JDK above, or a cell.`,
        )
      : null,
    h(
      "p",
      { class: "explain" },
      `Each line is one cell variant's median ${shape.metric ?? ""} over the runs — ${phaseOf(ctx) === "steady" ? "its steady state (each fork's measured iterations; a fork that ran once: its cold run)" : "its cold start (each fork's first iteration)"}. Filled dots: scheduled or manual runs;` +
        ` hollow diamonds: pull-request runs; ringed in red: measured beside other work (never a change point). Red rules: change points, where a series steps to a new level. Grey dashed rules: something other` +
        " than the code changed (JDK build, image, runner) — see the table below.",
    ),
    methodFold(`Change points: ${trends.method}.`),
  ];
  performance.mark("loom:history:shaped");
  if (shape.points.length === 0) return [...header, empty("No points match these filters.")];
  if (shape.cells.length > MAX_PANELS) {
    return [
      ...header,
      empty(`${shape.cells.length} cells match: choose a JDK or a cell to draw at most ${MAX_PANELS} panels.`),
    ];
  }
  const annotations = annotationRows(shape.annotations);
  return [
    ...header,
    tooFewRuns(shape.points),
    trends.headlines?.[workload]
      ? h(
          "p",
          { class: "headline-note" },
          `${workload}'s headline in the matrix: ${trends.headlines[workload]}. Here each variant is drawn on its own, so a change in either side of the headline shows.`,
        )
      : null,
    // the headline is the steady state's (the tile's number): not drawn beside the cold starts
    phaseOf(ctx) === "cold-start" ? null : headlineChart(shapeHeadlines(trends, ctx.index, { cell: ctx.params.cell, trigger, jdk: asked ?? narrowed })),
    h("figure", { class: "history" }, chart(shape.cells, shape.points, shape.changes, shape.annotations, shape.metric, variants)),
    section(
      `Change points (${shape.changes.length})`,
      shape.changes.length
        ? table(
            ["run", "date", "cell", "variant", "median", "commit", "branch", "bisect it"],
            shape.changes.map((p) => [
              link("matrix", { run: p.runId, workload }, p.runId),
              date(p.date.toISOString()),
              link("history", { workload, cell: p.cellId }, cellIdTitle(p.cellId, false)),
              p.variant,
              num(p.median),
              p.commit,
              p.branch,
              bisection(regressions.regressions.find((r) => r.runId === p.runId && r.cellId === p.cellId && p.variant.startsWith(r.variant))),
            ]),
            { id: "change-points" },
          )
        : empty("No change points in these series."),
    ),
    section(
      `Annotations (${annotations.length})`,
      annotations.length
        ? table(
            ["run", "date", "cell", "what changed", "from", "to"],
            annotations.map((a) => [link("run", { run: a.runId }, a.runId), date(a.date.toISOString()), a.cells, a.kind, digest(a.from), digest(a.to)]),
            { id: "annotations" },
          )
        : empty("Nothing but the code changed over these runs."),
    ),
  ];
}

/** The annotations table's rows: a runner change once, for the cells its run measured, not once a cell (issue #54). */
function annotationRows(annotations: HistoryShape["annotations"]): (HistoryShape["annotations"][number] & { cells: string })[] {
  const rows = new Map<string, { first: HistoryShape["annotations"][number]; count: number }>();
  for (const a of annotations) {
    const key = JSON.stringify([a.runId, a.everyCell ? "" : a.cellId, a.kind, a.from, a.to]);
    const row = rows.get(key);
    if (row) row.count++;
    else rows.set(key, { first: a, count: 1 });
  }
  return [...rows.values()].map(({ first, count }) => ({
    ...first,
    cells: first.everyCell ? `every cell of its run (${count} shown here)` : cellIdTitle(first.cellId, false),
  }));
}

/** An image digest cut to 12 hex digits, the whole of it in its tooltip: 71 characters widened the page to 1,570 px. */
function digest(text: string): string | Node {
  const m = /^(.*sha256:)([0-9a-f]{12})[0-9a-f]{52}$/.exec(text);
  return m ? h("span", { title: text }, `${m[1]}${m[2]}…`) : text;
}

/**
 * Where a change point is a recent step for the worse (the one the nightly alerts on and bisects): the change, and
 * the command that bisects it — or, when the JDK build, image or runner changed at that run too, that it may not be
 * the code's.
 */
function bisection(r: Regression | undefined): string | Node {
  if (!r) return "—";
  const worse = `${((r.change.ratio - 1) * 100).toFixed(1)} % worse`;
  if (r.cause !== "code") return h("span", { class: "bisect" }, `${worse}; the ${r.cause} changed at this run too: A/B the two on one commit first`);
  if (!r.goodCommit || !r.badCommit) return h("span", { class: "bisect" }, `${worse}; these runs recorded no commits`);
  const command = `loom-matrix bisect --good ${r.goodCommit.slice(0, 12)} --bad ${r.badCommit.slice(0, 12)} --cell ${r.cellId} --series "${r.cellId} ${r.variant}"`;
  return h("span", { class: "bisect" }, `${worse}: `, h("code", {}, command));
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
    `${runs} run${runs === 1 ? "" : "s"} in this view that ${runs === 1 ? "is" : "are"} not pull requests (scheduled or started by hand): change points need at least 6 (two levels of 3 runs each), so none can be found yet, and two noisy points are not a trend.`,
  );
}

/**
 * One panel per cell, each with its own y scale padded around its points and intervals (one shared scale let
 * a slow cell flatten a fast one and made the labels collide), the same UTC time axis in every panel, each
 * median's interval as a band, and one colour per variant across panels and views.
 */
function chart(
  cells: string[],
  points: HistoryPoint[],
  changes: HistoryPoint[],
  annotations: { date: Date; cellId: string; kind: string; from: string; to: string }[],
  metric: string | undefined,
  variants: string[],
): Element {
  const tip = (p: HistoryPoint) =>
    `${date(p.date.toISOString())}\n${cellIdTitle(p.cellId)} · ${p.variant}\nmedian ${num(p.median)} ${metric ?? ""}` +
    (p.ci ? ` (interval ${num(p.ci[0])}–${num(p.ci[1])}${p.n ? `, ${p.n} forks` : ""})` : "") +
    `\n${p.trigger} · ${p.branch} @ ${p.commit}${p.changePoint ? "\nchange point: a new level starts here" : ""}` +
    (p.disturbed ? `\nDISTURBED: ${p.disturbed}` : "");
  const times = points.map((p) => p.date.getTime());
  const span = Math.max(...times) - Math.min(...times);
  // padding in time too, so the first and last runs do not sit on the panel's edge
  const pad = span > 0 ? span * 0.03 : 12 * 3600_000;
  const xDomain = [new Date(Math.min(...times) - pad), new Date(Math.max(...times) + pad)];
  // one categorical scale, spelled out for the panels and the shared legend alike: every variant keeps its
  // colour whatever the filters, and the legend lists only the series drawn (issue #31)
  const domain = colourDomain(variants, points);
  const colour = variantScale(domain);
  const drawn = domain.filter((v) => points.some((p) => p.variant === v));
  const legendColour = variantScale(drawn);
  const timeFormat = utcTicks(span);
  const width = plotWidth(1000);
  const labelRoom = Math.min(140, Math.round(width * 0.18));
  const panels = cells.map((cellId) => {
    const mine = points.filter((p) => p.cellId === cellId);
    const scheduled = mine.filter((p) => !p.pullRequest);
    const pulls = mine.filter((p) => p.pullRequest);
    const bands = scheduled.filter((p) => p.ci);
    // a year of nightly runs is hundreds of points a series: then the line and band carry them, a pointer tip
    // reads any run, and only change points get a dot (tens of thousands of SVG dots took seconds to draw)
    const perSeries = scheduled.length / Math.max(1, new Set(scheduled.map((p) => p.variant)).size);
    const dense = perSeries > 60;
    const y = panelY(mine);
    return h(
      "div",
      { class: "history-panel", "data-cell-id": cellId },
      h("h3", { class: "panel-title" }, link("history", { workload: mine[0]?.cellId.split(".").pop(), cell: cellId }, cellIdTitle(cellId, false))),
      Plot.plot({
        width,
        height: 170,
        marginLeft: 64,
        // room for each series' name at its line's end
        marginRight: labelRoom,
        style: { fontSize: "12px", background: "transparent" },
        // the time axis is UTC, like every time the dashboard shows (said once, beside the legend)
        x: { type: "utc", domain: xDomain, label: null, ticks: Math.max(2, Math.floor(width / 140)), tickFormat: timeFormat },
        y: { ...y, label: `${metric ?? ""}${y.type === "log" ? " (log scale)" : ""}` || null, grid: true, nice: false, ticks: 4 },
        color: colour,
        marks: [
          Plot.ruleX(annotations.filter((a) => a.cellId === cellId), { x: "date", stroke: "var(--muted)", strokeDasharray: "3,3", title: (a) => `${a.kind}: ${a.from} → ${a.to}` }),
          Plot.ruleX(changes.filter((p) => p.cellId === cellId), { x: "date", stroke: "var(--bad)", strokeWidth: 2, strokeOpacity: 0.8 }),
          Plot.areaY(bands, { x: "date", y1: (p: HistoryPoint) => p.ci![0], y2: (p: HistoryPoint) => p.ci![1], fill: "variant", z: "variant", fillOpacity: 0.18 }),
          // each run's interval as a rule too, where there are few enough to see (a lone run has no band)
          dense ? null : Plot.ruleX(bands, { x: "date", y1: (p: HistoryPoint) => p.ci![0], y2: (p: HistoryPoint) => p.ci![1], stroke: "variant", strokeOpacity: 0.5 }),
          Plot.lineY(scheduled, { x: "date", y: "median", stroke: "variant", z: "variant", strokeWidth: 1.5 }),
          Plot.dot(dense ? scheduled.filter((p) => p.changePoint) : scheduled, { x: "date", y: "median", fill: "variant", r: 2.5, title: tip }),
          dense ? Plot.tip(scheduled, Plot.pointerX({ x: "date", y: "median", title: tip })) : null,
          Plot.dot(pulls, { x: "date", y: "median", stroke: "variant", symbol: "diamond", r: 4, strokeWidth: 1.5, title: tip }),
          // each line named at its end: a variant by its name as well as its colour (issue #54: 15 series in a
          // 10-colour palette, told apart by colour alone)
          Plot.text(lastPoints(scheduled.length ? scheduled : mine), {
            x: "date",
            y: "median",
            text: "variant",
            // the name in the text colour (some palette colours are too pale for text); the line beside it has the colour
            fill: "var(--fg)",
            dx: 6,
            textAnchor: "start",
            lineWidth: (labelRoom - 8) / 6.5,
            textOverflow: "ellipsis",
            stroke: "var(--bg)",
            strokeWidth: 3,
            paintOrder: "stroke",
          }),
          // measured beside other work (issue #32): ringed in red, never a change point
          Plot.dot(mine.filter((p) => p.disturbed), { x: "date", y: "median", stroke: "var(--bad)", r: 6, strokeWidth: 1.5, title: tip }),
        ],
      }),
    );
  });
  return h(
    "div",
    { class: "history-panels" },
    // one legend for every panel: a variant has one colour throughout
    h("p", { class: "explain" }, "Runs by their start time, in UTC on a 24-hour clock; each band is the median's interval in each run."),
    Plot.legend({ color: { ...legendColour, label: "variant" } }),
    ...panels,
  );
}


