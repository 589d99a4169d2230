// Builds DOM from data without ever parsing markup: every string becomes a Text node or an attribute
// value, so a branch name like `<img onerror=…>` (attacker-controlled in pull-request runs) stays text.
// There is deliberately no innerHTML anywhere in the dashboard.

export type Child = Node | string | number | null | undefined | false | Child[];

type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") {
      element.addEventListener(name.replace(/^on/, ""), value);
    } else if (name === "href" && typeof value === "string" && !isSafeHref(value)) {
      throw new Error(`refusing a link to ${value}`);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Only in-page routes and relative data files: never `javascript:` or another origin. */
function isSafeHref(value: string): boolean {
  return value.startsWith("#") || /^data\/[^:]*$/.test(value);
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Text that may wrap only where a reader would break it (issue #31: a table broke "poolSize=50" as
 * "poolSize=5|0"): after the dots, commas and separators of cell ids and benchmark names, never inside a number
 * or a word. The break opportunities are <wbr> elements, so copying the text copies it unchanged.
 */
export function breakable(text: string): Child[] {
  // after a dot or a comma only where no digit follows it: "1.02–1.09" and "4,781 ms" stay whole (issue #54: at
  // 800 px a table broke "4," / "781 ms"), "example.blocking" and "a, b" may break
  const parts = text.split(/(?<=[·/(]|[.,](?!\d))/);
  return parts.flatMap((part, i) => (i === 0 ? [part] : [document.createElement("wbr"), part]));
}

/** Text kept on one line, never broken at its separators (a number, an interval, a change). */
export function whole(text: string): HTMLSpanElement {
  return h("span", { class: "whole" }, text);
}
