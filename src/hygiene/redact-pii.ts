/**
 * PII masking, step 1 of the read seam (SPEC §1 "Input hygiene"): every
 * finding of `findPii` is replaced by its placeholder `[redacted:email]`,
 * `[redacted:phone]` or `[redacted:card]`. The read seam skips this step
 * for a principal holding `pii:read`.
 */
import { findPii, type PiiKind } from "./find-pii.ts";

/** The SPEC §1 placeholder for each kind. */
export const PLACEHOLDERS: Readonly<Record<PiiKind, string>> = {
  email: "[redacted:email]",
  phone: "[redacted:phone]",
  card: "[redacted:card]",
};

/** Replaces emails, phone numbers and card numbers with their placeholders. */
export function redactPii(text: string): string {
  const spans = findPii(text);
  if (spans.length === 0) return text;
  let out = "";
  let cursor = 0;
  for (const s of spans) {
    out += text.slice(cursor, s.start) + PLACEHOLDERS[s.kind];
    cursor = s.end;
  }
  return out + text.slice(cursor);
}
