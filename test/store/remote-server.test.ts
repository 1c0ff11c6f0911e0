import { describe, expect, it } from "vitest";
import { openTestMemory } from "../_helpers/memory.ts";
import { hasSqld, startSqld } from "../_helpers/sqld.ts";

describe.skipIf(!hasSqld)("CAIRN_DB_URL against a real libSQL server (sqld)", () => {
  it("boots in WAL, ingests in one transaction, dedups and deletes over HTTP to the server", async () => {
    const sqld = await startSqld();
    const t = await openTestMemory({ CAIRN_DB_URL: sqld.url });
    try {
      const health = await (await t.req("GET", "/health/db")).json();
      expect(health.durability).toMatchObject({ journal_mode: "wal", backend: "libsql-server" });
      const a = await (await t.req("POST", "/ingest", {
        title: "remote", content: "stored on the server", entities: [{ name: "X" }, { name: "Y" }], relations: [{ from: "X", to: "Y", type: "r" }],
      })).json();
      expect(a.status).toBe("created");
      const b = await (await t.req("POST", "/ingest", { title: "remote", content: "stored on the server" })).json();
      expect(b).toMatchObject({ id: a.id, status: "duplicate" });
      const bad = await t.req("POST", "/ingest", { title: "t", content: "half", relations: [{ from: "X", to: "Ghost", type: "r" }] });
      expect(bad.status).toBe(400);
      expect((await (await t.req("GET", "/stats")).json()).docs).toBe(1);
      expect((await t.req("DELETE", `/memory/${a.id}`)).status).toBe(200);
      expect((await (await t.req("GET", "/stats")).json()).docs).toBe(0);
    } finally {
      await t.close();
      await sqld.stop();
    }
  });
});
