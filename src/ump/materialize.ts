/**
 * One kernel (SPEC §1 item 7): every chunk is also a UMP record. A chunk
 * written through another door (`/ingest`, `/ingest/markdown`, the vault)
 * has no record row until UMP first serves it; then its record is derived
 * from the chunk (kind `semantic`, private to the operator, times from
 * `created_at`), sealed and stored, so its `urn:ump:` id stays the same from
 * then on. The derivation writes metadata only, so it is not audited.
 */
import type { Chunk } from "../core/types.ts";
import { getChunks } from "../store/chunks.ts";
import { insertUmpRow, umpRowsOfChunk } from "../store/ump-records.ts";
import { LOCAL_OWNER, type ScopeLike } from "./actor.ts";
import { rowOfRecord, sealRecord } from "./record-rows.ts";
import { UMP_VERSION } from "./record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { refreshIndex } from "./store-record.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** The scope a not-yet-materialised chunk will get: private to the operator. */
export function legacyScope(operatorDid: string | undefined): ScopeLike {
  return { owner: operatorDid ?? LOCAL_OWNER, visibility: "private" };
}

/** The record derived from a chunk that has none. */
export function deriveRecord(chunk: Chunk, owner: string): UmpRecord {
  const at = chunk.createdAt;
  const record: UmpRecord = {
    ump: UMP_VERSION, id: "", kind: "semantic",
    ...(chunk.title !== undefined ? { title: chunk.title } : {}),
    body: { text: chunk.content },
    scope: { owner, visibility: "private" },
    time: { created: at, observed: at, valid_from: at, valid_to: null },
    lifecycle: { confidence: chunk.confidence, status: "active" },
    provenance: {
      actor: owner, actor_kind: chunk.origin === "human" || chunk.origin === "operator" ? "user" : "import", method: `cairn:${chunk.source}`,
      ...(chunk.originSource !== undefined ? { source: { ref: chunk.originSource } } : {}),
    },
  };
  delete (record as Partial<UmpRecord>).id;
  return record;
}

/** Ensures every listed chunk has at least one record row; returns nothing, updates the index. */
export async function materialize(d: UmpDeps, chunkIds: number[]): Promise<void> {
  const missing = chunkIds.filter((id) => d.index.onChunk(id).length === 0);
  if (!missing.length) return;
  const seed = await d.keys();
  const owner = seed ? d.didOf(seed) : LOCAL_OWNER;
  const chunks = await getChunks(routedReader(d.db), missing);
  const sealed = chunks.map((c) => ({ chunkId: c.id, record: sealRecord(deriveRecord(c, owner), seed, d.didOf) }));
  const written: string[] = [];
  await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    for (const s of sealed) {
      if ((await umpRowsOfChunk(tx, s.chunkId)).length) continue; // a concurrent call got there first
      if ((await insertUmpRow(tx, rowOfRecord(s.record, s.chunkId), now)) > 0) written.push(s.record.id);
    }
  });
  await refreshIndex(d, written);
}
