import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bootServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

describe("bootServer over real loopback HTTP", () => {
  it("serves ingest and health on 127.0.0.1 against a libSQL file", async () => {
    const booted = await bootServer({ CAIRN_DB_PATH: join(tempDir(), "s.db") }, 0);
    try {
      const base = `http://127.0.0.1:${booted.server.port}`;
      const res = await fetch(`${base}/ingest`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "loopback", content: "served over a real socket" }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).status).toBe("created");
      const h = await fetch(`${base}/health`);
      expect(h.headers.get("x-api-version")).toBe("1.0.0");
      expect(booted.bootMs).toBeGreaterThanOrEqual(0);
    } finally {
      await booted.close();
    }
  });

  it("refuses to boot when the database is stamped newer than it knows", async () => {
    const dir = tempDir();
    const { createClient } = await import("@libsql/client");
    const b = await bootServer({ CAIRN_DB_PATH: join(dir, "s.db") }, 0);
    await b.close();
    const c = createClient({ url: `file:${join(dir, "s.db")}` });
    await c.execute("UPDATE schema_stamp SET version = version + 100, stamp = '9.9.9'");
    c.close();
    await expect(bootServer({ CAIRN_DB_PATH: join(dir, "s.db") }, 0)).rejects.toThrow(/newer than this server knows/);
  });
});
