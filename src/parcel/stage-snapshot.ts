/**
 * The first phase of `POST /domains/{name}/import` (SPEC §4.5, §8; docs/limits.md "Snapshot import"): the body is
 * gunzipped, split, parsed, checked and decoded — and chunks whose vectors came from another embedder re-embedded —
 * WITHOUT the write slot, so other writers are not held while a large snapshot streams in. It stops at the
 * expansion bounds (422 `snapshot_too_large`), at the request's deadline or when the client goes away (each read
 * and each row batch is a slice boundary), and on anything malformed (400 `snapshot_invalid`), before a single row
 * is written. What it returns is written in one transaction by `import-snapshot.ts`.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { paceWork } from "../core/deadline.ts";
import { MemoryError } from "../core/errors.ts";
import { embedText } from "../ingest/write-chunk.ts";
import { SECTIONS, tableColumns, type PlainRow } from "../store/snapshots.ts";
import { base64Decode } from "../ump/base64.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { byteLines, decodeValue, hex, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type ExpansionLimits, type SnapshotHeader } from "./snapshot-format.ts";

/** Rows of one section written per statement group (as before the staging: one `remapRow` call each). */
const BATCH = 200;

/** One batch of a section: decoded rows and, for chunks, each row's vector (undefined: none). */
export interface StagedBatch {
  t: string;
  rows: PlainRow[];
  vectors?: (Float32Array | undefined)[];
}

/** A checked snapshot, ready to write. */
export interface StagedSnapshot {
  header: SnapshotHeader;
  batches: StagedBatch[];
  counts: Record<string, number>;
  sha256: string;
}

const invalid = (message: string) => new MemoryError("snapshot_invalid", message);
const NL = new Uint8Array([10]);
const sorted = (v: unknown) => Object.fromEntries(Object.entries((v ?? {}) as Record<string, number>).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Reads and checks a whole snapshot stream (gzip'd NDJSON) within `limits`; writes nothing. */
export async function stageSnapshot(d: ParcelDeps, body: ReadableStream<Uint8Array>, limits: ExpansionLimits): Promise<StagedSnapshot> {
  const work = d.ctx.work;
  const gunzipped = body.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  const lines = byteLines(gunzipped, limits, () => paceWork(work));
  try {
    const header = await readHeader(lines);
    const stager = new Stager(d, header);
    const hash = sha256.create();
    hash.update(header.raw);
    const counts: Record<string, number> = {};
    let trailer: Record<string, unknown> | undefined;
    for await (const line of lines) {
      if (trailer) throw invalid("data after the trailer");
      const obj = parse(line);
      if (obj.t === "end") {
        trailer = obj;
        continue;
      }
      hash.update(line);
      hash.update(NL);
      counts[String(obj.t)] = (counts[String(obj.t)] ?? 0) + 1;
      await stager.add(obj);
    }
    await stager.flush();
    // SPEC §4.5 atomic: without a matching trailer (truncated or corrupted) nothing is written.
    if (!trailer) throw invalid("the snapshot is truncated: no trailer");
    const digest = hex(hash.digest());
    if (trailer.sha256 !== digest) throw invalid("the snapshot checksum does not match");
    if (JSON.stringify(sorted(trailer.counts)) !== JSON.stringify(sorted(counts))) throw invalid("the snapshot row counts do not match its trailer");
    return { header, batches: stager.batches, counts, sha256: digest };
  } finally {
    // Stops the gunzip (and the body read) when the stage ends early; a no-op after the last line.
    await lines.return(undefined);
  }
}

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

/** Groups a section's rows in batches, checks their columns, decodes their values and prepares chunk vectors. */
class Stager {
  readonly batches: StagedBatch[] = [];
  private section = -1;
  private batch: Record<string, unknown>[] = [];
  private readonly columns = new Map<string, Set<string>>();
  private readonly vectorsUsable: boolean;
  private readonly hashes = new Set<string>();

  constructor(private readonly d: ParcelDeps, header: SnapshotHeader) {
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
    if (!cols) this.columns.set(s.table, (cols = await tableColumns(this.d.db.client, s.table)));
    const plain: PlainRow[] = rows.map((r) => {
      const out: PlainRow = {};
      for (const [k, v] of Object.entries(r)) {
        if (k === "t" || k === "vector") continue;
        if (!cols!.has(k)) throw invalid(`column ${s.table}.${k} is unknown to this server (a newer schema wrote the snapshot)`);
        out[k] = decodeValue(v);
      }
      return out;
    });
    if (s.t === "chunk") {
      // Content is unique across the store: a snapshot holding one text twice could never be written (the same 409
      // the insert would give), so it is refused before more of it is held in memory.
      for (const r of plain) {
        const h = String(r.content_hash);
        if (this.hashes.has(h)) throw new MemoryError("snapshot_conflict", "the snapshot holds the same content twice", undefined, 409);
        this.hashes.add(h);
      }
    }
    this.batches.push(s.t === "chunk" ? { t: s.t, rows: plain, vectors: await this.vectors(rows) } : { t: s.t, rows: plain });
  }

  /** Each chunk row's vector: the snapshot's own when it came from this server's embedder, else recomputed here. */
  private async vectors(rows: Record<string, unknown>[]): Promise<(Float32Array | undefined)[] | undefined> {
    const e = this.d.ctx.embedder;
    if (!e) return undefined;
    const out: (Float32Array | undefined)[] = new Array(rows.length);
    const toEmbed: { at: number; text: string }[] = [];
    rows.forEach((r, at) => {
      const bytes = this.vectorsUsable && typeof r.vector === "string" ? base64Decode(r.vector) : null;
      if (bytes && bytes.length === e.dim * 4) out[at] = new Float32Array(bytes.buffer, bytes.byteOffset, e.dim);
      else toEmbed.push({ at, text: embedText({ title: (r.title as string | null) ?? undefined, content: String(r.content) }) });
    });
    // Vectors from another embedder (or none) are recomputed with this server's, paced by the request's deadline.
    if (toEmbed.length) {
      const work = this.d.ctx.work;
      const fresh = await e.embed(toEmbed.map((x) => x.text), { pace: () => paceWork(work) });
      toEmbed.forEach((x, k) => { out[x.at] = fresh[k]; });
    }
    return out;
  }
}
