/**
 * Review SLA targets shown by the Memory Operations panel (issue 19; SPEC
 * §4.3 names "SLA clocks" without targets, so these are this project's
 * documented choice, docs/web-client.md).
 */

/** A pending proposal should be decided within a day. */
export const PENDING_TARGET_MS = 24 * 60 * 60 * 1000;
/** A quarantined row should be released or deleted within three days. */
export const QUARANTINE_TARGET_MS = 72 * 60 * 60 * 1000;

/** `ok` within target, `warn` past 80 % of it, `over` past it, `idle` with nothing waiting. */
export function slaStatus(ageMs: number | undefined, targetMs: number): "idle" | "ok" | "warn" | "over" {
  if (ageMs === undefined) return "idle";
  if (ageMs > targetMs) return "over";
  return ageMs > 0.8 * targetMs ? "warn" : "ok";
}
