import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "@libsql/client";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

describe("domains (SPEC §2.5, §4.5)", () => {
  it("lists global from the start", async () => {
    const body = await (await t.req("GET", "/domains")).json();
    expect(body).toEqual({ domains: [{ name: "global", entries: 0, entities: 0, relations: 0, multi_db: false }] });
  });

  it("creates with 201 the first time and 200 after, normalising the name", async () => {
    const a = await t.req("POST", "/domains", { name: " Research " });
    expect(a.status).toBe(201);
    expect((await a.json()).name).toBe("research");
    const b = await t.req("POST", "/domains", { name: "research" });
    expect(b.status).toBe(200);
  });

  it("rejects a malformed name with domain_invalid", async () => {
    for (const body of [{ name: "-lead" }, { name: "has space" }, { name: "x".repeat(64) }, { name: "" }, { name: 7 }, {}]) {
      const res = await t.req("POST", "/domains", body);
      expect(res.status).toBe(400);
      const e = (await res.json()).error;
      expect(e.code).toBe("domain_invalid");
      // The 400 names the request field that was wrong (issue: bad input).
      expect(e.details).toEqual({ field: "name" });
    }
    expect((await (await t.req("GET", "/domains")).json()).domains.map((d: { name: string }) => d.name)).toEqual(["global"]);
  });

  it("counts entries per domain and entities/relations as global totals", async () => {
    await t.req("POST", "/domains", { name: "ops" });
    await t.req("POST", "/ingest", { title: "a", content: "in ops", domain: "ops", entities: [{ name: "A" }, { name: "B" }], relations: [{ from: "A", to: "B", type: "r" }] });
    await t.req("POST", "/ingest", { title: "b", content: "in global" });
    const { domains } = await (await t.req("GET", "/domains")).json();
    expect(domains).toEqual([
      { name: "global", entries: 1, entities: 2, relations: 1, multi_db: false },
      { name: "ops", entries: 1, entities: 2, relations: 1, multi_db: false },
    ]);
  });

  it("drops a domain only with the exact confirm, removing its data", async () => {
    await t.req("POST", "/domains", { name: "tmp" });
    await t.req("POST", "/ingest", { title: "a", content: "doomed", domain: "tmp" });
    expect((await t.req("DELETE", "/domains/tmp")).status).toBe(400);
    expect((await t.req("DELETE", "/domains/tmp?confirm=TMP2")).status).toBe(400);
    expect((await t.req("DELETE", "/domains/tmp?confirm=tm")).status).toBe(400);
    expect((await t.req("DELETE", "/domains/tmp?confirm=")).status).toBe(400);
    // The same trim-and-lowercase rule as the name itself (SPEC §2.5): what the user typed twice matches.
    const ok = await t.req("DELETE", "/domains/TMP?confirm=TMP");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ deleted: true, name: "tmp", entries_removed: 1 });
    const { domains } = await (await t.req("GET", "/domains")).json();
    expect(domains.map((d: { name: string }) => d.name)).toEqual(["global"]);
    const audit = await (await t.req("GET", "/audit?action=domain_drop")).json();
    expect(audit.rows.map((r: { detail: unknown }) => r.detail)).toEqual([{ domain: "tmp", entries_removed: 1 }]);
    // the same content can be written again: its old row is gone
    expect((await (await t.req("POST", "/ingest", { title: "a", content: "doomed" })).json()).status).toBe("created");
  });

  it("drops a domain's chunks like any governed deletion: tombstones, no dangling file or record links, consistent store", async () => {
    await t.req("POST", "/domains", { name: "team" });
    const note = await t.memory.sources.ingestFile({ kind: "vault", root: "/vault", path: "plan.md", content: "# Plan\nShip the ledger on Friday." });
    const vault = await t.memory.sources.ingestFile({ kind: "vault", root: "/vault", path: "team/notes.md", content: "# Notes\nTeam notes body.", domain: "team" });
    const { id } = await (await t.req("POST", "/ingest", { title: "t", content: "team only row", domain: "team" })).json();
    const dropped = [...vault.chunkIds, id].sort((a, b) => a - b);
    expect((await t.req("DELETE", "/domains/team?confirm=team")).status).toBe(200);
    const c = createClient({ url: `file:${t.dbPath}` });
    const tomb = (await c.execute("SELECT chunk_id, reason FROM tombstones ORDER BY chunk_id")).rows.map((r) => [Number(r.chunk_id), r.reason]);
    expect(tomb).toEqual(dropped.map((x) => [x, "domain_drop"]));
    const links = (await c.execute("SELECT chunk_id FROM file_source_chunks ORDER BY chunk_id")).rows.map((r) => Number(r.chunk_id));
    expect(links).toEqual(note.chunkIds);
    c.close();
    const check = await t.memory.checkConsistency();
    expect(check.checks.filter((x) => !x.ok)).toEqual([]);
    // The same file can come back into a re-created domain as a new chunk.
    await t.req("POST", "/domains", { name: "team" });
    const again = await t.memory.sources.ingestFile({ kind: "vault", root: "/vault", path: "team/notes.md", content: "# Notes\nTeam notes body.", domain: "team" });
    expect(again.created).toBe(1);
  });

  it("protects global and answers 404 for an unknown domain", async () => {
    const g = await t.req("DELETE", "/domains/global?confirm=global");
    expect(g.status).toBe(400);
    expect((await g.json()).error.code).toBe("domain_protected");
    expect((await t.req("DELETE", "/domains/nope?confirm=nope")).status).toBe(404);
  });

  it("vacuums a known domain and 404s an unknown one", async () => {
    expect(await (await t.req("POST", "/domains/global/vacuum")).json()).toEqual({ name: "global", vacuumed: true });
    expect((await t.req("POST", "/domains/ghost/vacuum")).status).toBe(404);
  });
});
