import * as Plot from "@observablehq/plot";
import type { CellRecord } from "../data/types";
import { type CellProfile, cpuDifferential, engineWords, FEW_SAMPLES, whyRows } from "../shape/cell";
import { variantScale } from "../ui/colours";
import { h } from "../ui/dom";
import { ms } from "../ui/format";
import { plotWidth, table } from "./common";

/**
 * Why the numbers are what they are (issue #20): each variant's profiling run — one more JVM after its timed
 * ones, with JFR on — side by side, its longest pins and its hottest methods listed, the recording downloadable
 * where publish kept it.
 */
export function whyPanel(cell: CellRecord, runId: string, kept: boolean, recordings: boolean): HTMLElement {
  const { variants, rows } = whyRows(cell);
  const profiles = cell.profiles ?? [];
  const frames = (title: string, pick: (p: CellProfile) => { frame: string; count: number; totalMs?: number }[], total?: (p: CellProfile) => number) =>
    h(
      "div",
      { class: "why-frames" },
      h("h3", {}, title),
      ...profiles.map((p) => {
        const list = pick(p);
        return h(
          "div",
          {},
          h("strong", {}, p.variant),
          list.length
            ? h(
                "ol",
                {},
                list.map((f) =>
                  h(
                    "li",
                    {},
                    h("code", {}, f.frame),
                    ` ×${f.count}` +
                      // a share only of enough samples (issue #31): of a handful, the count and the total say it
                      (f.totalMs !== undefined
                        ? `, ${ms(f.totalMs)}`
                        : total
                          ? total(p) >= FEW_SAMPLES
                            ? ` (${Math.round((f.count / total(p)) * 100)} %)`
                            : ` of ${total(p)} samples`
                          : ""),
                  ),
                ),
              )
            : h("p", { class: "empty" }, p.jfr ? "none" : (p.unavailable ?? "no profile")),
        );
      }),
    );
  return h(
    "section",
    { class: "why", id: "why", "aria-label": "Why" },
    h("h2", {}, "Why: what the JVM did in each variant"),
    h(
      "p",
      { class: "explain" },
      "From one more JVM per variant after its timed repetitions (never among the samples above), recording with JFR: HotSpot's profile settings, every virtual-thread pin whatever its length. A frame is the first outside the JDK; pins and contention are listed longest first, CPU samples by how often the method was on top (samples taken in the profilers' own code, JFR's or async-profiler's, are left out: they are not the workload's).",
    ),
    table(["", ...variants], rows.map((r) => [r.label, ...r.values]), { class: "why-table" }),
    frames("Pinned at", (p) => p.jfr?.pinnedFrames ?? []),
    frames("Where the CPU went", (p) => p.flame?.cpuFrames ?? p.jfr?.cpuFrames ?? [], (p) => p.flame?.cpuSamples ?? p.jfr?.cpuSamples ?? 0),
    cpuOverTime(cell),
    differential(cell),
    profiles.some((p) => p.flame) ? flameGraphs(cell, runId, kept) : null,
    !profiles.some((p) => p.file)
      ? null
      : recordings
      ? h(
          "p",
          { class: "explain recordings" },
          "Recordings: ",
          ...profiles.flatMap((p, k) => [
            k ? " · " : "",
            p.file
              ? h("a", { href: profileHref(runId, cell.cellId, p.file), download: `${cell.cellId}.${p.file}` }, `${p.variant} (.jfr)`)
              : `${p.variant}: none`,
          ]),
          " — open them in JDK Mission Control, or read them with `jfr print`.",
        )
      : h(
          "p",
          { class: "explain recordings" },
          "The JFR recordings are in the run's raw output (raw/<cell>/<variant>.profile.jfr); publish --publish-recordings puts the newest runs' here too.",
        ),
  );
}

/** The JVM's CPU load over each variant's profiling run (JFR, every 100 ms): carriers busy, idle or starved. */
function cpuOverTime(cell: CellRecord): HTMLElement | null {
  const points = (cell.profiles ?? []).flatMap((p) => (p.jfr?.cpuLoad ?? []).map((l) => ({ variant: p.variant, ms: l.ms, jvm: l.jvm, machine: l.machine })));
  if (points.length < 2) return null;
  return h(
    "figure",
    { class: "cpu-over-time" },
    h("h3", {}, "CPU load over the profiling run"),
    Plot.plot({
      width: plotWidth(700),
      height: 180,
      marginLeft: 50,
      style: { fontSize: "12px", background: "transparent" },
      x: { label: "ms into the run →", grid: true },
      y: { label: "↑ JVM CPU (of the machine)", domain: [0, 1], tickFormat: "%", grid: true },
      color: { legend: true, label: "variant", ...variantScale([...new Set(points.map((p) => p.variant))]) },
      marks: [
        Plot.lineY(points, { x: "ms", y: "jvm", stroke: "variant", strokeWidth: 1.5 }),
        Plot.dot(points, { x: "ms", y: "jvm", fill: "variant", r: 2, title: (d: { variant: string; ms: number; jvm: number; machine: number }) => `${d.variant} at ${Math.round(d.ms)} ms: JVM ${Math.round(d.jvm * 100)} %, machine ${Math.round(d.machine * 100)} %` }),
      ],
    }),
  );
}

/** Where the CPU went, one variant against the other: each method's share of its samples, the largest differences first. */
function differential(cell: CellRecord): HTMLElement | null {
  const d = cpuDifferential(cell);
  if (!d) return null;
  const pct = (v?: number) => (v === undefined ? "—" : `${Math.round(v * 100)} %`);
  // shares of a handful of samples differ by chance alone: then no table of percentages to read a difference into
  const few = Math.min(...d.samples) < FEW_SAMPLES;
  return h(
    "div",
    { class: "why-differential" },
    h("h3", {}, `Where the CPU went: ${d.subject} against ${d.reference}`),
    h(
      "p",
      { class: "explain" },
      few
        ? `Not compared: ${d.samples[0]} and ${d.samples[1]} CPU samples are too few to tell a method's share within a few points (a run this short is mostly waiting; its CPU says little). The methods sampled are listed above, with their counts.`
        : `Each method's share of its variant's CPU samples (the methods on top of a sample), the largest differences first, from ${d.samples[0]} and ${d.samples[1]} samples.` +
            " Both sides list their 8 hottest methods, so “—” means under that side's eighth.",
    ),
    few
      ? null
      : table(
          ["method", d.subject, d.reference, "difference (points)"],
          d.rows.map((r) => [h("code", {}, r.frame), pct(r.subject), pct(r.reference), `${r.difference >= 0 ? "+" : "−"}${Math.abs(Math.round(r.difference * 100))}`]),
          { class: "cpu-differential" },
        ),
  );
}

/**
 * async-profiler's flame graphs, side by side: its own interactive pages (made by its converter at run time), each
 * variant's CPU graph framed here and both graphs a click away.
 */
function flameGraphs(cell: CellRecord, runId: string, kept: boolean): HTMLElement {
  const profiles = cell.profiles ?? [];
  return h(
    "div",
    { class: "flame-graphs" },
    h("h3", {}, "Flame graphs"),
    kept
      ? null
      : h("p", { class: "explain" }, "This site no longer keeps this run's flame graphs (publish --keep-profiles keeps the newest runs')."),
    h(
      "div",
      { class: "flames" },
      ...profiles.map((p) =>
        h(
          "figure",
          { class: "flame" },
          h(
            "figcaption",
            {},
            h("strong", {}, p.variant),
            p.flame
              ? [
                  ` — ${p.flame.cpuSamples} CPU samples (${engineWords(p.flame.engine)}) · `,
                  kept ? h("a", { href: profileHref(runId, cell.cellId, p.flame.cpu), target: "_blank", rel: "noopener" }, "CPU") : "CPU",
                  " · ",
                  kept ? h("a", { href: profileHref(runId, cell.cellId, p.flame.wall), target: "_blank", rel: "noopener" }, "wall clock") : "wall clock",
                ]
              : ` — ${p.flameUnavailable ?? "none"}`,
          ),
          p.flame && kept
            ? h("iframe", {
                src: profileHref(runId, cell.cellId, p.flame.cpu),
                title: `CPU flame graph of ${p.variant}`,
                // async-profiler's page runs its own script: in an opaque origin, away from the dashboard
                sandbox: "allow-scripts",
                class: "flame-frame",
              })
            : null,
        ),
      ),
    ),
  );
}

/** Where publish puts a cell's recordings: data/runs/<run>/profiles/<cell>/<file>. */
function profileHref(runId: string, cellId: string, file: string): string {
  return `data/runs/${encodeURIComponent(runId)}/profiles/${encodeURIComponent(cellId)}/${encodeURIComponent(file)}`;
}
