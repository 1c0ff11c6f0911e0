/**
 * Domain snapshots in multi-database mode (SPEC §4.5 has no exception for CAIRN_MULTI_DB=true): the same format in
 * both storage modes, export and import in each, and a round trip between them. Real libSQL files, one per domain.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import type { TestMemory } from "../_helpers/memory.ts";
import { useSnapshotServers } from "./_servers.ts";

const server = useSnapshotServers();
const MULTI = { CAIRN_MULTI_DB: "true" };

const NOTES = [
  ["Pager rotation", "The pager rotation for the payments team changes every Monday at nine."],
  ["Ledger deploys", "Deploys to the ledger service need two reviewers and a green canary."],
  ["Canary", "The canary runs for thirty minutes before the payments rollout continues."],
  ["Kiwi", "Kiwi is the code name of the new checkout service owned by the payments team."],
];
const QUERIES = ["payments team rotation", "ledger canary reviewers", "checkout service code name", "restore drill staging"];

/** A domain with chunks, graph rows, a tombstone, a pending proposal and a UMP record (its row in the global database). */
async function seeded(env: Record<string, string>): Promise<TestMemory> {
  const a = await server(env);
  expect((await a.req("POST", "/domains", { name: "work" })).status).toBe(201);
  for (const [title, content] of NOTES) {
    expect((await a.req("POST", "/ingest", {
      domain: "work", title, content, entities: [{ name: "Payments", type: "team" }, { name: title }], relations: [{ from: "Payments", to: title, type: "owns" }],
    })).status).toBe(200);
  }
  const gone = await (await a.req("POST", "/ingest", { domain: "work", title: "Old", content: "An obsolete note about fax machines." })).json();
  expect((await a.req("DELETE", `/memory/${gone.id}`)).status).toBe(200);
  expect((await a.req("POST", "/ingest/proposal", { domain: "work", content: "A pending idea about the cafeteria menu." })).status).toBe(200);
  const record = { ump: "1.0", kind: "semantic", body: { text: "The restore drill runs monthly into staging." }, "x-cairn": { chunk: { source: "memory", domain: "work", confidence: 1 } } };
  const ump = await (await a.req("POST", "/ingest?format=ump", { ump: "1.0", records: [record, { ...record, body: { text: "A global note about lunch." }, "x-cairn": undefined }] })).json();
  expect(ump.created).toBe(2);
  return a;
}

async function exportBytes(m: TestMemory, name: string): Promise<Uint8Array> {
  const res = await m.req("GET", `/domains/${name}/export`);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}
const importBytes = (m: TestMemory, name: string, bytes: Uint8Array) =>
  m.app.request(`/domains/${name}/import`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes as BodyInit }, { remoteAddr: "127.0.0.1" });
const lines = (bytes: Uint8Array) => gunzipSync(bytes).toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
const hitsOf = async (m: TestMemory, domain: string, query: string) =>
  (await (await m.req("POST", "/recall", { query, domain, limit: 5 })).json()).hits.map((h: { title?: string; content: string }) => h.title ?? h.content);
async function count(path: string, sql: string): Promise<number> {
  const c = createClient({ url: `file:${path}`, intMode: "number" });
  try {
    return Number((await c.execute(sql)).rows[0][0]);
  } finally {
    c.close();
  }
}
/** A line without what legitimately differs between stores: ids, sequence numbers and times of the copy. */
const shape = (l: Record<string, unknown>) => {
  const { id: _i, seq: _s, chunk_id: _c, entity_id: _e, from_id: _f, to_id: _t, created_at: _ca, updated_at: _ua, ...rest } = l;
  return rest;
};

describe("domain snapshots with CAIRN_MULTI_DB=true (SPEC §4.5)", () => {
  it("exports the same sections and rows as a single-file store, UMP records (global rows) included", async () => {
    const multi = lines(await exportBytes(await seeded(MULTI), "work"));
    const single = lines(await exportBytes(await seeded({}), "work"));
    const end = (ls: Record<string, unknown>[]) => ls[ls.length - 1] as { counts: Record<string, number> };
    expect(end(multi).counts).toEqual(end(single).counts);
    expect(end(multi).counts).toMatchObject({ chunk: 5, entity: 5, relation: 4, tombstone: 1, proposal: 1, ump_record: 1 });
    // Record ids are content- and time-derived: times, ids and hashes of the two runs are masked.
    const mask = (t: string) => t.replace(/urn:ump:[a-z0-9]+/g, "urn").replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "time").replace(/blake3:[a-z0-9]+/g, "hash");
    const body = (ls: Record<string, unknown>[]) => ls.slice(1, -1).map(shape).map((l) => mask(JSON.stringify(l))).sort();
    expect(body(multi)).toEqual(body(single));
  });

  it("imports into its own database file and recalls like the source; the audit chain verifies", async () => {
    const a = await seeded(MULTI);
    const b = await server(MULTI);
    const res = await importBytes(b, "copy", await exportBytes(a, "work"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: "copy", source_domain: "work", imported: { chunk: 5, ump_record: 1, tombstone: 1, proposal: 1 } });
    const file = join(b.dir, "domains", "copy.db");
    expect(await count(file, "SELECT COUNT(*) FROM chunks")).toBe(5);
    expect(await count(file, "SELECT COUNT(*) FROM entities")).toBe(5);
    expect(await count(b.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'copy'")).toBe(0);
    expect(await count(b.dbPath, "SELECT COUNT(*) FROM ump_records")).toBe(1);
    for (const q of QUERIES) expect(await hitsOf(b, "copy", q), q).toEqual(await hitsOf(a, "work", q));
    expect((await (await b.req("GET", "/domains")).json()).domains).toContainEqual({ name: "copy", entries: 5, entities: 5, relations: 4, multi_db: true });
    const rec = (await (await b.req("GET", "/export?format=ump")).json()).records;
    expect(rec.map((r: { body: { text: string } }) => r.body.text)).toEqual(["The restore drill runs monthly into staging."]);
    expect(await (await b.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true });
  });

  it("moves between the storage modes both ways with the same answers", async () => {
    const single = await seeded({});
    const multi = await seeded(MULTI);
    const toMulti = await server(MULTI);
    const toSingle = await server({});
    expect((await importBytes(toMulti, "copy", await exportBytes(single, "work"))).status).toBe(200);
    expect((await importBytes(toSingle, "copy", await exportBytes(multi, "work"))).status).toBe(200);
    for (const q of QUERIES) {
      const want = await hitsOf(single, "work", q);
      expect(await hitsOf(toMulti, "copy", q), q).toEqual(want);
      expect(await hitsOf(toSingle, "copy", q), q).toEqual(want);
    }
  });

  it("a refused import leaves no domain, no database file and no rows behind", async () => {
    const a = await seeded(MULTI);
    const bytes = await exportBytes(a, "work");
    const b = await server(MULTI);
    // A snapshot whose content the target already stores: refused (409) after the domain's file would exist.
    expect((await b.req("POST", "/ingest", { title: "Kiwi", content: NOTES[3][1] })).status).toBe(200);
    const res = await importBytes(b, "copy", bytes);
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("snapshot_conflict");
    expect(existsSync(join(b.dir, "domains", "copy.db"))).toBe(false);
    expect((await (await b.req("GET", "/domains")).json()).domains.map((d: { name: string }) => d.name)).toEqual(["global"]);
    expect(await count(b.dbPath, "SELECT COUNT(*) FROM ump_records")).toBe(0);
    // Then the same name imports once the clash is gone.
    const kiwi = (await (await b.req("POST", "/recall", { query: "Kiwi checkout", limit: 1 })).json()).hits[0];
    expect((await b.req("DELETE", `/memory/${kiwi.id}`)).status).toBe(200);
    expect((await importBytes(b, "copy", bytes)).status).toBe(200);
  });
});
