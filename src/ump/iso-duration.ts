/**
 * ISO 8601 durations for `consent.retention` (UMP notes "Record"; e.g. `P365D`,
 * `P1Y2M`, `PT36H`, `P2W`). Calendar units have no fixed length, so this uses
 * the conventional fixed approximations: a year is 365 days and a month 30 days.
 */

const PATTERN = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const DAY = 86_400_000;

/** Milliseconds of an ISO 8601 duration; `null` when malformed (including bare `P` or `PT`). */
export function parseIsoDuration(text: string): number | null {
  if (typeof text !== "string") return null;
  const m = PATTERN.exec(text);
  if (!m || text === "P" || text.endsWith("T")) return null;
  const [, y, mo, w, d, h, mi, s] = m;
  const ms =
    Number(y ?? 0) * 365 * DAY +
    Number(mo ?? 0) * 30 * DAY +
    Number(w ?? 0) * 7 * DAY +
    Number(d ?? 0) * DAY +
    Number(h ?? 0) * 3_600_000 +
    Number(mi ?? 0) * 60_000 +
    Math.round(Number(s ?? 0) * 1000);
  return Number.isSafeInteger(ms) ? ms : null;
}
