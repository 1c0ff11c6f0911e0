/**
 * What an imported parcel row carries to its promotion (SPEC §3: approving
 * an imported proposal promotes the row): its labels and provenance onto
 * the new chunk, and the graph edges it asserts, written in the approval's
 * transaction (edge source `parcel`). The origin stays `imported` (SPEC §2.1).
 */
import type { AssertionKind, EntityInput, NewChunk, RelationInput } from "../core/types.ts";
import { emptyDelta, type GraphSink } from "../graph/graph-delta.ts";
import { writeGraphRows } from "../ingest/write-graph-rows.ts";
import type { Exec } from "../store/db.ts";
import { proposalCarried } from "../store/parcels.ts";
import type { ParcelEdge, ParcelLabels } from "./parcel-format.ts";

/** What an imported proposal carries. */
export interface Carried {
  parcel_hash: string;
  signer: string;
  labels: ParcelLabels;
  edges: ParcelEdge[];
}

/** The carried payload of a proposal, or undefined when it did not come in a parcel. */
export async function carriedOf(ex: Exec, proposalId: number): Promise<Carried | undefined> {
  return (await proposalCarried(ex, proposalId)) as Carried | undefined;
}

/** The chunk with the carried labels applied (the proposal's text, domain and origin are kept). */
export function withCarriedLabels(c: NewChunk, k: Carried): NewChunk {
  const l = k.labels;
  const out: NewChunk = { ...c, confidence: l.confidence, meta: { ...(c.meta ?? {}), parcel_hash: k.parcel_hash, parcel_signer: k.signer } };
  if (l.origin_source !== undefined) out.originSource = l.origin_source;
  if (l.memory_kind !== undefined) out.memoryKind = l.memory_kind;
  if (l.lawful_basis !== undefined) out.lawfulBasis = l.lawful_basis;
  if (l.region !== undefined) out.region = l.region;
  if (l.assertion_kind !== undefined) out.assertionKind = l.assertion_kind as AssertionKind;
  if (l.expires_at !== undefined) out.expiresAt = l.expires_at;
  if (l.authority !== undefined) out.authority = l.authority;
  return out;
}

/** Writes the carried edges for the promoted chunk inside the approval's transaction and stages them for the recall graph. */
export async function writeCarriedEdges(
  tx: Exec, k: Carried, o: { domain: string; chunkId: number; contentHash: string; now: string; sink?: GraphSink },
): Promise<void> {
  if (k.edges.length === 0) return;
  const entities = new Map<string, EntityInput>();
  const add = (name: string, type?: string) => {
    const key = name.toLowerCase();
    if (!entities.has(key) || (type !== undefined && entities.get(key)!.type === undefined)) entities.set(key, type === undefined ? { name } : { name, type });
  };
  const relations: RelationInput[] = k.edges.map((e) => {
    add(e.from, e.from_type);
    add(e.to, e.to_type);
    const r: RelationInput = { from: e.from, to: e.to, type: e.type };
    if (e.valid_at !== undefined) r.valid_at = e.valid_at;
    if (e.invalid_at !== undefined) r.invalid_at = e.invalid_at;
    return r;
  });
  const delta = emptyDelta();
  await writeGraphRows(tx, { domain: o.domain, entities: [...entities.values()], relations, chunkId: o.chunkId, now: o.now, edgeSource: "parcel", delta });
  o.sink?.({ chunkId: o.chunkId, contentHash: o.contentHash }, delta);
}
