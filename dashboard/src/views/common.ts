import type { IndexEntry } from "../data/types";
import type { Phase } from "../shape/phase";
import { breakable, h } from "../ui/dom";
import { href, type View } from "../ui/route";
import { date } from "../ui/format";

// Pieces every view uses: pickers that write the URL, and run labels.

export interface Context {
  index: IndexEntry[];
  params: Record<string, string>;
  /** Replaces some parameters of the current view's URL (a new history entry, so Back works). */
  go: (params: Record<string, string | undefined>) => void;
}

export function phaseOf(ctx: Context): Phase {
  return ctx.params.phase === "cold-start" ? "cold-start" : "steady";
}

export function phasePicker(ctx: Context): HTMLLabelElement {
  return select(
    "Phase",
    "phase",
    [
      { value: "steady", text: "steady state (warm iterations)" },
      { value: "cold-start", text: "cold start (first iteration)" },
    ],
    phaseOf(ctx),
    (p) => ctx.go({ phase: p === "steady" ? undefined : p }),
  );
}

/**
 * A plot's width: the width it wants, or the room its container has when that is less (issue #19: a fixed
 * 900 px plot hid a variant behind an unmarked scroll at 800 px). Plots are drawn when a view renders; the
 * shell renders again when the window's width changes.
 */
export function plotWidth(preferred: number, minimum = 280): number {
  const main = document.getElementById("main");
  if (!main) return preferred;
  const style = getComputedStyle(main);
  const room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Math.max(minimum, Math.min(preferred, Math.floor(room)));
}

/**
 * What a view says when its URL names a workload, cell, variant, JDK or OS the data does not have (issue #19:
 * no silent fallbacks): which one, what is shown instead, and that the pickers above offer what there is.
 */
export function unknownParams(
  ctx: Context,
  checks: { param: string; what: string; known: readonly string[]; instead: string }[],
): HTMLElement | null {
  const lines = checks.flatMap((c) => {
    const value = ctx.params[c.param];
    return value && !c.known.includes(value) ? [`no ${c.what} “${value}” (showing ${c.instead})`] : [];
  });
  if (!lines.length) return null;
  return h("p", { class: "banner unknown-param", role: "alert" }, `This URL names ${lines.join("; ")}. Pick one above.`);
}

export function runLabel(e: IndexEntry): string {
  const pr = e.trigger === "pull_request" ? "PR · " : "";
  return `${date(e.startedAt)} · ${pr}${e.git.branch} @ ${e.git.commit.slice(0, 7)} · ${e.profile ?? "no profile"}`;
}

/** The run the URL names, else (when it names none) the newest run; a run it names that is not here: none. */
export function chosenRun(ctx: Context): IndexEntry | undefined {
  const id = ctx.params.run;
  return id ? ctx.index.find((e) => e.runId === id) : ctx.index[ctx.index.length - 1];
}

/**
 * What a view shows when its URL names a run this site does not have (a typo, or a run `publish --keep`
 * dropped): that, and a picker — never the newest run in its place, silently (issue #19).
 */
export function unknownRun(ctx: Context, title: string): HTMLElement[] | null {
  const id = ctx.params.run;
  if (!id || ctx.index.some((e) => e.runId === id)) return null;
  return [
    h("h1", {}, title),
    h(
      "p",
      { class: "banner unknown-run", role: "alert" },
      `This site has no run ${id}: it may have been mistyped, or dropped from the history (publish --keep). Pick a run:`,
    ),
    h("form", { class: "controls" }, runPicker(ctx)),
  ];
}

export function select(
  label: string,
  name: string,
  options: { value: string; text: string }[],
  value: string | undefined,
  onChange: (value: string) => void,
): HTMLLabelElement {
  const control = h(
    "select",
    { name, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
    options.map((o) => h("option", { value: o.value, selected: o.value === value }, o.text)),
  );
  return h("label", { class: "control" }, h("span", {}, label), control);
}

export function runPicker(ctx: Context, runs: IndexEntry[] = ctx.index): HTMLLabelElement {
  const current = chosenRun(ctx)?.runId;
  return select(
    "Run",
    "run",
    [
      // no run chosen (the URL named one this site lacks): a prompt, so that picking any run is a change
      ...(current ? [] : [{ value: "", text: "— pick a run —" }]),
      ...[...runs].reverse().map((e) => ({ value: e.runId, text: runLabel(e) })),
    ],
    current ?? "",
    // a baseline picked for another run is not one of this run's
    (run) => ctx.go({ run, baseline: undefined }),
  );
}

export function link(view: View, params: Record<string, string | undefined>, ...text: string[]): HTMLAnchorElement {
  return h("a", { href: href(view, params) }, ...text.map(breakable));
}

export function section(title: string, ...children: (Node | string | null | undefined | false)[]): HTMLElement {
  return h("section", {}, h("h2", {}, title), ...children);
}

/**
 * A table of rows under their headers; a column empty in every row ("—" throughout: a service has no cold start
 * and no lower bound) is left out, so that a reader is not asked to scan it (the first, the row's name, stays).
 */
export function table(headers: string[], rows: (Node | string)[][], attributes: Record<string, string> = {}): HTMLTableElement {
  const kept = headers.map((_, k) => k === 0 || rows.length === 0 || rows.some((r) => r[k] !== "—"));
  if (kept.includes(false)) {
    headers = headers.filter((_, k) => kept[k]);
    rows = rows.map((r) => r.filter((_, k) => kept[k]));
  }
  return h(
    "table",
    attributes,
    h("thead", {}, h("tr", {}, headers.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, typeof c === "string" ? breakable(c) : c))))),
  );
}

export function keyValues(pairs: [string, Node | string | number | undefined][]): HTMLDListElement {
  return h(
    "dl",
    { class: "kv" },
    pairs.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v === undefined ? "—" : v)]),
  );
}

export function empty(text: string): HTMLParagraphElement {
  return h("p", { class: "empty" }, text);
}

/**
 * How a page's numbers are computed, folded under its numbers (issue #54: the tests, the corrections and the
 * estimators stood inline, between a reader and the verdicts): one paragraph each.
 */
export function methodFold(...paragraphs: string[]): HTMLDetailsElement {
  return h("details", { class: "method" }, h("summary", {}, "How this is computed"), paragraphs.map((p) => h("p", {}, p)));
}
