// The dashboard's state lives in the URL's hash (`#/<view>?key=value…`), so every view, run, workload,
// cell and filter is a link that can be shared, bookmarked and opened on any static host — the hash never
// reaches the server, so no rewrite rule is needed under a sub-path.

export const VIEWS = ["matrix", "cell", "history", "compare", "run", "runs", "ab"] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  params: Record<string, string>;
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, "");
  const [path, query = ""] = splitOnce(text, "?");
  const view = (VIEWS as readonly string[]).includes(path) ? (path as View) : "matrix";
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (value !== "") params[key] = value;
  }
  return { view, params };
}

export function href(view: View, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value !== undefined && value !== "") query.set(key, value);
  }
  const q = query.toString();
  return `#/${view}${q ? `?${q}` : ""}`;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}
