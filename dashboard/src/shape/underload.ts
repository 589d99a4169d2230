import { ms, num, percent, ratio } from "../ui/format";
import type { LoadRow } from "./load";

// The words of a service cell's "Under load" section (issue #51): what its numbers mean, said from its own rows
// before the numbers — who served the most and who had the lowest p99, under which load model, and how many
// requests the window's end cut — with no class words (those belong to the run's conclusions).

/** The load a measurement ran, read from its level's name ("users=100", "rate=500/s"). */
export type LoadModel = { kind: "closed"; users: number } | { kind: "open"; rate: number };

export function loadModel(load: string | undefined): LoadModel | undefined {
  const closed = /^users=(\d+)$/.exec(load ?? "");
  if (closed) return { kind: "closed", users: Number(closed[1]) };
  const open = /^rate=(\d+(?:\.\d+)?)\/s$/.exec(load ?? "");
  return open ? { kind: "open", rate: Number(open[1]) } : undefined;
}

/** A share of cut requests from which it is said in words: the numbers then leave out a material part of the load. */
export const MATERIAL_CUT = 0.01;

/** Whether any row has a Little's-law bound (a built-in service's): else the table has no column for one. */
export const hasBound = (rows: LoadRow[]): boolean => rows.some((r) => r.bound !== undefined);

/** The rows measured at the same load (one level of one request set), in the order the record has them. */
function byLevel(rows: LoadRow[]): LoadRow[][] {
  const groups = new Map<string, LoadRow[]>();
  for (const r of rows) groups.set(r.benchmark ?? "", [...(groups.get(r.benchmark ?? "") ?? []), r]);
  return [...groups.values()];
}

/** A level in words: "100 users", "500 requests/s"; the benchmark's name where the record says no level. */
function levelWords(r: LoadRow): string {
  const m = loadModel(r.load);
  if (!m) return r.benchmark ?? "this load";
  return m.kind === "closed" ? `${num(m.users)} users` : `${num(m.rate)} requests/s`;
}

/**
 * The lead: per load level, which variant served the most and which had the lowest p99, each against the next
 * (medians over the repetitions). An open model is judged by its latency, so its p99 comes first. Variants whose
 * numbers are not a result are left out, and said to be.
 */
export function leadSentences(rows: LoadRow[]): string[] {
  const levels = byLevel(rows);
  return levels.map((level) => (levels.length > 1 ? `At ${levelWords(level[0])}: ` : "") + levelLead(level) + leftOut(level));
}

function levelLead(level: LoadRow[]): string {
  const valid = level.filter((r) => !r.problem);
  if (valid.length === 0) return "no variant's numbers are a result (see the table).";
  const medians = `(medians over ${repetitions(valid)})`;
  if (valid.length === 1) {
    const r = valid[0];
    return `${r.variant} is the only variant with a result: ${reqs(r.throughput)}, p99 ${ms(r.p99)} ${medians}.`;
  }
  const served = mostServed(valid);
  const p99 = lowestP99(valid);
  const [first, second] = loadModel(level[0].load)?.kind === "open" ? [p99, served] : [served, p99];
  const clauses =
    first && second && first.variant === second.variant
      ? `${first.words}, and ${second.tail}`
      : [first?.words, second?.words].filter((w) => w).join("; ");
  return `${clauses} ${medians}.`;
}

/** " tomcat-20 is left out: its numbers are not a result (see the table)." where a variant failed or was invalid. */
function leftOut(level: LoadRow[]): string {
  const left = level.filter((r) => r.problem).map((r) => r.variant);
  if (!left.length) return "";
  const one = left.length === 1;
  return ` ${list(left)} ${one ? "is" : "are"} left out: ${one ? "its" : "their"} numbers are not a result (see the table).`;
}

interface Clause {
  variant: string;
  /** the clause with its subject: "virtual served the most, …" */
  words: string;
  /** the clause without it: "served the most, …" */
  tail: string;
}

function mostServed(rows: LoadRow[]): Clause | undefined {
  const ranked = rows.filter((r) => r.throughput !== undefined).sort((a, b) => b.throughput! - a.throughput!);
  if (ranked.length < 2) return undefined;
  const [best, next] = ranked;
  const tail =
    best.throughput === next.throughput
      ? `served as much as ${next.variant}, ${reqs(best.throughput)}`
      : `served the most, ${reqs(best.throughput)}, ${ratio(best.throughput! / next.throughput!)} ${next.variant}'s ${reqs(next.throughput)}${ranked.length > 2 ? ", the next most" : ""}`;
  return { variant: best.variant, words: `${best.variant} ${tail}`, tail };
}

function lowestP99(rows: LoadRow[]): Clause | undefined {
  const ranked = rows.filter((r) => r.p99 !== undefined).sort((a, b) => a.p99! - b.p99!);
  if (ranked.length < 2) return undefined;
  const [best, next] = ranked;
  const tail =
    best.p99 === next.p99
      ? `had the same p99 as ${next.variant}, ${ms(best.p99)}`
      : `had the lowest p99, ${ms(best.p99)}, against ${ms(next.p99)} for ${next.variant}${ranked.length > 2 ? ", the next lowest" : ""}`;
  return { variant: best.variant, words: `${best.variant} ${tail}`, tail };
}

/**
 * What the load generator did, for the models present: a closed model's users wait for each answer, so nothing is
 * sent late and latency runs from the sending; an open model's requests keep their schedule, and latency runs from
 * when each was due.
 */
export function modelSentences(rows: LoadRow[]): string[] {
  const models = rows.map((r) => loadModel(r.load));
  const users = unique(models.flatMap((m) => (m?.kind === "closed" ? [m.users] : [])));
  const rates = unique(models.flatMap((m) => (m?.kind === "open" ? [m.rate] : [])));
  const out: string[] = [];
  if (users.length) {
    out.push(
      `The load was a closed model: ${list(users.map(num))} users, each sending its next request as soon as its last was answered. ` +
        "A request's latency runs from when it was sent; with no schedule to fall behind, no correction for coordinated omission applies — " +
        "a server that slows down is sent fewer requests, and it shows in the throughput.",
    );
  }
  if (rates.length) {
    out.push(
      `The load was an open model at ${list(rates.map(num))} requests/s: requests are sent on schedule whatever the server does, ` +
        "and a request's latency runs from when it was due (coordinated omission corrected) — a server that falls behind shows it in the latency.",
    );
  }
  if (!out.length) out.push("The record does not say which load model ran.");
  return out;
}

/**
 * The requests cut at the window's end, where any variant's share is material: throughput counts answers and the
 * percentiles answered requests only, so both leave these out.
 */
export function cutSentence(rows: LoadRow[]): string | undefined {
  const material = rows.filter((r) => r.cutShare !== undefined && r.cutShare >= MATERIAL_CUT).sort((a, b) => b.cutShare! - a.cutShare!);
  if (!material.length) return undefined;
  const name = (r: LoadRow) => (byLevel(rows).length > 1 ? r.series : r.variant);
  const counts = material.map((r, k) => `${num(r.cut)} of ${name(r)}'s${k ? "" : " requests"} (${percent(r.cutShare)}${k ? "" : " of those it sent"})`);
  // a closed model's users each wait on one request: the window's end finds at most one a user in flight
  const closed = material.every((r) => loadModel(r.load)?.kind === "closed");
  return (
    `When a repetition's window closed, the requests still in flight were cut${closed ? ", at most one a user" : ""} (medians over the repetitions): ` +
    `${list(counts)}. ` +
    "The throughput counts answers and the percentiles answered requests, so both leave them out; a longer window makes their share smaller."
  );
}

const reqs = (v: number | undefined) => `${num(v)} req/s`;

function repetitions(rows: LoadRow[]): string {
  const n = unique(rows.map((r) => r.repetitions));
  return n.length === 1 ? `${n[0]} repetition${n[0] === 1 ? "" : "s"} each` : "each variant's repetitions";
}

function unique<T extends number>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** "a", "a and b", "a, b and c". */
export function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
