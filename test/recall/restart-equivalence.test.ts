/**
 * STYLE 18, issue 36 finding 1: every index and feature built at boot equals the one built during ingest. A small
 * store is filled through every door over real HTTP, a fixed query set is answered (every field of every hit), the
 * server is stopped and booted again on the same database, and every answer must be identical: after a boot from
 * the lexical snapshot, after a boot that re-indexes the rows, in multi-database mode, and on a libSQL server
 * (real sqld) after a boot from the node cache and after one that reads everything.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { answersOf, diffAnswers, fillThroughDoors, SMALL_DOORS, SMALL_QUERIES, type Json } from "../_helpers/doors.ts";
import { tempDir } from "../_helpers/memory.ts";
import { hasSqld, startSqld, type Sqld } from "../_helpers/sqld.ts";

const running: BootedServer[] = [];
afterAll(async () => { for (const s of running) await s.close().catch(() => undefined); });

async function boot(env: Record<string, string>): Promise<{ json: Json; server: BootedServer; stop(): Promise<void> }> {
  const server = await bootServer({ BIND_ADDR: "127.0.0.1", ...env }, 0);
  running.push(server);
  const json: Json = async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${server.server.port}${path}`, {
      method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  return { json, server, stop: async () => { running.splice(running.indexOf(server), 1); await server.close(); } };
}

describe("answers before and after a restart, for a store filled through every door", () => {
  it("a local file: identical after a boot from the lexical snapshot and after one that re-indexes the rows", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
    let s = await boot(env);
    await fillThroughDoors(s.json, SMALL_DOORS);
    const live = await answersOf(s.json, SMALL_QUERIES);
    await s.stop();
    s = await boot(env);
    expect(s.server.memory.recallEngine.lexicalSource).toBe("snapshot");
    expect(diffAnswers(live, await answersOf(s.json, SMALL_QUERIES))).toEqual([]);
    await s.stop();
    rmSync(join(dir, "c.db.lexical.snap"));
    s = await boot(env);
    expect(s.server.memory.recallEngine.lexicalSource).toBe("rebuilt");
    expect(diffAnswers(live, await answersOf(s.json, SMALL_QUERIES))).toEqual([]);
    await s.stop();
  }, 180_000);

  it("multi-database mode: identical after a restart", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MULTI_DB: "true" };
    let s = await boot(env);
    await fillThroughDoors(s.json, SMALL_DOORS);
    const live = await answersOf(s.json, SMALL_QUERIES);
    await s.stop();
    s = await boot(env);
    expect(diffAnswers(live, await answersOf(s.json, SMALL_QUERIES))).toEqual([]);
    await s.stop();
  }, 180_000);

  describe.skipIf(!hasSqld)("on a libSQL server", () => {
    let sqld: Sqld | undefined;
    afterAll(async () => { await sqld?.stop(); });
    it("identical after a boot from the node cache and after a boot that reads everything from the server", async () => {
      sqld = await startSqld();
      const dir = tempDir();
      const env = { CAIRN_DB_URL: sqld.url, CAIRN_NODE_CACHE: join(dir, "node-cache"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_NODE_ID: "node-a" };
      let s = await boot(env);
      await fillThroughDoors(s.json, SMALL_DOORS);
      const live = await answersOf(s.json, SMALL_QUERIES);
      await s.stop();
      s = await boot(env);
      expect((await s.json("GET", "/health/db")).body.node.boot_cache).toMatchObject({ used: true });
      expect(diffAnswers(live, await answersOf(s.json, SMALL_QUERIES))).toEqual([]);
      await s.stop();
      s = await boot({ ...env, CAIRN_NODE_CACHE: "off" });
      expect(diffAnswers(live, await answersOf(s.json, SMALL_QUERIES))).toEqual([]);
      await s.stop();
    }, 240_000);
  });
});
