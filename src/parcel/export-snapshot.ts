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
import { readSection, SECTIONS, vectorBytesOf, type PlainRow } from "../store/snapshots.ts";
import { base64Encode } from "../ump/base64.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { encodeValue, hex, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotHeader } from "./snapshot-format.ts";

const PAGE = 500;

/** Checks the domain, then returns its snapshot stream and the file name to offer. */
export async function exportSnapshot(d: ParcelDeps, rawName: unknown): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  // Issue 20: a snapshot's sections join per-domain and global tables in one query; across databases that is not
  // built yet (docs/scale-out.md "One database per domain"), so refused rather than answered with a partial snapshot.
  if (d.db.router !== undefined) throw new MemoryError("multi_db_unsupported", "domain snapshots are not available with CAIRN_MULTI_DB=true", undefined, 409);
  const domain = normalizeDomainName(rawName, "name");
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

/** The snapshot's lines in batches: the header, then each section a page at a time. */
async function* snapshotLines(d: ParcelDeps, domain: string): AsyncGenerator<PlainRow[]> {
  const e = d.ctx.embedder;
  const header: SnapshotHeader = {
    t: "header", format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, domain, created_at: d.clock().toISOString(), schema: KNOWN_SCHEMA.stamp,
    embedder: e ? { id: e.id, dim: e.dim } : null,
  };
  yield [header as unknown as PlainRow];
  for (const s of SECTIONS) {
    let after: unknown[] | undefined;
    for (;;) {
      const rows = await readSection(d.db.client, s, domain, after, PAGE);
      if (rows.length === 0) break;
      const vectors = s.t === "chunk" && e ? await vectorBytesOf(d.db.client, rows.map((r) => Number(r.id))) : undefined;
      yield rows.map((r) => {
        const line: PlainRow = { t: s.t };
        for (const [k, v] of Object.entries(r)) line[k] = encodeValue(v);
        const vec = vectors?.get(Number(r.id));
        if (vec) line.vector = base64Encode(vec);
        return line;
      });
      const last = rows[rows.length - 1];
      after = s.key.map((k) => last[k]);
      if (rows.length < PAGE) break;
    }
  }
}
