/**
 * `cairn/client` against a real server on loopback (issue 21): typed results,
 * refusals as MemoryError carrying the SPEC §7 code and status, the bearer
 * sent on every call, and `hc<AppType>` usable directly.
 */
import { join } from "node:path";
import { hc } from "hono/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, isMemoryError, MemoryError, type AppType } from "../../src/client/mod.ts";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

const TOKEN = "client-test-token-0123456789";

describe("typed client over loopback HTTP", () => {
  let booted: BootedServer;
  let base: string;
  beforeAll(async () => {
    booted = await bootServer({ CAIRN_DB_PATH: join(tempDir(), "c.db"), AUTH_TOKEN: TOKEN }, 0);
    base = `http://127.0.0.1:${booted.server.port}`;
  });
  afterAll(() => booted.close());

  it("writes, recalls and reads back with typed results", async () => {
    const cairn = createClient({ baseUrl: base, token: TOKEN });
    const created = await cairn.createDomain("work");
    expect(created).toMatchObject({ name: "work", entries: 0 });
    const put = await cairn.ingest({ title: "Deploy windows", content: "Deploys happen on Tuesday mornings after the change review.", domain: "work" });
    expect(put).toMatchObject({ status: "created", domain: "work" });
    const batch = await cairn.ingestBatch([{ title: "Rollback", content: "Rollbacks need the on-call engineer's approval." }]);
    expect(batch.created).toBe(1);
    const found = await cairn.recall({ query: "when do deploys happen", domain: "work" });
    const first: number = found.hits[0]!.id;
    expect(first).toBe((put as { id: number }).id);
    const domains = await cairn.listDomains();
    expect(domains.domains.find((d) => d.name === "work")?.entries).toBe(1);
    expect((await cairn.health()).status).toBe("ok");
    expect(await cairn.openapi()).toMatch(/^openapi: "3\.1\.0"/);
    const verified = await cairn.verifyAudit();
    expect(verified.ok).toBe(true);
  });

  it("throws MemoryError with the spec code, message and status", async () => {
    const cairn = createClient({ baseUrl: base, token: TOKEN });
    const err = await cairn.recall({ query: "q", limit: 0 }).catch((e) => e);
    expect(isMemoryError(err)).toBe(true);
    expect(err).toBeInstanceOf(MemoryError);
    expect(err).toMatchObject({ code: "limit_out_of_range", status: 400, details: { min: 1, max: 100 } });
    await expect(cairn.ingest({ title: "", content: "x" })).rejects.toMatchObject({ code: "title_invalid", status: 400 });
    await expect(cairn.deleteMemory(999_999)).rejects.toMatchObject({ code: "not_found", status: 404 });
    // SPEC §7: 401 is never swallowed.
    await expect(createClient({ baseUrl: base }).stats()).rejects.toMatchObject({ code: "unauthorized", status: 401 });
    await expect(createClient({ baseUrl: base, token: "wrong-token-0123456789" }).listDomains()).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("reaches the UMP routes and the public capabilities document", async () => {
    const anon = createClient({ baseUrl: base });
    expect((await anon.ump.capabilities()).ump).toBe("1.0");
    const cairn = createClient({ baseUrl: base, token: TOKEN });
    const r = await cairn.ump.remember({ ump: "1.0", kind: "semantic", body: { text: "The staging database is rebuilt every Sunday." } });
    expect(r.result).toBe("created");
    const got = await cairn.ump.get(r.id!);
    expect(got.untrusted).toBe(true);
    // @ts-expect-error a record without a body does not compile, and the server refuses it too
    await expect(cairn.ump.remember({ kind: "semantic" })).rejects.toMatchObject({ code: "invalid_record", status: 400 });
  });

  it("types hc<AppType> from hono/client directly", async () => {
    const api = hc<AppType>(base, { headers: { authorization: `Bearer ${TOKEN}` } });
    const res = await api.version.$get();
    expect(res.status).toBe(200);
    if (res.status === 200) {
      const v = await res.json();
      const label: string = v.api;
      expect(label).toBe("api v1");
    }
  });
});
