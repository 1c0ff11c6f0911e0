/**
 * `POST /domains/{name}/import` (SPEC §4.5, §8): reads a snapshot
 * (`snapshot-format.ts`) as a stream — gunzip, split, parse, insert a batch
 * at a time — into ONE write transaction, so a truncated, corrupted or
 * conflicting snapshot leaves nothing behind. The target must not exist and
 * `global` is protected. Ids are assigned afresh and every reference is
 * remapped; the checksum and counts of the trailer are verified before the
 * commit, with the `domain_import` audit row. After the commit the in-memory
 * indexes hear of the new chunks a page at a time (re-read from the store).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { MemoryError, isMemoryError } from "../core/errors.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "../domains/domain-name.ts";
import { emptyDelta, type GraphDelta } from "../graph/graph-delta.ts";
import { embedText } from "../ingest/write-chunk.ts";
import { countChunks, getChunks } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { domainExists, insertDomain } from "../store/domains.ts";
import { SECTIONS, storedHashes, tableColumns, vectorBytesOf, type PlainRow } from "../store/snapshots.ts";
import { putVectors } from "../store/vectors.ts";
import { base64Decode } from "../ump/base64.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { remapRow, type IdMaps } from "./snapshot-remap.ts";
import { byteLines, decodeValue, hex, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotHeader } from "./snapshot-format.ts";

/** The import reply (this project's shape). */
export interface SnapshotImportResult {
  domain: string;
  source_domain: string;
  imported: Record<string, number>;
}

const BATCH = 200;
const invalid = (message: string) => new MemoryError("snapshot_invalid", message);

/** Imports a snapshot stream as domain `rawName`. `body` is the raw (gzip'd) request body. */
export async function importSnapshot(d: ParcelDeps, rawName: unknown, body: ReadableStream<Uint8Array> | null, o: { reviewer: string }): Promise<SnapshotImportResult> {
  // Issue 20: a snapshot's sections join per-domain and global tables in one query; across databases that is not
  // built yet (docs/scale-out.md "One database per domain"), so refused rather than answered with a partial snapshot.
  if (d.db.router !== undefined) throw new MemoryError("multi_db_unsupported", "domain snapshots are not available with CAIRN_MULTI_DB=true", undefined, 409);
  const domain = normalizeDomainName(rawName, "name");
  if (domain === GLOBAL_DOMAIN) throw new MemoryError("domain_protected", "the global domain cannot be imported over", undefined, 400);
  if (await domainExists(d.db.client, domain)) throw new MemoryError("domain_exists", `domain '${domain}' already exists; import under a new name`, undefined, 409);
  if (!body) throw invalid("the request has no snapshot body");
  const gunzipped = body.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  const lines = byteLines(gunzipped);
  const newChunks: number[] = [];
  const delta = emptyDelta();
  let sourceDomain = "";
  const counts: Record<string, number> = {};
  try {
    await d.db.write(async (tx) => {
      if (await domainExists(tx, domain)) throw new MemoryError("domain_exists", `domain '${domain}' already exists`, undefined, 409);
      const header = await readHeader(lines);
      sourceDomain = header.domain;
      const now = d.clock().toISOString();
      await insertDomain(tx, domain, now);
      const w = new SectionWriter(d, tx, domain, header, newChunks, delta);
      const hash = sha256.create();
      hash.update(header.raw);
      let trailer: Record<string, unknown> | undefined;
      for await (const line of lines) {
        if (trailer) throw invalid("data after the trailer");
        if (line.length === 0) continue;
        const obj = parse(line);
        if (obj.t === "end") {
          trailer = obj;
          continue;
        }
        hash.update(line);
        hash.update(NL);
        counts[String(obj.t)] = (counts[String(obj.t)] ?? 0) + 1;
        await w.add(obj);
      }
      await w.flush();
      // SPEC §4.5 atomic: without a matching trailer (truncated or corrupted) nothing commits.
      if (!trailer) throw invalid("the snapshot is truncated: no trailer");
      if (trailer.sha256 !== hex(hash.digest())) throw invalid("the snapshot checksum does not match");
      if (JSON.stringify(sorted(trailer.counts)) !== JSON.stringify(sorted(counts))) throw invalid("the snapshot row counts do not match its trailer");
      await d.audit.append(tx, {
        action: "domain_import", actor: o.reviewer, target: `domain:${domain}`,
        detail: { domain, source_domain: header.domain, source_schema: header.schema, counts, sha256: trailer.sha256 },
      });
    });
  } catch (e) {
    if (isMemoryError(e)) throw e;
    const msg = String((e as Error)?.message ?? e);
    if (/UNIQUE constraint/i.test(msg)) throw new MemoryError("snapshot_conflict", "the snapshot holds rows this server already stores (same content or record id)", undefined, 409);
    throw invalid("the snapshot could not be read (corrupted gzip or malformed rows)");
  }
  await announce(d, newChunks, delta);
  return { domain, source_domain: sourceDomain, imported: counts };
}


const NL = new Uint8Array([10]);
const sorted = (v: unknown) => Object.fromEntries(Object.entries((v ?? {}) as Record<string, number>).sort(([a], [b]) => (a < b ? -1 : 1)));

function parse(line: Uint8Array): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(line));
  } catch {
    throw invalid("a snapshot line is not JSON");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v) || typeof (v as { t?: unknown }).t !== "string") throw invalid("a snapshot line has no t tag");
  return v as Record<string, unknown>;
}

async function readHeader(lines: AsyncGenerator<Uint8Array>): Promise<SnapshotHeader & { raw: Uint8Array }> {
  const first = await lines.next();
  if (first.done) throw invalid("the snapshot is empty");
  const h = parse(first.value) as unknown as SnapshotHeader;
  if (h.t !== "header" || h.format !== SNAPSHOT_FORMAT) throw invalid("the first line is not a cairn-domain-snapshot header");
  if (h.version !== SNAPSHOT_VERSION) throw invalid(`snapshot version ${String(h.version)} is not supported (this server reads ${SNAPSHOT_VERSION})`);
  const raw = new Uint8Array(first.value.length + 1);
  raw.set(first.value, 0);
  raw[first.value.length] = 10;
  return { ...h, raw };
}

/** Buffers one section's rows and writes them a batch at a time, remapping ids. */
class SectionWriter {
  private section = -1;
  private batch: Record<string, unknown>[] = [];
  private readonly maps: IdMaps = { chunk: new Map(), entity: new Map(), source: new Map() };
  private readonly columns = new Map<string, Set<string>>();
  private readonly vectorsUsable: boolean;
  constructor(
    private readonly d: ParcelDeps, private readonly tx: Exec, private readonly domain: string, header: SnapshotHeader,
    private readonly newChunks: number[], private readonly delta: GraphDelta,
  ) {
    const e = d.ctx.embedder;
    this.vectorsUsable = e !== undefined && header.embedder !== null && header.embedder.id === e.id && header.embedder.dim === e.dim;
  }

  async add(obj: Record<string, unknown>): Promise<void> {
    const i = SECTIONS.findIndex((s) => s.t === obj.t);
    if (i < 0) throw invalid(`unknown snapshot section '${String(obj.t)}'`);
    if (i < this.section) throw invalid("snapshot sections are out of order");
    if (i !== this.section) {
      await this.flush();
      this.section = i;
    }
    this.batch.push(obj);
    if (this.batch.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const s = SECTIONS[this.section];
    const rows = this.batch;
    this.batch = [];
    let cols = this.columns.get(s.table);
    if (!cols) this.columns.set(s.table, (cols = await tableColumns(this.tx, s.table)));
    const plain: PlainRow[] = rows.map((r) => {
      const out: PlainRow = {};
      for (const [k, v] of Object.entries(r)) {
        if (k === "t" || k === "vector") continue;
        if (!cols!.has(k)) throw invalid(`column ${s.table}.${k} is unknown to this server (a newer schema wrote the snapshot)`);
        out[k] = decodeValue(v);
      }
      return out;
    });
    if (s.t === "chunk") await this.chunkPrecheck(plain);
    const written = await remapRow(this.tx, s.t, plain, this.domain, this.maps, this.delta);
    if (s.t === "chunk") await this.chunkVectors(rows, written);
  }

  private async chunkPrecheck(plain: PlainRow[]): Promise<void> {
    const clash = await storedHashes(this.tx, plain.map((r) => String(r.content_hash)));
    if (clash.length) throw new MemoryError("snapshot_conflict", "the snapshot holds content this server already stores", { content_hashes: clash.slice(0, 5) }, 409);
    const count = await countChunks(this.tx);
    if (count + plain.length > this.d.ctx.maxDocs) {
      throw new MemoryError("capacity_exceeded", "the import would pass the capacity envelope; raise CAIRN_MAX_DOCS", { max_docs: this.d.ctx.maxDocs }, 507);
    }
  }

  private async chunkVectors(rows: Record<string, unknown>[], written: { oldId: number; newId: number }[]): Promise<void> {
    const byOld = new Map(written.map((w) => [w.oldId, w.newId]));
    this.newChunks.push(...written.map((w) => w.newId));
    const e = this.d.ctx.embedder;
    if (!e) return;
    const vecs: { chunkId: number; vec: Float32Array }[] = [];
    const toEmbed: { chunkId: number; text: string }[] = [];
    for (const r of rows) {
      const chunkId = byOld.get(Number(r.id))!;
      const bytes = this.vectorsUsable && typeof r.vector === "string" ? base64Decode(r.vector) : null;
      if (bytes && bytes.length === e.dim * 4) vecs.push({ chunkId, vec: new Float32Array(bytes.buffer, bytes.byteOffset, e.dim) });
      else toEmbed.push({ chunkId, text: embedText({ title: (r.title as string | null) ?? undefined, content: String(r.content) }) });
    }
    // Vectors from another embedder (or none) are recomputed with this server's.
    if (toEmbed.length) {
      const out = await e.embed(toEmbed.map((x) => x.text));
      toEmbed.forEach((x, k) => vecs.push({ chunkId: x.chunkId, vec: out[k] }));
    }
    await putVectors(this.tx, vecs);
  }
}

/** After the commit: the graph delta, then each new chunk with its vector, to every index hook. */
async function announce(d: ParcelDeps, ids: number[], delta: GraphDelta): Promise<void> {
  if (ids.length === 0) return;
  const first = (await getChunks(d.db.client, [ids[0]]))[0];
  if (first) d.ctx.graphSink?.({ chunkId: first.id, contentHash: first.contentHash }, delta);
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const chunks = (await getChunks(d.db.client, part)).sort((a, b) => a.id - b.id);
    const vecs = d.ctx.embedder ? await vectorBytesOf(d.db.client, part) : new Map<number, Uint8Array>();
    for (const c of chunks) {
      const b = vecs.get(c.id);
      const v = b ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : undefined;
      for (const h of d.ctx.indexHooks) h.added(c, v);
    }
  }
  // UMP records came in beside their chunks: the UMP index learns of them now, not at the next boot.
  for (const h of d.ctx.indexHooks) await h.caughtUp?.();
}
