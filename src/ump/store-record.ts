/**
 * Writes a sealed record: the chunk through the one write path
 * (`writeChunk`: screen, dup check, capacity guard, embedding) with the
 * record row and its audit row in the same transaction (STYLE rule 10).
 * When the text is already stored, the record attaches to that chunk
 * instead, and a live record on it with the same kind and scope answers
 * `merged` (SPEC §2.8: content dedup by design).
 */
import { xxh3Hex } from "../core/content-hash.ts";
import type { IngestKind, NewChunk, Origin } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { writeChunk } from "../ingest/write-chunk.ts";
import type { Exec } from "../store/db.ts";
import { getUmpRow, insertUmpRow, umpRowsOfChunk, updateUmpRow } from "../store/ump-records.ts";
import { canonicalize } from "./canonical-json.ts";
import { type Carry, chunkLabels, writeCarry } from "./carry.ts";
import { rowOfRecord } from "./record-rows.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { turnChunkOf } from "./turn-record.ts";
import { metaOfRow } from "./ump-index.ts";

/** Outcome of storing one record. */
export interface StoreOutcome {
  id: string;
  result: "created" | "merged";
  chunkId: number;
  flagged: boolean;
}

/** How the chunk is labelled. */
export interface StoreOptions {
  source: IngestKind;
  /** Audit action of the record row (`ump_remember`, `ump_import`, `ump_revise`). */
  action: string;
  /** Records rewritten in the same transaction (the superseded version on revise). */
  alsoUpdate?: UmpRecord[];
  /** Refuses to attach when this returns a reason (checked inside the transaction). */
  guard?: (tx: Exec) => Promise<void>;
  actor?: string;
  /** Domain of the chunk (default `global`): a revise keeps the domain of the version it replaces. */
  domain?: string;
  /** Chunk state carried by an imported record (`x-cairn`, issue 22 item 2): labels, metadata, graph rows, file links. */
  carry?: Carry;
  /**
   * The importer is the operator (SPEC §4.2 round trip): a record the source store had released from quarantine
   * (carried `meta.screen.verdict: quarantine` on an exported, hence unflagged, chunk) stays released. Anyone else's
   * import is screened afresh.
   */
  trustRelease?: boolean;
}

const ZERO = { followed: 0, overridden: 0, ignored: 0, contradicted: 0 };
/** Chunk origin of a record's `provenance.actor_kind` (SPEC §2.1 origin labels). */
export const ORIGIN: Record<string, Origin> = { user: "human", agent: "agent", model: "model", import: "imported", scan: "imported" };

/** Stores `record` (already sealed, with its id). */
export async function storeRecord(d: UmpDeps, record: UmpRecord, o: StoreOptions): Promise<StoreOutcome> {
  const existing = await getUmpRow(d.db.client, record.id);
  if (existing) return { id: existing.id, result: "merged", chunkId: existing.chunkId, flagged: false };
  const text = record.body.text;
  const chunk: NewChunk = {
    content: text, domain: o.domain ?? GLOBAL_DOMAIN, contentHash: await xxh3Hex(text), source: o.source,
    origin: ORIGIN[record.provenance?.actor_kind ?? "agent"] ?? "agent", confidence: record.lifecycle?.confidence ?? 1, flagged: false,
    createdAt: record.time.created,
  };
  if (record.title !== undefined) chunk.title = record.title;
  // `meta.owner` is what erasure locates a subject's chunks by (POST /purge, /dsar).
  chunk.meta = { owner: record.scope.owner, ump_id: record.id };
  if (record.provenance?.source?.ref) chunk.originSource = record.provenance.source.ref.slice(0, 64);
  // Issue 24: a turn of a conversation session gets the conversation door's rendering and labels.
  const turn = await turnChunkOf(d.db.client, record, chunk.domain);
  if (turn) {
    Object.assign(chunk, { title: turn.title, content: turn.content, contentHash: turn.contentHash });
    chunk.meta = { ...chunk.meta, conversation: turn.conversation };
  }
  if (o.carry) {
    const labels = chunkLabels(o.carry);
    Object.assign(chunk, labels, { meta: { ...labels.meta, ...chunk.meta } });
    const screen = o.carry.chunk.meta?.screen as { verdict?: unknown } | undefined;
    if (o.trustRelease && screen?.verdict === "quarantine") chunk.keepRelease = true;
  }
  let outcome: StoreOutcome | undefined;
  let seq = 0;
  // `fresh`: the chunk was created in this transaction, so no record can sit on it yet.
  const rows = async (tx: Exec, chunkId: number, now: string, fresh: boolean): Promise<StoreOutcome> => {
    await o.guard?.(tx);
    if (!fresh) {
      if (await getUmpRow(tx, record.id)) return { id: record.id, result: "merged", chunkId, flagged: false };
      const updating = new Set((o.alsoUpdate ?? []).map((r) => r.id));
      const incomingLive = record.time.valid_to === null && record.lifecycle?.status !== "tombstoned";
      const twin = incomingLive && (await umpRowsOfChunk(tx, chunkId)).find((r) =>
        !updating.has(r.id) && r.status !== "tombstoned" && r.validTo === undefined && sameKey(JSON.parse(r.record), record)
      );
      if (twin) return { id: twin.id, result: "merged", chunkId, flagged: false };
    }
    seq = await insertUmpRow(tx, rowOfRecord(record, chunkId), now);
    if (!seq) return { id: record.id, result: "merged", chunkId, flagged: false };
    // A fresh chunk gets the carried graph rows and file links; an existing one already has its own.
    if (fresh && o.carry) await writeCarry(d, tx, o.carry, { id: chunkId, contentHash: chunk.contentHash }, now);
    for (const other of o.alsoUpdate ?? []) {
      const prev = (await getUmpRow(tx, other.id))!;
      await updateUmpRow(tx, rowOfRecord(other, prev.chunkId), now);
    }
    await d.audit.append(tx, { action: o.action, actor: o.actor, target: record.id, detail: { chunk_id: chunkId, kind: record.kind, ...(chunk.keepRelease ? { release_carried: true } : {}) } });
    return { id: record.id, result: "created", chunkId, flagged: false };
  };
  const w = await writeChunk(d.write, chunk, async (tx, chunkId, now) => void (outcome = await rows(tx, chunkId, now, true)));
  if (w.status === "created") outcome = { ...outcome!, flagged: w.chunk.flagged };
  else outcome = await d.db.write((tx) => rows(tx, w.id, d.clock().toISOString(), false));
  if (outcome.result === "created") {
    d.index.put(metaOfRow({ ...rowOfRecord(record, outcome.chunkId), seq, feedback: ZERO, createdAt: "", updatedAt: "" }));
    await refreshIndex(d, (o.alsoUpdate ?? []).map((r) => r.id));
  }
  return outcome;
}

/** Rewrites stored records (lineage or status changes) with their audit row, in one transaction. */
export async function rewriteRecords(d: UmpDeps, records: UmpRecord[], audit: { action: string; actor?: string; detail: Record<string, unknown> }, extra?: (tx: Exec) => Promise<void>): Promise<void> {
  await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    for (const r of records) {
      const prev = await getUmpRow(tx, r.id);
      if (prev) await updateUmpRow(tx, rowOfRecord(r, prev.chunkId), now);
    }
    await extra?.(tx);
    await d.audit.append(tx, { action: audit.action, actor: audit.actor, target: records[0]?.id, detail: audit.detail });
  });
  await refreshIndex(d, records.map((r) => r.id));
}

/** Reloads index entries from the store after a commit. */
export async function refreshIndex(d: UmpDeps, ids: string[]): Promise<void> {
  for (const id of ids) {
    const row = await getUmpRow(d.db.client, id);
    if (row) d.index.put(metaOfRow(row));
    else d.index.remove(id);
  }
}

// Two records are the same memory when kind and scope agree (the text already does: same chunk).
function sameKey(a: UmpRecord, b: UmpRecord): boolean {
  return a.kind === b.kind && canonicalize(a.scope) === canonicalize(b.scope);
}
