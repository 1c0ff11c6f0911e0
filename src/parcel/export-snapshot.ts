/**
 * `GET /domains/{name}/export` (SPEC §4.5): the domain's whole state as a
 * gzip'd NDJSON stream (`snapshot-format.ts`), produced a page at a time so
 * a large domain never sits in memory. Rows are read in key order, page by
 * page; a write to the domain while it streams may or may not be included.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { MemoryError } from "../core/errors.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "../domains/domain-name.ts";
import { KNOWN_SCHEMA } from "../store/migrations/index.ts";
import { domainExists } from "../store/domains.ts";
import type { Exec } from "../store/db.ts";
import { domainReader } from "../store/domain-dbs.ts";
import { readSection, readSectionOfChunks, SECTIONS, vectorBytesOf, type PlainRow, type SectionSpec } from "../store/snapshots.ts";
import { base64Encode } from "../ump/base64.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { encodeValue, hex, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotHeader } from "./snapshot-format.ts";

const PAGE = 500;

/** Checks the domain, then returns its snapshot stream and the file name to offer. */
export async function exportSnapshot(d: ParcelDeps, rawName: unknown): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  const domain = normalizeDomainName(rawName, "name");
  // Multi-database mode: a domain another process created since boot is opened first (docs/scale-out.md).
  if (d.db.router !== undefined && !d.db.router.has(domain)) await d.db.router.refresh();
  if (domain !== GLOBAL_DOMAIN && !(await domainExists(d.db.client, domain))) throw new MemoryError("not_found", `domain '${domain}' not found`);
  const lines = snapshotLines(d, domain);
  const hash = sha256.create();
  const enc = new TextEncoder();
  const counts: Record<string, number> = {};
  const raw = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const next = await lines.next();
      if (next.done) {
        ctrl.enqueue(enc.encode(JSON.stringify({ t: "end", counts, sha256: hex(hash.digest()) }) + "\n"));
        ctrl.close();
        return;
      }
      const bytes = enc.encode(next.value.map((l) => JSON.stringify(l)).join("\n") + "\n");
      for (const l of next.value) if (l.t !== "header") counts[String(l.t)] = (counts[String(l.t)] ?? 0) + 1;
      hash.update(bytes);
      ctrl.enqueue(bytes);
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const stamp = d.clock().toISOString().replace(/[:.]/g, "-");
  return { stream: raw.pipeThrough(new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>), filename: `${domain}-${stamp}.cairn-snapshot.ndjson.gz` };
}

/**
 * The snapshot's lines in batches: the header, then each section a page at a time. The format is the same in both
 * storage modes (SPEC §4.5). In multi-database mode per-domain sections are read from the domain's database and the
 * global sections that belong to it through its chunks (links, UMP records, file sources) by lists of its chunk ids,
 * which are in another database than those rows.
 */
async function* snapshotLines(d: ParcelDeps, domain: string): AsyncGenerator<PlainRow[]> {
  const ex = domainReader(d.db, domain);
  const multi = d.db.router !== undefined;
  const chunkIds: number[] = [];
  const e = d.ctx.embedder;
  const header: SnapshotHeader = {
    t: "header", format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, domain, created_at: d.clock().toISOString(), schema: KNOWN_SCHEMA.stamp,
    embedder: e ? { id: e.id, dim: e.dim } : null,
  };
  yield [header as unknown as PlainRow];
  const lineOf = (s: SectionSpec, r: PlainRow, vectors?: Map<number, Uint8Array>): PlainRow => {
    const line: PlainRow = { t: s.t };
    for (const [k, v] of Object.entries(r)) line[k] = encodeValue(v);
    const vec = vectors?.get(Number(r.id));
    if (vec) line.vector = base64Encode(vec);
    return line;
  };
  for (const s of SECTIONS) {
    if (multi && s.ofChunks) {
      yield* rowsOfChunks(ex, s, chunkIds, (r) => lineOf(s, r));
      continue;
    }
    let after: unknown[] | undefined;
    for (;;) {
      const rows = await readSection(ex, s, domain, after, PAGE);
      if (rows.length === 0) break;
      if (s.t === "chunk") for (const r of rows) chunkIds.push(Number(r.id));
      const vectors = s.t === "chunk" && e ? await vectorBytesOf(ex, rows.map((r) => Number(r.id))) : undefined;
      yield rows.map((r) => lineOf(s, r, vectors));
      const last = rows[rows.length - 1];
      after = s.key.map((k) => last[k]);
      if (rows.length < PAGE) break;
    }
  }
}

/** A chunk-dependent global section, PAGE chunk ids at a time; a row reached through two pages is emitted once. */
async function* rowsOfChunks(ex: Exec, s: SectionSpec, chunkIds: readonly number[], line: (r: PlainRow) => PlainRow): AsyncGenerator<PlainRow[]> {
  const all = new Set(chunkIds);
  const seen = new Set<string>();
  for (let i = 0; i < chunkIds.length; i += PAGE) {
    const rows = (await readSectionOfChunks(ex, s, chunkIds.slice(i, i + PAGE), all)).filter((r) => {
      const k = JSON.stringify(s.key.map((c) => r[c]));
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    if (rows.length) yield rows.map(line);
  }
}
