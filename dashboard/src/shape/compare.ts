import { metricWords } from "../ui/format";
import type { CompareReport, Comparison, Verdict } from "../data/types";

// The compare view's data: the runner's verdicts (Mann-Whitney U, Benjamini–Hochberg, a threshold on
// the ratio of medians) — never recomputed here — ordered so the changes that matter come first.

export const VERDICTS: Verdict[] = ["regression", "improvement", "inconclusive", "unchanged"];

export function counts(report: CompareReport): Record<Verdict, number> {
  const out: Record<Verdict, number> = { regression: 0, improvement: 0, inconclusive: 0, unchanged: 0 };
  for (const c of report.comparisons) out[c.verdict]++;
  return out;
}

/**
 * Where an inconclusive comparison's interval lies against ±threshold: wholly beyond it (a change these repetitions
 * could not confirm), wholly within it (most likely none), or across it (they cannot tell). One word covered all
 * three, so an interval of 1.12–1.33 read like one of 0.97–1.02.
 */
export function inconclusiveKind(c: Comparison, threshold: number): "beyond" | "within" | "across" {
  const [lo, hi] = c.ci95;
  if (lo > 1 + threshold || hi < 1 / (1 + threshold)) return "beyond";
  if (lo >= 1 / (1 + threshold) && hi <= 1 + threshold) return "within";
  return "across";
}

/** What the comparison says, in a sentence before its numbers: the verdicts, and what the inconclusive ones are. */
export function compareSentence(report: CompareReport): string {
  const t = counts(report);
  const pct = `±${Math.round(report.threshold * 100)} %`;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts = [
    `${plural(t.regression, "comparison got", "comparisons got")} worse and ${t.improvement} better beyond ${pct}`,
    `${t.unchanged} ${t.unchanged === 1 ? "is" : "are"} unchanged`,
  ];
  let sentence = `Against its baseline, ${parts.join("; ")}`;
  if (t.inconclusive > 0) {
    const kinds = { beyond: 0, within: 0, across: 0 };
    for (const c of report.comparisons) if (c.verdict === "inconclusive") kinds[inconclusiveKind(c, report.threshold)]++;
    const said = [
      kinds.beyond ? `${kinds.beyond} lie wholly beyond ${pct} but are not confirmed at these repetitions` : "",
      kinds.within ? `${kinds.within} lie wholly within ${pct}` : "",
      kinds.across ? `${kinds.across} cannot tell either way` : "",
    ].filter(Boolean);
    sentence += `. Of the ${plural(t.inconclusive, "inconclusive one", "inconclusive ones")}, ${said.join(", ")}`;
  }
  return `${sentence}.`;
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

/**
 * "+12.3 % wall time (worse)": the change in the metric's own terms, and which way that is for it (issue #54: −8 %
 * throughput and −44 % time sat on the same side, one worse and one better).
 */
export function change(c: Comparison): string {
  const pct = (c.ratio - 1) * 100;
  const sign = pct >= 0 ? "+" : "−";
  const shown = `${sign}${Math.abs(pct).toFixed(1)} % ${metricWords(c.metric)}`;
  if (Math.abs(pct) < 0.05) return shown;
  return `${shown} (${betterFactor(c) > 1 ? "better" : "worse"})`;
}

/** The change oriented so that above 1 is better, whichever way the metric points: what the compare plot draws. */
export function betterFactor(c: Comparison): number {
  return c.higherIsBetter ? c.ratio : 1 / c.ratio;
}

/** The interval of {@link betterFactor}. */
export function betterInterval(c: Comparison): [number, number] {
  return c.higherIsBetter ? [c.ci95[0], c.ci95[1]] : [1 / c.ci95[1], 1 / c.ci95[0]];
}

/**
 * The parts of each cell id that tell the ids apart ("debian-25 · sleep-bound", not
 * "debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound" on every row); "" where all ids are one.
 */
export function differingParts(cellIds: string[]): string[] {
  // each part by what it is — the JDK first, the OS second, the workload last, the rest by their "key-" prefix —
  // so that an id with one more axis (a cpuset) lines up with the others
  const keyed = cellIds.map((id) => {
    const parts = id.split(".");
    return parts.map((part, i) => ({
      part,
      key: i === 0 ? "jdk" : i === parts.length - 1 ? "workload" : i === 1 ? "os" : (/^([a-z]+)-/.exec(part)?.[1] ?? `#${i}`),
    }));
  });
  const values = new Map<string, Set<string | undefined>>();
  for (const parts of keyed) for (const { key, part } of parts) (values.get(key) ?? values.set(key, new Set()).get(key)!).add(part);
  // a key some ids lack varies too
  for (const [key, set] of values) if (keyed.some((parts) => !parts.some((p) => p.key === key))) set.add(undefined);
  return keyed.map((parts) => parts.filter(({ key }) => values.get(key)!.size > 1).map(({ part }) => part).join(" · "));
}

/**
 * Each row's label in the compare plot, the parts that tell rows apart first (issue #31): the variant, the
 * benchmark, then only the parts of the cell id that differ between rows.
 */
export function rowLabels(rows: Comparison[], short: (benchmark: string) => string): Map<Comparison, string> {
  const cells = differingParts(rows.map((c) => c.cellId));
  const labels = new Map<Comparison, string>();
  rows.forEach((c, r) => {
    labels.set(c, [c.variant, c.benchmark ? short(c.benchmark) : undefined, cells[r] || undefined].filter((x) => x).join(" · "));
  });
  return labels;
}

/**
 * The x ticks of a ratio axis on a log scale (issue #31: only "1" was labelled): 1, ±threshold, and the
 * domain's ends, rounded to read, where they do not crowd a tick already there.
 */
export function ratioTicks(lo: number, hi: number, threshold: number, widthPx = 600): number[] {
  // how far apart two ticks are on the drawn axis: "1 (no change)" is about 70 px wide, a number about 30
  const px = (a: number, b: number) => (Math.abs(Math.log(a / b)) / Math.log(hi / lo)) * widthPx;
  const ticks = [1];
  for (const t of [1 / (1 + threshold), 1 + threshold]) if (t > lo && t < hi && px(t, 1) >= 55) ticks.push(t);
  // each end rounded inwards, to two decimals (three near 1)
  for (const [end, inward] of [[lo, Math.ceil], [hi, Math.floor]] as const) {
    const scale = Math.abs(Math.log10(end)) < 0.02 ? 1000 : 100;
    const v = inward(end * scale) / scale;
    const apart = ticks.every((t) => px(v, t) >= (t === 1 ? 55 : 40));
    if (v >= lo && v <= hi && apart) ticks.push(v);
  }
  return [...new Set(ticks)].sort((a, b) => a - b);
}

/** Which sides of a compared cell were measured beside other work (issue #32): "candidate", "baseline and candidate". */
export function disturbedSides(report: CompareReport, cellId: string): string | undefined {
  const sides = (report.disturbed ?? []).filter((d) => d.cellId === cellId).map((d) => d.side);
  return sides.length ? sides.join(" and ") : undefined;
}
