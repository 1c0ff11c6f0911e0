/**
 * `POST /domains/{name}/import` (SPEC §4.5, §8): a snapshot (`snapshot-format.ts`) becomes a new domain,
 * atomically. The body is first read, gunzipped, parsed, checked and decoded without the write slot
 * (`stage-snapshot.ts`, within the expansion bounds and the request's deadline); only then is it written in ONE
 * write transaction, so a truncated, corrupted, oversized or conflicting snapshot leaves nothing behind and other
 * writers wait only for the inserts (docs/limits.md "Snapshot import"). The target must not exist and `global` is
 * protected. Ids are assigned afresh and every reference is remapped; the `domain_import` audit row commits with the
 * rows. After the commit the in-memory indexes hear of the new chunks a page at a time (re-read from the store).
 *
 * Multi-database mode (docs/scale-out.md "One database per domain"): the same format. The domain is registered and
 * given its database file once the snapshot has staged, then its rows commit in one transaction on that file and the
 * global rows (proposals, UMP records, links, file sources, the audit row) in one on the global database
 * (`writeIn`). A refused import drops the registration and deletes the file again, so nothing is left behind.
 */
import { paceWork } from "../core/deadline.ts";
import { MemoryError, isMemoryError } from "../core/errors.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "../domains/domain-name.ts";
import { emptyDelta, type GraphDelta } from "../graph/graph-delta.ts";
import { countChunks, getChunks } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { dbOfDomain, dbsOf, domainReader, writeIn } from "../store/domain-dbs.ts";
import { domainExists, dropDomainRows, insertDomain } from "../store/domains.ts";
import { storedHashes, vectorBytesOf, type PlainRow } from "../store/snapshots.ts";
import { putVectors } from "../store/vectors.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { remapRow, type IdMaps } from "./snapshot-remap.ts";
import type { ExpansionLimits } from "./snapshot-format.ts";
import { stageSnapshot, type StagedBatch } from "./stage-snapshot.ts";

/** The import reply (this project's shape). */
export interface SnapshotImportResult {
  domain: string;
  source_domain: string;
  imported: Record<string, number>;
}

const invalid = (message: string) => new MemoryError("snapshot_invalid", message);

/** Imports a snapshot stream as domain `rawName`. `body` is the raw (gzip'd) request body. */
export async function importSnapshot(
  d: ParcelDeps, rawName: unknown, body: ReadableStream<Uint8Array> | null, o: { reviewer: string; limits: ExpansionLimits },
): Promise<SnapshotImportResult> {
  const domain = normalizeDomainName(rawName, "name");
  if (domain === GLOBAL_DOMAIN) throw new MemoryError("domain_protected", "the global domain cannot be imported over", undefined, 400);
  if (await domainExists(d.db.client, domain)) throw new MemoryError("domain_exists", `domain '${domain}' already exists; import under a new name`, undefined, 409);
  if (!body) throw invalid("the request has no snapshot body");
  const newChunks: number[] = [];
  const delta = emptyDelta();
  const files = d.db.router !== undefined ? d.domainDbs : undefined;
  let registered = false;
  try {
    const staged = await stageSnapshot(d, body, o.limits);
    const register = async (tx: Exec) => {
      if (await domainExists(tx, domain)) throw new MemoryError("domain_exists", `domain '${domain}' already exists`, undefined, 409);
      await insertDomain(tx, domain, d.clock().toISOString());
    };
    if (files) {
      await d.db.write(register);
      registered = true;
      await files.ensure(domain);
    }
    await writeIn(d.db, domain, async (tx) => {
      if (!files) await register(tx);
      const maps: IdMaps = { chunk: new Map(), entity: new Map(), source: new Map() };
      for (const b of staged.batches) {
        // Inside the transaction too, a slice boundary: past the deadline it rolls back (SPEC §8).
        await paceWork(d.ctx.work);
        await writeBatch(d, tx, domain, b, maps, delta, newChunks);
      }
      await d.audit.append(tx, {
        action: "domain_import", actor: o.reviewer, target: `domain:${domain}`,
        detail: { domain, source_domain: staged.header.domain, source_schema: staged.header.schema, counts: staged.counts, sha256: staged.sha256 },
      });
    });
    registered = false;
    await announce(d, domain, newChunks, delta);
    return { domain, source_domain: staged.header.domain, imported: staged.counts };
  } catch (e) {
    if (registered && files) await unregister(d, files, domain);
    if (isMemoryError(e)) throw e;
    const msg = String((e as Error)?.message ?? e);
    if (/UNIQUE constraint/i.test(msg)) throw new MemoryError("snapshot_conflict", "the snapshot holds rows this server already stores (same content or record id)", undefined, 409);
    throw invalid("the snapshot could not be read (corrupted gzip or malformed rows)");
  }
}

/** Writes one staged batch with fresh ids; a chunk batch is checked for clashes and capacity first, then gets its vectors. */
async function writeBatch(d: ParcelDeps, tx: Exec, domain: string, b: StagedBatch, maps: IdMaps, delta: GraphDelta, newChunks: number[]): Promise<void> {
  if (b.t === "chunk") await chunkPrecheck(d, tx, domain, b.rows);
  const written = await remapRow(tx, b.t, b.rows, domain, maps, delta);
  if (b.t !== "chunk") return;
  newChunks.push(...written.map((w) => w.newId));
  if (!b.vectors) return;
  const byOld = new Map(written.map((w) => [w.oldId, w.newId]));
  const vecs: { chunkId: number; vec: Float32Array }[] = [];
  b.rows.forEach((r, k) => {
    const vec = b.vectors![k];
    if (vec) vecs.push({ chunkId: byOld.get(Number(r.id))!, vec });
  });
  await putVectors(tx, vecs);
}

async function chunkPrecheck(d: ParcelDeps, tx: Exec, domain: string, plain: PlainRow[]): Promise<void> {
  const hashes = plain.map((r) => String(r.content_hash));
  // Content hashes are unique store-wide: in multi-database mode every other database is asked too (committed rows).
  const others = dbsOf(d.db).filter((x) => x !== dbOfDomain(d.db, domain));
  const clash = await storedHashes(tx, hashes);
  if (d.db.router !== undefined) for (const x of others) clash.push(...(await storedHashes(x.client, hashes)));
  if (clash.length) throw new MemoryError("snapshot_conflict", "the snapshot holds content this server already stores", { content_hashes: clash.slice(0, 5) }, 409);
  let count = await countChunks(tx);
  if (d.db.router !== undefined) for (const x of others) count += await countChunks(x.client);
  if (count + plain.length > d.ctx.maxDocs) {
    throw new MemoryError("capacity_exceeded", "the import would pass the capacity envelope; raise CAIRN_MAX_DOCS", { max_docs: d.ctx.maxDocs }, 507);
  }
}

/** After the commit: the graph delta, then each new chunk with its vector, to every index hook. */
async function announce(d: ParcelDeps, domain: string, ids: number[], delta: GraphDelta): Promise<void> {
  if (ids.length === 0) return;
  const ex = domainReader(d.db, domain);
  const first = (await getChunks(ex, [ids[0]]))[0];
  if (first) d.ctx.graphSink?.({ chunkId: first.id, contentHash: first.contentHash }, delta);
  for (let i = 0; i < ids.length; i += 500) {
    // Committed: nothing can stop this now, but a large import still yields between pages (SPEC §8).
    await paceWork(d.ctx.work);
    const part = ids.slice(i, i + 500);
    const chunks = (await getChunks(ex, part)).sort((a, b) => a.id - b.id);
    const vecs = d.ctx.embedder ? await vectorBytesOf(ex, part) : new Map<number, Uint8Array>();
    for (const [k, c] of chunks.entries()) {
      if (k % 16 === 15) await paceWork(d.ctx.work);
      const b = vecs.get(c.id);
      const v = b ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : undefined;
      for (const h of d.ctx.indexHooks) h.added(c, v);
    }
  }
  // UMP records came in beside their chunks: the UMP index learns of them now, not at the next boot.
  for (const h of d.ctx.indexHooks) await h.caughtUp?.();
}

/** Undoes the registration of a refused multi-database import: the registry row, then the domain's file. */
async function unregister(d: ParcelDeps, files: NonNullable<ParcelDeps["domainDbs"]>, domain: string): Promise<void> {
  await d.db.write((tx) => dropDomainRows(tx, domain));
  await files.remove(domain);
}
