/**
 * Health, readiness, stats and the `/health/db` posture (SPEC §4.8): the
 * capacity envelope (SPEC §8: 50,000 docs, 2 GiB, 512 MB RSS — the RSS
 * ceiling is a soft warning that never blocks writes) and durability.
 */
import { VERSION } from "../core/version.ts";
import type { Db } from "../store/db.ts";
import { countChunks } from "../store/chunks.ts";
import { graphTotals } from "../store/graph-rows.ts";
import { getMeta, ping, readDbPosture } from "../store/health.ts";
import { readSchemaStamp } from "../store/open-store.ts";
import { countTombstones } from "../store/tombstones.ts";

const MIB = 1024 * 1024;
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Inputs the health service reads. */
export interface HealthDeps {
  db: Db;
  rssBytes: () => number;
  limits: { maxDocs: number; maxDbMib: number; maxRssMib: number };
  /** Extra posture sections contributed by features (classifier, embedder, …). */
  sections: (() => Promise<Record<string, unknown>> | Record<string, unknown>)[];
}

/** `GET /health` body. */
export async function health(db: Db): Promise<{ status: string; version: string; error?: string }> {
  try {
    await ping(db.client);
    return { status: "ok", version: VERSION };
  } catch {
    return { status: "error", version: VERSION, error: "database unavailable" };
  }
}

/** Capacity figures and status (`ok`, `warn` at 90%, `full` at the doc or size limit). */
export async function capacity(d: HealthDeps) {
  const docs = await countChunks(d.db.client);
  const posture = await readDbPosture(d.db.client, d.db.local);
  const dbMib = round1(posture.dbBytes / MIB);
  const rssMib = round1(d.rssBytes() / MIB);
  const full = docs >= d.limits.maxDocs || dbMib >= d.limits.maxDbMib;
  const warn = docs >= 0.9 * d.limits.maxDocs || dbMib >= 0.9 * d.limits.maxDbMib || rssMib >= d.limits.maxRssMib;
  return {
    capacity: {
      docs, max_docs: d.limits.maxDocs, db_mib: dbMib, max_db_mib: d.limits.maxDbMib, rss_mib: rssMib,
      max_rss_mib: d.limits.maxRssMib, status: full ? "full" : warn ? "warn" : "ok",
    },
    posture,
  };
}

/** `GET /health/db` body. */
export async function healthDb(d: HealthDeps): Promise<Record<string, unknown>> {
  const { capacity: cap, posture } = await capacity(d);
  const stamp = await readSchemaStamp(d.db);
  const out: Record<string, unknown> = {
    status: posture.journalMode === "wal" ? "ok" : "degraded",
    version: VERSION,
    schema_stamp: stamp.stamp,
    capacity: cap,
    durability: {
      journal_mode: posture.journalMode,
      ...(posture.synchronous !== undefined ? { synchronous: ["off", "normal", "full", "extra"][posture.synchronous] ?? String(posture.synchronous) } : {}),
      backend: d.db.local ? "libsql-file" : "libsql-server",
    },
    concurrency: { ...(posture.walPagesPending !== undefined ? { wal_pages_pending: posture.walPagesPending } : {}), write_queue: "serialised" },
    pool: { connections: 1, mode: d.db.local ? "embedded" : "remote" },
  };
  const model = await getMeta(d.db.client, "embed_model_id");
  if (model) out.embedding = { model_id: model };
  for (const s of d.sections) Object.assign(out, await s());
  return out;
}

/** `GET /stats` body (this project's shape; SPEC §4.8 does not show it). */
export async function stats(d: HealthDeps): Promise<Record<string, unknown>> {
  const g = await graphTotals(d.db.client);
  const { capacity: cap } = await capacity(d);
  return {
    docs: cap.docs, entities: g.entities, relations: g.relations, tombstones: await countTombstones(d.db.client),
    db_mib: cap.db_mib, rss_mib: cap.rss_mib,
  };
}
