import * as Plot from "@observablehq/plot";
import type { CellRecord } from "../data/types";
import { disturbedFigure, earlierAttempts, telemetry } from "../shape/cell";
import { h } from "../ui/dom";
import { bytes, ms, num } from "../ui/format";
import { keyValues, plotWidth, section, table } from "./common";

export function telemetryTable(cell: CellRecord): HTMLElement {
  return section(
    "Inside the JVM (the timed repetitions, median over them)",
    table(
      ["variant", "carriers used", "pinned events", "pinned time", "pinned at", "GC count", "GC time", "CPU time", "peak RSS"],
      cell.measurements.map(telemetry).map((t) => [
        t.variant,
        num(t.carriers),
        t.pinnedEventsUnavailable
          ? "not available on this VM"
          : t.pinnedEvents === undefined
            ? (cell.profiles ?? []).some((p) => p.jfr)
              ? "not recorded in these runs (the profiling run's JFR counted them: see Why)"
              : "not recorded in these runs"
            : num(t.pinnedEvents),
        t.pinnedMs === undefined ? "—" : ms(t.pinnedMs),
        t.pinnedAt ?? "—",
        num(t.gcCount),
        ms(t.gcMs),
        ms(t.cpuMs),
        bytes(t.peakRssBytes),
      ]),
      { class: "telemetry" },
    ),
  );
}

export function environmentBlock(cell: CellRecord): HTMLElement {
  const env = cell.environment!;
  return section(
    "Environment and attestation",
    h(
      "p",
      { class: env.attested ? "attested" : "not-attested" },
      env.attested
        ? "Attested: every requested limit and setting below was observed from inside the JVM."
        : "Not attested: at least one requested limit or setting was not what the JVM observed.",
    ),
    table(
      ["setting", "requested", "observed", "", "note"],
      env.attestation.map((check) => [check.setting, check.requested, check.observed, check.ok ? "✓" : "✕ differs", check.note ?? ""]),
      { class: "attestation" },
    ),
    keyValues([
      ["available processors", String(env.availableProcessors)],
      ["scheduler", Object.entries(env.scheduler).map(([k, v]) => `${k} ${String(v)}`).join(", ")],
      ["VM", Object.values(env.vm).join(" · ")],
      ["Java", env.javaVersion],
      ["GC", env.gc.join(", ")],
      ["image", env.image ? `${env.image}${env.imageDigest ? ` (${env.imageDigest})` : ""}` : undefined],
      ["limits", Object.entries(env.limits).map(([k, v]) => `${k} ${String(v)}`).join(", ")],
      ["JAVA_TOOL_OPTIONS", env.javaToolOptions === undefined ? "(image's)" : env.javaToolOptions || "(empty)"],
      ["JVM arguments", (env.inputArguments ?? []).join(" ")],
    ]),
    env.javaVersionOutput ? h("pre", { class: "java-version" }, env.javaVersionOutput) : null,
  );
}

export function executionBlock(cell: CellRecord): HTMLElement | null {
  const e = cell.execution;
  if (!e) return null;
  // a skipped cell ran nothing: its duration and variant order would read as if it had
  if (cell.status === "skipped") {
    return section(
      "Execution",
      h("p", { class: "explain" }, `Not run: the ${e.backend} backend skipped it (why is above), so nothing was measured.`),
    );
  }
  return section(
    "Execution",
    keyValues([
      ["backend", `${e.backend} (${e.driver})`],
      ["started", startedWords(e.startedAt)],
      ["duration", ms(e.durationMs)],
      ["variant order", e.variantOrder.join(", ")],
      ["fallback", e.fallbackReason],
      ["ran beside", e.parallel ? `on CPUs ${e.parallel.cpuset} beside ${e.parallel.ranBeside.join(", ") || "nothing"}` : "alone"],
      ["earlier attempts", earlierAttempts(cell) ?? "none"],
      // issue #32: what its JVMs left running, killed when it ended (a container's end ends everything anyway)
      ["left running", e.leftBehind?.length ? `${e.leftBehind.length} process${e.leftBehind.length === 1 ? "" : "es"}, killed when the cell ended: ${e.leftBehind.join("; ")}` : "nothing"],
    ]),
  );
}

/**
 * Issue #32: what else the host did while the cell ran, read from the host — CPUs of other work over time, against
 * the threshold from which the cell is flagged — beside the numbers it may have moved.
 */
export function interferenceBlock(cell: CellRecord): HTMLElement | null {
  const i = cell.execution?.interference;
  // a skipped cell was not measured (an older run's record may still carry a reading of its few milliseconds)
  if (!i || cell.status === "skipped") return null;
  const points = i.series.map((p) => ({ s: p.ms / 1000, cpus: p.otherCpus }));
  const figures: [string, string][] = [
    ["other work", `${num(i.otherCpusMean, 2)} CPUs on average, at most ${num(i.otherCpusMax, 2)} (${i.series.length} samples, every ${i.everyMs} ms)`],
    ["steal", i.stealCpusMean === undefined ? "not said by this host" : `${num(i.stealCpusMean, 2)} CPUs on average`],
    ["throttled", i.throttledMs === undefined ? "not said by this backend" : `${ms(i.throttledMs)} (the cell's own CPU quota held it back)`],
    ["CPU pressure", i.cpuPressureMean === undefined ? "this kernel has no PSI" : `${num(i.cpuPressureMean, 2)} % (some, avg10, on average; the cell's own waiting included)`],
    ["CPU clock", i.cpuMhz === undefined ? "not said by this host" : `${num(i.cpuMhz.mean, 0)} MHz on average over the CPUs and the cell (${num(i.cpuMhz.min, 0)}–${num(i.cpuMhz.max, 0)})`],
    ["read from", i.source],
  ];
  if (i.unavailable?.length) figures.push(["not known", i.unavailable.join("; ")]);
  return section(
    "Other work on the host",
    disturbedFigure(cell)
      ? h("p", { class: "banner disturbed", role: "note" }, `Disturbed: ${disturbedFigure(cell)}. Its numbers are kept, and may be slower or noisier than a quiet host's.`)
      : h("p", { class: "explain" }, `Quiet: other work stayed below ${num(i.thresholdCpus, 2)} CPUs on average, the level from which a cell is flagged.`),
    keyValues(figures),
    points.length > 1
      ? h(
          "figure",
          { class: "interference" },
          Plot.plot({
            width: plotWidth(700),
            height: 160,
            marginLeft: 50,
            style: { fontSize: "12px", background: "transparent" },
            x: { label: "s into the cell →", grid: true },
            y: { label: "↑ CPUs of other work", domain: [0, Math.max(2 * i.thresholdCpus, ...points.map((p) => p.cpus)) * 1.1], grid: true },
            marks: [
              Plot.ruleY([i.thresholdCpus], { stroke: "var(--warn)", strokeDasharray: "4,2" }),
              Plot.lineY(points, { x: "s", y: "cpus", stroke: "var(--accent)" }),
              Plot.dot(points, { x: "s", y: "cpus", r: 2, fill: "var(--accent)", title: (p: { s: number; cpus: number }) => `${num(p.s, 2)} s: ${num(p.cpus, 2)} CPUs of other work` }),
            ],
          }),
          h("figcaption", {}, "CPUs used outside the cell and this runner, each sample over the interval before it; the dashed line is where a cell is flagged disturbed"),
        )
      : null,
  );
}

/** "2026-11-28 10:58:07 UTC": a reader's time, to the second (the record's is an ISO instant, to the nanosecond). */
export function startedWords(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
