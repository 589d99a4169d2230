import { loadAbIndex } from "../data/load";
import type { AbEntry } from "../data/types";
import { type Child, h } from "../ui/dom";
import { date, duration } from "../ui/format";
import { type Context, empty, link, section, table } from "./common";
import { comparedWords } from "../shape/run";

/** Every published run, newest first: the history's table of contents; then the A/B runs, kept apart from it. */
export async function runsView(ctx: Context): Promise<Child[]> {
  const runs = [...ctx.index].reverse();
  const ab = [...(await loadAbIndex()).runs].reverse();
  return [
    h("h1", {}, "Runs", h("span", { class: "subtitle" }, ` · ${runs.length}`)),
    runs.length
      ? table(
          ["started", "run", "status", "trigger", "branch", "commit", "profile", "cells", "duration", "against baseline"],
          runs.map((e) => [
            date(e.startedAt),
            link("matrix", { run: e.runId }, e.runId),
            h("span", { class: `chip status-${e.status}` }, e.status),
            h("span", { class: e.trigger === "pull_request" ? "chip pr" : "chip" }, e.trigger === "pull_request" ? "pull request" : e.trigger),
            e.git.branch,
            e.git.commit.slice(0, 10),
            e.profile ?? "—",
            cellWords(e),
            duration(e.startedAt, e.finishedAt),
            e.compared ? link("compare", { run: e.runId }, comparedWords(e.compared)) : "—",
          ]),
          { id: "runs" },
        )
      : empty("No runs published yet."),
    ab.length
      ? section(
          `A/B runs · ${ab.length}`,
          h(
            "p",
            { class: "explain" },
            "Each a candidate against a baseline measured in back-to-back blocks on one machine (loom-matrix ab), with its own verdict. They are not runs of the matrix: no tile, no point in the history, never a baseline.",
          ),
          table(
            ["started", "A/B run", "candidate vs baseline", "verdict", "trigger", "branch", "commit"],
            ab.map((e) => [
              date(e.startedAt),
              link("ab", { run: e.runId }, e.runId),
              `${e.candidateLabel} vs ${e.baselineLabel}${e.aToA ? " (A/A: the same build)" : ""}`,
              abVerdictWords(e),
              e.trigger === "pull_request" ? "pull request" : e.trigger,
              e.git.branch,
              e.git.commit.slice(0, 10),
            ]),
            { id: "ab-runs" },
          ),
        )
      : null,
  ];
}

/**
 * A run's cells in words: how many of how many measured, failed, and did not run — "10/44 ok" read as a failure
 * when 34 of the 44 were skipped cells (no JDK for them on the host) or invalid ones.
 */
export function cellWords(e: { cells: number; ok: number; failed: number; attested: number }): string {
  const rest = e.cells - e.ok - e.failed;
  return (
    `${e.ok} of ${e.cells} measured` +
    (e.failed ? `, ${e.failed} failed` : "") +
    (rest > 0 ? `, ${rest} skipped or invalid` : "") +
    `; ${e.attested} attested`
  );
}

/** An A/B run's verdict in the index's counts, the one reached first (none is never "no regression"). */
export function abVerdictWords(e: AbEntry): string {
  const unmeasured =
    (e.notMeasured ? `, ${e.notMeasured} cell${e.notMeasured === 1 ? "" : "s"} not measured` : "") +
    (e.notRun ? `, ${e.notRun} cell${e.notRun === 1 ? "" : "s"} not run on this host` : "");
  if (e.regressions) return `${e.regressions} regression${e.regressions === 1 ? "" : "s"} (${e.improvements} improvements, ${e.unchanged} unchanged, ${e.inconclusive} inconclusive${unmeasured})`;
  if (e.inconclusive === e.comparisons) return `no verdict: ${e.inconclusive} of ${e.comparisons} inconclusive${unmeasured}`;
  return `no regression (${e.improvements} improvements, ${e.unchanged} unchanged, ${e.inconclusive} inconclusive${unmeasured})`;
}
