/**
 * Consolidation (SPEC §3 supersede row, §4.4): `propose` runs the
 * deterministic planner and files new links as `proposed`; `approve`
 * approves a proposed link (or files and approves one a human names);
 * `undo` reverses an approval (or dismisses a proposal). Each state change
 * commits with its audit row. Approving a `supersedes` link expires the
 * older fact for current recall from that moment; `at` before it still
 * sees it (`recall-filter.ts`).
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import type { WriteContext } from "../ingest/context.ts";
import { getChunk, listChunksAfter } from "../store/chunks.ts";
import {
  approveLink, closeLink, edgeConflicts, type EdgeConflict, listedRelationTypes, findOpenLink, getLink, insertLink, linkExistsForPair, listLinks,
  type LinkKind, type LinkRow, type LinkStatus,
} from "../store/consolidation.ts";
import type { Db, Exec } from "../store/db.ts";
import { dbOfDomain, dbsOf, withDomainReads } from "../store/domain-dbs.ts";
import { checkSupersedes } from "./check-supersedes.ts";
import { planConsolidation, type PlanChunk } from "./plan-consolidation.ts";
import { NEAR_DUPLICATE_SIMILARITY } from "./similarity.ts";

/** A link as served (this project's shape). */
export interface LinkView {
  id: number;
  kind: LinkKind;
  from: number;
  to: number;
  status: LinkStatus;
  basis: Record<string, unknown>;
  created_at: string;
  approved_at?: string;
  closed_at?: string;
}

/** Consolidation operations. */
export interface ConsolidateService {
  propose(o: { domain?: string; threshold?: number }): Promise<{ proposed: LinkView[]; threshold: number }>;
  list(o: { status?: string; after?: number; limit?: number }): Promise<LinkView[]>;
  approve(o: { id?: number; from?: number; to?: number; kind?: LinkKind }): Promise<LinkView>;
  undo(id: number): Promise<LinkView>;
}

/** Serves a link row. */
export function linkView(l: LinkRow): LinkView {
  const v: LinkView = { id: l.id, kind: l.kind, from: l.from, to: l.to, status: l.status, basis: l.basis, created_at: l.createdAt };
  if (l.approvedAt !== undefined) v.approved_at = l.approvedAt;
  if (l.closedAt !== undefined) v.closed_at = l.closedAt;
  return v;
}

async function planChunks(db: Db, domain?: string): Promise<{ chunks: PlanChunk[]; created: Map<number, string> }> {
  const chunks: PlanChunk[] = [];
  const created = new Map<number, string>();
  // Multi-database mode: a domain's chunks are in its database; without a domain, every database in turn.
  for (const d of domain === undefined ? dbsOf(db) : [dbOfDomain(db, domain)]) await planChunksIn(d.client, domain, chunks, created);
  chunks.sort((a, b) => a.id - b.id);
  return { chunks, created };
}

async function planChunksIn(ex: Exec, domain: string | undefined, chunks: PlanChunk[], created: Map<number, string>): Promise<void> {
  for (let after = 0; ;) {
    const page = await listChunksAfter(ex, after, 1000);
    if (!page.length) break;
    for (const c of page) {
      created.set(c.id, c.createdAt);
      if (c.flagged || (domain !== undefined && c.domain !== domain)) continue;
      chunks.push({ id: c.id, domain: c.domain, createdAt: c.createdAt, text: c.title ? `${c.title}\n${c.content}` : c.content });
    }
    after = page[page.length - 1].id;
  }
}

/** Graph conflicts from every database holding the domain (or all), in the single-database order. */
async function conflictsOf(db: Db, domain?: string): Promise<EdgeConflict[]> {
  const out: EdgeConflict[] = [];
  for (const d of domain === undefined ? dbsOf(db) : [dbOfDomain(db, domain)]) out.push(...(await edgeConflicts(d.client, domain)));
  return out.sort((x, y) => x.a.chunkId - y.a.chunkId || x.b.chunkId - y.b.chunkId);
}

const STATUSES: readonly string[] = ["proposed", "approved", "undone", "dismissed"];

/** Builds the consolidation service. */
export function createConsolidateService(o: { ctx: WriteContext; audit: AuditService }): ConsolidateService {
  const { ctx, audit } = o;
  const db = ctx.db;
  const approveInTx = async (tx: Exec, link: LinkRow, now: string): Promise<LinkRow> => {
    // The link is a global row; its chunks may be in any domain's database (multi-database mode).
    const rx = withDomainReads(db, tx);
    if (link.kind === "supersedes") await checkSupersedes(rx, link.from, link.to);
    else for (const id of [link.from, link.to]) if (!(await getChunk(rx, id))) throw new MemoryError("not_found", `memory ${id} not found`);
    if (!(await approveLink(tx, link.id, now))) throw new MemoryError("conflict", `link ${link.id} is not proposed`, { status: link.status }, 409);
    await audit.append(tx, { action: "consolidate", target: `link:${link.id}`, detail: { link_id: link.id, kind: link.kind, from: link.from, to: link.to } });
    return (await getLink(tx, link.id))!;
  };
  return {
    async propose({ domain: rawDomain, threshold = NEAR_DUPLICATE_SIMILARITY }) {
      // Issue 23 §2: a domain filter is a domain name (SPEC §2.5 pattern), never any string.
      const domain = rawDomain === undefined ? undefined : normalizeDomainName(rawDomain);
      if (typeof threshold !== "number" || !(threshold > 0 && threshold <= 1)) {
        throw new MemoryError("invalid_request", "threshold must be a number in (0, 1]", { field: "threshold" });
      }
      const conflicts = await conflictsOf(db, domain);
      const { chunks, created } = await planChunks(db, domain);
      const listed = new Set<string>();
      for (const d of domain === undefined ? dbsOf(db) : [dbOfDomain(db, domain)]) for (const x of await listedRelationTypes(d.client, domain)) listed.add(x);
      const planned = planConsolidation({ conflicts, chunks, created, threshold, listed });
      const rows = await db.write(async (tx) => {
        const now = ctx.clock().toISOString();
        const ids: number[] = [];
        for (const p of planned) {
          // A pair a human already decided (any status) is never proposed again.
          if (await linkExistsForPair(tx, p.kind, p.from, p.to)) continue;
          const rx = withDomainReads(db, tx);
          if (!(await getChunk(rx, p.from)) || !(await getChunk(rx, p.to))) continue;
          ids.push(await insertLink(tx, { kind: p.kind, from: p.from, to: p.to, status: "proposed", basis: p.basis, createdAt: now }));
        }
        if (ids.length) await audit.append(tx, { action: "consolidate_propose", detail: { link_ids: ids, threshold, ...(domain ? { domain } : {}) } });
        const out: LinkRow[] = [];
        for (const id of ids) out.push((await getLink(tx, id))!);
        return out;
      });
      return { proposed: rows.map(linkView), threshold };
    },
    async list({ status, after = 0, limit = 100 }) {
      if (status !== undefined && !STATUSES.includes(status)) {
        throw new MemoryError("invalid_request", "status must be proposed, approved, undone or dismissed", { field: "status", allowed: STATUSES });
      }
      const rows = await listLinks(db.client, { status: status as LinkStatus | undefined, afterId: after, limit: Math.max(1, Math.min(500, limit)) });
      return rows.map(linkView);
    },
    async approve({ id, from, to, kind = "supersedes" }) {
      if (id !== undefined) {
        const link = await getLink(db.client, id);
        if (!link) throw new MemoryError("not_found", `link ${id} not found`);
        if (link.status !== "proposed") throw new MemoryError("conflict", `link ${id} is ${link.status}, not proposed`, { status: link.status }, 409);
        return linkView(await db.write(async (tx) => approveInTx(tx, (await getLink(tx, id))!, ctx.clock().toISOString())));
      }
      if (from === undefined || to === undefined) throw new MemoryError("invalid_request", "give id, or from and to", { field: "id" });
      if (from === to) throw new MemoryError("invalid_request", "a link joins two different chunks", { field: "to" });
      return linkView(await db.write(async (tx) => {
        const now = ctx.clock().toISOString();
        const open = await findOpenLink(tx, kind, from, to);
        if (open?.status === "approved") throw new MemoryError("conflict", `link ${open.id} is already approved`, { link_id: open.id }, 409);
        const linkId = open?.id ?? await insertLink(tx, { kind, from, to, status: "proposed", basis: { rule: "human" }, createdAt: now });
        return approveInTx(tx, (await getLink(tx, linkId))!, now);
      }));
    },
    async undo(id) {
      if (!(await getLink(db.client, id))) throw new MemoryError("not_found", `link ${id} not found`);
      return linkView(await db.write(async (tx) => {
        const now = ctx.clock().toISOString();
        const status = await closeLink(tx, id, now);
        const link = (await getLink(tx, id))!;
        if (!status) throw new MemoryError("conflict", `link ${id} is ${link.status}; only approved or proposed links can be undone`, { status: link.status }, 409);
        await audit.append(tx, { action: "consolidate_undo", target: `link:${id}`, detail: { link_id: id, kind: link.kind, from: link.from, to: link.to, status } });
        return link;
      }));
    },
  };
}
