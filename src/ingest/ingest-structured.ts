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
import { entitiesByNames } from "../store/graph-read.ts";
import { validateIngest } from "./validate-ingest.ts";
import { writeChunk } from "./write-chunk.ts";

/** The `/ingest` reply (SPEC §4.2). */
export interface IngestResult {
  id: number;
  status: "created" | "duplicate";
  domain: string;
  entitiesAdded: number;
  relationsAdded: number;
}

/** Validates and writes one structured ingest request. */
export async function ingestStructured(ctx: WriteContext, raw: unknown): Promise<IngestResult> {
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
  const mentioned = mentionNames(req.content);
  const out = await writeChunk(ctx, chunk, async (tx, chunkId, now) => {
    const delta = emptyDelta();
    // The chunk is also linked to entities of the domain its text names (recall graph leg, SPEC §1 step 6).
    const mentions = (await entitiesByNames(tx, domain, mentioned)).map((e) => e.id);
    await writeGraphRows(tx, { domain, entities: req.entities, relations: req.relations, chunkId, now, edgeSource: "structured", delta, mentions });
    ctx.graphSink?.({ chunkId, contentHash: chunk.contentHash }, delta);
  });
  if (out.status === "duplicate") return { id: out.id, status: "duplicate", domain: out.domain, entitiesAdded: 0, relationsAdded: 0 };
  return { id: out.id, status: "created", domain, entitiesAdded: req.entities.length, relationsAdded: req.relations.length };
}

/** A forced domain must be registered (SPEC §2.5: unregistered → domain_invalid); `global` always is. */
export async function requireRegisteredDomain(ctx: WriteContext, domain: string): Promise<void> {
  if (domain === GLOBAL_DOMAIN) return;
  if (!(await domainExists(ctx.db.client, domain))) {
    throw new MemoryError("domain_invalid", `domain '${domain}' is not registered`, { field: "domain" });
  }
}
