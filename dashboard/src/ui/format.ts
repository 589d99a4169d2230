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
