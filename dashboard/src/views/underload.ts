import * as Plot from "@observablehq/plot";
import type { CellRecord } from "../data/types";
import { loadRows, PERCENTILE_TICKS, percentilePoints, percentileX } from "../shape/load";
import { h } from "../ui/dom";
import { ms, num, percent } from "../ui/format";
import { plotWidth, section, table } from "./common";

/**
 * A service cell (issue #28): each variant's latency percentiles, one line per repetition, on the percentile plot
 * HdrHistogram users know (the tail spread out on a log scale of 1 / (1 − p)), and the table of what each variant
 * served, failed and what the load generator did — a generator at its own limit is said, not hidden.
 */
export function underLoad(cell: CellRecord): HTMLElement {
  const points = percentilePoints(cell);
  const rows = loadRows(cell);
  const series = [...new Set(points.map((p) => p.series))];
  const width = plotWidth(900);
  const errorsOf = (e: Record<string, number>) => {
    const parts = Object.entries(e).filter(([, n]) => n > 0);
    return parts.length ? parts.map(([k, n]) => `${k} ${num(n)}`).join(", ") : "none";
  };
  return section(
    "Under load",
    h(
      "p",
      { class: "explain" },
      "Latency as the load generator (oha) measured it, one line per repetition — a fresh server JVM each. " +
        "The percentiles are spread the way HdrHistogram plots them, so the tail gets the room: each step right is " +
        "ten times rarer. In an open model each request's latency runs from when it was due (coordinated omission " +
        "corrected). The table gives medians over the repetitions; errors are summed. A built-in service's bound is " +
        "Little's law: min(users, threads) ÷ the handler's time; a service of your own has none to show.",
    ),
    points.length
      ? h(
          "figure",
          { class: "percentiles" },
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
      : null,
    table(
      ["variant", "throughput", "its bound (share)", "p50", "p99", "p99.9", "max", "errors", "load generator"],
      rows.map((r) => [
        r.series,
        r.throughput === undefined ? "—" : `${num(r.throughput)} req/s`,
        r.bound === undefined ? "—" : `${num(r.bound)} req/s (${percent(r.efficiency)})`,
        r.p50 === undefined ? "—" : ms(r.p50),
        r.p99 === undefined ? "—" : ms(r.p99),
        r.p999 === undefined ? "—" : ms(r.p999),
        r.max === undefined ? "—" : ms(r.max),
        errorsOf(r.errors),
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
    ),
  );
}
