import { loadAbComparison, loadAbIndex } from "../data/load";
import type { AbEntry, CompareReport } from "../data/types";
import { abVerdict, detectableWords, endedWords, testWords, verdictWhy } from "../shape/ab";
import { shortBenchmark } from "../shape/cell";
import { change, counts, differingParts, disturbedSides, ordered, VERDICTS } from "../shape/compare";
import { type Child, h, whole } from "../ui/dom";
import { date, num, ratioInterval, thresholdMarks } from "../ui/format";
import { chart, disturbedSection, recordedHeadlines, titled } from "./compare";
import { type Context, empty, keyValues, methodFold, section, select, table } from "./common";

// An A/B run (loom-matrix ab, published with `publish --run <ab dir>`), shown as what it is (issue #31): its own
// verdict on a candidate against a baseline measured in interleaved blocks on one machine, both sides, how it was
// measured and what each comparison could have caught. It is not a run of the matrix: it has no tile, no point in
// the history, and is never anyone's baseline.

export function abLabel(e: AbEntry): string {
  return `${date(e.startedAt)} · ${e.candidateLabel} vs ${e.baselineLabel}${e.aToA ? " (A/A)" : ""}`;
}

export async function abView(ctx: Context): Promise<Child[]> {
  const runs = (await loadAbIndex()).runs;
  const head = h("h1", {}, "A/B run");
  if (!runs.length) {
    return [head, empty("No A/B runs published yet: `loom-matrix publish --run <the directory ab wrote> --site …` adds one.")];
  }
  const asked = ctx.params.run;
  const run = asked ? runs.find((r) => r.runId === asked) : runs[runs.length - 1];
  const picker = select(
    "A/B run",
    "run",
    [...(run ? [] : [{ value: "", text: "— pick an A/B run —" }]), ...[...runs].reverse().map((r) => ({ value: r.runId, text: abLabel(r) }))],
    run?.runId ?? "",
    (v) => ctx.go({ run: v, verdict: undefined }),
  );
  if (!run) {
    return [
      head,
      h("p", { class: "banner unknown-run", role: "alert" }, `This site has no A/B run ${asked}: it may have been mistyped, or dropped (publish --keep-ab). Pick one:`),
      h("form", { class: "controls" }, picker),
    ];
  }
  const report = await loadAbComparison(run.runId);
  const verdict = VERDICTS.find((v) => v === ctx.params.verdict);
  const rows = ordered(report, verdict);
  const tally = counts(report);
  const lead = abVerdict(report);
  const ab = report.ab!;
  return [
    h("h1", {}, "A/B run", h("span", { class: "subtitle" }, ` · ${run.runId}`)),
    h(
      "form",
      { class: "controls", "aria-label": "A/B options" },
      picker,
      select(
        "Show",
        "verdict",
        [{ value: "", text: "every verdict" }, ...VERDICTS.map((v) => ({ value: v, text: `${v} (${tally[v]})` }))],
        verdict ?? "",
        (v) => ctx.go({ verdict: v || undefined }),
      ),
    ),
    run.aToA
      ? h(
          "p",
          { class: "banner aa" },
          "A/A run: both sides were built from the same definitions, so any regression or improvement flagged here is a false alarm. It measures this check's noise and what it could catch.",
        )
      : null,
    h("p", { class: `ab-verdict tone-${lead.tone}`, role: "status" }, h("strong", {}, lead.text)),
    h(
      "div",
      { class: "sides" },
      h("div", {}, h("h2", {}, "Baseline"), h("p", {}, sideWords(ab.baselineLabel, "baseline", run.aToA))),
      h("div", {}, h("h2", {}, "Candidate"), h("p", {}, sideWords(ab.candidateLabel, "candidate", run.aToA))),
    ),
    keyValues([
      ["what differs", ab.differences.length ? ab.differences.join("; ") : "nothing: the same build on both sides (A/A)"],
      ["measured", `${date(run.startedAt)} · ${run.trigger === "pull_request" ? "pull request · " : ""}${run.git.branch} @ ${run.git.commit.slice(0, 7)} · ${run.profile ?? "no profile"}`],
      ["how", measuredHow(report)],
      ["stopped because", endedWords(report)],
      ["noise it measured", noiseWords(report)],
    ]),
    notMeasured(report),
    notRun(report),
    stoppedEarly(report),
    methodFold(
      "The two sides ran on one machine in back-to-back pairs of blocks (fresh JVMs; half the pairs baseline first, half candidate first, shuffled), so drift hits both alike.",
      `A change counts when it is beyond ±${Math.round(report.threshold * 1000) / 10} % and significant with Benjamini–Hochberg at ${report.alpha * 100} % across the ${report.comparisons.length} comparisons${ab.sequential ? `, tested at ${num(ab.sequential.levelPerLook * 100, 2)} % at each look${ab.sequential.lastLevel !== undefined && ab.sequential.lastLevel > ab.sequential.levelPerLook * 1.0001 ? ` (the last look taken at ${num(ab.sequential.lastLevel * 100, 2)} %: all the α the others left)` : ""}` : ""}` +
        "; a change flagged in the first pass counts only when more pairs of its cell confirm it. Unchanged means the whole interval lies within the threshold: a change may be significant and still too small to count.",
      ...(ab.sequential ? [`The looks: ${ab.sequential.method}.`] : []),
      "The change is estimated from the pairs — each pair's candidate against its own baseline block, so that the machine's drift falls out — not from the two sides' medians, which pool every block: the two can differ, even in sign, where the machine drifted between pairs or a side's blocks spread widely.",
      "Each row says its test, its interval's level, its noise (the typical difference between two measurements of the same thing: of the pairs' ratios where paired) and the smallest change it could have caught; inconclusive means it could not tell.",
    ),
    h("p", { class: "verdicts" }, VERDICTS.map((v) => h("span", { class: `chip verdict-${v}` }, `${tally[v]} ${v}`))),
    recordedHeadlines(report),
    rows.length ? h("figure", { class: "compare" }, chart(rows, report.threshold)) : empty("No comparisons with this verdict."),
    section("Side by side", comparisons(report, rows)),
    disturbedSection(report),
    report.notComparable?.length
      ? section(
          "Not comparable",
          h("p", { class: "explain" }, "Measured differently on the two sides, so never compared:"),
          table(["cell", "variant", "why"], report.notComparable.map((n) => [n.cellId, n.series, n.reason])),
        )
      : null,
  ];
}

function measuredHow(report: CompareReport): string {
  const ab = report.ab!;
  const s = ab.sequential;
  if (!s) return `${ab.blocks} block pairs a cell, ${ab.confirmBlocks} more to confirm a flagged change`;
  const pairs = Object.values(s.pairs);
  const range = pairs.length ? (Math.min(...pairs) === Math.max(...pairs) ? `${pairs[0]}` : `${Math.min(...pairs)}–${Math.max(...pairs)}`) : "no";
  return `${range} block pairs a cell, looking at ${s.looks.join(", ")} pairs`;
}

function notMeasured(report: CompareReport): HTMLElement | null {
  const cells = Object.entries(report.ab?.sequential?.notMeasured ?? {});
  if (!cells.length) return null;
  return section(
    "Not measured within the budget",
    h("p", { class: "explain" }, "No verdict on these cells: their first pass did not fit the budget."),
    table(["cell", "why"], cells.map(([cell, why]) => [cell, why])),
  );
}

function notRun(report: CompareReport): HTMLElement | null {
  const cells = Object.entries(report.ab?.sequential?.notRun ?? {});
  if (!cells.length) return null;
  return section(
    "Not run on this host",
    h("p", { class: "explain" }, "This machine skipped these cells, as a run skips them, so they were not compared and took none of the budget:"),
    table(["cell", "why"], cells.map(([cell, why]) => [cell, why])),
  );
}

function stoppedEarly(report: CompareReport): HTMLElement | null {
  const stopped = Object.entries(report.ab?.sequential?.stopped ?? {});
  if (!stopped.length) return null;
  return section(
    "Measured no more",
    h(
      "p",
      { class: "explain" },
      `At their noise these comparisons could not have cleared ±${Math.round(report.threshold * 1000) / 10} % either side in the pairs their cells could still get, so the budget went to the others (futility; stopping never flags anything). They are inconclusive, with what they could catch.`,
    ),
    table(["cell and variant", "why"], stopped.map(([series, why]) => [series, why])),
  );
}

function comparisons(report: CompareReport, rows: CompareReport["comparisons"]): HTMLTableElement {
  const cells = differingParts(rows.map((c) => c.cellId));
  return table(
    ["cell", "variant", "verdict", "change (from the pairs)", "interval of candidate ÷ baseline (level)", "baseline median (n)", "candidate median (n)", "noise", "could catch", "test", "p (adjusted)"],
    rows.map((c, r) => [
      titled(h("span", {}, cells[r] || c.cellId), c.cellId),
      c.benchmark ? `${c.variant} · ${shortBenchmark(c.benchmark)}` : c.variant,
      // the verdict next to the row's name, with why (issue #54: the ninth column, cut off at 1,400 px)
      h(
        "span",
        {},
        h("span", { class: `chip verdict-${c.verdict}` }, c.verdict),
        h("span", { class: "verdict-why" }, verdictWhy(c, report.threshold, report.alpha).slice(c.verdict.length)),
        disturbedSides(report, c.cellId) ? h("span", { class: "disturbed-note" }, ` ≋ ${disturbedSides(report, c.cellId)} disturbed`) : "",
      ),
      whole(change(c)),
      whole(`${ratioInterval(c.ci95[0], c.ci95[1], thresholdMarks(report.threshold))}${c.ciLevel === undefined ? "" : ` (${Math.round(c.ciLevel * 1000) / 10} %)`}`),
      whole(`${num(c.baseline.median)} (${c.baseline.n})`),
      whole(`${num(c.candidate.median)} (${c.candidate.n})`),
      whole(c.noise === undefined ? "—" : `±${num(c.noise * 100, 2)} %`),
      whole(detectableWords(c)),
      testWords(c) + (c.nested?.modes ? `; ${c.nested.modes}` : ""),
      whole(num(c.pAdjusted, 2)),
    ]),
    { id: "ab-comparisons" },
  );
}

/**
 * A side as the reader knows it: its label, or — where the run gave none, so the label is the side's role —
 * what it was (issue #54: an A/A run's sides read only "baseline" and "candidate").
 */
function sideWords(label: string, role: "baseline" | "candidate", aToA: boolean | undefined): string {
  if (label !== role) return label;
  const other = role === "baseline" ? "candidate" : "baseline";
  return aToA ? `the same build as the ${other}, measured as a side of its own` : `not named (ab --${role}-label names a side)`;
}

/** The noise the run measured, in a sentence (issue #54: an A/A page never showed it). */
function noiseWords(report: CompareReport): string | undefined {
  const r = report.resolution;
  const rows = report.comparisons.flatMap((c) => (c.noise === undefined ? [] : [c.noise]));
  const each = rows.length
    ? `between two measurements of the same thing, ${rows.length === 1 ? `±${num(rows[0] * 100, 2)} %` : `±${num(Math.min(...rows) * 100, 2)} % to ±${num(Math.max(...rows) * 100, 2)} % across the comparisons`}`
    : undefined;
  const self = r
    ? `the baseline against itself (its odd blocks against its even ones) differed by ${num(r.aToAMedian * 100, 2)} % in the median comparison, ${num(r.aToAMax * 100, 2)} % at most`
    : undefined;
  const said = [each, self].filter(Boolean).join("; ");
  return said || undefined;
}
