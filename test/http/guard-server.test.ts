import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bootServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

function get(port: number, localAddress: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/health", localAddress, headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the guard behind a real socket (SPEC §1, §8)", () => {
  it("keys the budget on the socket peer the adapter reports, not on a client header", async () => {
    const booted = await bootServer({ CAIRN_DB_PATH: join(tempDir(), "g.db"), CAIRN_EMBED_KIND: "none", CAIRN_RATE_LIMIT_MAX: "2" }, 0);
    try {
      const port = booted.server.port;
      expect((await get(port, "127.0.0.1")).status).toBe(200);
      expect((await get(port, "127.0.0.1", { "x-forwarded-for": "203.0.113.9" })).status).toBe(200);
      const third = await get(port, "127.0.0.1", { "x-forwarded-for": "203.0.113.10" });
      expect(third.status).toBe(429);
      expect(third.body).toBe('{"error":"rate_limited","code":"rate_limited"}');
      // Another loopback source address is another client.
      expect((await get(port, "127.0.0.2")).status).toBe(200);
    } finally {
      await booted.close();
    }
  });

  it("never builds an unauthenticated router on a public bind", async () => {
    await expect(bootServer({ CAIRN_DB_PATH: join(tempDir(), "p.db"), CAIRN_EMBED_KIND: "none", BIND_ADDR: "0.0.0.0", BIND_PUBLIC: "1" }, 0))
      .rejects.toThrow(/requires a credential/);
  });
});
