/**
 * Opens the libSQL database (a local file by default, or a libSQL server via
 * `CAIRN_DB_URL`), enforces write-ahead logging (SPEC §1: read back
 * `PRAGMA journal_mode`, refuse to start unless `wal`), and runs migrations,
 * refusing a database stamped newer than this server knows (SPEC §9.8).
 */
import { createClient, type Client } from "@libsql/client";
import { MemoryError } from "../core/errors.ts";
import { attachChunkReader } from "./chunk-reader.ts";
import { BUSY_TIMEOUT_MS, Db } from "./db.ts";
import { KNOWN_SCHEMA, MIGRATIONS } from "./migrations/index.ts";

/** Where the database lives. */
export interface StoreLocation {
  /** Local file path (used when `url` is absent). */
  path?: string;
  /** Remote libSQL URL, e.g. http://127.0.0.1:8080. */
  url?: string;
  authToken?: string;
  /**
   * `full` (default): every commit is synced before it is acknowledged, so a power loss loses nothing
   * acknowledged. `normal`: WAL commits are synced at checkpoints only (a crash of the process loses nothing,
   * a power loss may lose the last commits). `CAIRN_DURABILITY`, issue 23 §5.
   */
  durability?: "full" | "normal";
}

/** Opens and migrates the store; throws MemoryError("boot_refused") on a posture it must refuse. */
export async function openStore(loc: StoreLocation): Promise<Db> {
  const local = !loc.url || loc.url.startsWith("file:");
  const url = loc.url ?? `file:${loc.path}`;
  const client = local ? createClient({ url, authToken: loc.authToken, intMode: "number" }) : await openRemote(url, loc.authToken);
  const db = new Db(client, local);
  try {
    if (local) {
      await client.execute("PRAGMA journal_mode = WAL");
      await client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      const sync = loc.durability === "normal" ? "NORMAL" : "FULL";
      await client.execute(`PRAGMA synchronous = ${sync}`);
      // Issue 23 §4: deleted content is overwritten, not left in free space.
      await client.execute("PRAGMA secure_delete = ON");
      // New pooled connections start at SQLite's default (FULL, secure_delete off): re-apply around each write.
      db.pragmas = { before: sync === "NORMAL" ? ["PRAGMA synchronous = NORMAL"] : [], inTx: ["PRAGMA secure_delete = ON"] };
    }
    const rs = await client.execute("PRAGMA journal_mode");
    const mode = String(rs.rows[0]?.[0] ?? "").toLowerCase();
    if (mode !== "wal") {
      throw new MemoryError("boot_refused", `journal_mode is '${mode}', write-ahead logging (wal) is required`);
    }
    await migrate(db);
    // Issue 25: recall's chunk fetches use one prepared statement on a read connection to the same file.
    const path = loc.url ? (loc.url.startsWith("file:") ? loc.url.slice(5) : undefined) : loc.path;
    if (local && path !== undefined && path !== ":memory:") await attachChunkReader(db, path);
    return db;
  } catch (e) {
    client.close();
    throw e;
  }
}

/**
 * Issue 20: a libSQL server named by an `http(s)://` URL is spoken to over Hrana on a WebSocket (`ws(s)://`, the same
 * port sqld serves HTTP on) when the server accepts one. Measured over sqld on loopback (docs/benchmarks.md "Several nodes over one
 * libSQL server"): a node's catch-up reads of another node's 4,000 chunks took 1.05 s for the rows and 0.5 s for the
 * vectors over a WebSocket against 4.0 s and 3.1 s over HTTP, at a third of the CPU. A server (or a proxy in front of
 * it) that refuses the upgrade is spoken to over HTTP as before.
 */
async function openRemote(url: string, authToken: string | undefined): Promise<Client> {
  const m = /^http(s?):\/\//i.exec(url);
  if (m !== null) {
    const ws = createClient({ url: `ws${m[1].toLowerCase()}://${url.slice(m[0].length)}`, authToken, intMode: "number" });
    try {
      await ws.execute("SELECT 1");
      return ws;
    } catch {
      ws.close();
    }
  }
  return createClient({ url, authToken, intMode: "number" });
}

// Each migration is tracked by version, so one that lands later with a lower number (features merge in any
// order) is still applied; the stamp records the newest schema this database has.
async function migrate(db: Db): Promise<void> {
  await db.execute(`CREATE TABLE IF NOT EXISTS schema_stamp (
    id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, stamp TEXT NOT NULL, updated_at TEXT NOT NULL)`);
  await db.execute(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, stamp TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const rs = await db.execute("SELECT version, stamp FROM schema_stamp WHERE id = 1");
  const known = new Set(MIGRATIONS.map((m) => m.version));
  const applied = new Set((await db.execute("SELECT version FROM schema_migrations")).rows.map((r) => Number(r.version)));
  const current = rs.rows.length ? Number(rs.rows[0].version) : 0;
  if (current > KNOWN_SCHEMA.version || [...applied].some((v) => !known.has(v))) {
    throw new MemoryError(
      "boot_refused",
      `database schema stamp ${String(rs.rows[0]?.stamp ?? "unknown")} is newer than this server knows (${KNOWN_SCHEMA.stamp})`,
    );
  }
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    await db.write(async (tx) => {
      for (const sql of m.statements) await tx.execute(sql);
      const now = new Date().toISOString();
      await tx.execute({ sql: "INSERT INTO schema_migrations (version, stamp, applied_at) VALUES (?, ?, ?)", args: [m.version, m.stamp, now] });
      await tx.execute({
        sql: `INSERT INTO schema_stamp (id, version, stamp, updated_at) VALUES (1, ?, ?, ?)
              ON CONFLICT(id) DO UPDATE SET version = MAX(schema_stamp.version, excluded.version),
                stamp = CASE WHEN excluded.version >= schema_stamp.version THEN excluded.stamp ELSE schema_stamp.stamp END,
                updated_at = excluded.updated_at`,
        args: [m.version, m.stamp, now],
      });
    });
  }
}

/** Reads the schema stamp stored in the database. */
export async function readSchemaStamp(db: Db): Promise<{ version: number; stamp: string }> {
  const rs = await db.execute("SELECT version, stamp FROM schema_stamp WHERE id = 1");
  return { version: Number(rs.rows[0].version), stamp: String(rs.rows[0].stamp) };
}
