/**
 * `content_digest` (SPEC §2.7, §3): SHA-256 (lowercase hex) of the bytes a
 * reviewer approves — the read-canonical form of the proposal's title and
 * content, with its kind and domain, under one pipeline fingerprint:
 *
 *   sha256( "cairn-review-digest/1\n" ‖ fingerprint ‖ "\n" ‖
 *           JSON.stringify([kind, domain, canonical(title) | null, canonical(content)]) )
 *
 * (UTF-8; `JSON.stringify` of a fixed-order array is deterministic.) The
 * digest is recomputed from the stored row at list and approve time, so a
 * changed row or a changed pipeline both fail the equality check.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { ReadCanonical } from "./read-canonical.ts";

/** What the digest covers. */
export interface DigestInput {
  kind: string;
  domain: string;
  title?: string;
  content: string;
}

/** The review digest of a proposal under a pipeline. */
export function contentDigest(p: DigestInput, pipeline: ReadCanonical): string {
  const body = JSON.stringify([p.kind, p.domain, p.title === undefined ? null : pipeline.apply(p.title), pipeline.apply(p.content)]);
  return bytesToHex(sha256(new TextEncoder().encode(`cairn-review-digest/1\n${pipeline.fingerprint}\n${body}`)));
}
