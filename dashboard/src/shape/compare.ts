import type { CompareReport, Comparison, Verdict } from "../data/types";

// The compare view's data: the runner's verdicts (Mann-Whitney U, Benjamini–Hochberg, a threshold on
// the ratio of medians) — never recomputed here — ordered so the changes that matter come first.

export const VERDICTS: Verdict[] = ["regression", "improvement", "inconclusive", "unchanged"];

export function counts(report: CompareReport): Record<Verdict, number> {
  const out: Record<Verdict, number> = { regression: 0, improvement: 0, inconclusive: 0, unchanged: 0 };
  for (const c of report.comparisons) out[c.verdict]++;
  return out;
}

/** Regressions first, then improvements, inconclusive, unchanged; within each, the largest change first. */
export function ordered(report: CompareReport, verdict?: Verdict): Comparison[] {
  return report.comparisons
    .filter((c) => !verdict || c.verdict === verdict)
    .sort(
      (a, b) =>
        VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict) ||
        Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)) ||
        a.cellId.localeCompare(b.cellId) ||
        a.variant.localeCompare(b.variant) ||
        (a.benchmark ?? "").localeCompare(b.benchmark ?? ""),
    );
}

/** "+12.3 %" worse or better, said in the metric's own direction (time up is bad, throughput up is good). */
export function change(c: Comparison): string {
  const pct = (c.ratio - 1) * 100;
  const sign = pct >= 0 ? "+" : "−";
  return `${sign}${Math.abs(pct).toFixed(1)} % ${c.metric}`;
}
