/**
 * What a UMP record carries for a chunk written through another door
 * (issue 22 item 2; SPEC §2.8 file binding, §2.1 labels, §2.6 graph): the
 * record's own members hold the text, title, times and lineage, but recall
 * also depends on state stored beside the text — the ingest kind and labels,
 * the markdown metadata (front matter, heading path, line span, source link),
 * the graph entities and edges the chunk produced and the file it came from.
 *
 * Export adds it as the extension member `x-cairn` (and the note's own edges
 * as standard UMP `relations`, target `entity:<name>`, for other readers);
 * import writes it back with the chunk, in the same transaction, so a store
 * exported and imported into a fresh database recalls the same notes.
 * Documents stay one record per chunk (ids are kept); a document split into
 * several chunks says so in `x-cairn.document` `{id, index, count}`.
 */
import { MemoryError } from "../core/errors.ts";
import { INGEST_KINDS, type Chunk, type IngestKind, type NewChunk, type Origin } from "../core/types.ts";
import { emptyDelta } from "../graph/graph-delta.ts";
import { upsertEdge } from "../ingest/write-graph-rows.ts";
import { addChunkToFileSource, type CarriedEdge, type CarriedEntity, type CarriedFile, filesOfChunk, graphOfChunk } from "../store/chunk-carry.ts";
import type { Exec } from "../store/db.ts";
import { ensureEntity, findEntity, linkEntityChunks } from "../store/graph-rows.ts";
import type { UmpRecord, UmpRelation } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";

/** The extension member's name. */
export const CARRY = "x-cairn";

/** Where a document's chunk sits in it. */
export interface DocumentPart {
  id: string;
  index: number;
  count: number;
}

/** The `x-cairn` member. */
export interface Carry {
  chunk: {
    source: IngestKind;
    domain: string;
    origin?: Origin;
    origin_source?: string;
    confidence: number;
    memory_kind?: string;
    lawful_basis?: string;
    region?: string;
    assertion_kind?: string;
    expires_at?: string;
    authority?: number;
    meta?: Record<string, unknown>;
  };
  document?: DocumentPart;
  entities?: CarriedEntity[];
  edges?: CarriedEdge[];
  files?: CarriedFile[];
}

// Meta members the UMP door itself writes (`store-record.ts`) or that travel as their own member.
const OWN_META = new Set(["owner", "ump_id", "document"]);

/** The carry of a stored chunk. */
export async function carryOfChunk(ex: Exec, c: Chunk): Promise<Carry> {
  const meta = Object.fromEntries(Object.entries(c.meta ?? {}).filter(([k]) => !OWN_META.has(k)));
  const chunk: Carry["chunk"] = { source: c.source, domain: c.domain, confidence: c.confidence };
  if (c.origin !== undefined) chunk.origin = c.origin;
  if (c.originSource !== undefined) chunk.origin_source = c.originSource;
  if (c.memoryKind !== undefined) chunk.memory_kind = c.memoryKind;
  if (c.lawfulBasis !== undefined) chunk.lawful_basis = c.lawfulBasis;
  if (c.region !== undefined) chunk.region = c.region;
  if (c.assertionKind !== undefined) chunk.assertion_kind = c.assertionKind;
  if (c.expiresAt !== undefined) chunk.expires_at = c.expiresAt;
  if (c.authority !== undefined) chunk.authority = c.authority;
  if (Object.keys(meta).length) chunk.meta = meta;
  const out: Carry = { chunk };
  const doc = c.meta?.document as DocumentPart | undefined;
  if (doc && typeof doc.id === "string") out.document = { id: doc.id, index: doc.index, count: doc.count };
  const g = await graphOfChunk(ex, c.id);
  if (g.entities.length) out.entities = g.entities;
  if (g.edges.length) out.edges = g.edges;
  const files = await filesOfChunk(ex, c.id);
  if (files.length) out.files = files;
  return out;
}

/** The record with its carry: `x-cairn` replaced, the note's edges merged into `relations`. */
export function withCarry(record: UmpRecord, carry: Carry): UmpRecord {
  const notes = new Set((carry.entities ?? []).filter((e) => e.link === "subject" && e.type === "note").map((e) => e.name.toLowerCase()));
  const relations: UmpRelation[] = [...(record.relations ?? [])];
  const seen = new Set(relations.map((r) => `${r.type}\u0000${r.target}`));
  for (const e of carry.edges ?? []) {
    const rel = { type: e.type.slice(0, 64), target: `entity:${e.to}` };
    const key = `${rel.type}\u0000${rel.target}`;
    if (!notes.has(e.from.toLowerCase()) || seen.has(key)) continue;
    seen.add(key);
    relations.push(rel);
  }
  const out = { ...record, [CARRY]: carry } as UmpRecord & Record<string, unknown>;
  if (relations.length) out.relations = relations;
  return out;
}

/** Should export carry this record's chunk state? A record derived from a chunk, or one that already carried it. */
export function carries(record: UmpRecord): boolean {
  return (record as unknown as Record<string, unknown>)[CARRY] !== undefined || (record.provenance?.method ?? "").startsWith("cairn:");
}

/** The carry of an incoming record, validated; undefined when it has none. */
export function readCarry(record: UmpRecord): Carry | undefined {
  const c = (record as unknown as Record<string, unknown>)[CARRY] as Carry | undefined;
  if (c === undefined) return undefined;
  const bad = (why: string) => new MemoryError("invalid_record", `Invalid record: ${CARRY}: ${why}`, { problems: [`${CARRY}: ${why}`] });
  if (typeof c !== "object" || c === null || typeof c.chunk !== "object" || c.chunk === null) throw bad("must be an object with chunk");
  if (!INGEST_KINDS.includes(c.chunk.source)) throw bad(`chunk.source must be one of ${INGEST_KINDS.join(", ")}`);
  if (typeof c.chunk.domain !== "string" || typeof c.chunk.confidence !== "number") throw bad("chunk.domain and chunk.confidence are required");
  const strings = (xs: unknown, keys: string[]) => xs === undefined || (Array.isArray(xs) && xs.every((x) => typeof x === "object" && x !== null &&
    keys.every((k) => typeof (x as Record<string, unknown>)[k] === "string")));
  if (!strings(c.entities, ["name"]) || !strings(c.edges, ["from", "type", "to", "source"]) || !strings(c.files, ["kind", "root", "path", "hash"])) {
    throw bad("entities, edges and files must be lists of named objects");
  }
  if (c.document !== undefined && (typeof c.document?.id !== "string" || !Number.isInteger(c.document.index) || !Number.isInteger(c.document.count))) {
    throw bad("document must be {id, index, count}");
  }
  return c;
}

/** The chunk labels of a carried record (the caller adds text, hash and its own meta). */
export function chunkLabels(c: Carry): Partial<NewChunk> {
  const k = c.chunk;
  const out: Partial<NewChunk> = { source: k.source, domain: k.domain, confidence: k.confidence };
  if (k.origin !== undefined) out.origin = k.origin;
  if (k.origin_source !== undefined) out.originSource = k.origin_source;
  if (k.memory_kind !== undefined) out.memoryKind = k.memory_kind;
  if (k.lawful_basis !== undefined) out.lawfulBasis = k.lawful_basis;
  if (k.region !== undefined) out.region = k.region;
  if (k.assertion_kind !== undefined) out.assertionKind = k.assertion_kind as NewChunk["assertionKind"];
  if (k.expires_at !== undefined) out.expiresAt = k.expires_at;
  if (k.authority !== undefined) out.authority = k.authority;
  out.meta = { ...(k.meta ?? {}), ...(c.document ? { document: c.document } : {}) };
  return out;
}

/** Writes a carried chunk's graph rows and file links inside its write transaction; stages the graph delta. */
export async function writeCarry(d: UmpDeps, tx: Exec, c: Carry, chunk: { id: number; contentHash: string }, now: string): Promise<void> {
  const domain = c.chunk.domain;
  const delta = emptyDelta();
  const ids = new Map<string, number>();
  const entity = async (name: string, type?: string) => {
    const key = name.toLowerCase();
    if (!ids.has(key)) {
      ids.set(key, (await ensureEntity(tx, { domain, name: key, displayName: name, type }, now)).id);
      delta.entities.push((await findEntity(tx, domain, key))!);
    }
    return ids.get(key)!;
  };
  for (const e of c.entities ?? []) await entity(e.name, e.type);
  for (const e of c.edges ?? []) {
    await upsertEdge(tx, {
      domain, fromId: await entity(e.from), toId: await entity(e.to), type: e.type, validAt: e.valid_at, invalidAt: e.invalid_at,
      chunkId: chunk.id, now, edgeSource: e.source,
    }, delta);
  }
  const links = (c.entities ?? []).filter((e) => e.link).map((e) => ({ entityId: ids.get(e.name.toLowerCase())!, chunkId: chunk.id, subject: e.link === "subject" }));
  await linkEntityChunks(tx, links);
  delta.links.push(...links);
  for (const f of c.files ?? []) await addChunkToFileSource(tx, f, chunk.id, now);
  d.write.graphSink?.({ chunkId: chunk.id, contentHash: chunk.contentHash }, delta);
}
