import type { Conclusion, ConclusionChange, Conclusions } from "../data/results.schema";
import { ratio, ratioInterval } from "../ui/format";

// What a run concludes (data/runs/<id>/conclusions.json, the document `loom-matrix report --format json` prints),
// in a reader's words: the rules per workload, their causes, the cells that are not evidence, and the steps along
// an axis. The view (views/conclusions.ts) lays these out; the words and links are decided here, so they are tested
// without a browser.

export type Workload = Conclusions["conclusions"][number];
export type Rule = Workload["rules"][number];
export type Finding = Workload["findings"][number];
export type Step = NonNullable<Workload["steps"]>[number];
type Contrast = NonNullable<Finding["headline"]>;
export type Since = NonNullable<Conclusions["since"]>;

/** A class in words, as the report says it. */
export const CLASS_WORDS: Record<Conclusion, string> = {
  "pays-off": "pays off",
  "no-difference": "no difference",
  hurts: "hurts",
  "cannot-tell": "cannot tell",
  "not-valid": "not valid",
};

/** The sentence before the numbers: what the classes mean. */
export function classesMeaning(thresholdPercent: number): string {
  const band = `${Math.round(thresholdPercent * 10) / 10} %`;
  return (
    `Each condition is judged against the best alternative it measured, not only the baseline: it pays off where the whole interval is more than ${band} in the subject's favour, ` +
    `hurts where it is more than ${band} against, and shows no difference where the whole interval lies within ±${band}. ` +
    "Cannot tell means the interval reaches across that band (more repetitions would decide); not valid cells (failed, disturbed, not attested) are never counted as evidence."
  );
}

/** An axis value as a reader says it: "2 CPUs", "parallelism 4", a JDK by its name. */
export function axisValue(axis: string, value: string): string {
  switch (axis) {
    case "cpus":
      return value === "1" ? "1 CPU" : `${value} CPUs`;
    case "cpuset":
      return `on CPUs ${value}`;
    case "parallelism":
    case "maxPoolSize":
    case "minRunnable":
      return `${axis} ${value}`;
    default:
      return value;
  }
}

/** Where a rule holds: "on temurin-25" or "on temurin-21 at 1 CPU or 2 CPUs"; no clause: everywhere. */
export function whereWords(rule: Rule): string {
  if (rule.where.length === 0) return "in every valid condition measured";
  return rule.where
    .map((c, i) => {
      const values = c.values.map((v) => axisValue(c.axis, v)).join(" or ");
      return `${i === 0 ? "on" : c.axis === "cpus" || c.axis === "cpuset" ? "at" : "with"} ${values}`;
    })
    .join(" ");
}

/** "90 % interval 4.4–6.1×" or "only 67 % coverage from its repetitions": how sure, in words. */
export function confidenceWords(c: Pick<Contrast, "low" | "high" | "level">): string {
  const interval = `${ratioInterval(c.low, c.high)}×`;
  if (c.level === undefined) return `interval ${interval}`;
  const pct = Math.round(c.level * 1000) / 10;
  return c.level < 0.9 ? `only ${pct} % coverage (few repetitions): ${interval}` : `${pct} % interval ${interval}`;
}

/** How sure, short enough for a tile: "90 % 4.4–6.1×", "only 67 %: 1.1–84×". */
export function shortConfidence(c: Pick<Contrast, "low" | "high" | "level">): string {
  const interval = `${ratioInterval(c.low, c.high)}×`;
  if (c.level === undefined) return interval;
  const pct = Math.round(c.level * 1000) / 10;
  return c.level < 0.9 ? `only ${pct} %: ${interval}` : `${pct} % ${interval}`;
}

/** "virtual against pool:200: 5.75× (90 % interval 4.4–6.1×)". */
export function contrastWords(c: Contrast): string {
  return `${c.subject} against ${c.reference}: ${contrastTimes(c)} (${confidenceWords(c)})`;
}

/** The contrast the class rests on: over the best other when the headline's reference is not it. */
export function decidingContrast(f: Finding): Contrast | undefined {
  return f.overBest ?? f.headline;
}

/** The rule's headline in words: "pays off on temurin-25: virtual against the best other (pool:200): 3.1–5.6×". */
export function ruleWords(rule: Rule, findings: Finding[]): string {
  const cells = new Set(rule.cells);
  const contrasts = findings.filter((f) => cells.has(f.cellId)).map(decidingContrast).filter((c): c is Contrast => !!c);
  const first = contrasts[0];
  const range =
    rule.lowestRatio === undefined
      ? ""
      : rule.highestRatio === undefined || rule.lowestRatio === rule.highestRatio
        ? times(rule.lowestRatio)
        : `${num(rule.lowestRatio)}–${times(rule.highestRatio)}`;
  const only = findings.filter((f) => cells.has(f.cellId)).every((f) => f.alternatives === 1);
  const against = first
    ? `: ${first.subject} against ${only ? "the one other variant measured" : "the best other"} (${[...new Set(contrasts.map((c) => c.reference))].join(", ")})`
    : "";
  const count = rule.cells.length === 1 ? "1 cell" : `${rule.cells.length} cells`;
  return `${CLASS_WORDS[rule.conclusion]} ${whereWords(rule)} (${count})${against}${range ? `: ${range}` : ""}`;
}

/** A condition's short name for a link: its JDK and CPU limit, and the scheduler settings that are set. */
export function conditionName(f: Finding): string {
  const c = f.coordinates;
  const parts: string[] = [c.jdk, axisValue("cpus", String(c.cpus))];
  if (c.cpuset) parts.push(axisValue("cpuset", c.cpuset));
  for (const key of ["parallelism", "maxPoolSize", "minRunnable"] as const) {
    if (c[key] !== "auto") parts.push(`${key} ${c[key]}`);
  }
  return parts.join(", ") + (f.benchmark ? ` · ${f.benchmark}` : "");
}

/** A step along an axis: "virtual on temurin-25 against temurin-21 (at 2 CPUs): 1.3× (90 % interval 1.1–1.5×), pays off". */
export function stepWords(s: Step): string {
  // the axes held equal, as a reader names them: the JDK's own defaults ("auto") and no CPU set go unsaid
  const at = Object.entries(s.at)
    .filter(([, v]) => v !== "auto" && v !== "all")
    .map(([axis, v]) => axisValue(axis, v))
    .join(", ");
  const c = s.contrast;
  return (
    `${s.variant} on ${axisValue(s.axis, s.to)} against ${axisValue(s.axis, s.from)}${at ? ` (at ${at})` : ""}: ` +
    `${times(c.ratio)} (${confidenceWords(c)}), ${CLASS_WORDS[c.conclusion]}`
  );
}

export const STEP_AXIS_WORDS: Record<Step["axis"], string> = {
  jdk: "across JDKs",
  cpus: "across CPU limits",
  parallelism: "across scheduler settings",
  maxPoolSize: "across scheduler settings",
  minRunnable: "across scheduler settings",
};

/** A cell's conclusion for its tile: the class, how sure, and the contrast it rests on. */
export interface TileConclusion {
  conclusion: Conclusion;
  /** The tile's first line: the class in words. */
  words: string;
  /** The tile's second line: the deciding ratio and how sure, or why not valid / what would decide. */
  detail: string;
  /** The tile's short line: "5.75× · 90 % 4.4–6.1×" or "2.3× · only 67 %: 1.1–84×". */
  short: string;
  /** Set when the class rests on the best other, not the headline's reference. */
  overBest?: string;
  overBestName?: string;
}

export function tileConclusions(doc: Conclusions | undefined): Map<string, TileConclusion> {
  const byCell = new Map<string, TileConclusion>();
  for (const w of doc?.conclusions ?? []) {
    for (const f of w.findings) {
      if (f.benchmark && byCell.has(f.cellId)) continue; // a user's cell: its first benchmark stands for the tile
      byCell.set(f.cellId, tileConclusion(f));
    }
  }
  return byCell;
}

export function tileConclusion(f: Finding): TileConclusion {
  const c = decidingContrast(f);
  const words = CLASS_WORDS[f.conclusion];
  if (f.conclusion === "not-valid") return { conclusion: f.conclusion, words, detail: f.why ?? "not evidence", short: "" };
  const detail = c ? `${contrastTimes(c)} over ${c.reference}, ${confidenceWords(c)}` : (f.why ?? "");
  return {
    conclusion: f.conclusion,
    words,
    detail: f.conclusion === "cannot-tell" && f.why ? `${detail}; ${f.why}` : detail,
    short: c ? `${c.bound === "at least" ? "≥ " : c.bound === "at most" ? "≤ " : ""}${times(c.ratio)} · ${shortConfidence(c)}` : "",
    overBest: f.overBest ? `over the best other, ${f.overBest.reference}` : undefined,
    overBestName: f.overBest?.reference,
  };
}

function num(v: number): string {
  return ratio(v).replace(/×$/, "");
}

export function times(v: number): string {
  return ratio(v);
}

/**
 * A contrast's ratio as said: "4×", or "at least 4×" where the subject's capacity was only a lower bound (it met the
 * objective at the top of the range searched), "at most" where the reference's was.
 */
export function contrastTimes(c: Pick<Contrast, "ratio" | "bound">): string {
  if (c.bound === "unknown") return `${times(c.ratio)} (both only lower bounds)`;
  return c.bound ? `${c.bound} ${times(c.ratio)}` : times(c.ratio);
}

/** A tile's lines under the class: the deciding ratio, how sure (short), and what it is against. */
export function tileLines(t: TileConclusion, reference: string | undefined): string[] {
  if (t.conclusion === "not-valid") return [t.words, shorten(t.detail, 26)];
  return [t.words, t.short, t.overBest ? `over best: ${t.overBestName}` : reference ? `over ${reference}` : ""].filter(Boolean);
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s:,;]+$/, "")}…`;
}

/**
 * Another variant far from the subject, in words: "class-init against synchronized: 0.126× (90 % interval 0.12–0.13×),
 * worse" — a variant the reader must hear of where the subject itself makes no difference.
 */
export function otherWords(c: Contrast): string {
  return `${c.subject} against ${c.reference}: ${contrastTimes(c)} (${confidenceWords(c)}), ${c.conclusion === "hurts" ? "worse" : "better"}`;
}

/**
 * A condition concluded otherwise than in the earlier run: "pinning · debian-25, 2 CPUs: no difference (synchronized
 * against reentrant-lock, 1.00×) → hurts (…, 0.126×)".
 */
export function changeWords(c: ConclusionChange): string {
  const side = (cls: Conclusion, k: Contrast) => `${CLASS_WORDS[cls]} (${k.subject} against ${k.reference}, ${contrastTimes(k)})`;
  return `${side(c.from, c.before)} → ${side(c.to, c.after)}`;
}

/** The lead of the "since" block: how many conditions concluded alike, and how many changed. */
export function sinceLead(s: Since): string {
  const n = s.alike + s.changed.length;
  if (n === 0) return "No condition was concluded in both runs (pays off, no difference or hurts), so nothing can have changed.";
  if (s.changed.length === 0) {
    return n === 1 ? "The one condition both runs concluded on concludes alike." : `Each of the ${n} conditions both runs concluded on concludes alike.`;
  }
  return `The answer changed in ${s.changed.length} of the ${n} ${n === 1 ? "condition" : "conditions"} both runs concluded on:`;
}
