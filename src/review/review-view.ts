/**
 * The review view of a proposal (SPEC §2.7: "exposes the scoring
 * breakdown, a sourcing prompt, a screen verdict and raw evidence").
 * `title` and `content` are the read-canonical form — exactly the bytes
 * `content_digest` binds — for a reader holding `pii:read`; for any other
 * reader every text field is also PII-redacted (`pii_redacted: true` when any was), while
 * the digest still binds the un-redacted form, so a changed e-mail address
 * fails closed too. `raw_evidence` shows what the read seam hides:
 * the stored bytes' size and SHA-256, how many characters the seam removes,
 * and the stored text with every invisible and control character written
 * out as a visible `\u{XXXX}` escape (tab and newline stay).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { isInvisible } from "../hygiene/invisible-chars.ts";
import { redactPii } from "../hygiene/redact-pii.ts";
import type { ProposalRow } from "../store/proposals.ts";
import { contentDigest } from "./content-digest.ts";
import type { ReadCanonical } from "./read-canonical.ts";

/** One proposal as served by `GET /proposals` (this project's field names where SPEC §2.7 shows none). */
export interface ProposalView {
  id: number;
  status: string;
  kind: string;
  door: string;
  domain: string;
  title?: string;
  content: string;
  content_digest: string;
  score: number;
  score_breakdown: Record<string, unknown>;
  screen: Record<string, unknown>;
  source_prompt?: string;
  source?: string;
  origin?: string;
  owner?: string;
  raw_evidence: { bytes: number; sha256: string; removed_by_read_seam: number; escaped: string };
  created_at: string;
  decided_at?: string;
  promoted_chunk_id: number | null;
  supersedes?: number;
  pii_redacted?: true;
  untrusted: true;
}

const CONTROL = (cp: number) => (cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || (cp >= 0x7f && cp <= 0x9f);

/** Writes invisible and control characters as `\u{XXXX}` so a reviewer sees them. */
export function escapeHidden(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out += isInvisible(cp) || CONTROL(cp) ? `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}` : ch;
  }
  return out;
}

/** Builds the view under the current pipeline, for a reader with or without `pii:read`. */
export function proposalView(p: ProposalRow, pipeline: ReadCanonical, o: { piiRead: boolean } = { piiRead: true }): ProposalView {
  const canonical = pipeline.apply(p.content);
  // Issue 22 item 7: `pii_redacted` says that something was redacted, not merely that the reader lacks `pii:read`.
  let redacted = false;
  const out = o.piiRead ? (t: string) => t : (t: string) => {
    const r = redactPii(t);
    if (r !== t) redacted = true;
    return r;
  };
  const content = out(canonical);
  const bytes = new TextEncoder().encode(p.content);
  const v: ProposalView = {
    id: p.id, status: p.status, kind: p.kind, door: p.door, domain: p.domain, content,
    content_digest: contentDigest(p, pipeline), score: p.score, score_breakdown: p.scoreBreakdown, screen: p.screen,
    raw_evidence: {
      bytes: bytes.length, sha256: bytesToHex(sha256(bytes)),
      removed_by_read_seam: [...p.content].length - [...canonical].length, escaped: out(escapeHidden(p.content)),
    },
    created_at: p.createdAt, promoted_chunk_id: p.promotedChunkId, untrusted: true,
  };
  if (p.title !== undefined) v.title = out(pipeline.apply(p.title));
  if (p.sourcePrompt !== undefined) v.source_prompt = out(pipeline.apply(p.sourcePrompt));
  if (p.source !== undefined) v.source = out(pipeline.apply(p.source));
  if (redacted) v.pii_redacted = true;
  if (p.origin !== undefined) v.origin = p.origin;
  if (p.owner !== undefined) v.owner = p.owner;
  if (p.decidedAt !== undefined) v.decided_at = p.decidedAt;
  if (p.supersedesChunkId !== undefined) v.supersedes = p.supersedesChunkId;
  return v;
}
