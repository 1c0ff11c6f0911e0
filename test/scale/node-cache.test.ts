/**
 * Issue 20: a node on a libSQL server restarts from its boot cache (CAIRN_NODE_CACHE) and reads from the server
 * only the labels and the changes after the cache's cursor. Real `sqld`, real `cairn serve` processes: a write and
 * a delete on node A while node B is down are both in B's answers after B restarts from its cache (the delete is
 * applied by the cache boot itself: B's change feed starts after it), the cache file no longer holds the deleted
 * text, and a cache written against another server is refused and the node reads that server instead.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";
import { hasSqld, startSqld, type Sqld } from "../_helpers/sqld.ts";
import { startServer, type ServerProc } from "./_procs.ts";

const ids = (r: { body: { hits: { id: number }[] } }) => r.body.hits.map((h) => h.id);

describe.skipIf(!hasSqld)("a server node's boot cache", () => {
  const dir = tempDir("cairn-node-cache-");
  const cacheB = join(dir, "b.node-cache");
  let sqld: Sqld;
  let other: Sqld | undefined;
  let a: ServerProc;
  let b: ServerProc | undefined;
  // Vectors too: the static embedder, so the cache carries the matrix and the vector leg must agree with it.
  const env = (id: string, cache: string, url: string) => ({ CAIRN_DB_URL: url, CAIRN_NODE_ID: id, CAIRN_NODE_CACHE: cache, CAIRN_EMBED_KIND: "static" });
  beforeAll(async () => {
    sqld = await startSqld();
    a = await startServer(env("node-a", join(dir, "a.node-cache"), sqld.url));
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await sqld?.stop();
    await other?.stop();
  });

  it("B restarts from its cache: a write on A while B was down is recalled, a delete is not served, the file forgets it", async () => {
    const w: Record<string, number> = {};
    for (const name of ["aardvark", "bonobo", "caracal"]) {
      w[name] = (await a.json("POST", "/ingest", { title: name, content: `The ${name} is catalogued in the field guide with its habitat.` })).body.id;
    }
    b = await startServer(env("node-b", cacheB, sqld.url));
    // Without a cache file B read everything from the server.
    expect((await b.json("GET", "/health/db")).body.node.boot_cache).toMatchObject({ used: false, refused: "no cache" });
    expect(ids(await b.json("POST", "/recall", { query: "bonobo" }))).toContain(w.bonobo);
    await b.stop();
    expect(readFileSync(cacheB).includes("bonobo")).toBe(true);

    // While B is down: a write and a delete on A.
    w.dugong = (await a.json("POST", "/ingest", { title: "dugong", content: "The dugong grazes on seagrass meadows in warm coastal water." })).body.id;
    expect((await a.json("DELETE", `/memory/${w.bonobo}`)).status).toBe(200);

    b = await startServer(env("node-b", cacheB, sqld.url));
    const node = (await b.json("GET", "/health/db")).body.node;
    expect(node.boot_cache).toEqual({ used: true, applied: { added: 1, removed: 1 } });
    expect(node.lag).toBe(0);
    expect(ids(await b.json("POST", "/recall", { query: "dugong seagrass" }))).toContain(w.dugong);
    expect(ids(await b.json("POST", "/recall", { query: "caracal" }))).toContain(w.caracal);
    expect(ids(await b.json("POST", "/recall", { query: "bonobo" }))).not.toContain(w.bonobo);
    expect(ids(await b.json("POST", "/recall", { query: "bonobo", source: "vector", limit: 10 }))).not.toContain(w.bonobo);
    // The cache held the deleted chunk's text: it was overwritten at boot, not kept until the next clean stop.
    expect(readFileSync(cacheB).includes("bonobo")).toBe(false);

    // A clean stop writes a current cache again (without the deleted chunk), and the next boot uses it with nothing to apply.
    await b.stop();
    const saved = readFileSync(cacheB);
    expect(saved.includes("dugong")).toBe(true);
    expect(saved.includes("bonobo")).toBe(false);
    b = await startServer(env("node-b", cacheB, sqld.url));
    expect((await b.json("GET", "/health/db")).body.node.boot_cache).toEqual({ used: true, applied: { added: 0, removed: 0 } });
    expect(ids(await b.json("POST", "/recall", { query: "aardvark" }))).toContain(w.aardvark);
    await b.stop();
    b = undefined;
  }, 300_000);

  it("a cache written against another server is refused: the node reads its own server and serves none of the cached text", async () => {
    expect(existsSync(cacheB)).toBe(true);
    other = await startSqld();
    const foreign = join(dir, "c.node-cache");
    copyFileSync(cacheB, foreign);
    const c = await startServer(env("node-c", foreign, other.url));
    try {
      expect((await c.json("GET", "/health/db")).body.node.boot_cache).toEqual({ used: false, refused: "cache written against another store" });
      expect((await c.json("POST", "/recall", { query: "aardvark caracal dugong" })).body.hits).toEqual([]);
      expect((await c.json("GET", "/stats")).body.docs).toBe(0);
      // The refused file was overwritten at boot (it held another store's text).
      expect(readFileSync(foreign).includes("aardvark")).toBe(false);
      const x = (await c.json("POST", "/ingest", { title: "ibex", content: "The ibex climbs steep alpine cliffs." })).body.id;
      expect(ids(await c.json("POST", "/recall", { query: "ibex" }))).toContain(x);
    } finally {
      await c.stop();
    }
  }, 300_000);

  it("a node with int8 rows (CAIRN_NODE_VECTOR_ROWS=int8) answers like a float32 node, restarts from its own cache, and a float32 node refuses that cache", async () => {
    const cache8 = join(dir, "int8.node-cache");
    const env8 = { ...env("node-8", cache8, sqld.url), CAIRN_NODE_VECTOR_ROWS: "int8" };
    let n8 = await startServer(env8);
    const vq = (p: ServerProc, query: string) => p.json("POST", "/recall", { query, source: "vector", limit: 3, abstain: false });
    try {
      const health = (await n8.json("GET", "/health/db")).body;
      expect(health.vector_rows).toBe("int8");
      expect((await a.json("GET", "/health/db")).body.vector_rows).toBe("float32");
      const queries = ["grazing seagrass in coastal water", "habitat in the field guide", "a catalogued animal"];
      const before: unknown[] = [];
      for (const q of queries) {
        const [r8, r32] = [(await vq(n8, q)).body.hits, (await vq(a, q)).body.hits];
        expect(r8.map((h: { id: number }) => h.id)).toEqual(r32.map((h: { id: number }) => h.id));
        before.push(r8);
      }
      await n8.stop();
      n8 = await startServer(env8);
      expect((await n8.json("GET", "/health/db")).body.node.boot_cache).toEqual({ used: true, applied: { added: 0, removed: 0 } });
      for (let i = 0; i < queries.length; i++) expect((await vq(n8, queries[i])).body.hits).toEqual(before[i]);
      await n8.stop();
      // The same file given to a float32 node: refused, read from the server, and it answers as before.
      const f32 = await startServer(env("node-8", cache8, sqld.url));
      try {
        expect((await f32.json("GET", "/health/db")).body.node.boot_cache).toEqual({ used: false, refused: "cache holds int8 vector rows, this node keeps float32" });
        expect((await vq(f32, queries[0])).body.hits.map((h: { id: number }) => h.id)).toEqual((before[0] as { id: number }[]).map((h) => h.id));
      } finally {
        await f32.stop();
      }
    } finally {
      await n8.stop();
    }
  }, 300_000);
});
