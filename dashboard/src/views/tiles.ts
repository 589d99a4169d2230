import * as Plot from "@observablehq/plot";
import type { Conclusion } from "../data/results.schema";
import { CLASS_WORDS, tileLines, type TileConclusion } from "../shape/conclusions";
import { describe, type Tile } from "../shape/matrix";
import { h } from "../ui/dom";

// The matrix's tiles coloured by their cell's conclusion (issue #51), not by "ratio above 1": a win inside the
// practical band is no difference (neutral, never coloured as a win), cannot tell is hatched, not valid is grey
// with its reason. The class is said in words on every tile, so colour never carries it alone.

/** Fill and text per class: the two coloured classes carry white text (AA contrast: 6.2:1 on blue, 6.0:1 on red). */
export const CLASS_STYLE: Record<Conclusion, { fill: string; text: string; halo: string; dash?: string }> = {
  "pays-off": { fill: "#2166ac", text: "#ffffff", halo: "rgba(0, 0, 0, 0.45)" },
  hurts: { fill: "#b2182b", text: "#ffffff", halo: "rgba(0, 0, 0, 0.45)" },
  "no-difference": { fill: "var(--no-difference)", text: "var(--tile-text-neutral)", halo: "var(--tile-halo-neutral)" },
  "cannot-tell": { fill: "url(#cannot-tell-hatch)", text: "var(--tile-text-neutral)", halo: "var(--tile-halo-neutral)", dash: "3,2" },
  "not-valid": { fill: "var(--na)", text: "var(--tile-text-neutral)", halo: "var(--tile-halo-neutral)" },
};

/** The sentence above classed tiles: what the colours mean, before any number. */
export const CLASSED_EXPLANATION =
  "Colour: each tile's conclusion — pays off (blue), no difference (neutral), hurts (red), cannot tell (hatched), not valid (grey) — judged against the best alternative the cell measured, with the ratio the class rests on and how sure it is in words. Each workload's headline contrast:";

const CLASSES = Object.keys(CLASS_STYLE) as Conclusion[];

/** A tile's label when classed: the class, the deciding ratio and how sure, what it is against (the caller adds the marks). */
export function classedLabel(t: Tile, c: TileConclusion | undefined): string {
  return c ? tileLines(c, t.against).join("\n") : "no conclusion";
}

/** The tile's full words: the class and its evidence first, then what the tile's numbers are. */
export function classedTitle(t: Tile, c: TileConclusion | undefined): string {
  if (!c) return describe(t);
  return `${t.cellId}: ${c.words} — ${c.detail}${c.overBest ? ` (the class rests on the contrast ${c.overBest})` : ""}. ${describe(t)}`;
}

type Render = (data: Tile[]) => Plot.RenderFunction;

/** One cell mark per class (tiles the document has no finding for: neutral, "no conclusion"). */
export function classedMarks(
  tiles: Tile[],
  classes: Map<string, TileConclusion>,
  place: Plot.CellOptions,
  interactive: Render,
): Plot.Markish[] {
  const of = (k: Conclusion | undefined) => tiles.filter((t) => classes.get(t.cellId)?.conclusion === k);
  const marks: Plot.Markish[] = [hatch()];
  for (const k of [...CLASSES, undefined]) {
    const data = of(k);
    if (!data.length) continue;
    const style = k ? CLASS_STYLE[k] : CLASS_STYLE["not-valid"];
    marks.push(
      Plot.cell(data, {
        ...place,
        fill: style.fill,
        stroke: k === "cannot-tell" ? "var(--muted)" : "var(--grid)",
        strokeDasharray: style.dash,
        inset: 1.5,
        title: (t: Tile) => classedTitle(t, classes.get(t.cellId)),
        render: interactive(data),
      }),
    );
  }
  return marks;
}

export function classedText(tiles: Tile[], classes: Map<string, TileConclusion>, place: Plot.TextOptions): Plot.Markish {
  const style = (t: Tile) => CLASS_STYLE[classes.get(t.cellId)?.conclusion ?? "not-valid"];
  return Plot.text(tiles, {
    ...place,
    fill: (t: Tile) => style(t).text,
    stroke: (t: Tile) => style(t).halo,
    strokeWidth: 3,
    paintOrder: "stroke",
    lineHeight: 1.15,
    pointerEvents: "none",
  });
}

/** The hatch pattern "cannot tell" tiles are filled with, defined once in the plot's SVG. */
function hatch(): Plot.Markish {
  return () => {
    const ns = "http://www.w3.org/2000/svg";
    const defs = document.createElementNS(ns, "defs");
    const pattern = document.createElementNS(ns, "pattern");
    pattern.setAttribute("id", "cannot-tell-hatch");
    pattern.setAttribute("patternUnits", "userSpaceOnUse");
    pattern.setAttribute("width", "8");
    pattern.setAttribute("height", "8");
    pattern.setAttribute("patternTransform", "rotate(45)");
    const bg = document.createElementNS(ns, "rect");
    bg.setAttribute("width", "8");
    bg.setAttribute("height", "8");
    bg.setAttribute("fill", "var(--unclear)");
    const line = document.createElementNS(ns, "rect");
    line.setAttribute("width", "2");
    line.setAttribute("height", "8");
    line.setAttribute("fill", "var(--hatch)");
    pattern.append(bg, line);
    defs.append(pattern);
    return defs;
  };
}

/** The classes' legend: a swatch and the words, the same words the tiles carry. */
export function classLegend(present: Set<Conclusion>): HTMLElement {
  const meaning: Record<Conclusion, string> = {
    "pays-off": "the whole interval beyond the band in the subject's favour",
    "no-difference": "the whole interval within the band: no material difference (never coloured as a win)",
    hurts: "the whole interval beyond the band against the subject",
    "cannot-tell": "the interval reaches across the band: these repetitions cannot tell (hatched)",
    "not-valid": "failed, disturbed or not attested: not evidence (grey, the reason on the tile)",
  };
  return h(
    "ul",
    { class: "class-legend" },
    CLASSES.map((k) =>
      h(
        "li",
        { class: present.has(k) ? "present" : "absent" },
        h("span", { class: `swatch swatch-${k}`, "aria-hidden": "true" }),
        h("strong", {}, CLASS_WORDS[k]),
        `: ${meaning[k]}`,
      ),
    ),
  );
}
