import type { CompareReport, Comparison } from "../data/types";
import { inconclusiveKind } from "./compare";

// An A/B run as what it is (issue #31): a candidate against a baseline measured in interleaved blocks on one
// machine, with its own verdict — the runner's, never recomputed here — said the way the pull request's comment
// says it: the verdict that was reached first, and no verdict is never "no regression".

export type Tone = "bad" | "good" | "warn" | "neutral";

/** The verdict the run reached, in one line, and how it reads. */
export function abVerdict(report: CompareReport): { text: string; tone: Tone } {
  const all = report.comparisons.length;
  const inconclusive = report.comparisons.filter((c) => c.verdict === "inconclusive").length;
  const unchanged = report.comparisons.filter((c) => c.verdict === "unchanged").length;
  const notMeasured = Object.keys(report.ab?.sequential?.notMeasured ?? {}).length;
  // a cell this host skipped is not compared: said, but no reason for a warning (it fails no check)
  const notRun = Object.keys(report.ab?.sequential?.notRun ?? {}).length;
  const leftOut =
    (notMeasured ? `; ${notMeasured} cell${notMeasured === 1 ? "" : "s"} not measured within the budget` : "") +
    (notRun ? `; ${notRun} cell${notRun === 1 ? "" : "s"} not run on this host` : "");
  const rest = `${report.improvements} improvement${report.improvements === 1 ? "" : "s"}, ${unchanged} unchanged, ${inconclusive} inconclusive`;
  if (report.regressions > 0) {
    return { text: `${report.regressions} regression${report.regressions === 1 ? "" : "s"} (${rest})${leftOut}`, tone: "bad" };
  }
  if (all === 0 || inconclusive === all) {
    return { text: `No verdict: ${inconclusive} of ${all} comparisons inconclusive${leftOut}`, tone: "warn" };
  }
  if (inconclusive > 0 || notMeasured > 0) {
    return { text: `No regression among the ${all - inconclusive} decided; no verdict on ${inconclusive} of ${all} (inconclusive)${leftOut} — ${rest}`, tone: "warn" };
  }
  return report.improvements > 0
    ? { text: `No regression: ${rest}${leftOut}`, tone: "good" }
    : { text: `No regression: ${rest}${leftOut}`, tone: "neutral" };
}

/** Why measuring stopped, in words. */
export function endedWords(report: CompareReport): string | undefined {
  const s = report.ab?.sequential;
  if (!s) return undefined;
  const spentSeconds = s.spentSeconds ?? 0;
  const spent = s.budgetSeconds ? `${minutes(spentSeconds)} of its ${minutes(s.budgetSeconds)} budget` : minutes(spentSeconds);
  switch (s.ended) {
    case "decided":
      return `every comparison was decided at look ${s.looksTaken} of ${s.looks.length} (${spent})`;
    case "budget":
      return `the budget ran out after look ${s.looksTaken} of ${s.looks.length} (${spent}): what was undecided then is inconclusive`;
    case "futile":
      return `after look ${s.looksTaken} of ${s.looks.length} (${spent}) no undecided comparison could have been decided in the pairs left: they are inconclusive`;
    case "last-look":
      return `the last planned look (${s.looks[s.looks.length - 1]} pairs) was taken (${spent}): what was undecided then is inconclusive`;
  }
}

const minutes = (seconds: number) => (seconds < 120 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 6) / 10} min`);

/** The test a row's verdict rests on, in the words of a reader who knows JMH. */
export function testWords(c: Comparison): string {
  switch (c.test) {
    case "nested-t":
      return `paired t on ${c.pairs ?? "?"} pairs of forks' means (the fork the unit${c.nested?.iterationsPerFork ? `, ${c.nested.iterationsPerFork} iterations a fork` : ""})`;
    case "signed-rank":
      return `Wilcoxon signed-rank on ${c.pairs ?? "?"} block pairs`;
    default:
      return "Mann-Whitney U on the two groups (not paired)";
  }
}

/** What a row could have caught: its smallest detectable change, or that it could not have caught any. */
export function detectableWords(c: Comparison): string {
  return c.detectable === undefined ? "nothing: too few pairs" : `±${Math.round(c.detectable * 1000) / 10} %`;
}

/**
 * A row's verdict with why, so that a significant p beside "unchanged" does not read as a contradiction (issue #54's
 * A/A row: "p 0.019 … unchanged (first pass: regression, not confirmed)"): where its interval lies against the
 * threshold, and what the confirming pairs did to a first pass's flag.
 */
export function verdictWhy(c: Comparison, threshold: number, alpha: number): string {
  const pct = `±${Math.round(threshold * 1000) / 10} %`;
  const extra = c.confirmation ? `${c.confirmation.extraPairs} more pair${c.confirmation.extraPairs === 1 ? "" : "s"}` : "";
  const unconfirmed =
    c.confirmation && !c.confirmation.confirmed && c.confirmation.firstVerdict !== c.verdict
      ? `; the first pass flagged ${c.confirmation.firstVerdict === "improvement" ? "an improvement" : `a ${c.confirmation.firstVerdict}`}, which ${extra} did not confirm`
      : "";
  switch (c.verdict) {
    case "regression":
    case "improvement":
      return `${c.verdict}${c.confirmation?.confirmed ? `, confirmed by ${extra}` : ""}: a change beyond ${pct}, significant`;
    case "unchanged": {
      const [lo, hi] = c.ci95;
      const why =
        lo >= 1 / (1 + threshold) && hi <= 1 + threshold
          ? `its whole interval is within ${pct}`
          : c.pAdjusted > alpha
            ? "not significant"
            : `significant, but smaller than ${pct}`;
      return `unchanged: ${why}${unconfirmed}`;
    }
    case "inconclusive": {
      const kind = inconclusiveKind(c, threshold);
      const why =
        kind === "beyond"
          ? `beyond ${pct}, but not significant at these pairs`
          : kind === "within"
            ? `within ${pct}, but not decided at these pairs`
            : `its interval reaches both sides of ${pct}`;
      return `inconclusive: ${why}${unconfirmed}`;
    }
  }
}
