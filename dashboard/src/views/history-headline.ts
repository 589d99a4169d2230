import * as Plot from "@observablehq/plot";
import type { HeadlineTrend } from "../data/types";
import type { HistoryPoint } from "../shape/history";
import { h } from "../ui/dom";
import { date, num, ratio, utcTicks } from "../ui/format";
import { plotWidth } from "./common";

/** The most cells whose headlines one chart draws. */
const MAX_LINES = 8;

/**
 * The headline over the runs (issue #54): each cell's headline — the number its matrix tile shows — as one line, so
 * that "is virtual still ahead, and by how much?" is read off one chart instead of by dividing two variants' lines.
 * A speedup is drawn against the line at 1 (above it, the subject is ahead); an efficiency against 100 %.
 */
export function headlineChart({ points, kind, words }: { points: HistoryPoint[]; kind?: HeadlineTrend["kind"]; words?: string }): HTMLElement | null {
  if (!points.length || !kind) return null;
  const lines = new Set(points.map((p) => p.variant)).size;
  // beyond a handful, lines in one chart are a tangle no legend unpicks: the page asks for a narrower view
  if (lines > MAX_LINES) {
    return h(
      "figure",
      { class: "headline-history", "aria-label": "The headline over the runs" },
      h("h2", {}, "The headline over the runs"),
      h("p", { class: "explain" }, `${lines} cells in this view: choose a cell above to draw its headline over the runs (at most ${MAX_LINES} cells a chart).`),
    );
  }
  const speedup = kind === "speedup";
  const value = (v: number) => (speedup ? ratio(v) : `${num(v * 100)} %`);
  const tip = (p: HistoryPoint) =>
    `${date(p.date.toISOString())}\n${p.variant}\n${value(p.median)}` +
    (p.ci ? ` (interval ${value(p.ci[0])}–${value(p.ci[1])})` : "") +
    `\n${p.trigger} · ${p.branch} @ ${p.commit}${p.changePoint ? "\nchange point: a new level starts here" : ""}` +
    (p.disturbed ? `\nDISTURBED: ${p.disturbed}` : "");
  const times = points.map((p) => p.date.getTime());
  const span = Math.max(...times) - Math.min(...times);
  const pad = span > 0 ? span * 0.03 : 12 * 3600_000;
  const width = plotWidth(1000);
  const scheduled = points.filter((p) => !p.pullRequest);
  // a year of nightly runs is hundreds of points a line: then the line carries them, a pointer tip reads any run,
  // and only change points and pull requests get a mark (as in the variants' panels)
  const dense = scheduled.length / lines > 60;
  const values = points.flatMap((p) => (p.ci ? [p.median, ...p.ci] : [p.median]));
  const even = 1;
  const lo = Math.min(even, ...values);
  const hi = Math.max(even, ...values);
  return h(
    "figure",
    { class: "headline-history", "aria-label": "The headline over the runs" },
    h("h2", {}, "The headline over the runs"),
    h(
      "p",
      { class: "explain" },
      `${words ?? "The headline"}: ${
        speedup
          ? "one line per cell, its speedup run by run; above the line at 1×, the first of the two named is ahead, below it behind."
          : "one line per cell, its efficiency against its own bound run by run (100 % is the bound)."
      } The band is each run's interval; a red rule marks where a new level starts.`,
    ),
    Plot.plot({
      width,
      height: 220,
      marginLeft: 64,
      marginRight: 20,
      style: { fontSize: "12px", background: "transparent" },
      // the cells by name in a legend (their lines end close together, where names at the ends collided), in a
      // palette of their own: the variants' colours below mean variants, and keep meaning them
      color: { legend: true, label: "cell", domain: [...new Set(points.map((p) => p.variant))], scheme: "Dark2" },
      x: { type: "utc", domain: [new Date(Math.min(...times) - pad), new Date(Math.max(...times) + pad)], label: null, ticks: Math.max(2, Math.floor(width / 140)), tickFormat: utcTicks(span) },
      y: {
        // a speedup of 4× and one of ¼× are as far from even: a log scale when the lines lie far apart
        type: speedup && lo > 0 && hi / lo > 4 ? "log" : "linear",
        domain: [lo / 1.05, hi * 1.05],
        label: speedup ? "↑ speedup (×)" : "↑ efficiency",
        tickFormat: speedup ? (v: number) => `${num(v)}×` : (v: number) => `${Math.round(v * 100)} %`,
        grid: true,
        ticks: 5,
      },
      marks: [
        Plot.ruleY([even], { stroke: "var(--fg)", strokeOpacity: 0.6 }),
        Plot.areaY(scheduled.filter((p) => p.ci), { x: "date", y1: (p: HistoryPoint) => p.ci![0], y2: (p: HistoryPoint) => p.ci![1], z: "variant", fill: "variant", fillOpacity: 0.15 }),
        Plot.ruleX(points.filter((p) => p.changePoint), { x: "date", stroke: "var(--bad)", strokeWidth: 2, strokeOpacity: 0.8 }),
        Plot.lineY(scheduled, { x: "date", y: "median", z: "variant", stroke: "variant", strokeWidth: 1.5 }),
        Plot.dot(dense ? points.filter((p) => p.changePoint || p.pullRequest) : points, { x: "date", y: "median", fill: "variant", symbol: (p: HistoryPoint) => (p.pullRequest ? "diamond" : "circle"), r: 3, title: tip }),
        dense ? Plot.tip(scheduled, Plot.pointerX({ x: "date", y: "median", title: tip })) : null,
      ],
    }),
  );
}
