/**
 * SLA classes (SPEC §2.11 `priority` is a verbatim vendor string; §2.12 the
 * status document carries "a promise bucket from the SLA class"). The class
 * is derived from the priority; its clock starts when the run opens (or
 * reopens) and a `valet/due` event is emitted once when it runs out.
 */

/** The four SLA classes. */
export type SlaClass = "urgent" | "high" | "normal" | "low";

const URGENT = /^(urgent|critical|emergency|blocker|highest|p0|p1|sev ?[01])$/i;
const HIGH = /^(high|p2|sev ?2|important)$/i;
const LOW = /^(low|lowest|p4|p5|minor|trivial)$/i;

/** Hours on the clock per class. */
export const SLA_HOURS: Readonly<Record<SlaClass, number>> = Object.freeze({ urgent: 4, high: 24, normal: 72, low: 168 });

/** The promise bucket shown on a case status document (a range word, never a deadline). */
export const PROMISE_BUCKET: Readonly<Record<SlaClass, string>> = Object.freeze({
  urgent: "within_hours", high: "within_a_day", normal: "within_days", low: "within_a_week",
});

/** The class of a vendor priority string (absent or unknown → `normal`). */
export function slaClassOf(priority: string | undefined): SlaClass {
  const p = (priority ?? "").trim();
  if (URGENT.test(p)) return "urgent";
  if (HIGH.test(p)) return "high";
  if (LOW.test(p)) return "low";
  return "normal";
}

/** When the clock of a class started at `fromIso` runs out. */
export function dueAt(cls: string, fromIso: string): string {
  const hours = SLA_HOURS[cls as SlaClass] ?? SLA_HOURS.normal;
  return new Date(Date.parse(fromIso) + hours * 3_600_000).toISOString();
}
