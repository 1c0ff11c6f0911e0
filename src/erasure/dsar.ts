/**
 * `POST /dsar` (SPEC §1 item 6, §3 erasure row, §4.4): a data-subject
 * erasure. Body `{owner?, email?, match?, dry_run?}` (at least one subject
 * field). In ONE write transaction it locates the subject's chunks (by
 * `meta.owner`, or content/title containing the email or the match text),
 * exports them, purges them (tombstones; 900 ids per statement), deletes
 * the proposals reachable through `promoted_chunk_id`, runs the
 * content-match delete over proposals (owned by the subject, or whose
 * content, title or sourcing prompt contains the email or match text),
 * deletes the consolidation links touching the chunks and the graph
 * entities whose name contains the email or match text (with their edges),
 * reaches every other table that can name the subject (`subject-rows.ts`;
 * issue 35: workflow events and runs redacted in place, channel rows,
 * claims, KCS translations, UMP feedback, file sources), counts the audit
 * rows it may not change (`retained`), appends the `erasure` audit row and
 * stores the certificate with rows per table. Any failure rolls the
 * whole erasure back, and no certificate exists. `dry_run` locates and
 * exports only: nothing is deleted, audited or certified.
 */
import { writeAcross } from "../store/domain-dbs.ts";
import type { AuditService } from "../audit/audit-service.ts";
import type { WriteContext } from "../ingest/context.ts";
import { parseWith } from "../core/schema.ts";
import { DsarBody, type DsarInput } from "./erasure-schema.ts";
import { cleanEntityName } from "../graph/validate.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { GENESIS_HASH } from "../audit/chain-hash.ts";
import { auditHead } from "../store/audit.ts";
import { getChunks } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { chunkIdsByOwner, chunkIdsMatching, deleteEntitiesWithEdges, entityIdsMatching, existingChunkIds, insertCertificate } from "../store/erasure.ts";
import { addCounts, nonZero } from "../store/erasure-bound.ts";
import { eraseSubjectRows, locatedCounts, locateSubjectRows } from "./subject-rows.ts";
import { auditRowsNaming } from "../store/erasure-match.ts";
import { getProposals, proposalIdsMatching, proposalIdsPromotedTo } from "../store/proposals.ts";
import { CERTIFICATE_FORMAT, certificateDigest, subjectDigest, type Certificate, type ErasureSubject } from "./certificate.ts";
import { eraseInTx } from "./erase-in-tx.ts";

/** The subject-access export (read seam applied as for a `pii:read` principal: it is the subject's own data). */
export interface DsarExport {
  chunks: { id: number; title?: string; content: string; domain: string; source: string; created_at: string }[];
  proposals: { id: number; status: string; title?: string; content: string; domain: string; created_at: string }[];
  /** Governed-case events whose payload names the subject (issue 35), as stored before the erasure redacts them. */
  workflow_events: { id: number; payload: unknown }[];
  /** Governed runs whose state or case record names the subject. */
  workflow_runs: { id: number; state_json: unknown; case?: unknown }[];
  /** Claims whose JSON names the subject. */
  claims: { id: number; claim: unknown }[];
}

/** The DSAR reply (this project's shape). */
export interface DsarResult {
  dry_run: boolean;
  /** `tables`: rows located in the other tables (issue 35), by table. */
  located: { chunks: number; proposals: number; tables: Record<string, number> };
  export: DsarExport;
  certificate?: Certificate;
}

function parse(raw: DsarInput): { subject: ErasureSubject; dryRun: boolean } {
  const b = parseWith(DsarBody, raw);
  const subject: ErasureSubject = {};
  if (b.owner !== undefined) subject.owner = b.owner;
  if (b.email !== undefined) subject.email = b.email;
  if (b.match !== undefined) subject.match = b.match;
  return { subject, dryRun: b.dry_run === true };
}

const read = (t: string) => sanitizeForRead(t, { piiRead: true });

/**
 * The texts an entity named after the subject may carry: the needle itself and
 * the form the graph cleans names to (an alias `dana.ng@example.com` is stored as
 * entity `danang examplecom`), so such an entity does not survive the erasure.
 */
function entityNeedles(needles: readonly string[]): string[] {
  const out = new Set(needles);
  for (const n of needles) {
    const cleaned = cleanEntityName(n);
    if (cleaned !== null && cleaned.length >= 3) out.add(cleaned);
  }
  return [...out];
}

/** A stored JSON text as a value, passed through the read seam (strings as a `pii:read` reader sees them). */
function readJson(text: string): unknown {
  const walk = (v: unknown): unknown =>
    typeof v === "string" ? read(v) : Array.isArray(v) ? v.map(walk)
    : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) : v;
  try {
    return walk(JSON.parse(text));
  } catch {
    return read(text);
  }
}

/** Random hex (Web Crypto). */
function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** Runs one erasure. */
export async function dsar(
  d: { ctx: WriteContext; audit: AuditService; afterErasure?: (notice: Record<string, unknown>) => void },
  raw: DsarInput,
): Promise<DsarResult> {
  const { subject, dryRun } = parse(raw);
  const needles = [subject.email, subject.match].filter((x): x is string => x !== undefined);
  const run = async (tx: Exec): Promise<DsarResult> => {
    const ids = new Set<number>();
    if (subject.owner !== undefined) for (const id of await chunkIdsByOwner(tx, subject.owner)) ids.add(id);
    for (const n of needles) for (const id of await chunkIdsMatching(tx, n)) ids.add(id);
    // Every other table that can name the subject (issue 35): its chunks and proposals join the erasure.
    const rows = await locateSubjectRows(tx, needles);
    for (const id of await existingChunkIds(tx, rows.chunkIds)) ids.add(id);
    const chunkIds = [...ids].sort((a, b) => a - b);
    const matched = [...new Set([...await proposalIdsMatching(tx, { owner: subject.owner, needles }), ...rows.proposalIds])];
    const promoted = await proposalIdsPromotedTo(tx, chunkIds);
    const proposalIds = [...new Set([...matched, ...promoted])].sort((a, b) => a - b);
    const chunks = (await getChunks(tx, chunkIds)).sort((a, b) => a.id - b.id);
    const proposals = await getProposals(tx, proposalIds);
    const exported: DsarExport = {
      chunks: chunks.map((c) => ({ id: c.id, ...(c.title !== undefined ? { title: read(c.title) } : {}), content: read(c.content), domain: c.domain, source: c.source, created_at: c.createdAt })),
      proposals: proposals.map((p) => ({ id: p.id, status: p.status, ...(p.title !== undefined ? { title: read(p.title) } : {}), content: read(p.content), domain: p.domain, created_at: p.createdAt })),
      workflow_events: rows.events.map((e) => ({ id: e.id, payload: readJson(e.payload) })),
      workflow_runs: rows.runs.map((r) => ({ id: r.id, state_json: readJson(r.stateJson), ...(r.caseJson !== null ? { case: readJson(r.caseJson) } : {}) })),
      claims: rows.claims.map((c) => ({ id: c.id, claim: readJson(c.claimJson) })),
    };
    const located = { chunks: chunkIds.length, proposals: proposalIds.length, tables: nonZero(locatedCounts(rows)) };
    const result: DsarResult = { dry_run: dryRun, located, export: exported };
    if (dryRun) return result;
    const now = d.ctx.clock().toISOString();
    const erased = await eraseInTx(tx, { chunkIds, extraProposalIds: matched, reason: "erasure", now });
    // Graph entities named after the subject (email or match text) go with their edges.
    const entityIds = new Set<number>();
    for (const n of entityNeedles(needles)) for (const id of await entityIdsMatching(tx, n)) entityIds.add(id);
    const graph = await deleteEntitiesWithEdges(tx, [...entityIds].sort((a, b) => a - b));
    const other = await eraseSubjectRows(tx, rows, needles);
    // The audit log is append-only and hash-chained: rows written before identifiers were hashed keep them. Counted, not hidden.
    const retained = nonZero({ audit_log: await auditRowsNaming(tx, needles) });
    const tables = addCounts(addCounts({ ...erased.tables }, other.deleted), { entities: graph.entities, relations: graph.relations });
    const salt = randomHex(16);
    const body: Omit<Certificate, "digest" | "audit"> = {
      format: CERTIFICATE_FORMAT, id: crypto.randomUUID(), issued_at: now,
      subject: { fields: Object.keys(subject).sort(), salt, digest: subjectDigest(subject, salt) },
      erased: {
        chunk_ids: erased.chunkIds, proposal_ids: erased.proposalIds, links: erased.links, entities: graph.entities, relations: graph.relations,
        tables: nonZero(tables), redacted: nonZero(other.redacted), retained,
      },
    };
    const digest = certificateDigest(body);
    const prev = (await auditHead(tx))?.hash ?? GENESIS_HASH;
    const row = await d.audit.append(tx, {
      action: "erasure", target: `certificate:${body.id}`,
      detail: {
        certificate_id: body.id, certificate_digest: digest, subject_digest: body.subject.digest,
        chunks: erased.chunkIds.length, proposals: erased.proposalIds.length, links: erased.links, entities: graph.entities, relations: graph.relations,
        tables: nonZero(tables), redacted: nonZero(other.redacted), retained,
      },
    });
    const certificate: Certificate = { ...body, digest, audit: { row_id: row.id, prev_hash: prev, row_hash: row.hash } };
    await insertCertificate(tx, { id: body.id, issuedAt: now, auditRowId: row.id, digest, body: certificate as unknown as Record<string, unknown> });
    result.certificate = certificate;
    return result;
  };
  // A dry run still reads inside one transaction, for a consistent snapshot.
  // Multi-database mode: one write over every database, so no domain keeps the erased rows (docs/scale-out.md).
  const result = await writeAcross(d.ctx.db, run);
  const cert = result.certificate;
  if (cert) {
    for (const id of cert.erased.chunk_ids) for (const h of d.ctx.indexHooks) h.removed(id);
    // SPEC §6 erasure webhook: after commit, never blocking the reply; the notice holds no personal data.
    d.afterErasure?.({
      certificate_id: cert.id, certificate_digest: cert.digest, issued_at: cert.issued_at, audit_row_id: cert.audit.row_id,
      subject_digest: cert.subject.digest, chunks: cert.erased.chunk_ids.length, proposals: cert.erased.proposal_ids.length,
    });
  }
  return result;
}
