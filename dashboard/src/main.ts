import "./style.css";
import { DataError, loadIndex } from "./data/load";
import type { IndexEntry } from "./data/types";
import { type Child, h, replaceChildren } from "./ui/dom";
import { href, parseRoute, type View } from "./ui/route";
import { type Context, runLabel } from "./views/common";
import { abView } from "./views/ab";
import { cellView } from "./views/cell";
import { compareView } from "./views/compare";
import { historyView } from "./views/history";
import { matrixView } from "./views/matrix";
import { runView } from "./views/run";
import { runsView } from "./views/runs";

// The shell: loads the small index first (first paint never waits for a run's cells), then renders the
// view the URL names. Views load per-run data and per-workload trends lazily.

const VIEWS: Record<View, (ctx: Context) => Promise<Child[]>> = {
  matrix: matrixView,
  cell: cellView,
  history: historyView,
  compare: compareView,
  run: runView,
  runs: runsView,
  ab: abView,
};

const NAV: [View, string][] = [
  ["matrix", "Matrix"],
  ["history", "History"],
  ["compare", "Compare"],
  ["run", "Run"],
  ["runs", "All runs"],
  ["ab", "A/B runs"],
];

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;
const status = document.getElementById("status")!;
let index: IndexEntry[] | undefined;
let rendering = 0;

/**
 * Why a view is drawn: the first load leaves focus where a reader starts (the skip link first); a navigation moves
 * it to the new content, or back to the control the reader changed; a resize keeps it where it was (issue #54: focus
 * jumped past the skip link on every render).
 */
type Reason = "load" | "navigate" | "resize";

async function render(reason: Reason): Promise<void> {
  const ticket = ++rendering;
  const active = document.activeElement;
  const control = active instanceof HTMLElement && main.contains(active) ? active.getAttribute("name") : null;
  const route = parseRoute(location.hash);
  document.documentElement.dataset.ready = "";
  replaceChildren(
    nav,
    NAV.map(([view, text]) => {
      // keep the run across views: the matrix, run and compare views are about the same run
      // (an A/B run's id names no run of the matrix, nor the other way round)
      const params = route.params.run && (view === "ab") === (route.view === "ab") ? { run: route.params.run } : {};
      return h("a", { href: href(view, params), "aria-current": view === route.view ? "page" : undefined }, text);
    }),
  );
  try {
    index ??= (await loadIndex()).runs;
    const newest = index[index.length - 1];
    replaceChildren(status, newest ? `Newest run: ${runLabel(newest)} · ${index.length === 1 ? "1 run" : `${index.length} runs`} in the history` : "No runs yet");
    performance.mark("loom:index");
    const ctx: Context = {
      index,
      params: route.params,
      go: (changes) => {
        location.hash = href(route.view, { ...route.params, ...changes });
      },
    };
    const content = await VIEWS[route.view](ctx);
    if (ticket !== rendering) return; // a newer navigation won
    replaceChildren(main, content);
  } catch (e) {
    if (ticket !== rendering) return;
    const message = e instanceof DataError ? e.message : `Unexpected error: ${(e as Error).message}`;
    replaceChildren(main, h("div", { class: "error", role: "alert" }, h("h1", {}, "Cannot show this view"), h("p", {}, message)));
    console.error(e);
  }
  performance.mark(`loom:view:${route.view}`);
  scrollableTables(main);
  document.documentElement.dataset.ready = route.view;
  const again = control ? main.querySelector<HTMLElement>(`[name="${CSS.escape(control)}"]`) : null;
  if (again) again.focus({ preventScroll: true });
  else if (reason === "navigate") main.focus({ preventScroll: true });
}

/** A table wider than its box scrolls in it: a keyboard reaches it (Tab, then the arrow keys), a screen reader names it. */
function scrollableTables(root: HTMLElement): void {
  for (const table of root.querySelectorAll<HTMLTableElement>("table")) {
    if (table.scrollWidth <= table.clientWidth + 1) continue;
    table.tabIndex = 0;
    const heading = table.closest("section")?.querySelector("h2")?.textContent;
    table.setAttribute("aria-label", `${heading ?? "table"} (scrolls sideways)`);
  }
}

// Light, dark, or the system's choice; remembered on this device.
const themes = ["auto", "light", "dark"] as const;
const themeButton = document.getElementById("theme") as HTMLButtonElement;
function applyTheme(theme: string): void {
  document.documentElement.dataset.theme = theme;
  themeButton.textContent = `Theme: ${theme}`;
}
applyTheme(localStorage.getItem("loom-matrix-theme") ?? "auto");
themeButton.addEventListener("click", () => {
  const next = themes[(themes.indexOf(document.documentElement.dataset.theme as (typeof themes)[number]) + 1) % themes.length];
  localStorage.setItem("loom-matrix-theme", next);
  applyTheme(next);
});

window.addEventListener("hashchange", () => void render("navigate"));
// plots are sized to the room they have when drawn: draw them again when the width changes (not the height)
let drawnWidth = window.innerWidth;
let resizing: number | undefined;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = window.setTimeout(() => {
    if (Math.abs(window.innerWidth - drawnWidth) < 24) return;
    drawnWidth = window.innerWidth;
    void render("resize");
  }, 200);
});
void render("load");
