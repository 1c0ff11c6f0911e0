import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
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

  it("warns at boot when JWTs are accepted under the default roleless posture, and not under deny", async () => {
    const dir = tempDir();
    const secret = join(dir, "hs");
    writeFileSync(secret, "an-hs256-secret-that-is-at-least-32-bytes-long");
    chmodSync(secret, 0o600);
    for (const [posture, warned] of [["pass", true], ["deny", false]] as const) {
      const lines: string[] = [];
      const spy = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => { lines.push(a.map(String).join(" ")); });
      try {
        const b = await bootServer({ CAIRN_DB_PATH: join(dir, `${posture}.db`), CAIRN_JWT_SECRET_FILE: secret, CAIRN_RBAC_ROLELESS_POSTURE: posture, CAIRN_EMBED_KIND: "none" }, 0);
        await b.close();
      } finally {
        spy.mockRestore();
      }
      expect(lines.some((l) => l.includes("roleless_posture_pass") && l.includes("CAIRN_RBAC_ROLELESS_POSTURE"))).toBe(warned);
    }
  });
});
