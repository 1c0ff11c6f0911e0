/**
 * Claim batches (SPEC §2.12 names them beside claim schemas, claims and claim evidence; fields not shown, so the
 * shape is this project's choice, `x-cairn-choice` in openapi.yaml). A batch is an ordered set of 1 to 100 existing
 * claims, named or not, verified together: one verify runs every member's verify in ONE transaction (the same
 * checks, the same per-claim audit rows), and sets the batch's own status — `verified` when every member verified,
 * else `failed` — with one `claim_batch_verified` audit row whenever that status moves. A batch holds claim ids and a
 * slug-like name only, so it carries no subject text for erasure to reach.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import { type ClaimBatchRow, existingClaimIds, getClaimBatch, insertClaimBatch, listClaimBatches, setClaimBatchOutcome } from "../store/claim-batches.ts";
import type { ClaimStatus } from "../store/claims.ts";
import { parseWith } from "../core/schema.ts";
import { ClaimBatchBody, MAX_BATCH_CLAIMS, type ClaimBatchInput } from "./claim-schema.ts";
import type { Db, Exec } from "../store/db.ts";

/** What the batch needs of one claim's verify (the claim service's `VerifyOutcome`; structural, so no import cycle). */
export interface MemberOutcome {
  claim: { id: number };
  outcome: "verified" | "failed";
}

export { MAX_BATCH_CLAIMS };

/** A batch as served. */
export interface ClaimBatchView {
  id: number;
  name?: string;
  claim_ids: number[];
  status: ClaimStatus;
  created_at: string;
  verified_at?: string;
}

/** The outcome of one batch verify. */
export interface BatchVerifyOutcome<V extends MemberOutcome = MemberOutcome> {
  batch: ClaimBatchView;
  outcome: "verified" | "failed";
  /** Every member's verify, in batch order. */
  claims: V[];
  /** Ids of the members that failed. */
  failed: number[];
  /** True when this verify moved the batch's status (and wrote its audit row). */
  changed: boolean;
  audit_id?: number;
}

/** `memory.claims.batches`. */
export interface ClaimBatchService<V extends MemberOutcome = MemberOutcome> {
  create(body: ClaimBatchInput, o?: { actor?: string }): Promise<ClaimBatchView>;
  get(id: number): Promise<ClaimBatchView>;
  list(o?: { after?: number; limit?: number; status?: string }): Promise<ClaimBatchView[]>;
  verify(id: number, o?: { actor?: string }): Promise<BatchVerifyOutcome<V>>;
}

function view(b: ClaimBatchRow): ClaimBatchView {
  const v: ClaimBatchView = { id: b.id, claim_ids: b.claimIds, status: b.status, created_at: b.createdAt };
  if (b.name !== undefined) v.name = b.name;
  if (b.verifiedAt !== undefined) v.verified_at = b.verifiedAt;
  return v;
}


/** Builds the batch service over the claim service's own verify. */
export function createClaimBatchService<V extends MemberOutcome>(d: {
  db: Db;
  audit: AuditService;
  clock: () => Date;
  verifyTx: (tx: Exec, id: number, o: { actor?: string }) => Promise<V>;
  page: (o: { after?: number; limit?: number }) => { after: number; limit: number };
}): ClaimBatchService<V> {
  const ex = d.db.client;
  return {
    async create(body, o = {}) {
      const b = parseWith(ClaimBatchBody, body);
      const claimIds = b.claim_ids;
      const at = d.clock().toISOString();
      const id = await d.db.write(async (tx) => {
        const known = await existingClaimIds(tx, claimIds);
        const missing = claimIds.filter((c) => !known.has(c));
        if (missing.length) throw new MemoryError("not_found", "Unknown claim", { field: "claim_ids", missing });
        const bid = await insertClaimBatch(tx, { name: b.name, createdAt: at, claimIds });
        await d.audit.append(tx, { action: "claim_batch_filed", actor: o.actor, target: `claim_batch:${bid}`, detail: { claim_ids: claimIds } });
        return bid;
      });
      return view((await getClaimBatch(ex, id))!);
    },

    async get(id) {
      const b = await getClaimBatch(ex, id);
      if (!b) throw new MemoryError("not_found", "Unknown claim batch");
      return view(b);
    },

    async list(o = {}) {
      const p = d.page(o);
      if (o.status !== undefined && !["filed", "verified", "failed"].includes(o.status)) {
        throw new MemoryError("invalid_request", "status must be filed, verified or failed", { field: "status" });
      }
      return (await listClaimBatches(ex, { ...p, status: o.status as ClaimStatus | undefined })).map(view);
    },

    async verify(id, o = {}) {
      return await d.db.write(async (tx) => {
        const b = await getClaimBatch(tx, id);
        if (!b) throw new MemoryError("not_found", "Unknown claim batch");
        const claims: V[] = [];
        for (const cid of b.claimIds) claims.push(await d.verifyTx(tx, cid, o));
        const failed = claims.filter((c) => c.outcome === "failed").map((c) => c.claim.id);
        const outcome = failed.length === 0 ? "verified" : "failed";
        const at = d.clock().toISOString();
        await setClaimBatchOutcome(tx, id, { status: outcome, at });
        const changed = b.status !== outcome;
        const out: BatchVerifyOutcome<V> = { batch: view({ ...b, status: outcome, verifiedAt: at }), outcome, claims, failed, changed };
        if (changed) {
          out.audit_id = (await d.audit.append(tx, {
            action: "claim_batch_verified", actor: o.actor, target: `claim_batch:${id}`, detail: { from: b.status, to: outcome, claims: b.claimIds.length, failed },
          })).id;
        }
        return out;
      });
    },
  };
}
