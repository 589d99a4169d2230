import * as Plot from "@observablehq/plot";
import { loadCells, loadConclusions } from "../data/load";
import { tileConclusions, type TileConclusion } from "../shape/conclusions";
import { conclusionsBlock } from "./conclusions";
import { CLASSED_EXPLANATION, classedLabel, classedMarks, classedText, classedTitle, classLegend } from "./tiles";
import {
  tileText,
  tileAgainst,
  contrastsOf,
  EFFICIENCY_DOMAIN,
  SPEEDUP_DOMAIN,
  type ColourMetric,
  type TileKind,
  baselineOf,
  defaultMetric,
  defaultVariant,
  describe,
  MARK_MEANING,
  MARK_SYMBOL,
  MARK_WORDS,
  type Mark,
  shapeMatrix,
  type Tile,
  variantsOf,
  workloadsOf,
} from "../shape/matrix";
import { type Phase, phaseApplies, phaseNote } from "../shape/phase";
import { type Child, h } from "../ui/dom";
import { href } from "../ui/route";
import { percent, ratio } from "../ui/format";
import { type Context, chosenRun, unknownParams, unknownRun, empty, link, phaseOf, phasePicker, plotWidth, runPicker, section, select, table } from "./common";

export async function matrixView(ctx: Context): Promise<Child[]> {
  const unknown = unknownRun(ctx, "Matrix");
  if (unknown) return unknown;
  const run = chosenRun(ctx);
  if (!run) return [empty("No runs published yet: `loom-matrix publish --run <dir> --site <site>` adds one.")];
  const [cells, conclusions] = await Promise.all([loadCells(run.runId), loadConclusions(run.runId)]);
  const workloads = workloadsOf(cells);
  const workload = ctx.params.workload && (ctx.params.workload === "all" || workloads.includes(ctx.params.workload))
    ? ctx.params.workload
    : "all";
  const metric: ColourMetric =
    ctx.params.metric === "headline" || ctx.params.metric === "speedup" || ctx.params.metric === "efficiency"
      ? ctx.params.metric
      : defaultMetric(cells, workload);
  const variants = variantsOf(cells, workload);
  const baseline = workload === "all" ? undefined : baselineOf(cells, workload);
  const variant =
    workload === "all" || metric === "headline"
      ? undefined
      : ctx.params.variant && variants.includes(ctx.params.variant)
        ? ctx.params.variant
        : defaultVariant(cells, workload, metric);
  const phase = phaseOf(ctx);
  const profiled = new Set(cells.filter((c) => c.profiles?.length).map((c) => c.cellId));
  const jdks = [...new Set(cells.map((c) => c.coordinates.jdk))].sort();
  const oses: string[] = [...new Set(cells.map((c) => c.coordinates.os))].sort();
  // a JDK or OS the run does not have filters nothing out: every cell is shown, and the banner says why
  const jdk = ctx.params.jdk && jdks.includes(ctx.params.jdk) ? ctx.params.jdk : undefined;
  const os = ctx.params.os && oses.includes(ctx.params.os) ? ctx.params.os : undefined;
  const shape = shapeMatrix(cells, { workload, metric, variant, jdk, os, phase });
  // the tiles take their cell's conclusion where they show what it rests on: the headline, at steady state
  const concluded = tileConclusions(conclusions);
  const classes = metric === "headline" && phase === "steady" && concluded.size ? concluded : undefined;

  const controls = h(
    "form",
    { class: "controls", "aria-label": "Matrix options" },
    runPicker(ctx),
    select(
      "Workload",
      "workload",
      [{ value: "all", text: "all workloads" }, ...workloads.map((w) => ({ value: w, text: w }))],
      workload,
      (w) => ctx.go({ workload: w, variant: undefined, metric: undefined }),
    ),
    select(
      "Colour",
      "metric",
      [
        { value: "headline", text: "headline contrast (each workload's own)" },
        { value: "speedup", text: baseline ? `speedup over ${baseline}` : "speedup of virtual threads" },
        { value: "efficiency", text: "efficiency against the lower bound" },
      ],
      metric,
      (m) => ctx.go({ metric: m, variant: undefined }),
    ),
    // the phase only where it changes what is shown (or the URL asks for a cold start: the way back)
    phase === "cold-start" || phaseApplies(workload === "all" ? cells : cells.filter((c) => c.coordinates.workload === workload)) ? phasePicker(ctx) : null,
    workload === "all" || metric === "headline"
      ? null
      : select(
          metric === "speedup" ? (baseline ? `Over ${baseline}` : "Virtual over") : "Variant",
          "variant",
          variants
            .filter((v) => metric === "efficiency" || (baseline ? v !== baseline : v !== "virtual"))
            .map((v) => ({ value: v, text: v })),
          variant,
          (v) => ctx.go({ variant: v }),
        ),
    select("JDK", "jdk", [{ value: "", text: "all JDKs" }, ...jdks.map((j) => ({ value: j, text: j }))], jdk ?? "", (j) =>
      ctx.go({ jdk: j }),
    ),
    select("OS", "os", [{ value: "", text: "all" }, ...oses.map((o) => ({ value: o, text: o }))], os ?? "", (o) =>
      ctx.go({ os: o }),
    ),
  );

  const contrasts = contrastsOf(cells, shape.workloads);
  const explanation =
    metric === "headline"
      ? "Colour: each workload's headline contrast, the comparison its story is about — a speedup (1× = no difference; blue: the first-named side wins, red: it loses; only where the whole interval is on one side of 1, saying that interval's conservative end), or an efficiency against a bound (100 % = the bound). Each tile names what it is against:"
      : metric === "speedup" && baseline
      ? `Colour: how many times better ${variant ?? "the variant"} is than the baseline ${baseline} on each cell's first benchmark (its score, in the direction JMH's mode gives); > 1 (blue) means ${variant ?? "it"} wins. Each cell lists every benchmark.`
      : metric === "speedup"
      ? `Colour: how many times better virtual threads are than ${variant ?? "each workload's platform or pool variant"} on the workload's metric (wall time, or throughput for http-server); > 1 (blue) means virtual threads win. A tile is coloured only where its whole interval is on one side of 1, and says that interval's conservative end.`
      : `Colour: efficiency of ${variant ?? "each workload's variant"} against its lower bound (bound ÷ median wall time; 100 % is the bound).`;

  return [
    h("h1", {}, "Matrix", h("span", { class: "subtitle" }, ` · run ${run.runId}`)),
    conclusionsBlock(run.runId, conclusions),
    controls,
    unknownParams(ctx, [
      { param: "workload", what: `workload in run ${run.runId}`, known: ["all", ...workloads], instead: "every workload" },
      { param: "variant", what: `variant of ${workload}`, known: metric === "headline" || workload === "all" ? [ctx.params.variant ?? ""] : variants, instead: variant ?? "the default" },
      { param: "jdk", what: `JDK in run ${run.runId}`, known: jdks, instead: "every JDK" },
      { param: "os", what: `OS in run ${run.runId}`, known: oses, instead: "every OS" },
    ]),
    h("p", { class: "explain" }, classes ? CLASSED_EXPLANATION : explanation),
    metric === "headline" && contrasts.length
      ? h(
          "ul",
          { class: "contrasts" },
          contrasts.map((c) =>
            h("li", {}, h("strong", {}, c.workload), `: ${c.words}${c.fastestOther ? " — whichever that was in each cell, named on its tile" : ""}.`),
          ),
        )
      : null,
    h(
      "p",
      { class: "explain", id: "phase-note" },
      phaseNote(shape.measured, phase),
    ),
    shape.fixedScheduler.length ? h("p", { class: "explain" }, `In every column: ${shape.fixedScheduler.join(", ")}.`) : null,
    fewForks(shape.tiles),
    shape.tiles.length === 0 ? empty("No cells match these filters.") : heatmap(shape, metric, run.runId, workload, phase, classes),
    classes ? classLegend(new Set([...classes.values()].map((c) => c.conclusion))) : null,
    legend(shape.tiles, !!classes),
    section(
      `Cells (${shape.tiles.length})`,
      h(
        "details",
        {},
        h("summary", {}, "Every cell as a table"),
        table(
          ["cell", "JDK · VM · OS", "CPU limit", "scheduler", metric === "headline" ? "headline" : metric, "against", "status", "marks", "why"],
          shape.tiles.map((t) => [
            link("cell", { run: run.runId, cell: t.cellId }, t.cellId),
            t.row,
            t.cpus,
            t.scheduler,
            t.value === undefined ? "—" : t.kind === "speedup" ? `${t.subject ?? "virtual"} ${ratio(t.value)}` : `${t.against} ${percent(t.value)}`,
            t.kind === "speedup" ? (t.against ?? "—") : "its bound",
            t.status,
            t.marks.map((m) => `${MARK_SYMBOL[m]} ${MARK_WORDS[m]}`).join(", "),
            // a profiled cell explains itself: its why panel, one click away
            profiled.has(t.cellId) ? link("cell", { run: run.runId, cell: t.cellId, focus: "why" }, "what the JVM did") : "—",
          ]),
          { id: "cells" },
        ),
      ),
    ),
  ];
}

function heatmap(
  shape: ReturnType<typeof shapeMatrix>,
  metric: ColourMetric,
  runId: string,
  workload: string,
  phase: Phase,
  classes?: Map<string, TileConclusion>,
): Element {
  const phaseWords = phase === "steady" ? (shape.allColdOnly ? "cold, one run per JVM" : "steady state") : "cold start";
  const all = workload === "all";
  // two lines: the number (with n and marks), then what it is against
  const label = (t: Tile) => {
    if (classes) return classedLabel(t, classes.get(t.cellId)) + (t.marks.length ? ` ${t.marks.map((m) => MARK_SYMBOL[m]).join("")}` : "");
    const first = tileText(t) + (t.marks.length ? ` ${t.marks.map((m) => MARK_SYMBOL[m]).join("")}` : "");
    const second = tileAgainst(t);
    return second ? `${first}\n${second}` : first;
  };
  // one colour scale per kind of number; the view's main kind takes Plot's colour channel, the other (the
  // headline view mixes http-server's efficiency with speedups) is painted from its own fixed scale
  const primary: TileKind = metric === "efficiency" || !shape.tiles.some((t) => t.kind === "speedup") ? "efficiency" : "speedup";
  const secondaryScale = Plot.scale({ color: colourScale(primary === "speedup" ? "efficiency" : "speedup", phaseWords) });
  const open = (t: Tile) => {
    location.hash = href("cell", { run: runId, cell: t.cellId });
  };
  // Plot draws one rect per datum it keeps, in index order: tie each to its tile for click and keyboard.
  const interactive =
    (data: Tile[]): Plot.RenderFunction =>
    (index, scales, values, dimensions, context, next) => {
      const g = next!(index, scales, values, dimensions, context) as SVGGElement;
      const rects = g.querySelectorAll("rect");
      [...index].forEach((i, k) => {
        const rect = rects[k];
        const t = data[i];
        if (!rect || !t) return;
        rect.setAttribute("tabindex", "0");
        rect.setAttribute("role", "link");
        rect.setAttribute("aria-label", classes ? classedTitle(t, classes.get(t.cellId)) : describe(t));
        rect.setAttribute("data-cell-id", t.cellId);
        if (t.kind !== primary && t.reading !== "unclear" && t.value !== undefined) rect.setAttribute("fill", String(secondaryScale.apply(t.value)));
        rect.addEventListener("click", () => open(t));
        rect.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            open(t);
          }
        });
      });
      return g;
    };
  // only a tile whose data show a win or a loss (or an efficiency, a measure) is coloured; the rest neutral
  const withValue = shape.tiles.filter((t) => t.value !== undefined && t.reading !== "unclear" && t.kind === primary);
  const otherKind = shape.tiles.filter((t) => t.value !== undefined && t.reading !== "unclear" && t.kind !== primary);
  const unclear = shape.tiles.filter((t) => t.reading === "unclear");
  // a tile drawn in the scale's colours (the rest are neutral: unclear, no number, the other kind)
  const onScale = (t: Tile) => withValue.includes(t);
  const withoutValue = shape.tiles.filter((t) => t.value === undefined);
  const failed = shape.tiles.filter((t) => t.marks.includes("failed"));
  const unattested = shape.tiles.filter((t) => t.marks.includes("unattested"));
  const place = { x: "scheduler", y: "row", fx: "cpus", fy: all ? "workload" : undefined } as const;
  const rowsPerFacet = all ? shape.rows.length * shape.workloads.length : shape.rows.length;
  const columns = shape.cpus.length * shape.schedulers.length;
  // room for the longest workload name beside its facet (a user's own ids can be long)
  const marginRight = all ? Math.max(110, 20 + 7.2 * Math.max(...shape.workloads.map((w) => w.length))) : 20;
  // a column as wide as the longest tile line (12 px text, about 6.6 px a character) with room on both sides
  const longest = Math.max(0, ...shape.tiles.flatMap((t) => label(t).split("\n").map((line) => line.length)));
  const column = Math.max(96, Math.ceil(longest * (classes ? 7.8 : 6.6) + 16)); // the classes' lines hold more digits
  const chrome = 230 + marginRight + shape.cpus.length * 12; // the row labels, the facet labels, the gaps between facets
  const legible = chrome + columns * column;
  const width = Math.max(legible, plotWidth(Math.max(640, Math.min(1600, chrome + columns * Math.max(column, 140)))));
  const room = plotWidth(Number.MAX_SAFE_INTEGER);
  return h(
    "figure",
    { class: "heatmap", "aria-label": "Matrix heatmap: click a tile, or focus it and press Enter, to explain its cell" },
    width > room
      ? h("figcaption", { class: "scroll-note" }, `${columns} columns: wider than this window — scroll sideways to see them all (→).`)
      : null,
    classes ? h("figcaption", { class: "explain" }, `Each tile: its cell's conclusion (${phaseWords}), the ratio it rests on and how sure.`) : null,
    Plot.plot({
      width,
      // the margins (top 50, bottom 30) come on top of 44 px a row: two lines of text fit a tile
      height: 80 + rowsPerFacet * (classes ? 60 : 44) + (all ? shape.workloads.length * 12 : 0),
      marginLeft: 230,
      marginRight,
      marginTop: 50,
      marginBottom: 30,
      style: { fontSize: "12px", background: "transparent" },
      x: { label: null, domain: shape.schedulers, axis: "top" },
      y: { label: null, domain: shape.rows },
      fx: { label: null, domain: shape.cpus, axis: "bottom" },
      fy: all ? { label: null, domain: shape.workloads } : undefined,
      color: classes ? undefined : colourScale(primary, phaseWords),
      marks: [
        // an invisible cell in every facet, so each facet row's axis sits at the left edge even where a workload
        // has no cell under the first CPU limit (pinning runs at 2 CPUs only: its labels drifted right)
        Plot.cell(
          (all ? shape.workloads : [undefined]).flatMap((workload) => shape.cpus.map((cpus) => ({ workload, cpus, scheduler: shape.schedulers[0], row: shape.rows[0] }))),
          { ...place, fill: "none", stroke: "none", pointerEvents: "none" },
        ),
        ...(classes ? classedMarks(shape.tiles, classes, place, interactive) : []),
        ...(classes ? [] : [Plot.cell(withValue, {
          ...place,
          fill: "value",
          stroke: "var(--grid)",
          inset: 1.5,
          title: (t: Tile) => describe(t),
          render: interactive(withValue),
        }),
        Plot.cell(otherKind, {
          ...place,
          fill: "var(--na)",
          stroke: "var(--grid)",
          inset: 1.5,
          title: (t: Tile) => describe(t),
          render: interactive(otherKind),
        }),
        Plot.cell(unclear, {
          ...place,
          fill: "var(--unclear)",
          stroke: "var(--muted)",
          strokeDasharray: "3,2",
          inset: 1.5,
          title: (t: Tile) => describe(t),
          render: interactive(unclear),
        }),
        Plot.cell(withoutValue, {
          ...place,
          fill: "var(--na)",
          stroke: "var(--grid)",
          inset: 1.5,
          title: (t: Tile) => describe(t),
          render: interactive(withoutValue),
        })]),
        Plot.cell(failed, { ...place, fill: "none", stroke: "var(--bad)", strokeWidth: 3, inset: 2.5, pointerEvents: "none" }),
        Plot.cell(unattested, {
          ...place,
          fill: "none",
          stroke: "var(--warn)",
          strokeWidth: 3,
          strokeDasharray: "5,3",
          inset: 2.5,
          pointerEvents: "none",
        }),
        classes ? classedText(shape.tiles, classes, { ...place, text: label }) : Plot.text(shape.tiles, {
          ...place,
          text: label,
          // light text on the scales' dark ends (a deep red loss, a deep blue win), dark text on their pale
          // middle, and the theme's own text on the neutral tiles (dark in the dark theme: issue #31's smear)
          fill: (t: Tile) => (onDark(t) ? "#ffffff" : onScale(t) ? "var(--tile-text)" : "var(--tile-text-neutral)"),
          stroke: (t: Tile) => (onDark(t) ? "rgba(0, 0, 0, 0.45)" : onScale(t) ? "var(--tile-halo)" : "var(--tile-halo-neutral)"),
          strokeWidth: 3,
          paintOrder: "stroke",
          lineHeight: 1.15,
          pointerEvents: "none",
        }),
      ],
    }),
    otherKind.length ? Plot.legend({ color: colourScale(primary === "speedup" ? "efficiency" : "speedup", phaseWords), className: "second-legend" }) : null,
  );
}

/** Whether a tile's fill is dark enough to need light text: the outer ends of RdBu (beyond 4× either way) and Blues (above 60 %). */
function onDark(t: Tile): boolean {
  if (t.value === undefined || t.reading === "unclear" || t.reading === "none") return false;
  return t.kind === "speedup" ? t.value >= 4 || t.value <= 0.25 : t.value >= 0.6;
}

/**
 * One fixed colour scale per kind of number, the same in every view and run: speedups diverge around 1× on a
 * log scale (blue: the subject wins), efficiencies run from 0 to the bound.
 */
function colourScale(kind: TileKind, phaseWords: string): Plot.ScaleOptions {
  return kind === "speedup"
    ? {
        type: "log",
        scheme: "RdBu",
        domain: SPEEDUP_DOMAIN,
        clamp: true,
        legend: true,
        label: `speedup (×, ${phaseWords}): 1× = no difference; blue: the first-named side wins, red: it loses`,
        ticks: [1 / 8, 1 / 2, 1, 2, 8], // inside the domain's ends, so no label is clipped
        tickFormat: (d: number) => (d < 1 ? `1/${Math.round(1 / d)}×` : `${d}×`),
      }
    : {
        type: "linear",
        scheme: "Blues",
        domain: EFFICIENCY_DOMAIN,
        legend: true,
        label: `efficiency (${phaseWords}): 100 % = the bound`,
        tickFormat: "%",
        ...RAMP_MARGINS, // "0%" and "100%" sit on the ramp's ends: room for half of each (issue #31: "0%" read "%")
      };
}

/** A ramp legend's side margins (Plot reads a legend's options from its scale's; its types do not say so). */
const RAMP_MARGINS = { marginLeft: 16, marginRight: 20 };

/**
 * A banner when the tiles rest on few forks: what such a run can and cannot show. With n forks a side the
 * ratio interval reaches 90 % coverage at n = 3 and 95 % from n = 4 (runner: RatioInterval), and small
 * differences stay unclear ("1.1×?") whatever they are.
 */
function fewForks(tiles: Tile[]): HTMLElement | null {
  const ns = tiles.map((t) => t.n).filter((n): n is number => n !== undefined);
  if (ns.length === 0) return null;
  const least = Math.min(...ns);
  if (least >= 5) return null;
  return h(
    "p",
    { class: "banner few-forks", role: "note" },
    `Some tiles rest on ${least} fork${least === 1 ? "" : "s"} a variant: their intervals are wide, so only large differences show as a win or a loss;` +
      " a question mark (“1.1×?”) here means these repetitions cannot tell, not that the variants are equal. Run more repetitions to resolve smaller differences.",
  );
}

function legend(tiles: Tile[], classed: boolean): HTMLElement {
  const present = new Set(tiles.flatMap((t) => t.marks));
  const marks = (Object.keys(MARK_SYMBOL) as Mark[]).map((m) =>
    h("li", { class: present.has(m) ? "present" : "absent" }, h("span", { class: `mark mark-${m}` }, MARK_SYMBOL[m]), ` ${MARK_MEANING[m]}`),
  );
  return h(
    "div",
    { class: "legend" },
    h(
      "p",
      {},
      classed ? "The class is said in words on each tile; its title (hover, or focus it) gives the interval in full. Marks (solid red border: failed; dashed orange border: not attested):" : "A coloured tile is a win or a loss its whole interval shows (its conservative end: “≥ 1.4×”, and n, the forks it rests on)." +
        " A pale tile with a dashed border and a question mark (“1.1×?”) shows neither: its interval includes 1. A mark on a tile qualifies its number (a win on an unstable cell is still a win, with that caveat)." +
        " Marks (solid red border: failed; dashed orange border: not attested; grey tile: no number):",
    ),
    h("ul", {}, marks),
  );
}
