/** Small formatting helpers shared by the panels (pure; no runtime access). */

/** A duration in ms as "2 d 3 h", "1 d", "4 h 12 min", "35 min" or "under a minute". */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return "under a minute";
  const min = Math.floor(ms / 60_000);
  const h = Math.floor(min / 60);
  const d = Math.floor(h / 24);
  if (d > 0) return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
  if (h > 0) return `${h} h ${min % 60} min`;
  return `${min} min`;
}

/** Age of an ISO timestamp at `now`, in ms (0 when unparsable or in the future). */
export function ageMs(iso: string, now: Date): number {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? Math.max(0, now.getTime() - t) : 0;
}

/** A number rounded for display (up to 3 decimals, no trailing zeros). */
export function num(v: unknown): string {
  return typeof v === "number" ? String(Math.round(v * 1000) / 1000) : String(v ?? "");
}

/** The first `n` characters of a text, with an ellipsis when cut. */
export function clip(text: string, n: number): string {
  const chars = [...text];
  return chars.length <= n ? text : `${chars.slice(0, n).join("")}…`;
}
