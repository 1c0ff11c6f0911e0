/**
 * Opens the libSQL database (a local file by default, or a libSQL server via
 * `CAIRN_DB_URL`), enforces write-ahead logging (SPEC §1: read back
 * `PRAGMA journal_mode`, refuse to start unless `wal`), and runs migrations,
 * refusing a database stamped newer than this server knows (SPEC §9.8).
 */
import { createClient } from "@libsql/client";
import { MemoryError } from "../core/errors.ts";
import { Db } from "./db.ts";
import { KNOWN_SCHEMA, MIGRATIONS } from "./migrations/index.ts";

/** Where the database lives. */
export interface StoreLocation {
  /** Local file path (used when `url` is absent). */
  path?: string;
  /** Remote libSQL URL, e.g. http://127.0.0.1:8080. */
  url?: string;
  authToken?: string;
}

/** Opens and migrates the store; throws MemoryError("boot_refused") on a posture it must refuse. */
export async function openStore(loc: StoreLocation): Promise<Db> {
  const local = !loc.url || loc.url.startsWith("file:");
  const url = loc.url ?? `file:${loc.path}`;
  const client = createClient({ url, authToken: loc.authToken, intMode: "number" });
  const db = new Db(client, local);
  try {
    if (local) {
      await client.execute("PRAGMA journal_mode = WAL");
      await client.execute("PRAGMA busy_timeout = 5000");
      await client.execute("PRAGMA synchronous = NORMAL");
    }
    const rs = await client.execute("PRAGMA journal_mode");
    const mode = String(rs.rows[0]?.[0] ?? "").toLowerCase();
    if (mode !== "wal") {
      throw new MemoryError("boot_refused", `journal_mode is '${mode}', write-ahead logging (wal) is required`);
    }
    await migrate(db);
    return db;
  } catch (e) {
    client.close();
    throw e;
  }
}

async function migrate(db: Db): Promise<void> {
  await db.execute(`CREATE TABLE IF NOT EXISTS schema_stamp (
    id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, stamp TEXT NOT NULL, updated_at TEXT NOT NULL)`);
  const rs = await db.execute("SELECT version, stamp FROM schema_stamp WHERE id = 1");
  const current = rs.rows.length ? Number(rs.rows[0].version) : 0;
  if (current > KNOWN_SCHEMA.version) {
    throw new MemoryError(
      "boot_refused",
      `database schema stamp ${String(rs.rows[0].stamp)} is newer than this server knows (${KNOWN_SCHEMA.stamp})`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    await db.write(async (tx) => {
      for (const sql of m.statements) await tx.execute(sql);
      await tx.execute({
        sql: `INSERT INTO schema_stamp (id, version, stamp, updated_at) VALUES (1, ?, ?, ?)
              ON CONFLICT(id) DO UPDATE SET version = excluded.version, stamp = excluded.stamp, updated_at = excluded.updated_at`,
        args: [m.version, m.stamp, new Date().toISOString()],
      });
    });
  }
}

/** Reads the schema stamp stored in the database. */
export async function readSchemaStamp(db: Db): Promise<{ version: number; stamp: string }> {
  const rs = await db.execute("SELECT version, stamp FROM schema_stamp WHERE id = 1");
  return { version: Number(rs.rows[0].version), stamp: String(rs.rows[0].stamp) };
}
