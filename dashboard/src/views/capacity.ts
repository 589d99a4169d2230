import * as Plot from "@observablehq/plot";
import type { CellRecord } from "../data/types";
import {
  type CapacityVariant,
  type CapacityWindow,
  capacityLead,
  capacityVariants,
  curvePoints,
  limitSentences,
  onlyLowerBound,
  outcomeLine,
} from "../shape/capacity";
import { h, whole } from "../ui/dom";
import { ms, num, percent } from "../ui/format";
import { plotWidth, section, table } from "./common";
import { errorsOf } from "./underload";

const lowest = (points: { rate: number }[]) => Math.min(...points.map((p) => p.rate));
const highest = (points: { rate: number }[]) => Math.max(...points.map((p) => p.rate));

/**
 * A capacity search's cell (issue #52): what each variant carries within the objective first, and what held it
 * there; then per variant its throughput–latency curve (p50 and p99 against the rate asked, the objective's line,
 * the capacity with its interval) beside every window the search ran and each repetition's outcome.
 */
export function capacity(cell: CellRecord): HTMLElement {
  const variants = capacityVariants(cell);
  return section(
    "Capacity within the objective",
    h("p", { class: "load-lead capacity-lead" }, capacityLead(variants, cell.contrast?.subject)),
    ...limitSentences(variants).map((s) => h("p", { class: "explain capacity-limit" }, s)),
    ...variants.map(variantBlock),
    method(),
  );
}

function variantBlock(v: CapacityVariant): HTMLElement {
  return h(
    "div",
    { class: "capacity-variant" },
    h("h3", {}, v.variant),
    h("ul", { class: "capacity-outcomes" }, v.repetitions.map((r) => h("li", {}, outcomeLine(r)))),
    curve(v),
    windowsTable(v),
    cutNote(v),
  );
}

/** The percentiles by line style as well as colour, so that they read without colour. */
const STYLE = { p50: { stroke: "#7a8ba6", dash: "4,3" }, p99: { stroke: "#1f4e9c", dash: "none" } } as const;

function curve(v: CapacityVariant): HTMLElement | null {
  const points = curvePoints(v);
  if (!points.length) return null;
  const bounds = Object.entries(v.bounds).filter(([p]) => p === "p50" || p === "p99");
  const [lo, hi] = v.interval ?? [];
  const band = lo !== undefined && hi !== undefined && lo < hi ? [{ x1: lo, x2: hi }] : [];
  return h(
    "figure",
    { class: "capacity-curve" },
    h(
      "figcaption",
      { class: "explain" },
      `${v.variant}'s latency at each rate the search asked for, one line per repetition: p99 solid, p50 dashed; ` +
        "a filled dot met the objective, a hollow one did not. The horizontal line is the objective; the vertical one the capacity found" +
        (band.length ? ", in its shaded interval." : "."),
    ),
    Plot.plot({
      width: plotWidth(720),
      height: 260,
      marginLeft: 60,
      marginRight: 30,
      style: { fontSize: "12px", background: "transparent" },
      x: { type: "log", label: "rate asked (requests/s) →", grid: true, tickFormat: (x: number) => num(x) },
      // linear from zero: the objective and a queue's growth read as distances, the handler's own time as the floor
      y: { label: "↑ latency (ms)", grid: true, domain: [0, Math.max(...points.map((q) => q.ms), ...bounds.map(([, b]) => b)) * 1.1] },
      marks: [
        ...band.map((b) => Plot.rectX([b], { x1: "x1", x2: "x2", fill: "#1f4e9c", fillOpacity: 0.08 })),
        ...bounds.map(([, bound]) => Plot.ruleY([bound], { stroke: "#b03a2e", strokeDasharray: "6,3" })),
        ...bounds.map(([p, bound]) =>
          Plot.text([bound], { y: (d: number) => d, frameAnchor: "left", dy: -7, text: () => `objective: ${p} ≤ ${ms(bound)}`, fill: "#b03a2e" }),
        ),
        ...(v.capacity !== undefined
          ? [
              Plot.ruleX([v.capacity], { stroke: "#1f4e9c" }),
              Plot.text([v.capacity], {
                x: (d: number) => d,
                frameAnchor: "top",
                dy: 6,
                // inside the frame: left of the line in the curve's right half, right of it in its left half
                ...(v.capacity! * v.capacity! >= lowest(points) * highest(points)
                  ? { textAnchor: "end" as const, dx: -4 }
                  : { textAnchor: "start" as const, dx: 4 }),
                text: () => `${onlyLowerBound(v) ? "at least " : ""}${num(v.capacity)}/s`,
                fill: "#1f4e9c",
              }),
            ]
          : []),
        ...(["p50", "p99"] as const).map((p) =>
          Plot.line(
            points.filter((q) => q.percentile === p && !q.validation),
            { x: "rate", y: "ms", z: "repetition", stroke: STYLE[p].stroke, strokeDasharray: STYLE[p].dash, strokeWidth: 1.5 },
          ),
        ),
        Plot.dot(points, {
          x: "rate",
          y: "ms",
          r: 3.5,
          stroke: (q: { percentile: "p50" | "p99" }) => STYLE[q.percentile].stroke,
          fill: (q: { verdict: string; percentile: "p50" | "p99" }) => (q.verdict === "pass" ? STYLE[q.percentile].stroke : "white"),
          symbol: (q: { validation: boolean }) => (q.validation ? "diamond" : "circle"),
          title: (q: { repetition: number; rate: number; percentile: string; ms: number; verdict: string; validation: boolean }) =>
            `repetition ${q.repetition}${q.validation ? ", validation on a fresh server" : ""}: ${num(q.rate)} requests/s asked, ${q.percentile} ${ms(q.ms)} (${q.verdict})`,
        }),
      ],
    }),
  );
}

/** Every window in the order run, each repetition's validation last. */
function windowsTable(v: CapacityVariant): HTMLTableElement {
  const rows = v.repetitions.flatMap((r) => r.windows);
  return table(
    ["repetition", "window", "rate asked", "answered", "p50", "p99", "p99.9", "max", "errors", "CPU used (server · generator)", "verdict"],
    rows.map((w: CapacityWindow) => [
      String(w.repetition),
      w.validation ? "validation, fresh server" : "search",
      whole(`${num(w.rate)}/s`),
      whole(w.achievedRate === undefined ? "—" : `${num(w.achievedRate)}/s`),
      whole(ms(w.p50)),
      whole(ms(w.p99)),
      whole(ms(w.p999)),
      whole(ms(w.max)),
      errorsOf(w.errors),
      whole(`${percent(w.serverCpuShare)} · ${percent(w.generatorCpuShare)}`),
      w.verdict === "pass" ? "met the objective" : `${w.verdict}: ${w.why}`,
    ]),
    { class: "load-table capacity-table" },
  );
}

/**
 * A window that met the objective yet answered well under the rate asked lost those requests to its close, not to
 * the server: said, so that the column does not read as a shortfall.
 */
function cutNote(v: CapacityVariant): HTMLElement | null {
  const short = v.repetitions
    .flatMap((r) => r.windows)
    .some((w) => w.verdict === "pass" && w.achievedRate !== undefined && w.achievedRate < 0.95 * w.rate);
  return short
    ? h(
        "p",
        { class: "explain capacity-cut" },
        "“Answered” counts the answers a second of the window: the requests still in flight when it closed are neither answers " +
          "nor errors, so a window that met the objective can answer fewer a second than were asked — about the handler's time " +
          "÷ the window's length fewer.",
      )
    : null;
}

function method(): HTMLElement {
  return h(
    "details",
    { class: "method capacity-method" },
    h("summary", {}, "How this is computed"),
    h(
      "p",
      {},
      "Each repetition starts a fresh server JVM and sends requests on a schedule (an open model) in windows at rising rates: " +
        "from the lowest rate of the range, doubling until a window breaks the objective, then halving the gap between the last rate " +
        "that met it and the first that did not until that gap is within the precision. Each window begins with a warmup, waits until " +
        "its requests in flight are answered, then measures; a request's latency runs from when it was due, so a server that falls behind " +
        "shows it (coordinated omission corrected). The found rate is then measured again on a second, fresh server: only if it meets " +
        "the objective there is it the repetition's capacity. The capacity shown is the median over the repetitions, with the runner's " +
        "order-statistic interval. “Answered” counts the answers a second of the window; requests still in flight when it closed are " +
        "neither answers nor errors. A window whose generator was busy on 90 % of its CPUs or more, or fell short of the rate while the " +
        "objective held, is generator-limited: it says nothing about the server. What held a capacity: the CPU when the server used " +
        "85 % of its quota or more at it; a pool when the capacity is within 80 % of its threads ÷ handler time (Little's law); the " +
        "errors at the first failing rate. Above a capacity C the queue grows by (rate − C) a second, so a window of D seconds lets a " +
        "rate pass up to about C × (1 + (objective − handler time) ÷ D): longer windows find it closer.",
    ),
  );
}
