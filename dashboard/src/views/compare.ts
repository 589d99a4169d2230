import * as Plot from "@observablehq/plot";
import { loadAlternativeComparison, loadCells, loadColdStartComparison, loadComparison } from "../data/load";
import type { CellRecord, CompareReport, Comparison, Verdict } from "../data/types";
import { headlineOf, headlineSentence, readingOf, type Tile, tileAgainst, tileText, times } from "../shape/matrix";
import type { Phase } from "../shape/phase";
import { betterFactor, betterInterval, change, compareSentence, counts, differingParts, disturbedSides, ordered, ratioTicks, rowLabels, VERDICTS } from "../shape/compare";
import { type Child, h, whole } from "../ui/dom";
import { num, ratioInterval, thresholdMarks } from "../ui/format";
import { type Context, chosenRun, unknownRun, empty, link, methodFold, phaseOf, phasePicker, plotWidth, runLabel, runPicker, section, select, table } from "./common";
import { shortBenchmark } from "../shape/cell";

export async function compareView(ctx: Context): Promise<Child[]> {
  const compared = ctx.index.filter((e) => e.compared);
  const unknown = unknownRun(ctx, "Compare");
  if (unknown) return unknown;
  const run = chosenRun(ctx);
  const head = [h("h1", {}, "Compare")];
  if (!run) return [...head, empty("No runs published yet.")];
  if (!run.compared) {
    return [
      ...head,
      h("form", { class: "controls" }, runPicker(ctx, compared.length ? compared : ctx.index)),
      empty(
        `Run ${run.runId} has no baseline: no earlier run of the same matrix (${run.matrix ?? "identity not recorded"}) and profile ${run.profile ?? "(none)"}` +
          " that shares cells with it and that no pull request triggered.",
      ),
    ];
  }
  const phase = phaseOf(ctx);
  // the published baseline, or one of the alternatives publish compared the run with (issue #19: ?baseline=)
  const choices = [run.compared.baseline, ...(run.alternatives ?? [])];
  const asked = ctx.params.baseline;
  const baselinePicker = select(
    "Baseline",
    "baseline",
    choices.map((id, k) => {
      const e = ctx.index.find((x) => x.runId === id);
      return { value: k === 0 ? "" : id, text: `${e ? runLabel(e) : id}${k === 0 ? " (the run's baseline)" : ""}` };
    }),
    asked && choices.includes(asked) && asked !== choices[0] ? asked : "",
    (v) => ctx.go({ baseline: v || undefined }),
  );
  if (asked && !choices.includes(asked)) {
    return [
      ...head,
      h("form", { class: "controls" }, runPicker(ctx, compared), baselinePicker, phasePicker(ctx)),
      h(
        "p",
        { class: "banner unknown-baseline", role: "alert" },
        `Run ${run.runId} was not compared with ${asked}: a baseline is an earlier run of the same matrix (${run.matrix ?? "identity not recorded"})` +
          ` and profile that shares cells with it and that no pull request triggered; publish compares each run with up to ${choices.length > 1 ? choices.length : 4} such runs. Pick one of them:`,
      ),
    ];
  }
  const alternative = asked && asked !== choices[0] ? asked : undefined;
  let report;
  try {
    report = alternative
      ? await loadAlternativeComparison(run.runId, alternative, phase === "cold-start")
      : phase === "steady"
        ? await loadComparison(run.runId)
        : await loadColdStartComparison(run.runId);
  } catch {
    // a site published before cold starts were compared: say so rather than show the steady state instead
    return [
      ...head,
      h("form", { class: "controls" }, runPicker(ctx, compared), baselinePicker, phasePicker(ctx)),
      empty(`Run ${run.runId} has no cold-start comparison: it was published before they were made. Publish it again to add one.`),
    ];
  }
  const baseline = ctx.index.find((e) => e.runId === report.baseline);
  const verdict = VERDICTS.includes(ctx.params.verdict as Verdict) ? (ctx.params.verdict as Verdict) : undefined;
  const rows = ordered(report, verdict);
  const tally = counts(report);
  // the table's first column names each cell by the parts of its id that differ (issue #31: a whole id, broken at
  // every dot in a narrow column, made the table 14,000 px tall at 800 px); the whole id is its link's tooltip
  const cellNames = differingParts(rows.map((c) => c.cellId));
  return [
    ...head,
    h("p", { class: "lead" }, compareSentence(report)),
    h(
      "form",
      { class: "controls", "aria-label": "Compare options" },
      runPicker(ctx, compared),
      baselinePicker,
      select(
        "Show",
        "verdict",
        [{ value: "", text: "every verdict" }, ...VERDICTS.map((v) => ({ value: v, text: `${v} (${tally[v]})` }))],
        verdict ?? "",
        (v) => ctx.go({ verdict: v }),
      ),
      phasePicker(ctx),
    ),
    h(
      "div",
      { class: "sides" },
      h("div", {}, h("h2", {}, "Baseline"), link("run", { run: report.baseline }, baseline ? runLabel(baseline) : report.baseline)),
      h("div", {}, h("h2", {}, "Candidate"), link("run", { run: run.runId }, runLabel(run))),
    ),
    h(
      "p",
      { class: "verdicts" },
      VERDICTS.map((v) => h("span", { class: `chip verdict-${v}` }, `${tally[v]} ${v}`)),
    ),
    methodFold(
      phase === "steady"
        ? "Steady state: each fork's median over its measured iterations (a fork that ran once: its one cold run; a cold run and an iterated fork are not comparable)."
        : "Cold start: each fork's first iteration (a fork that ran once: its one run).",
      `A change counts when it is both significant (Mann-Whitney U, Benjamini–Hochberg at ${report.alpha}) and beyond` +
        ` ±${Math.round(report.threshold * 100)} % on the ratio of medians; inconclusive means these repetitions could not have found a change among this many comparisons${report.repetitionsNeeded ? ` (it takes at least ${report.repetitionsNeeded} a side)` : ""}.`,
      "The table's intervals are of candidate ÷ baseline, distribution-free, at the level each states (95 % where the repetitions allow it);" +
        " the plot turns each so that right is better: a time's ratio is drawn as baseline ÷ candidate.",
    ),
    report.headlines ? recordedHeadlines(report) : await headlines(report.baseline, run.runId, phase),
    rows.length ? h("figure", { class: "compare" }, chart(rows, report.threshold)) : empty("No comparisons with this verdict."),
    section(
      "Side by side",
      table(
        ["cell", "variant", "verdict", "change", "interval of candidate ÷ baseline (level)", "baseline median (n)", "candidate median (n)", "p (adjusted)", "why"],
        rows.map((c, r) => [
          titled(link("cell", { run: run.runId, cell: c.cellId }, cellNames[r] || c.cellId), c.cellId),
          c.benchmark ? `${c.variant} · ${shortBenchmark(c.benchmark)}` : c.variant,
          // the verdict next to the row's name (issue #54: at 800 px it was the eighth column, out of sight)
          h(
            "span",
            {},
            h("span", { class: `chip verdict-${c.verdict}` }, c.verdict),
            disturbedSides(report, c.cellId) ? h("span", { class: "disturbed-note", title: `measured beside other work: ${disturbedSides(report, c.cellId)}` }, ` ≋ ${disturbedSides(report, c.cellId)} disturbed`) : "",
          ),
          whole(change(c)),
          whole(`${ratioInterval(c.ci95[0], c.ci95[1], thresholdMarks(report.threshold))}${c.ciLevel === undefined ? "" : ` (${Math.round(c.ciLevel * 1000) / 10} %)`}`),
          whole(`${num(c.baseline.median)} (${c.baseline.n})`),
          whole(`${num(c.candidate.median)} (${c.candidate.n})`),
          whole(num(c.pAdjusted, 2)),
          // the two cells' profiles, where the site keeps them: what the JVM did before and after
          run.profiles || baseline?.profiles
            ? h(
                "span",
                { class: "why-links" },
                run.profiles ? link("cell", { run: run.runId, cell: c.cellId, focus: "why" }, "candidate") : "",
                run.profiles && baseline?.profiles ? " · " : "",
                baseline?.profiles ? link("cell", { run: report.baseline, cell: c.cellId, focus: "why" }, "baseline") : "",
              )
            : "—",
        ]),
        { id: "comparisons" },
      ),
    ),
    disturbedSection(report),
    report.notComparable?.length
      ? section(
          "Not comparable",
          h("p", { class: "explain" }, "Measured differently on the two sides, so never compared:"),
          table(
            ["cell", "variant", "why"],
            report.notComparable.map((n) => [n.cellId, n.series, n.reason]),
          ),
        )
      : null,
    report.onlyInBaseline.length || report.onlyInCandidate.length
      ? section(
          "On one side only",
          h("p", {}, `Only in the baseline: ${report.onlyInBaseline.join(", ") || "none"}`),
          h("p", {}, `Only in the candidate: ${report.onlyInCandidate.join(", ") || "none"}`),
        )
      : null,
  ];
}

/**
 * Each shared cell's headline on both sides (issue #19): the contrast the matrix shows, as the baseline had it
 * and as the candidate has it — the same tile text, comparator and reading — so a change in what a reader
 * would conclude is seen beside the per-variant verdicts.
 */
async function headlines(baselineId: string, candidateId: string, phase: Phase): Promise<HTMLElement | null> {
  let before: CellRecord[];
  let after: CellRecord[];
  try {
    [before, after] = await Promise.all([loadCells(baselineId), loadCells(candidateId)]);
  } catch {
    return null; // the baseline was dropped from the history: its comparison stands on its own
  }
  const old = new Map(before.map((c) => [c.cellId, c]));
  const words = new Map<string, string>();
  const rows = after.flatMap((cell) => {
    const was = old.get(cell.cellId);
    const a = headlineOf(cell, phase);
    const b = was && headlineOf(was, phase);
    if (!a || !b) return [];
    words.set(cell.coordinates.workload, cell.contrast!.words);
    const said = (t: Tile) => `${tileText(t)} ${tileAgainst(t)}`.trim();
    return [
      [
        cell.cellId,
        `${a.subject ?? "virtual"} ${a.kind === "efficiency" ? "of its bound" : `vs ${a.against ?? "?"}`}`,
        h("span", { class: `reading reading-${b.reading}`, title: headlineSentence(b) }, said(b)),
        h("span", { class: `reading reading-${a.reading}`, title: headlineSentence(a) }, said(a)),
        a.reading === b.reading ? "same" : `${b.reading} → ${a.reading}`,
      ],
    ];
  });
  if (!rows.length) return null;
  return section(
    "Headlines, before and after",
    h("p", { class: "explain" }, "Each cell's headline contrast as its matrix tile says it, in the baseline and in the candidate. The headlines:"),
    h("ul", { class: "contrasts" }, [...words].map(([w, text]) => h("li", {}, h("strong", {}, w), `: ${text}`))),
    h("details", {}, h("summary", {}, `Every cell's headline (${rows.length})`), table(["cell", "headline", "baseline", "candidate", "reading"], rows, { id: "headlines" })),
  );
}

/**
 * The headlines as publish compared them (compare.json's `headlines`): no cell file is loaded, which for a
 * 1,000-cell run would be two 9 MB downloads. Each side reads as its interval shows it (≥ a win, ≤ a loss,
 * "1.2×?" neither); the matrix tile may also mark a side unstable or unattested.
 */
export function recordedHeadlines(report: CompareReport): HTMLElement | null {
  const list = report.headlines ?? [];
  if (!list.length) return null;
  const said = (kind: string, side: { value: number; ci95?: number[] } | undefined) => {
    if (!side) return "—";
    if (kind === "efficiency") return `${Math.round(side.value * 100)}%`;
    const ci = side.ci95 && side.ci95.length === 2 ? ([side.ci95[0], side.ci95[1]] as [number, number]) : undefined;
    const { reading, conservative } = readingOf("speedup", side.value, ci);
    return reading === "win" ? `≥ ${times(conservative!)}` : reading === "loss" ? `≤ ${times(conservative!)}` : `${times(side.value)}?`;
  };
  const words = [...new Set(list.map((x) => x.words))];
  return section(
    "Headlines, before and after",
    h("p", { class: "explain" }, "Each shared cell's headline contrast in the baseline and in the candidate, as its interval shows it. The headlines:"),
    h("ul", { class: "contrasts" }, words.map((w) => h("li", {}, w))),
    h(
      "details",
      {},
      h("summary", {}, `Every cell's headline (${list.length})`),
      table(
        ["cell", "headline", "baseline", "candidate"],
        list.map((x) => [x.cellId, `${x.subject} ${x.reference ? `vs ${x.reference}` : "of its bound"}`, said(x.kind, x.baseline), said(x.kind, x.candidate)]),
        { id: "headlines" },
      ),
    ),
  );
}

/** An element with its whole text as a tooltip. */
export function titled<E extends HTMLElement>(e: E, title: string): E {
  e.title = title;
  return e;
}

const VERDICT_COLOUR: Record<Verdict, string> = {
  regression: "var(--bad)",
  improvement: "var(--good)",
  inconclusive: "var(--warn)",
  unchanged: "var(--muted)",
};

/**
 * Each comparison as a dot and its interval on a log axis oriented so that right is better, whichever way the
 * metric points (issue #54: a throughput's fall and a time's fall sat on the same side of 1). The grey band is the
 * threshold, ±t on the log scale, inside which a change is too small to count.
 */
export function chart(rows: Comparison[], threshold: number): Element {
  const labels = rowLabels(rows, shortBenchmark);
  const label = (c: Comparison) => labels.get(c)!;
  const band: [number, number] = [1 / (1 + threshold), 1 + threshold];
  const lo = Math.min(band[0], ...rows.map((c) => betterInterval(c)[0])) * 0.95;
  const hi = Math.max(band[1], ...rows.map((c) => betterInterval(c)[1])) * 1.05;
  const width = plotWidth(1000);
  // the labels take at most half a narrow plot, cut in the middle so that the variant (first) and the cell
  // (last) stay; their whole text is in each dot's tooltip and the table
  const marginLeft = Math.min(520, Math.round(width * 0.5));
  const fontSize = 11;
  return Plot.plot({
    width,
    height: 60 + rows.length * 22,
    marginLeft,
    marginBottom: 40,
    style: { fontSize: `${fontSize}px`, background: "transparent" },
    x: {
      type: "log",
      domain: [lo, hi],
      label: `← worse · better → (grey band: within ±${Math.round(threshold * 1000) / 10} %, too small to count)`,
      labelAnchor: "center",
      grid: true,
      ticks: ratioTicks(lo, hi, threshold, width - marginLeft - 20),
      tickFormat: (d: number) => (d === 1 ? "1 (no change)" : `${num(d, Math.abs(Math.log10(d)) < 0.004 ? 4 : 3)}`),
    },
    y: { domain: rows.map(label), label: null },
    marks: [
      // Plot measures text by an estimate of its glyphs' widths, which this font exceeds: a tenth and more in hand
      // keeps a cut label inside the plot (at 800 px its first letters were outside the window)
      Plot.axisY({ lineWidth: ((marginLeft - 12) / fontSize) * 0.85, textOverflow: "ellipsis-middle", tickSize: 0 }),
      Plot.rectX([0], { x1: band[0], x2: band[1], fill: "var(--muted)", fillOpacity: 0.12 }),
      Plot.ruleX([1], { stroke: "var(--fg)" }),
      Plot.link(rows, { x1: (c: Comparison) => betterInterval(c)[0], x2: (c: Comparison) => betterInterval(c)[1], y: label, stroke: (c: Comparison) => VERDICT_COLOUR[c.verdict], strokeWidth: 3 }),
      Plot.dot(rows, {
        x: betterFactor,
        y: label,
        fill: (c: Comparison) => VERDICT_COLOUR[c.verdict],
        // the verdict by shape as well as colour (issue #54: by colour alone)
        symbol: (c: Comparison) => VERDICT_SYMBOL[c.verdict],
        r: 4,
        title: (c: Comparison) => `${c.cellId} · ${c.variant}${c.benchmark ? ` · ${c.benchmark}` : ""}: ${change(c)}, ${c.verdict} (p adj ${num(c.pAdjusted, 2)})`,
      }),
    ],
  });
}

const VERDICT_SYMBOL: Record<Verdict, string> = {
  regression: "triangle",
  improvement: "diamond",
  inconclusive: "square",
  unchanged: "circle",
};

/** Compared cells measured beside other work (issue #32): their comparisons stand, with this caveat. */
export function disturbedSection(report: CompareReport): HTMLElement | null {
  if (!report.disturbed?.length) return null;
  return section(
    "Measured beside other work",
    h("p", { class: "explain" }, "These cells' numbers are kept, and their changes may be the neighbours' (≋ in the table):"),
    table(["cell", "side", "figure"], report.disturbed.map((d) => [d.cellId, d.side, d.figure]), { id: "disturbed" }),
  );
}
