/**
 * `POST /ingest`: the structured knowledge write (SPEC §4.2). The chunk, its
 * vector, its entities and relations commit in one transaction; a duplicate
 * by content hash returns the existing id with zero counts and no writes.
 */
import { MemoryError } from "../core/errors.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import type { NewChunk } from "../core/types.ts";
import { domainExists } from "../store/domains.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { confidenceFor, originFor } from "./confidence.ts";
import type { WriteContext } from "./context.ts";
import { writeGraphRows } from "./write-graph-rows.ts";
import { emptyDelta } from "../graph/graph-delta.ts";
import { mentionNames } from "../graph/chunk-mentions.ts";
import { domainHasEntities, entitiesByNames } from "../store/graph-read.ts";
import type { IngestInput, IngestResult } from "./ingest-schema.ts";
import { validateIngest, type IngestRequest } from "./validate-ingest.ts";
import type { Exec } from "../store/db.ts";
import { writeChunk } from "./write-chunk.ts";

export type { IngestResult };

/** A validated structured ingest, ready to write. */
export interface PreparedIngest {
  req: IngestRequest;
  chunk: NewChunk;
  /** Names the text mentions (computed on first use: a batch into a domain without entities never needs them). */
  readonly mentioned: string[];
}

/** Validates one `/ingest` body and builds its chunk (no writes). */
export async function prepareStructured(ctx: WriteContext, raw: IngestInput): Promise<PreparedIngest> {
  const req = validateIngest(raw);
  const domain = req.domain ?? GLOBAL_DOMAIN;
  await requireRegisteredDomain(ctx, domain);
  const chunk: NewChunk = {
    title: req.title,
    content: req.content,
    domain,
    contentHash: await xxh3Hex(req.content),
    source: "structured",
    origin: originFor("structured", { channel: req.originContext === "channel" }),
    confidence: confidenceFor("structured", req.sourceRef),
    flagged: false,
  };
  const labels = {
    originSource: req.sourceRef, memoryKind: req.memoryKind, lawfulBasis: req.lawfulBasis, region: req.region,
    assertionKind: req.assertionKind, expiresAt: req.expiresAt, authority: req.authority,
  };
  for (const [k, v] of Object.entries(labels)) if (v !== undefined) (chunk as unknown as Record<string, unknown>)[k] = v;
  let mentioned: string[] | undefined;
  return { req, chunk, get mentioned() { return (mentioned ??= mentionNames(req.content)); } };
}

/** Writes one prepared ingest's graph rows inside the chunk's transaction. */
export async function writePreparedGraph(ctx: WriteContext, tx: Exec, p: PreparedIngest, chunkId: number, now: string, known?: ReadonlyMap<string, number>): Promise<void> {
  const delta = emptyDelta();
  // The chunk is also linked to entities of the domain its text names (recall graph leg, SPEC §1 step 6).
  const mentions = known
    ? known.size === 0 ? [] : [...new Set(p.mentioned)].sort().map((n) => known.get(entityKey(p.chunk.domain, n))).filter((id): id is number => id !== undefined)
    : (await entitiesByNames(tx, p.chunk.domain, p.mentioned)).map((e) => e.id);
  await writeGraphRows(tx, {
    domain: p.chunk.domain, entities: p.req.entities, relations: p.req.relations, chunkId, now, edgeSource: "structured", delta, mentions,
  });
  ctx.graphSink?.({ chunkId, contentHash: p.chunk.contentHash }, delta);
}

const entityKey = (domain: string, name: string) => `${domain}\u0000${name}`;

/**
 * Writes a batch's graph rows, item by item in input order (`created[i]` is item i's new chunk id, or undefined
 * for a duplicate). When no created item declares entities — the bulk-import case — nothing in the batch can add
 * an entity a later item would mention, so the mention lookups of each domain are one query for the whole batch
 * (in name order, as the per-item query returns them).
 */
export async function writePreparedGraphs(ctx: WriteContext, tx: Exec, prepared: readonly PreparedIngest[], created: readonly (number | undefined)[], now: string): Promise<void> {
  const live = prepared.flatMap((p, i) => (created[i] === undefined ? [] : [{ p, id: created[i]! }]));
  let known: Map<string, number> | undefined;
  if (!live.some(({ p }) => p.req.entities.length > 0)) {
    known = new Map();
    const names = new Map<string, Set<string>>();
    const hasEntities = new Map<string, boolean>();
    for (const { p } of live) {
      const d = p.chunk.domain;
      if (!hasEntities.has(d)) hasEntities.set(d, await domainHasEntities(tx, d));
      if (!hasEntities.get(d)) continue;
      const set = names.get(d) ?? new Set<string>();
      names.set(d, set);
      for (const n of p.mentioned) set.add(n);
    }
    for (const [domain, set] of names) {
      if (set.size === 0) continue;
      for (const e of await entitiesByNames(tx, domain, [...set])) known.set(entityKey(domain, e.name), e.id);
    }
  }
  for (const { p, id } of live) await writePreparedGraph(ctx, tx, p, id, now, known);
}

/** The `/ingest` reply of one written item. */
export function ingestReply(p: PreparedIngest, out: { id: number; status: "created" | "duplicate"; domain: string; chunk?: { flagged: boolean } }): IngestResult {
  const r: IngestResult = out.status === "duplicate"
    ? { id: out.id, status: "duplicate", domain: out.domain, entitiesAdded: 0, relationsAdded: 0 }
    : { id: out.id, status: "created", domain: out.domain, entitiesAdded: p.req.entities.length, relationsAdded: p.req.relations.length };
  if (out.chunk?.flagged) r.flagged = true;
  return r;
}

/** Validates and writes one structured ingest request. */
export async function ingestStructured(ctx: WriteContext, raw: IngestInput): Promise<IngestResult> {
  const p = await prepareStructured(ctx, raw);
  const out = await writeChunk(ctx, p.chunk, (tx, chunkId, now) => writePreparedGraph(ctx, tx, p, chunkId, now));
  return ingestReply(p, out);
}

/** A forced domain must be registered (SPEC §2.5: unregistered → domain_invalid); `global` always is. */
export async function requireRegisteredDomain(ctx: WriteContext, domain: string): Promise<void> {
  if (domain === GLOBAL_DOMAIN) return;
  if (!(await domainExists(ctx.db.client, domain))) {
    throw new MemoryError("domain_invalid", `domain '${domain}' is not registered`, { field: "domain" });
  }
}
