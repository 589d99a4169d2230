import { type Child, h } from "../ui/dom";
import { date, duration } from "../ui/format";
import { type Context, empty, link, table } from "./common";
import { comparedWords } from "../shape/run";

/** Every published run, newest first: the history's table of contents. */
export async function runsView(ctx: Context): Promise<Child[]> {
  const runs = [...ctx.index].reverse();
  if (runs.length === 0) return [h("h1", {}, "Runs"), empty("No runs published yet.")];
  return [
    h("h1", {}, "Runs", h("span", { class: "subtitle" }, ` · ${runs.length}`)),
    table(
      ["started", "run", "trigger", "branch", "commit", "profile", "cells", "duration", "against baseline"],
      runs.map((e) => [
        date(e.startedAt),
        link("matrix", { run: e.runId }, e.runId),
        h("span", { class: e.trigger === "pull_request" ? "chip pr" : "chip" }, e.trigger === "pull_request" ? "pull request" : e.trigger),
        e.git.branch,
        e.git.commit.slice(0, 10),
        e.profile ?? "—",
        `${e.ok}/${e.cells} ok${e.failed ? `, ${e.failed} failed` : ""}, ${e.attested} attested`,
        duration(e.startedAt, e.finishedAt),
        e.compared ? link("compare", { run: e.runId }, comparedWords(e.compared)) : "—",
      ]),
      { id: "runs" },
    ),
  ];
}
