import type { Conclusions } from "../data/results.schema";
import {
  CLASS_WORDS,
  changeWords,
  classesMeaning,
  conditionName,
  confidenceWords,
  decidingContrast,
  otherWords,
  ruleWords,
  type Since,
  sinceLead,
  STEP_AXIS_WORDS,
  stepWords,
  type Finding,
  type Rule,
  type Step,
  type Workload,
} from "../shape/conclusions";
import { type Child, h } from "../ui/dom";
import { href } from "../ui/route";

// "What this run concludes": the matrix view's first block, above the tiles. Every condition links to its cell,
// every cause to the cell's why panel.

export function conclusionsBlock(runId: string, doc: Conclusions | undefined): HTMLElement {
  if (!doc) {
    return h(
      "section",
      { class: "conclusions", id: "conclusions" },
      h("h2", {}, "What this run concludes"),
      h(
        "p",
        { class: "explain" },
        "This run was published before loom-matrix wrote its conclusions: publish it again to see them here, or run `loom-matrix report` on its directory. The tiles below show its numbers.",
      ),
    );
  }
  return h(
    "section",
    { class: "conclusions", id: "conclusions" },
    h("h2", {}, "What this run concludes"),
    h("p", { class: "explain" }, classesMeaning(doc.thresholdPercent)),
    notRun(doc),
    doc.since ? since(runId, doc.since) : null,
    doc.conclusions.map((w) => workloadBlock(runId, w)),
    method(doc.thresholdPercent),
  );
}

function workloadBlock(runId: string, w: Workload): HTMLElement {
  const byCell = new Map(w.findings.map((f) => [f.cellId, f]));
  const notValid = w.findings.filter((f) => f.conclusion === "not-valid");
  return h(
    "article",
    { class: "conclusion-workload" },
    h("h3", {}, w.workload + (w.benchmark ? ` · ${w.benchmark}` : "")),
    w.contrast ? h("p", { class: "explain" }, `Compared: ${w.contrast}.`) : null,
    h(
      "ul",
      { class: "rules" },
      w.rules.filter((r) => r.conclusion !== "not-valid").map((r) => ruleItem(runId, r, w.findings, byCell)),
    ),
    notValid.length
      ? h(
          "p",
          { class: "not-valid" },
          "Not valid (not counted as evidence): ",
          join(notValid.map((f) => [cellLink(runId, f), ` — ${f.why ?? "no reason recorded"}`])),
        )
      : null,
    steps(runId, w.steps ?? []),
  );
}

function ruleItem(runId: string, rule: Rule, findings: Finding[], byCell: Map<string, Finding>): HTMLElement {
  const cells = rule.cells.map((id) => byCell.get(id)).filter((f): f is Finding => !!f);
  return h(
    "li",
    { class: `rule class-${rule.conclusion}` },
    h("strong", {}, CLASS_WORDS[rule.conclusion]),
    " ",
    ruleWords(rule, findings).slice(CLASS_WORDS[rule.conclusion].length + 1),
    ". ",
    causes(runId, cells),
    // the conditions, each a link with its numbers, folded under the rule's sentence: listed inline, a run's
    // conclusions read as a wall of links (issue #54)
    h(
      "details",
      { class: "conditions" },
      h("summary", {}, cells.length === 1 ? "the condition, with its numbers" : `the ${cells.length} conditions, with their numbers`),
      h("p", {}, join(cells.map((f) => [cellLink(runId, f), ` (${conditionDetail(f)})`]))),
      others(runId, cells),
    ),
  );
}

/** The JDKs this host did not run: the conclusions say nothing of them. */
function notRun(doc: Conclusions): HTMLElement | null {
  const missing = doc.notRun ?? [];
  if (missing.length === 0) return null;
  return h(
    "p",
    { class: "not-run" },
    "Not run on this host, so concluded nowhere below: ",
    missing.map((n) => `${n.jdk} (${n.cells === 1 ? "1 cell" : `${n.cells} cells`}: ${n.why})`).join("; "),
    ".",
  );
}

/** What changed since the run this one is compared with in the history, and what else changed with it. */
function since(runId: string, s: Since): HTMLElement {
  return h(
    "div",
    { class: "since" },
    h(
      "p",
      {},
      h("strong", {}, "Since the run before: "),
      h("a", { href: href("matrix", { run: s.runId }) }, s.startedAt.slice(0, 16).replace("T", " ")),
      s.commits ? ` (commits ${s.commits})` : "",
      ". ",
      sinceLead(s),
    ),
    s.changed.length
      ? h(
          "ul",
          {},
          s.changed.map((c) =>
            h(
              "li",
              { class: `class-${c.change.to}` },
              h("a", { href: href("cell", { run: runId, cell: c.change.cellId }) }, `${c.change.coordinates.workload} · ${c.change.coordinates.jdk}, ${c.change.coordinates.cpus} CPUs`),
              `: ${changeWords(c.change)}`,
              c.alongside.length ? `; with it, ${c.alongside.join(", ")}` : "",
              c.changePoint ? "; its history starts a new level here" : "",
            ),
          ),
        )
      : null,
  );
}

/** Other variants far from the subject, per condition. */
function others(runId: string, cells: Finding[]): HTMLElement | null {
  const far = cells.filter((f) => (f.others ?? []).length > 0);
  if (far.length === 0) return null;
  return h(
    "ul",
    { class: "others" },
    far.map((f) => h("li", {}, "also measured, ", cellLink(runId, f), `: ${(f.others ?? []).map(otherWords).join("; ")}`)),
  );
}

/** "5.75×, 90 % interval 4.4–6.1×" or, for cannot tell, what would decide. */
function conditionDetail(f: Finding): string {
  const c = decidingContrast(f);
  const numbers = c ? `${c.ratio.toPrecision(3)}× over ${c.reference}, ${confidenceWords(c)}` : "";
  return f.conclusion === "cannot-tell" && f.why ? [numbers, f.why].filter(Boolean).join("; ") : numbers;
}

/** The causes under a rule, a cause said alike in several conditions once, each condition linked to its why. */
function causes(runId: string, cells: Finding[]): HTMLElement | null {
  const said = new Map<string, Finding[]>();
  for (const f of cells) {
    for (const c of f.causes ?? []) {
      const key = `${c.variant}: ${c.words}`;
      said.set(key, [...(said.get(key) ?? []), f]);
    }
  }
  if (said.size === 0) return null;
  return h(
    "ul",
    { class: "causes" },
    [...said].map(([words, where]) =>
      h(
        "li",
        {},
        "why, ",
        join(where.map((f) => h("a", { href: href("cell", { run: runId, cell: f.cellId, focus: "why" }) }, conditionName(f)))),
        `: ${words}`,
      ),
    ),
  );
}

function steps(runId: string, all: Step[]): HTMLElement | null {
  if (all.length === 0) return null;
  const groups = new Map<string, Step[]>();
  for (const s of all) groups.set(STEP_AXIS_WORDS[s.axis], [...(groups.get(STEP_AXIS_WORDS[s.axis]) ?? []), s]);
  return h(
    "div",
    { class: "steps" },
    [...groups].map(([title, ss]) =>
      h(
        "details",
        // a few steps are read at once; a long list waits behind its count so the rules stay in view
        ss.length <= 3 ? { open: "" } : {},
        h("summary", {}, h("h4", {}, `The same variant ${title}`), ` (${ss.length === 1 ? "1 comparison" : `${ss.length} comparisons`})`),
        h(
          "ul",
          {},
          ss.map((s) =>
            h(
              "li",
              { class: `class-${s.contrast.conclusion}` },
              stepWords(s),
              " (",
              h("a", { href: href("cell", { run: runId, cell: s.toCell }) }, s.to),
              ", ",
              h("a", { href: href("cell", { run: runId, cell: s.fromCell }) }, s.from),
              ")",
            ),
          ),
        ),
      ),
    ),
  );
}

function method(thresholdPercent: number): HTMLElement {
  return h(
    "details",
    { class: "method" },
    h("summary", {}, "How this is computed"),
    h(
      "p",
      {},
      "Each cell's subject (virtual threads, or the variant its workload's story is about) is compared with every other variant it measured; " +
        "the class rests on the best of them, so a win over a slow pool is not counted as a win over the field. The ratio's interval comes from the " +
        "cell's repetitions (forks); its coverage is said where few repetitions leave it below 90 %. " +
        `A difference whose whole interval lies within ±${thresholdPercent} % is no material difference; one whose interval reaches across that band cannot be told apart. ` +
        "Cells that failed, were disturbed by other work or did not get the CPU limit or scheduler settings they asked for are not evidence. " +
        "The rules are the fewest clauses along the matrix's axes (JDK, CPU limit, scheduler settings) that explain every valid cell's class. " +
        "Causes come only from the cell's own evidence (JFR pinning events, GC time, CPU use against the quota, a pool at its bound); a cause not measured is not claimed.",
    ),
  );
}

function cellLink(runId: string, f: Finding): HTMLElement {
  return h("a", { href: href("cell", { run: runId, cell: f.cellId }) }, conditionName(f));
}

/** Items separated by commas (a list in a sentence). */
function join(items: Child[]): Child[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [", ", item]));
}
