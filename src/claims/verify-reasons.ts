/**
 * The evidence half of claim verification (SPEC §2.12, issue 17), a pure
 * function over what the store reported: every evidence chunk must exist
 * and be current. "Current" follows how the store represents history:
 * a tombstone row means the chunk was deleted, purged, erased or forgotten
 * (src/erasure/, src/ump/forget.ts); an approved `supersedes` link, a UMP
 * record whose every version on the chunk is retired (src/ump/revise.ts),
 * or a vault note whose file changed (src/sources/) means it was
 * superseded; a flagged chunk is quarantined and an expired one is past
 * its `expires_at`, so recall would not serve either.
 */
import type { EvidenceState } from "../store/claims.ts";

/** Why a claim failed verification; `claim_invalid` comes from the schema validator. */
export type VerifyReasonCode =
  | "evidence_missing" | "evidence_erased" | "evidence_superseded" | "evidence_changed"
  | "evidence_quarantined" | "evidence_expired" | "claim_invalid";

/** One reason, with the evidence chunk or the claim path it concerns. */
export interface VerifyReason {
  code: VerifyReasonCode;
  message: string;
  chunk_id?: number;
  superseded_by?: number[];
  path?: string;
  keyword?: string;
}

/** Reasons the evidence fails, in evidence order (empty when every chunk exists and is current). */
export function reasonsFor(
  evidence: readonly { chunkId: number; contentHash?: string }[],
  states: ReadonlyMap<number, EvidenceState>,
  now: Date,
): VerifyReason[] {
  const out: VerifyReason[] = [];
  const seen = new Set<number>();
  for (const e of evidence) {
    if (seen.has(e.chunkId)) continue;
    seen.add(e.chunkId);
    const s = states.get(e.chunkId);
    const id = e.chunkId;
    if (!s || (!s.exists && !s.tombstoned)) {
      out.push({ code: "evidence_missing", chunk_id: id, message: `Chunk ${id} does not exist` });
      continue;
    }
    if (s.tombstoned || !s.exists || (s.umpRows > 0 && s.umpTombstoned === s.umpRows)) {
      out.push({ code: "evidence_erased", chunk_id: id, message: `Chunk ${id} was deleted or erased` });
      continue;
    }
    if (e.contentHash !== undefined && s.contentHash !== e.contentHash) {
      out.push({ code: "evidence_changed", chunk_id: id, message: `Chunk ${id} no longer holds the content the claim cited` });
    }
    if (s.supersededBy.length > 0) {
      out.push({ code: "evidence_superseded", chunk_id: id, superseded_by: s.supersededBy, message: `Chunk ${id} is superseded by a newer fact` });
    } else if (s.umpRows > 0 && s.umpCurrent === 0) {
      out.push({ code: "evidence_superseded", chunk_id: id, message: `Chunk ${id} holds only retired record versions` });
    } else if (s.vaultStale > 0 && s.vaultCurrent === 0) {
      out.push({ code: "evidence_superseded", chunk_id: id, message: `Chunk ${id} came from a file that has since changed` });
    }
    if (s.flagged) out.push({ code: "evidence_quarantined", chunk_id: id, message: `Chunk ${id} is quarantined` });
    if (s.expiresAt !== undefined && Date.parse(s.expiresAt) <= now.getTime()) {
      out.push({ code: "evidence_expired", chunk_id: id, message: `Chunk ${id} expired` });
    }
  }
  return out;
}
