import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { rec } from "../ump/_keyed.ts";
import { eraseInTx } from "../../src/erasure/erase-in-tx.ts";

// What an erasure takes with a chunk beyond its row (SPEC §3 erasure row, §4.4): consolidation links touching it
// (counted in the certificate and the purge audit row), its UMP record, and nothing of the chunks it did not locate.

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

async function count(table: string): Promise<number> {
  const c = createClient({ url: `file:${t!.dbPath}` });
  try {
    return Number((await c.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
  } finally {
    c.close();
  }
}
const ingest = async (title: string, content: string) => (await (await t!.req("POST", "/ingest", { title, content })).json()).id as number;

describe("an erasure's reach", () => {
  it("deletes and counts the consolidation links touching the erased chunks, and keeps the others", async () => {
    t = await openTestMemory();
    const old = await ingest("Rate 2025", "Harbour dues for pia.s@example.com were 40 a month.");
    const newer = await ingest("Rate 2026", "Harbour dues are 45 a month from January.");
    const other = await ingest("Rate 2024", "Harbour dues were 38 a month.");
    expect((await t.req("POST", "/consolidate", { from: newer, to: old, kind: "supersedes" })).status).toBe(200);
    expect((await t.req("POST", "/consolidate", { from: old, to: other, kind: "supersedes" })).status).toBe(200);
    expect((await t.req("POST", "/consolidate", { from: newer, to: other, kind: "supersedes" })).status).toBe(200);
    const cert = (await (await t.req("POST", "/dsar", { email: "pia.s@example.com" })).json()).certificate;
    expect(cert.erased).toMatchObject({ chunk_ids: [old], links: 2 });
    expect((await (await t.req("GET", "/audit?action=erasure")).json()).rows[0].detail).toMatchObject({ chunks: 1, links: 2 });
    expect(await count("consolidation_links")).toBe(1);

    expect((await t.req("POST", "/purge", { ids: [other] })).status).toBe(200);
    expect((await (await t.req("GET", "/audit?action=purge")).json()).rows[0].detail).toMatchObject({ chunks: 1, links: 1 });
    expect(await count("consolidation_links")).toBe(0);
  });

  it("takes a chunk's UMP record with it", async () => {
    t = await openTestMemory();
    const r = await (await t.req("POST", "/ump/remember", rec("Berth 9 is leased to Tomas Varga until June", { title: "berth 9" }))).json();
    expect((await t.req("GET", `/ump/memory/${r.id}`)).status).toBe(200);
    expect(await count("ump_records")).toBe(1);
    const out = await (await t.req("POST", "/dsar", { match: "Tomas Varga" })).json();
    expect(out.certificate.erased.chunk_ids).toHaveLength(1);
    expect(await count("ump_records")).toBe(0);
    expect((await t.req("GET", `/ump/memory/${r.id}`)).status).toBe(404);
  });

  it("refuses to erase an id that is not a stored chunk, and the transaction leaves everything", async () => {
    t = await openTestMemory();
    const id = await ingest("Keep", "The slipway is booked for Thursday.");
    await expect(t.memory.db.write((tx) => eraseInTx(tx, { chunkIds: [id, id + 100], reason: "erasure", now: "2026-01-01T00:00:00Z" })))
      .rejects.toThrow("erasure found fewer chunks than it located");
    expect(await count("chunks")).toBe(1);
    expect(await count("tombstones")).toBe(0);
    // Duplicates in the list are one chunk.
    const erased = await t.memory.db.write((tx) => eraseInTx(tx, { chunkIds: [id, id], reason: "purge", now: "2026-01-01T00:00:00Z" }));
    expect(erased).toEqual({ chunkIds: [id], proposalIds: [], links: 0, tables: { chunks: 1 } });
    expect(await count("chunks")).toBe(0);
  });
});
