import * as Plot from "@observablehq/plot";
import type { CellRecord } from "../data/types";
import { type LoadRow, loadRows, PERCENTILE_TICKS, type PercentilePoint, percentilePoints, percentileX } from "../shape/load";
import { cutSentence, hasBound, leadSentences, modelSentences } from "../shape/underload";
import { h } from "../ui/dom";
import { ms, num, percent } from "../ui/format";
import { plotWidth, section, table } from "./common";

/**
 * A service cell (issues #28, #51): what its numbers mean first — who served the most, who had the lowest p99,
 * under which load model, what the window's end cut — then each variant's latency percentiles, one line per
 * repetition, on the percentile plot HdrHistogram users know (the tail spread out on a log scale of 1 / (1 − p)),
 * and the table of what each variant served, failed and what the load generator did — a generator at its own
 * limit is said, not hidden.
 */
export function underLoad(cell: CellRecord): HTMLElement {
  const rows = loadRows(cell);
  const cut = cutSentence(rows);
  return section(
    "Under load",
    h("p", { class: "load-lead" }, leadSentences(rows).join(" ")),
    h("p", { class: "explain load-model" }, modelSentences(rows).join(" ")),
    cut ? h("p", { class: "banner load-cut", role: "note" }, cut) : null,
    percentiles(percentilePoints(cell)),
    loadTable(rows),
    method(rows),
  );
}

function percentiles(points: PercentilePoint[]): HTMLElement | null {
  const series = [...new Set(points.map((p) => p.series))];
  const width = plotWidth(900);
  return points.length
    ? h(
        "figure",
        { class: "percentiles" },
        h(
          "figcaption",
          { class: "explain" },
          "Latency as the load generator (oha) measured it, one line per repetition — a fresh server JVM each; each step right is ten times rarer, so the tail gets the room.",
        ),
        Plot.plot({
          width,
          height: 320,
          marginLeft: 60,
          marginRight: 30,
          style: { fontSize: "12px", background: "transparent" },
          x: {
            type: "log",
            label: "percentile →",
            ticks: PERCENTILE_TICKS.map((t) => t.x),
            tickFormat: (x: number) => PERCENTILE_TICKS.find((t) => t.x === x)?.label ?? "",
            domain: [percentileX(50), percentileX(100)],
            grid: true,
          },
          y: { type: "log", label: "↑ latency (ms)", grid: true },
          color: { domain: series, legend: true },
          marks: [
            Plot.line(points, {
              x: "x",
              y: "ms",
              z: (p: { series: string; repetition: number }) => `${p.series}#${p.repetition}`,
              stroke: "series",
              strokeWidth: 1.5,
              strokeOpacity: 0.8,
            }),
            Plot.dot(points, {
              x: "x",
              y: "ms",
              fill: "series",
              r: 2.5,
              title: (p: { series: string; repetition: number; percentile: number; ms: number }) =>
                `${p.series}, repetition ${p.repetition}: ${p.percentile >= 100 ? "max" : `p${p.percentile}`} ${ms(p.ms)}`,
            }),
          ],
        }),
      )
    : null;
}

/** Failed requests by kind, "connect 3, timeout 1", or "none". */
export const errorsOf = (e: Record<string, number>) => {
  const parts = Object.entries(e).filter(([, n]) => n > 0);
  return parts.length ? parts.map(([k, n]) => `${k} ${num(n)}`).join(", ") : "none";
};

/** Medians over the repetitions; the bound's column only where some variant has a bound (a built-in service's). */
function loadTable(rows: LoadRow[]): HTMLTableElement {
  const bound = hasBound(rows);
  return table(
    ["variant", "throughput", ...(bound ? ["its bound (share)"] : []), "p50", "p99", "p99.9", "max", "errors", "cut at the window's end", "load generator"],
    rows.map((r) => [
      r.series,
      r.throughput === undefined ? "—" : `${num(r.throughput)} req/s`,
      ...(bound ? [r.bound === undefined ? "—" : `${num(r.bound)} req/s (${percent(r.efficiency)})`] : []),
      r.p50 === undefined ? "—" : ms(r.p50),
      r.p99 === undefined ? "—" : ms(r.p99),
      r.p999 === undefined ? "—" : ms(r.p999),
      r.max === undefined ? "—" : ms(r.max),
      errorsOf(r.errors),
      r.cut === undefined ? "—" : `${num(r.cut)} (${percent(r.cutShare)})`,
      [
        r.generatorCpuShare === undefined
          ? null
          : `${percent(r.generatorCpuShare)} of its ${r.generatorCpus ?? "?"} CPU${r.generatorCpus === 1 ? "" : "s"}`,
        r.askedRate === undefined || r.achievedRate === undefined
          ? null
          : `${num(r.achievedRate)} of ${num(r.askedRate)} req/s asked`,
        r.problem ?? null,
      ]
        .filter((x) => x)
        .join("; "),
    ]),
    { class: "load-table" },
  );
}

function method(rows: LoadRow[]): HTMLElement {
  return h(
    "details",
    { class: "method load-method" },
    h("summary", {}, "How this is computed"),
    h(
      "p",
      {},
      "Each variant ran its repetitions in fresh server JVMs, each measured for the same window after a warmup window. " +
        "The table gives medians over the repetitions; errors are summed. " +
        "“Cut at the window's end” counts the requests still in flight when a repetition's window closed — the generator aborts them, " +
        "so they are neither answers nor errors — as the median over the repetitions, and in brackets the median of their share of the " +
        "requests a repetition sent (answered, failed or cut). " +
        (hasBound(rows) ? "A built-in service's bound is Little's law: min(users, threads) ÷ the handler's time, with the throughput's share of it. " : "") +
        "The percentiles are spread the way HdrHistogram plots them: on a log scale of 1 / (1 − p).",
    ),
  );
}
