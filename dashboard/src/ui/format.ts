// Number and time formatting used by every view: fixed significant digits, units said, no locale surprises.

// One formatter each, made once: toLocaleString builds a new one per call, and a year of history formats
// tens of thousands of numbers (issue #19: 3.8 s of the busiest history view's 4.8 s).
const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const FRACTION = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

export function num(value: number | undefined, digits = 3): string {
  if (value === undefined || !Number.isFinite(value)) return "—";
  if (Math.abs(value) >= 10 ** digits) return WHOLE.format(Math.round(value));
  return FRACTION.format(Number(value.toPrecision(digits)));
}

/**
 * A ratio's interval with as many significant digits as it takes to tell where it lies against 1 — and against
 * each of `marks`, such as a threshold's 1.1 — and its ends apart (issue #31: [1.0030, 1.0089] at 3 digits read
 * "1–1.01", as if it might include 1; issue #54: an end at 1.0993 read "1.1", the threshold itself).
 */
export function ratioInterval(lo: number, hi: number, marks: number[] = []): string {
  const lines = [1, ...marks];
  const kept = (exact: number, shown: number) => lines.every((m) => (exact > m ? shown > m : exact < m ? shown < m : true));
  for (let digits = 3; digits < 8; digits++) {
    const a = Number(lo.toPrecision(digits));
    const b = Number(hi.toPrecision(digits));
    if (kept(lo, a) && kept(hi, b) && (a !== b || lo === hi)) return `${num(lo, digits)}–${num(hi, digits)}`;
  }
  return `${num(lo, 8)}–${num(hi, 8)}`;
}

/** The lines a ratio's interval is read against at a threshold: 1 ± the threshold, on a log scale. */
export function thresholdMarks(threshold: number): number[] {
  return [1 + threshold, 1 / (1 + threshold)];
}

export function ms(value: number | undefined): string {
  if (value === undefined) return "—";
  return value >= 10_000 ? `${num(value / 1000)} s` : `${num(value)} ms`;
}

export function ratio(value: number | undefined): string {
  return value === undefined ? "—" : `${num(value)}×`;
}

export function percent(value: number | undefined): string {
  return value === undefined ? "—" : `${num(value * 100, 2)} %`;
}

export function duration(fromIso: string, toIso: string | undefined): string {
  if (!toIso) return "—";
  const s = Math.max(0, (Date.parse(toIso) - Date.parse(fromIso)) / 1000);
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "2026-11-22 01:44 UTC": to the minute, whatever precision the runner recorded. */
export function date(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

export function bytes(value: number | undefined): string {
  if (value === undefined) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = value;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${num(v)} ${units[u]}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/**
 * The time axis's tick labels in UTC on a 24-hour clock (issue #31: "8:11" stood for a run at 20:11): hours and
 * minutes within two days (and seconds within half an hour), the day (and the hour where it is not midnight) beyond.
 */
export function utcTicks(spanMs: number): (d: Date) => string {
  return (d: Date) => {
    // runs minutes apart: the seconds too (issue #54: nine ticks all read "10:58")
    const seconds = spanMs < 30 * 60_000 ? `:${two(d.getUTCSeconds())}` : "";
    const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}${seconds}`;
    const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
    if (spanMs < 2 * 86_400_000) return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 ? day : time;
    return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 ? day : `${day} ${time}`;
  };
}

/**
 * A metric as a reader says it: the runner's names (wallMs, throughputPerSecond) are field names, not labels. A
 * user's own metric keeps the name the user gave it.
 */
export function metricWords(name: string): string {
  const words: Record<string, string> = {
    wallMs: "wall time",
    coldStartMs: "cold start",
    throughputPerSecond: "throughput",
    capacityPerSecond: "capacity",
    rssMb: "resident memory",
    startupMs: "start-up time",
  };
  return words[name] ?? name;
}
