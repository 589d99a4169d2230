import * as Plot from "@observablehq/plot";
import { loadCells, loadRun } from "../data/load";
import { cellIdTitle } from "../shape/cell";
import { coverage, durations, failures, skipped } from "../shape/run";
import { type Child, h } from "../ui/dom";
import { bytes, date, duration } from "../ui/format";
import { type Context, chosenRun, unknownRun, empty, keyValues, link, plotWidth, runPicker, section, table } from "./common";

export async function runView(ctx: Context): Promise<Child[]> {
  const unknown = unknownRun(ctx, "Run");
  if (unknown) return unknown;
  const entry = chosenRun(ctx);
  if (!entry) return [h("h1", {}, "Run"), empty("No runs published yet.")];
  const [manifest, cells] = await Promise.all([loadRun(entry.runId), loadCells(entry.runId)]);
  const cover = coverage(cells);
  const failed = failures(cells);
  const notRun = skipped(cells);
  const times = durations(cells);
  const host = manifest.host;
  return [
    // a run is told apart by when, what and how: five runs of one matrix share everything else (issue #54)
    h(
      "h1",
      {},
      `Run of ${date(manifest.startedAt)}`,
      h("span", { class: "subtitle" }, ` · ${manifest.git.branch} @ ${manifest.git.commit.slice(0, 12)}${manifest.matrix.profile ? ` · profile ${manifest.matrix.profile}` : ""}`),
    ),
    h("p", { class: "cell-id" }, "run ", h("code", {}, manifest.runId)),
    h("form", { class: "controls" }, runPicker(ctx)),
    h(
      "nav",
      { class: "crumbs" },
      link("matrix", { run: entry.runId }, "Matrix"),
      " · ",
      entry.compared ? link("compare", { run: entry.runId }, `Compare with baseline ${entry.compared.baseline}`) : "no baseline to compare with",
    ),
    keyValues([
      ["status", manifest.status],
      ["trigger", manifest.trigger],
      ["branch", manifest.git.branch],
      ["commit", `${manifest.git.commit}${manifest.git.dirty ? " (with uncommitted changes)" : ""}`],
      ["started", date(manifest.startedAt)],
      ["finished", manifest.finishedAt ? date(manifest.finishedAt) : "—"],
      ["duration", duration(manifest.startedAt, manifest.finishedAt)],
      ["matrix", `${manifest.matrix.file} (sha256 ${manifest.matrix.sha256.slice(0, 12)}…)`],
      ["profile", manifest.matrix.profile ?? "none"],
    ]),
    section(
      "Host",
      keyValues([
        ["OS", `${host.os} ${host.kernel}`],
        ["CPU", `${host.cpuModel}, ${host.cpus} CPUs`],
        ["memory", bytes(host.memoryBytes)],
      ]),
      manifest.shards.length
        ? table(
            ["shard", "run", "host", "status"],
            manifest.shards.map((s) => [s.shard, s.runId, `${s.host.os} ${s.host.kernel}, ${s.host.cpuModel}, ${s.host.cpus} CPUs`, s.status]),
            { id: "shards" },
          )
        : null,
    ),
    section(
      "Matrix covered",
      keyValues([
        ["cells", `${cells.length} (${Object.entries(cover.statuses).map(([s, n]) => `${n} ${s}`).join(", ")})`],
        ["attested", `${cover.attested} attested, ${cover.unattested} not attested`],
        ["JDKs", cover.jdks.join(", ")],
        ["workloads", cover.workloads.join(", ")],
      ]),
    ),
    section(
      `Failures (${failed.length})`,
      failed.length
        ? table(
            ["cell", "status", "reason"],
            failed.map((f) => [link("cell", { run: entry.runId, cell: f.cellId }, cellIdTitle(f.cellId)), f.status, f.reason]),
            { id: "failures" },
          )
        : empty(
            manifest.status !== "finished"
              ? `No cell failed of the ${cells.length} that have results; the run ${manifest.status === "running" ? "is still running" : "was interrupted"} with ${Math.max(0, manifest.cells.length - cells.length)} of its ${manifest.cells.length} planned cells not written.`
              : notRun.length
                ? "No cell failed."
                : "Every cell ran.",
          ),
    ),
    notRun.length
      ? section(
          `Skipped (${notRun.length})`,
          h("p", { class: "explain" }, "Not failures: this runner could not run these cells; each reason names what would."),
          table(
            ["cell", "reason"],
            notRun.map((f) => [link("cell", { run: entry.runId, cell: f.cellId }, cellIdTitle(f.cellId)), f.reason]),
            { id: "skipped" },
          ),
        )
      : null,
    section(
      "Where the time went",
      times.length ? timeSentence(times, manifest.startedAt, manifest.finishedAt) : null,
      times.length
        ? h(
            "figure",
            { class: "durations" },
            Plot.plot({
              width: plotWidth(1000),
              height: 40 + Math.min(times.length, 40) * 18,
              marginLeft: Math.min(480, Math.round(plotWidth(1000) * 0.5)),
              style: { fontSize: "11px", background: "transparent" },
              x: { label: "seconds →", grid: true },
              y: { label: null, domain: times.slice(0, 40).map((t) => t.cellId), axis: null },
              marks: [
                // the cells in words, cut in their middle where the margin is too narrow (800 px cut their start)
                Plot.axisY({ tickFormat: (id: string) => cellIdTitle(id), lineWidth: (Math.min(480, Math.round(plotWidth(1000) * 0.5)) - 12) / 11, textOverflow: "ellipsis-middle", tickSize: 0 }),
                Plot.barX(times.slice(0, 40), { x: "seconds", y: "cellId", fill: "var(--accent)", title: (t) => `${cellIdTitle(t.cellId)}: ${t.seconds.toFixed(1)} s (${t.backend})` }),
              ],
            }),
          )
        : empty("No cell recorded its duration."),
    ),
  ];
}

/**
 * What the chart below adds up to, before it: the cells' own time against the run's, so that a reader sees whether
 * the cells or what came between them (builds, image pulls, waiting for the machine) took the run's time.
 */
function timeSentence(times: { seconds: number }[], startedAt: string, finishedAt: string | undefined): HTMLElement {
  const cellSeconds = times.reduce((sum, t) => sum + t.seconds, 0);
  const runSeconds = finishedAt ? (Date.parse(finishedAt) - Date.parse(startedAt)) / 1000 : undefined;
  const cellsWords = duration(new Date(0).toISOString(), new Date(cellSeconds * 1000).toISOString());
  return h(
    "p",
    { class: "explain" },
    `Each bar is one cell's time, from its start to its end, the longest first${times.length > 40 ? " (the 40 longest)" : ""}. ` +
      (runSeconds === undefined
        ? `The ${times.length} cells took ${cellsWords} so far.`
        : `The ${times.length} cells took ${cellsWords} of the run's ${duration(startedAt, finishedAt)}` +
          (runSeconds > cellSeconds * 1.2
            ? "; the rest went between them: building, pulling images, starting containers, waiting for the machine."
            : runSeconds < cellSeconds * 0.9
              ? "; cells ran side by side, so their times add up to more than the run's."
              : "."))
  );
}
