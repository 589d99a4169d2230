import type { Conclusions } from "./results.schema";
import type { AbIndex, CellRecord, CompareReport, Regressions, RunManifest, SiteIndex, Trends, TrendsIndex } from "./types";

// Every URL is relative to the page, so the site works under any sub-path (a GitHub Pages project
// site is served from /<repository>/). Run ids and workload ids are encoded: they become path segments.

const SCHEMA_VERSION = 1;
const cache = new Map<string, Promise<unknown>>();

export class DataError extends Error {
  constructor(
    message: string,
    /** The HTTP status when the file could not be fetched. */
    readonly status?: number,
  ) {
    super(message);
  }
}

async function fetchJson<T>(path: string): Promise<T> {
  let pending = cache.get(path);
  if (!pending) {
    pending = fetch(path, { cache: "no-cache" }).then(async (response) => {
      if (!response.ok) {
        throw new DataError(`${path}: ${response.status} ${response.statusText}`, response.status);
      }
      try {
        return await response.json();
      } catch (e) {
        throw new DataError(`${path} is not valid JSON (${(e as Error).message})`);
      }
    });
    pending.catch(() => cache.delete(path)); // a failed load may be retried
    cache.set(path, pending);
  }
  return pending as Promise<T>;
}

function checkSchema<T extends { schemaVersion: number }>(path: string, value: T): T {
  if (value?.schemaVersion !== SCHEMA_VERSION) {
    throw new DataError(
      `${path} has schema version ${String(value?.schemaVersion)}; this dashboard reads ${SCHEMA_VERSION}. ` +
        "Publish again with a matching loom-matrix.",
    );
  }
  return value;
}

/** The steps for the worse the nightly alerts on; a site published before they were written has none. */
export const loadRegressions = () =>
  fetchJson<Regressions>("data/regressions.json").then(
    (r) => checkSchema("data/regressions.json", r),
    (e) => {
      if (e instanceof DataError && e.status === 404) return { schemaVersion: SCHEMA_VERSION, recentRuns: 0, regressions: [] };
      throw e;
    },
  );

const runPath = (runId: string) => `data/runs/${encodeURIComponent(runId)}`;

export const loadIndex = () => fetchJson<SiteIndex>("data/index.json").then((i) => checkSchema("data/index.json", i));

export const loadRun = (runId: string) => fetchJson<RunManifest>(`${runPath(runId)}/run.json`);

export const loadCells = (runId: string) => fetchJson<CellRecord[]>(`${runPath(runId)}/cells.json`);

/** What the run concludes (publish writes it beside cells.json); a run published before it existed has none: undefined. */
export const loadConclusions = (runId: string) =>
  fetchJson<Conclusions>(`${runPath(runId)}/conclusions.json`).then(
    (c) => checkSchema("conclusions.json", c) as Conclusions | undefined,
    (e: unknown) => {
      if (e instanceof DataError && e.status === 404) return undefined;
      throw e;
    },
  );

export const loadComparison = (runId: string) =>
  fetchJson<CompareReport>(`${runPath(runId)}/compare.json`).then((c) => checkSchema("compare.json", c));

/** The same pairing on the forks' first iterations (publish writes it beside compare.json). */
export const loadColdStartComparison = (runId: string) =>
  fetchJson<CompareReport>(`${runPath(runId)}/compare-cold-start.json`).then((c) => checkSchema("compare-cold-start.json", c));

/** The run's comparison with an alternative baseline publish compared it with (`compare[-cold-start]-vs-<id>.json`). */
export const loadAlternativeComparison = (runId: string, baseline: string, coldStart: boolean) => {
  const file = `compare-${coldStart ? "cold-start-" : ""}vs-${baseline}.json`;
  return fetchJson<CompareReport>(`${runPath(runId)}/${encodeURIComponent(file)}`).then((c) => checkSchema(file, c));
};

/** What a workload's trends hold: the cells each JDK has, and the headline (data/trends/<workload>/index.json). */
export const loadTrendsIndex = (workload: string) =>
  fetchJson<TrendsIndex>(`data/trends/${encodeURIComponent(workload)}/index.json`).then((t) =>
    checkSchema(`data/trends/${workload}/index.json`, t),
  );

/** One JDK's series of a workload (data/trends/<workload>/<jdk>.json): the history view loads only what it draws. */
export const loadTrends = (workload: string, jdk: string) =>
  fetchJson<Trends>(`data/trends/${encodeURIComponent(workload)}/${encodeURIComponent(jdk)}.json`).then((t) =>
    checkSchema(`data/trends/${workload}/${jdk}.json`, t),
  );

/** The site's A/B runs (issue #31); a site that has none has no file: none. */
export const loadAbIndex = () =>
  fetchJson<AbIndex>("data/ab/index.json").then(
    (i) => checkSchema("data/ab/index.json", i),
    (e: unknown) => {
      if (e instanceof DataError && e.status === 404) return { schemaVersion: SCHEMA_VERSION, runs: [] } as AbIndex;
      throw e;
    },
  );

/** An A/B run's verdict, as ab wrote it (its compare.json, with the `ab` part). */
export const loadAbComparison = (runId: string) =>
  fetchJson<CompareReport>(`data/ab/${encodeURIComponent(runId)}/compare.json`).then((c) => checkSchema("compare.json", c));
