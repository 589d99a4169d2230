import * as Plot from "@observablehq/plot";
import { loadCells, loadRun } from "../data/load";
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
    h("h1", {}, "Run", h("span", { class: "subtitle" }, ` · ${manifest.runId}`)),
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
            failed.map((f) => [link("cell", { run: entry.runId, cell: f.cellId }, f.cellId), f.status, f.reason]),
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
            notRun.map((f) => [link("cell", { run: entry.runId, cell: f.cellId }, f.cellId), f.reason]),
            { id: "skipped" },
          ),
        )
      : null,
    section(
      "Where the time went",
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
              y: { label: null, domain: times.slice(0, 40).map((t) => t.cellId) },
              marks: [
                Plot.barX(times.slice(0, 40), { x: "seconds", y: "cellId", fill: "var(--accent)", title: (t) => `${t.cellId}: ${t.seconds.toFixed(1)} s (${t.backend})` }),
              ],
            }),
          )
        : empty("No cell recorded its duration."),
    ),
  ];
}
