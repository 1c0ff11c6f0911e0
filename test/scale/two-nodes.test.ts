/**
 * Issue 20: two real `cairn serve` processes over one real `sqld` on
 * loopback. A write acknowledged by node A is recallable on node B at once
 * (B applies every committed change before it answers), a delete on A is
 * never served by B afterwards, each node names itself and its lag on
 * /health/db, and two nodes appending concurrently keep one audit chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSqld, startSqld, type Sqld } from "../_helpers/sqld.ts";
import { startServer, type ServerProc } from "./_procs.ts";

describe.skipIf(!hasSqld)("two nodes over one libSQL server", () => {
  let sqld: Sqld;
  let a: ServerProc;
  let b: ServerProc;
  beforeAll(async () => {
    sqld = await startSqld();
    // A boots first (it runs the migrations); B then starts against the migrated server.
    a = await startServer({ CAIRN_DB_URL: sqld.url, CAIRN_NODE_ID: "node-a" });
    b = await startServer({ CAIRN_DB_URL: sqld.url, CAIRN_NODE_ID: "node-b" });
  }, 400_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await sqld?.stop();
  });

  it("each node's /health/db names it and its lag behind the server", async () => {
    const ha = (await a.json("GET", "/health/db")).body;
    const hb = (await b.json("GET", "/health/db")).body;
    expect(ha.node).toMatchObject({ id: "node-a", lag: 0 });
    expect(hb.node).toMatchObject({ id: "node-b", lag: 0 });
    expect(hb.durability.backend).toBe("libsql-server");
  });

  it("every write acknowledged by A is recalled by B on the next request, and a delete on A is never served by B", async () => {
    const animals = ["aardvark", "bonobo", "caracal", "dugong", "echidna", "fossa", "gharial", "hoatzin", "ibex", "jerboa"];
    for (const name of animals) {
      const w = await a.json("POST", "/ingest", { title: name, content: `The ${name} is catalogued in the field guide with its habitat.` });
      expect(w.body.status).toBe("created");
      const r = await b.json("POST", "/recall", { query: name });
      expect(r.body.hits.map((h: { id: number }) => h.id)).toContain(w.body.id);
      expect((await a.json("POST", "/recall", { query: name })).body.hits.map((h: { id: number }) => h.id)).toContain(w.body.id);
      const d = await a.json("DELETE", `/memory/${w.body.id}`);
      expect(d.status).toBe(200);
      expect((await b.json("POST", "/recall", { query: name })).body.hits).toEqual([]);
    }
    expect((await b.json("GET", "/health/db")).body.node.applied).toMatchObject({ added: animals.length, removed: animals.length });
  }, 120_000);

  it("two nodes writing 1,000 audited rows each at once keep one chain: verify is clean and no row is lost", async () => {
    const before = (await a.json("GET", "/audit/verify")).body.rows as number;
    const write = async (n: ServerProc, tag: string) => {
      const ids: number[] = [];
      for (let i = 0; i < 100; i++) {
        const items = Array.from({ length: 10 }, (_, k) => ({ title: `${tag}-${i}-${k}`, content: `Row ${k} of batch ${i} written by node ${tag} about tern colonies.` }));
        const r = await n.json("POST", "/ingest/batch", { items });
        expect(r.status).toBe(200);
        for (const it of r.body.items as { id: number; status: string }[]) {
          expect(it.status).toBe("created");
          ids.push(it.id);
        }
      }
      return ids;
    };
    const [fromA, fromB] = await Promise.all([write(a, "a"), write(b, "b")]);
    expect(new Set([...fromA, ...fromB]).size).toBe(2000);
    const v = (await b.json("GET", "/audit/verify")).body;
    expect(v.ok).toBe(true);
    expect(v.rows).toBeGreaterThanOrEqual(before + 2000);
    expect((await a.json("GET", "/stats")).body.docs).toBe(2000);
    // Both nodes serve both nodes' rows.
    const hitsA = (await a.json("POST", "/recall", { query: "tern colonies node b", limit: 50 })).body.hits as { id: number }[];
    const hitsB = (await b.json("POST", "/recall", { query: "tern colonies node a", limit: 50 })).body.hits as { id: number }[];
    expect(hitsA.some((h) => fromB.includes(h.id))).toBe(true);
    expect(hitsB.some((h) => fromA.includes(h.id))).toBe(true);
  }, 300_000);
});
