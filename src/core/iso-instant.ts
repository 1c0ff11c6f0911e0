/**
 * Strict ISO-8601 instants (issue 23 §2). `Date.parse` accepts far more than
 * ISO-8601 (`"-1"`, `"1.5"`, `"12"` all parse in V8), so timestamps a client
 * sends are matched against the ISO shape first: a calendar date, or a date
 * and time with optional seconds, fraction and offset.
 */

const ISO = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?)?$/;

/** Epoch milliseconds of an ISO-8601 date or date-time string, or undefined when it is not one. */
export function parseIsoInstant(v: unknown): number | undefined {
  if (typeof v !== "string" || !ISO.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}
