/**
 * The review's read-canonical form (SPEC §1 Input hygiene: "The review
 * digest binds the read-canonical form. Widening the pipeline changes
 * digests and makes outstanding approvals fail closed with 409").
 *
 * The canonical form is the read seam's output for a reviewer: every step
 * of `sanitizeForRead` except the PII redaction, which is gated by
 * `pii:read` and would otherwise hide the very characters being approved.
 * The pipeline's `fingerprint` is SHA-256 over its step list and the rule
 * tables each step exports, so any change to what the seam strips moves
 * every digest, not only those of texts the change happens to touch.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { CONTROL_PATTERN } from "../hygiene/control-chars.ts";
import { AUTO_FETCH_ATTRIBUTES, FETCHING_CSS, REMOVED_TAGS, REMOVED_WITH_CONTENT } from "../hygiene/hostile-elements.ts";
import { INVISIBLE_RANGES } from "../hygiene/invisible-chars.ts";
import { PLACEHOLDERS } from "../hygiene/redact-pii.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { SENTINEL_LITERALS, SENTINEL_PATTERN } from "../hygiene/sentinels.ts";

/** A read-canonical pipeline: what a reviewer sees, and an id that changes whenever the pipeline does. */
export interface ReadCanonical {
  fingerprint: string;
  apply(text: string): string;
}

const hex = (s: string) => bytesToHex(sha256(new TextEncoder().encode(s)));

/** The rule tables of the SPEC §1 read seam, in its fixed order. */
export function readSeamRules(): unknown[] {
  return [
    ["redact_pii", PLACEHOLDERS],
    ["strip_invisible", INVISIBLE_RANGES],
    ["strip_markdown_references", "reference-style definitions"],
    ["strip_control", CONTROL_PATTERN.source],
    ["strip_hostile_elements", { REMOVED_WITH_CONTENT, REMOVED_TAGS, AUTO_FETCH_ATTRIBUTES, FETCHING_CSS }],
    ["strip_sentinels", { SENTINEL_LITERALS, pattern: SENTINEL_PATTERN.source }],
  ];
}

/** The default pipeline: the hygiene read seam as a `pii:read` reviewer sees it. */
export function defaultReadCanonical(): ReadCanonical {
  return {
    fingerprint: hex(JSON.stringify(readSeamRules())),
    apply: (text) => sanitizeForRead(text, { piiRead: true }),
  };
}

/** A pipeline widened by one more step, applied after `base`, to a fixed point (a pipeline change, as a value). */
export function widenReadCanonical(base: ReadCanonical, step: { name: string; rules: unknown; apply(text: string): string }): ReadCanonical {
  return {
    fingerprint: hex(JSON.stringify([base.fingerprint, step.name, step.rules])),
    apply: (text) => {
      let cur = text;
      for (let i = 0; i < 32; i++) {
        const next = step.apply(base.apply(cur));
        if (next === cur) return next;
        cur = next;
      }
      return cur;
    },
  };
}
