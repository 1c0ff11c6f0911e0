/**
 * `POST /ingest/batch` (this project's choice; SPEC §4.2 shows single
 * writes only): up to 1,000 structured `/ingest` bodies under `items`,
 * validated first — one bad item fails the whole request with 400 naming
 * `items[i]`, and nothing is written — then written in ONE transaction
 * (chunks, vectors, graph rows, audit rows; STYLE rule 10). Each item gets
 * the `/ingest` reply shape; a duplicate (by content hash, also within the
 * batch) costs no writes. Bulk loaders (`cairn eval`, `npm run bench`,
 * scripted imports) use it: one transaction per batch instead of per item.
 */
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { parseWith } from "../core/schema.ts";
import type { WriteContext } from "./context.ts";
import { IngestBatchBody, MAX_BATCH_ITEMS, type IngestBatchInput } from "./ingest-schema.ts";
import { ingestReply, prepareStructured, writePreparedGraphs, type IngestResult, type PreparedIngest } from "./ingest-structured.ts";
import { writeChunks } from "./write-chunk.ts";

export { MAX_BATCH_ITEMS };

/** The batch reply. */
export interface BatchResult {
  items: IngestResult[];
  created: number;
  duplicates: number;
}

/** Validates and writes a batch of structured ingests atomically. */
export async function ingestBatch(ctx: WriteContext, raw: IngestBatchInput): Promise<BatchResult> {
  // The schema refuses a bad item with its own code, `items[i]: ` before its message and its index in details.
  const { items } = parseWith(IngestBatchBody, raw, { batchKey: "items" });
  const prepared: PreparedIngest[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      prepared.push(await prepareStructured(ctx, items[i]));
    } catch (e) {
      // The item's own code and status, with its index, so a client can fix it.
      if (!isMemoryError(e)) throw e;
      throw new MemoryError(e.code, `items[${i}]: ${e.message}`, { ...(e.details ?? {}), index: i }, e.status);
    }
  }
  const outs = await writeChunks(ctx, prepared.map((p) => p.chunk), (tx, _first, now, created) => writePreparedGraphs(ctx, tx, prepared, created, now));
  const replies = outs.map((o, i) => ingestReply(prepared[i], o));
  return { items: replies, created: replies.filter((r) => r.status === "created").length, duplicates: replies.filter((r) => r.status === "duplicate").length };
}
