/**
 * The claims loop (SPEC §2.12, §4.11; issue 17): claim schemas (JSON Schema,
 * the subset in `json-schema-subset.ts`), claims filed against a schema with
 * chunk ids as evidence, and verify, which checks that every evidence chunk
 * exists and is current and that the claim validates, then records the
 * outcome on the claim. Schema creation, filing and every verify that moves
 * the claim's status write one hash-chained audit row in the same
 * transaction (SPEC §1 item 5). Promotion is not here: `promote.ts` refuses
 * it, always (SPEC §3).
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import {
  chunkHashesOf, type ClaimRow, type ClaimSchemaRow, type ClaimStatus, evidenceStates, findClaimSchemaByName, getClaim, getClaimSchema,
  insertClaim, insertClaimSchema, listClaims, listClaimSchemas, setClaimOutcome,
} from "../store/claims.ts";
import type { Db, Exec } from "../store/db.ts";
import { type ClaimBatchService, createClaimBatchService } from "./claim-batches.ts";
import { checkSchema, type Schema, validate } from "./json-schema-subset.ts";
import { reasonsFor, type VerifyReason } from "./verify-reasons.ts";
import { parseWith } from "../core/schema.ts";
import { ClaimBody, ClaimSchemaBody, MAX_EVIDENCE, type ClaimInput, type ClaimSchemaInput } from "./claim-schema.ts";
import { withDomainReads } from "../store/domain-dbs.ts";

/** Largest schema or claim document, in bytes of its JSON text. */
export const MAX_CLAIM_BYTES = 64 * 1024;
/** Evidence ids per claim. */
export { MAX_EVIDENCE };

/** A schema as served. */
export interface ClaimSchemaView {
  id: number;
  name: string;
  schema: Schema;
  schema_sha256: string;
  created_at: string;
}

/** A claim as served. */
export interface ClaimView {
  id: number;
  schema_id: number;
  claim: unknown;
  claim_sha256: string;
  evidence: { chunk_id: number; content_hash?: string }[];
  status: ClaimStatus;
  reasons?: VerifyReason[];
  created_at: string;
  verified_at?: string;
}

/** The outcome of one verify. */
export interface VerifyOutcome {
  claim: ClaimView;
  outcome: "verified" | "failed";
  reasons: VerifyReason[];
  /** True when this verify moved the claim's status (and wrote an audit row). */
  changed: boolean;
  audit_id?: number;
}

/** The service every binding calls (`memory.claims`). */
export interface ClaimService {
  createSchema(body: ClaimSchemaInput, o?: { actor?: string }): Promise<{ created: boolean; schema: ClaimSchemaView }>;
  listSchemas(o?: { after?: number; limit?: number }): Promise<ClaimSchemaView[]>;
  file(body: ClaimInput, o?: { actor?: string }): Promise<ClaimView>;
  get(id: number): Promise<ClaimView>;
  list(o?: { after?: number; limit?: number; status?: string; schemaId?: number }): Promise<ClaimView[]>;
  verify(id: number, o?: { actor?: string }): Promise<VerifyOutcome>;
  /** Claim batches: claims verified together, with the batch's own status (SPEC §2.12). */
  readonly batches: ClaimBatchService<VerifyOutcome>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function jsonOf(v: unknown, field: string): string {
  const text = JSON.stringify(v);
  if (new TextEncoder().encode(text).byteLength > MAX_CLAIM_BYTES) {
    throw new MemoryError("claim_too_large", `${field} is over ${MAX_CLAIM_BYTES} bytes of JSON`, { field, max: MAX_CLAIM_BYTES });
  }
  return text;
}

function schemaView(r: ClaimSchemaRow): ClaimSchemaView {
  return { id: r.id, name: r.name, schema: JSON.parse(r.schemaJson) as Schema, schema_sha256: r.schemaSha256, created_at: r.createdAt };
}

function claimView(r: ClaimRow): ClaimView {
  const v: ClaimView = {
    id: r.id, schema_id: r.schemaId, claim: JSON.parse(r.claimJson), claim_sha256: r.claimSha256,
    evidence: r.evidence.map((e) => (e.contentHash ? { chunk_id: e.chunkId, content_hash: e.contentHash } : { chunk_id: e.chunkId })),
    status: r.status, created_at: r.createdAt,
  };
  if (r.reasonsJson !== undefined) v.reasons = JSON.parse(r.reasonsJson) as VerifyReason[];
  if (r.verifiedAt !== undefined) v.verified_at = r.verifiedAt;
  return v;
}

/** Paging of every claims list: `after` an id, `limit` 1 to 1000 (default 100). */
export function page(o: { after?: number; limit?: number }): { after: number; limit: number } {
  const after = o.after ?? 0;
  const limit = o.limit ?? 100;
  if (!Number.isSafeInteger(after) || after < 0) throw new MemoryError("invalid_request", "after must be a non-negative integer", { field: "after" });
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new MemoryError("limit_out_of_range", "limit must be 1 to 1000", { field: "limit", min: 1, max: 1000 });
  return { after, limit };
}

/** Builds the claim service. */
export function createClaimService(d: { db: Db; audit: AuditService; clock: () => Date }): ClaimService {
  const ex = d.db.client;
  return {
    async createSchema(raw, o = {}) {
      const body = parseWith(ClaimSchemaBody, raw);
      const name = body.name;
      const text = jsonOf(body.schema, "schema");
      checkSchema(body.schema);
      const sha = await sha256Hex(text);
      const prior = await findClaimSchemaByName(ex, name);
      if (prior) {
        // Schemas are immutable: a verified claim must keep meaning what it meant. The same bytes again are a no-op.
        if (prior.schemaSha256 === sha) return { created: false, schema: schemaView(prior) };
        throw new MemoryError("claim_schema_exists", "A different schema already has this name", { name, id: prior.id }, 409);
      }
      const at = d.clock().toISOString();
      const id = await d.db.write(async (tx) => {
        const sid = await insertClaimSchema(tx, { name, schemaJson: text, schemaSha256: sha, createdAt: at });
        await d.audit.append(tx, { action: "claim_schema_created", actor: o.actor, target: `claim_schema:${sid}`, detail: { name, schema_sha256: sha } });
        return sid;
      });
      return { created: true, schema: schemaView((await getClaimSchema(ex, id))!) };
    },

    async listSchemas(o = {}) {
      return (await listClaimSchemas(ex, page(o))).map(schemaView);
    },

    async file(raw, o = {}) {
      const { schema_id: sid, claim, evidence } = parseWith(ClaimBody, raw);
      if (!(await getClaimSchema(ex, sid))) throw new MemoryError("not_found", "Unknown claim schema", { field: "schema_id" });
      const text = jsonOf(claim, "claim");
      const claimSha = await sha256Hex(text);
      const at = d.clock().toISOString();
      const id = await d.db.write(async (tx) => {
        // The content hash each chunk had when the claim cited it: verify reports a chunk that no longer matches.
        const hashes = await chunkHashesOf(withDomainReads(d.db, tx), evidence);
        const cid = await insertClaim(tx, {
          schemaId: sid, claimJson: text, claimSha256: claimSha, createdAt: at,
          evidence: evidence.map((chunkId) => ({ chunkId, contentHash: hashes.get(chunkId) })),
        });
        await d.audit.append(tx, {
          action: "claim_filed", actor: o.actor, target: `claim:${cid}`, detail: { schema_id: sid, claim_sha256: claimSha, evidence },
        });
        return cid;
      });
      return claimView((await getClaim(ex, id))!);
    },

    async get(id) {
      const r = await getClaim(ex, id);
      if (!r) throw new MemoryError("not_found", "Unknown claim");
      return claimView(r);
    },

    async list(o = {}) {
      const p = page(o);
      if (o.status !== undefined && !["filed", "verified", "failed"].includes(o.status)) {
        throw new MemoryError("invalid_request", "status must be filed, verified or failed", { field: "status" });
      }
      return (await listClaims(ex, { ...p, status: o.status as ClaimStatus | undefined, schemaId: o.schemaId })).map(claimView);
    },

    verify: (id, o = {}) => d.db.write((tx) => verifyTx(tx, id, o)),
    batches: createClaimBatchService({ db: d.db, audit: d.audit, clock: d.clock, verifyTx, page }),
  };

  /** One verify inside the caller's transaction (a batch verifies its claims in one). */
  async function verifyTx(tx: Exec, id: number, o: { actor?: string } = {}): Promise<VerifyOutcome> {
    const claim = await getClaim(tx, id);
    if (!claim) throw new MemoryError("not_found", "Unknown claim");
    const schema = (await getClaimSchema(tx, claim.schemaId))!;
    const now = d.clock();
    const states = await evidenceStates(withDomainReads(d.db, tx), claim.evidence.map((e) => e.chunkId));
    const reasons = [
      ...reasonsFor(claim.evidence, states, now),
      ...validate(JSON.parse(schema.schemaJson) as Schema, JSON.parse(claim.claimJson)).map((e) => ({ code: "claim_invalid" as const, ...e })),
    ];
    const outcome = reasons.length === 0 ? "verified" : "failed";
    const at = now.toISOString();
    await setClaimOutcome(tx, id, { status: outcome, reasonsJson: JSON.stringify(reasons), at });
    const changed = claim.status !== outcome;
    let auditId: number | undefined;
    if (changed) {
      // Reason codes and chunk ids only: the claim text never enters the audit log.
      auditId = (await d.audit.append(tx, {
        action: "claim_verified", actor: o.actor, target: `claim:${id}`,
        detail: { from: claim.status, to: outcome, reasons: reasons.map((r) => r.code), claim_sha256: claim.claimSha256 },
      })).id;
    }
    const view = claimView({ ...claim, status: outcome, reasonsJson: JSON.stringify(reasons), verifiedAt: at });
    const out: VerifyOutcome = { claim: view, outcome, reasons, changed };
    if (auditId !== undefined) out.audit_id = auditId;
    return out;
  }
}
