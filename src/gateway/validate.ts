/**
 * Input rules of the gateway (SPEC §4.13 "Validation"): a recipient is a
 * UUID, an E.164 phone (`+` then 7 to 14 digits) or an ACI (`u:<uuid>`);
 * a Signal username (`nick.01`, or signal-cli's `u:nick.01`) is accepted here
 * and resolved through signal-cli before sending (`resolve.ts`); message text is non-empty and at most 10,000 characters. A failure names
 * the field. Every string of a request meets Cairn's text-field rule (`src/core/text-rule.ts`: no NUL, no lone
 * surrogate), so nothing the store would refuse is sent, forwarded or drained.
 */
import { findTextViolation, textFault, type TextViolation } from "../core/text-rule.ts";


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const E164 = /^\+\d{7,14}$/;
// Signal usernames: a 3–32 character nickname (letters, digits, `_`; no leading digit), a dot, a 2–9 digit discriminator.
const USERNAME = /^[a-z_][a-z0-9_]{2,31}\.\d{2,9}$/i;
/** The prefix signal-cli gives a username recipient (signal-cli(1) "RECIPIENT"). */
export const USERNAME_PREFIX = "u:";
export const MAX_TEXT = 10_000;

/** A bad field: the routes answer 400 `{error, field}`. */
export class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = "FieldError";
  }
}

/** A recipient as signal-cli takes it (the `u:` prefix is dropped: signal-cli takes the bare ACI). */
export function recipient(v: unknown, field: string): string {
  if (typeof v !== "string") throw new FieldError(field, `${field} must be a string`);
  if (E164.test(v) || UUID.test(v)) return v;
  if (v.startsWith("u:") && UUID.test(v.slice(2))) return v.slice(2);
  // A username is returned as `u:<username>`, to be resolved to its service id (resolve.ts).
  const name = v.startsWith("u:") ? v.slice(2) : v;
  if (USERNAME.test(name)) return USERNAME_PREFIX + name.toLowerCase();
  throw new FieldError(field, `${field} must be a UUID, an E.164 number (+ then 7 to 14 digits), u:<uuid> or a Signal username (name.01)`);
}

/** The gateway's 400 for a text-rule violation. */
export function textFieldError(v: TextViolation): FieldError {
  return new FieldError(v.field, v.reason === "nul" ? `${v.field} must not contain U+0000 (NUL)` : `${v.field} holds a lone surrogate (not valid Unicode)`);
}

/** Throws a FieldError naming the first string of a parsed body that breaks the text-field rule. */
export function requireCleanBody(body: unknown, at = ""): void {
  const v = findTextViolation(body, { at });
  if (v !== undefined) throw textFieldError(v);
}

/** Message text: 1 to 10,000 characters (code points), meeting the text-field rule. */
export function messageText(v: unknown, field: string): string {
  if (typeof v !== "string") throw new FieldError(field, `${field} must be a string`);
  const fault = textFault(v);
  if (fault !== undefined) throw textFieldError({ field, reason: fault });
  const n = [...v].length;
  if (n === 0) throw new FieldError(field, `${field} must not be empty`);
  if (n > MAX_TEXT) throw new FieldError(field, `${field} must be at most ${MAX_TEXT} characters`);
  return v;
}

/** The recipients of a send: `recipient` (one) or `recipients` (a non-empty list). */
export function recipients(body: Record<string, unknown>): string[] {
  if (body.recipients !== undefined) {
    if (!Array.isArray(body.recipients) || body.recipients.length === 0 || body.recipients.length > 100) throw new FieldError("recipients", "recipients must be a list of 1 to 100 recipients");
    return body.recipients.map((r, i) => recipient(r, `recipients[${i}]`));
  }
  if (body.recipient === undefined) throw new FieldError("recipient", "recipient is required");
  return [recipient(body.recipient, "recipient")];
}

/** Masks an account number per the privacy posture: country prefix and last two digits. */
export function maskAccount(number: string): string {
  if (number.length <= 5) return "*".repeat(number.length);
  return number.slice(0, 3) + "*".repeat(number.length - 5) + number.slice(-2);
}
