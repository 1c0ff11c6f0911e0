/**
 * Two machines, end to end (issue 14): two real Cairn servers on loopback with different operator keys and
 * databases. A exports a signed parcel; B imports it naming A's did:key; the rows wait as proposals on B until
 * approved; then B's recall finds them. Each side keeps one ledger row and both audit chains verify. The same
 * two servers then move a whole domain as a snapshot over HTTP.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dirKeyring } from "../../src/runtime/ump-keyring.ts";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { didFromSeed } from "../../src/ump/did-key.ts";
import { tempDir } from "../_helpers/memory.ts";

type Machine = { booted: BootedServer; base: string; did: string };

async function machine(name: string): Promise<Machine> {
  const dir = tempDir(`cairn-${name}-`);
  const keys = join(dir, "keys");
  const { seed } = await dirKeyring(keys).generate();
  const booted = await bootServer({ CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_UMP_KEY_DIR: keys, BIND_ADDR: "127.0.0.1" }, 0);
  return { booted, base: `http://127.0.0.1:${booted.server.port}`, did: didFromSeed(seed) };
}

const call = async (m: Machine, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${m.base}${path}`, {
    method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

let a: Machine;
let b: Machine;
beforeAll(async () => {
  a = await machine("a");
  b = await machine("b");
}, 60_000);
afterAll(async () => {
  await a?.booted.close();
  await b?.booted.close();
});

describe("two machines", () => {
  it("A's signed parcel lands pending on B, promotes on approval, and both sides ledger and audit it", async () => {
    expect(a.did).not.toBe(b.did);
    expect((await call(a, "POST", "/domains", { name: "runbooks" })).status).toBe(201);
    for (const [title, content] of [
      ["Failover", "To fail over the primary database, promote the replica in zone b and repoint the pgbouncer pool."],
      ["Cert rotation", "TLS certificates for the edge proxies rotate on the first Tuesday of each quarter."],
    ]) expect((await call(a, "POST", "/ingest", { domain: "runbooks", title, content })).status).toBe(200);

    const exported = await call(a, "POST", "/parcels/export", { domain: "runbooks" });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ row_count: 2, source_domain: "runbooks", parcel: { signed_by: a.did } });

    const imported = await call(b, "POST", "/parcels/import", { expected_signer: a.did, parcel: exported.body.parcel });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ received: 2, duplicate: 0, filed: 2, signer: a.did, domain: "runbooks" });
    expect((await call(b, "POST", "/recall", { query: "fail over the primary database replica" })).body.hits).toEqual([]);

    const pending = (await call(b, "GET", "/proposals?status=pending")).body as { id: number; content_digest: string }[];
    expect(pending).toHaveLength(2);
    for (const p of pending) expect((await call(b, "POST", `/proposals/${p.id}/approve?digest=${p.content_digest}`)).status).toBe(200);
    const hits = (await call(b, "POST", "/recall", { query: "fail over the primary database replica" })).body.hits;
    expect(hits[0]).toMatchObject({ title: "Failover" });

    const ledgerA = (await call(a, "GET", "/parcels")).body.rows;
    const ledgerB = (await call(b, "GET", "/parcels")).body.rows;
    expect(ledgerA).toEqual([expect.objectContaining({ direction: "out", parcel_hash: exported.body.parcel_hash, signer: a.did, row_count: 2 })]);
    expect(ledgerB).toEqual([expect.objectContaining({ direction: "in", parcel_hash: exported.body.parcel_hash, signer: a.did, row_count: 2 })]);
    expect((await call(a, "GET", "/audit/verify")).body.ok).toBe(true);
    expect((await call(b, "GET", "/audit/verify")).body.ok).toBe(true);
  });

  it("B refuses a parcel that names B's own key for A's parcel, over real HTTP", async () => {
    const exported = await call(a, "POST", "/parcels/export", { domain: "runbooks" });
    const r = await call(b, "POST", "/parcels/import", { expected_signer: b.did, parcel: exported.body.parcel });
    expect(r).toMatchObject({ status: 409, body: { error: { code: "signer_alias" } } });
  });

  it("a domain snapshot streams from A and imports on B under a new name", async () => {
    const res = await fetch(`${a.base}/domains/runbooks/export`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // B already holds the parcel's rows (approved above), so the same content would collide: drop them first.
    const drop = await fetch(`${b.base}/domains/runbooks?confirm=runbooks`, { method: "DELETE" });
    expect(drop.status).toBe(200);
    const imp = await fetch(`${b.base}/domains/runbooks-copy/import`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes });
    expect(imp.status).toBe(200);
    expect(await imp.json()).toMatchObject({ domain: "runbooks-copy", imported: { chunk: 2 } });
    const hits = (await call(b, "POST", "/recall", { query: "TLS certificates edge proxies rotate", domain: "runbooks-copy" })).body.hits;
    expect(hits[0]).toMatchObject({ title: "Cert rotation" });
  });
});
