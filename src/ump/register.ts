/**
 * The Agent Memory Register (SPEC §4.3 web client, §2.8): a read-only
 * inventory of UMP records grouped by owner and kind, each with its
 * provenance, its integrity and signature status (verified now, as `get`
 * verifies before return) and its version history (the lineage through
 * `supersedes` / `superseded_by`). Text passes the read seam; records the
 * caller may not read are left out, as in `browse`.
 */
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { getChunk } from "../store/chunks.ts";
import { listUmpRowsAfter, type UmpRow } from "../store/ump-records.ts";
import { canRead, type UmpActor } from "./actor.ts";
import { recordOfRow } from "./record-rows.ts";
import { verifyRecordAsync } from "./sign.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** One version of a record as the register lists it. */
export interface RegisterVersion {
  id: string;
  kind: string;
  owner: string;
  status: string;
  created_at: string;
  title?: string;
  text: string;
  provenance?: UmpRecord["provenance"];
  /** `verified` (hash, and signature when signed), or `failed: <reason>`. */
  integrity: string;
  signed: boolean;
  signer?: string;
  content_hash?: string;
  supersedes: string[];
  superseded_by: string[];
}

/** The register: record lineages (newest version first) grouped by owner, then kind. */
export interface Register {
  owners: { owner: string; kinds: { kind: string; lineages: RegisterVersion[][] }[] }[];
  records: number;
  /** True when more rows exist than were read (`limit`). */
  truncated: boolean;
}

async function versionOf(d: UmpDeps, row: UmpRow, piiRead: boolean): Promise<RegisterVersion | undefined> {
  const chunk = await getChunk(routedReader(d.db), row.chunkId);
  if (!chunk) return undefined;
  const rec = recordOfRow(row, chunk.content);
  const v = await verifyRecordAsync(rec);
  const seam = (s: string) => sanitizeForRead(s, { piiRead });
  const out: RegisterVersion = {
    id: row.id, kind: row.kind, owner: row.owner, status: row.status, created_at: row.createdAt, text: seam(rec.body.text),
    integrity: v.ok ? "verified" : `failed: ${v.reason}`, signed: rec.integrity?.signature !== undefined,
    supersedes: rec.supersedes ?? [], superseded_by: rec.superseded_by ?? [],
  };
  if (typeof rec.title === "string") out.title = seam(rec.title);
  if (rec.provenance !== undefined) out.provenance = rec.provenance;
  if (rec.integrity?.signer !== undefined) out.signer = rec.integrity.signer;
  if (rec.integrity?.content_hash !== undefined) out.content_hash = rec.integrity.content_hash;
  return out;
}

/** Builds the register from the first `limit` stored rows the actor may read. */
export async function buildRegister(d: UmpDeps, actor: UmpActor, o: { limit: number }): Promise<Register> {
  const rows = await listUmpRowsAfter(d.db.client, 0, o.limit + 1);
  const truncated = rows.length > o.limit;
  const versions = new Map<string, RegisterVersion>();
  for (const row of rows.slice(0, o.limit)) {
    const scope = (JSON.parse(row.record) as { scope?: Record<string, string> }).scope ?? { owner: row.owner, visibility: row.visibility };
    if (!canRead(actor, scope)) continue;
    const v = await versionOf(d, row, actor.piiRead);
    if (v) versions.set(v.id, v);
  }
  // A lineage starts at its newest version (one nothing supersedes) and walks back through `supersedes`.
  const byOwner = new Map<string, Map<string, RegisterVersion[][]>>();
  for (const head of [...versions.values()].reverse()) {
    if (head.superseded_by.some((id) => versions.has(id))) continue;
    const lineage: RegisterVersion[] = [];
    const seen = new Set<string>();
    for (let cur: RegisterVersion | undefined = head; cur && !seen.has(cur.id); cur = versions.get(cur.supersedes[cur.supersedes.length - 1] ?? "")) {
      seen.add(cur.id);
      lineage.push(cur);
    }
    const kinds = byOwner.get(head.owner) ?? new Map<string, RegisterVersion[][]>();
    byOwner.set(head.owner, kinds);
    kinds.set(head.kind, [...(kinds.get(head.kind) ?? []), lineage]);
  }
  const owners = [...byOwner.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([owner, kinds]) => ({
    owner, kinds: [...kinds.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, lineages]) => ({ kind, lineages })),
  }));
  return { owners, records: versions.size, truncated };
}
