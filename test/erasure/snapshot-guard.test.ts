import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import type { SnapshotStore } from "../../src/recall/load-index.ts";

const open: TestMemory[] = [];
afterEach(async () => {
  for (const m of open.splice(0).reverse()) await m.close().catch(() => undefined);
});

/** A lexical snapshot kept in a real file beside the database (as src/server.ts does). */
function fileSnapshots(dir: string): SnapshotStore {
  const path = join(dir, "lexical.json");
  return {
    load: async () => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined),
    save: async (data) => writeFileSync(path, JSON.stringify(data)),
  };
}

const snapshotText = (dir: string) => readFileSync(join(dir, "lexical.json"), "utf8");
const EMAIL = "quentin.marsh@example.org";

async function openAt(dir: string): Promise<TestMemory> {
  const m = await openTestMemory({}, { snapshots: fileSnapshots(dir) }, dir);
  open.push(m);
  return m;
}

/** Seeds two chunks and closes gracefully, so a snapshot holding both is on disk. */
async function seededDir(): Promise<string> {
  const dir = tempDir();
  const m = await openTestMemory({}, { snapshots: fileSnapshots(dir) }, dir);
  await m.req("POST", "/ingest", { title: "Ticket 12", content: `Customer ${EMAIL} disputed the pelican freight invoice.` });
  await m.req("POST", "/ingest", { title: "Ticket 13", content: "The pelican freight schedule moved to Tuesdays." });
  await m.memory.close();
  expect(snapshotText(dir)).toMatch(/quentin/);
  return dir;
}

describe("the persisted lexical snapshot after an erasure (SPEC §1 item 6, §3)", () => {
  it("no longer holds the erased text once /dsar answers, even if the process then dies without a graceful close", async () => {
    const dir = await seededDir();
    const m = await openAt(dir);
    expect(m.memory.recallEngine.lexicalSource).toBe("snapshot");

    const res = await m.req("POST", "/dsar", { email: EMAIL });
    expect(res.status).toBe(200);
    // What a SIGKILL right now would leave on disk.
    expect(snapshotText(dir)).not.toMatch(/quentin|marsh|disput/i);

    // A second process on the same files (the first never closed): the index is rebuilt from rows.
    const after = await openAt(dir);
    expect(after.memory.recallEngine.lexicalSource).toBe("rebuilt");
    expect(after.memory.recallEngine.index.lexical.search("quentin marsh disputed", 5)).toEqual([]);
    const hits = (await (await after.req("POST", "/recall", { query: "pelican freight", limit: 10 })).json()).hits;
    expect(JSON.stringify(hits)).not.toMatch(/quentin|marsh/i);
    expect(hits).toHaveLength(1);
    for (const format of ["ump", "ump-md"]) {
      const exported = await after.req("GET", `/export?format=${format}`);
      expect(exported.status).toBe(200);
      const text = await exported.text();
      expect(text).toContain("pelican freight schedule");
      expect(text).not.toMatch(/quentin|marsh/i);
    }
  });

  it("is invalidated by a plain DELETE /memory/{id} and by /purge, and a graceful close writes a current one", async () => {
    const dir = await seededDir();
    const m = await openAt(dir);
    const ids = (await (await m.req("POST", "/recall", { query: "pelican freight", limit: 10 })).json()).hits.map((h: { id: number; content: string }) => h.id);
    expect(ids).toHaveLength(2);
    const disputed = (await (await m.req("POST", "/recall", { query: "disputed invoice", limit: 1 })).json()).hits[0].id;
    expect((await m.req("DELETE", `/memory/${disputed}`)).status).toBe(200);
    await m.memory.close(); // graceful: persists a snapshot of the live documents only
    expect(snapshotText(dir)).toContain("pelican");
    expect(snapshotText(dir)).not.toMatch(/quentin|disput/i);

    const again = await openAt(dir);
    expect(again.memory.recallEngine.lexicalSource).toBe("snapshot");
    const left = ids.filter((id: number) => id !== disputed);
    expect((await again.req("POST", "/purge", { ids: left })).status).toBe(200);
    expect(snapshotText(dir)).not.toContain("pelican");
  });

  it("replaces a stale snapshot found at boot, so it does not linger until the next close", async () => {
    const dir = await seededDir();
    const stale = snapshotText(dir);
    const m = await openAt(dir);
    expect((await m.req("POST", "/dsar", { email: EMAIL })).status).toBe(200);
    // An old copy put back (e.g. a crash in the window before the invalidation reached disk).
    writeFileSync(join(dir, "lexical.json"), stale);
    const next = await openAt(dir);
    expect(next.memory.recallEngine.lexicalSource).toBe("rebuilt");
    expect(snapshotText(dir)).not.toMatch(/quentin/i);
  });
});
