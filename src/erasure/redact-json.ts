/**
 * The erasure's redaction of JSON kept beside a workflow run (issue 35; SPEC §1 item 6): an outbox event's payload or
 * a run's state and case record stays in place — a run's history, its close gate and its SLA signals read them — but
 * every string that contains the subject's email or match text becomes `[erased]`, and a key that contains it goes
 * with its value. Matching is ASCII case-insensitive, as the database's `lower()` is (the rows were found that way).
 */

/** What an erased string value becomes. */
export const ERASED = "[erased]";

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/** True when `text` contains any needle (ASCII case-insensitive). */
export function holdsNeedle(text: string, needles: readonly string[]): boolean {
  const t = asciiLower(text);
  return needles.some((n) => t.includes(asciiLower(n)));
}

/** `value` with every string, number or key that contains a needle redacted (a new value; the input is not changed). */
export function redactJson(value: unknown, needles: readonly string[]): unknown {
  if (typeof value === "string") return holdsNeedle(value, needles) ? ERASED : value;
  if (typeof value === "number") return holdsNeedle(String(value), needles) ? ERASED : value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, needles));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!holdsNeedle(k, needles)) out[k] = redactJson(v, needles);
    return out;
  }
  return value;
}

/** Redacts a stored JSON text; returns the new text, or undefined when nothing changed. */
export function redactJsonText(text: string, needles: readonly string[]): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (never written so by Cairn): the whole text is the subject's.
    return JSON.stringify(ERASED);
  }
  const next = JSON.stringify(redactJson(parsed, needles));
  return next === JSON.stringify(parsed) ? undefined : next;
}
