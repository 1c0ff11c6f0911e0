import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { openStore } from "../../src/store/open-store.ts";
import { KNOWN_SCHEMA } from "../../src/store/migrations/index.ts";
import { tempDir } from "../_helpers/memory.ts";

describe("openStore", () => {
  it("runs in write-ahead logging mode and stamps the schema", async () => {
    const dir = tempDir();
    const db = await openStore({ path: join(dir, "a.db") });
    const jm = await db.execute("PRAGMA journal_mode");
    expect(String(jm.rows[0][0])).toBe("wal");
    const st = await db.execute("SELECT version, stamp FROM schema_stamp");
    expect(Number(st.rows[0].version)).toBe(KNOWN_SCHEMA.version);
    expect(String(st.rows[0].stamp)).toBe(KNOWN_SCHEMA.stamp);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start when the journal mode it reads back is not wal", async () => {
    // An in-memory database cannot run write-ahead logging: `PRAGMA journal_mode = WAL` leaves it at `memory`.
    await expect(openStore({ url: "file::memory:" })).rejects.toMatchObject({
      code: "boot_refused",
      message: expect.stringMatching(/journal_mode is 'memory'.*wal/),
    });
  });

  it("reopens an existing database without re-running migrations or losing rows", async () => {
    const dir = tempDir();
    const path = join(dir, "a.db");
    const db = await openStore({ path });
    await db.execute("INSERT INTO domains (name, created_at) VALUES ('kept', 'x')");
    db.close();
    const again = await openStore({ path });
    const rs = await again.execute("SELECT name FROM domains ORDER BY name");
    expect(rs.rows.map((r) => r.name)).toEqual(["global", "kept"]);
    again.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a database stamped newer than this server knows", async () => {
    const dir = tempDir();
    const path = join(dir, "a.db");
    (await openStore({ path })).close();
    const raw = createClient({ url: `file:${path}` });
    await raw.execute({ sql: "UPDATE schema_stamp SET version = ?, stamp = '99.0.0'", args: [KNOWN_SCHEMA.version + 1] });
    raw.close();
    await expect(openStore({ path })).rejects.toThrow(/99\.0\.0 is newer/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("rolls back every row of a failed write transaction", async () => {
    const dir = tempDir();
    const db = await openStore({ path: join(dir, "a.db") });
    await expect(db.write(async (tx) => {
      await tx.execute("INSERT INTO domains (name, created_at) VALUES ('half', 'x')");
      throw new Error("boom");
    })).rejects.toThrow("boom");
    const rs = await db.execute("SELECT COUNT(*) AS n FROM domains WHERE name = 'half'");
    expect(Number(rs.rows[0].n)).toBe(0);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("migration tracking", () => {
  it("applies a migration with a lower version that was not applied yet", async () => {
    const dir = tempDir();
    const path = join(dir, "m.db");
    (await openStore({ path })).close();
    const raw = createClient({ url: `file:${path}` });
    // Simulate a database that never got migration 1's last table.
    await raw.execute("DELETE FROM schema_migrations WHERE version = 1");
    await raw.execute("DROP TABLE store_meta");
    raw.close();
    const db = await openStore({ path });
    const rs = await db.execute("SELECT name FROM sqlite_master WHERE name = 'store_meta'");
    expect(rs.rows).toHaveLength(1);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
