/**
 * The DiskANN vector leg (issue "Recall engine": `libsql_vector_idx` with
 * `compress_neighbors=float8` above the documented size): forced with
 * CAIRN_VECTOR_INDEX=diskann on a libSQL file and against a real sqld (where
 * `auto` keeps the scan); answers like the exact scan on a
 * small store, follows deletes, and is reported on /health/db.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../../src/embed/static-embedder.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { hasSqld, startSqld } from "../_helpers/sqld.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const embedder = () => createStaticEmbedder(new Uint8Array(readFileSync(resolve(root, DEFAULT_STATIC_ASSET_PATH))));
const NOTES: [string, string][] = [
  ["Ledger service", "The ledger service settles card payments nightly and writes a reconciliation report."],
  ["Garden notes", "Tomatoes need deep watering twice a week during the hottest summer months."],
  ["Sourdough", "A sourdough loaf needs a mature starter, a long cold proof and a very hot oven."],
  ["Release train", "Mobile releases ship every second Thursday after the regression suite passes."],
];

async function vectorHits(t: TestMemory, vec: string): Promise<string[]> {
  const r = await (await t.req("POST", "/recall", { query: "notes", vec, provenance: true, limit: 10, source: "vector" })).json();
  return (r.hits as { title: string; provenance: { vector_rank: number } }[]).sort((a, b) => a.provenance.vector_rank - b.provenance.vector_rank).map((h) => h.title);
}

async function exercise(t: TestMemory, expected: string): Promise<void> {
  const health = await (await t.req("GET", "/health/db")).json();
  expect(health.vector_index).toBe(expected);
  const ids: Record<string, number> = {};
  for (const [title, content] of NOTES) ids[title] = (await (await t.req("POST", "/ingest", { title, content })).json()).id;
  expect((await vectorHits(t, "baking bread in a hot oven"))[0]).toBe("Sourdough");
  expect((await vectorHits(t, "watering vegetables in summer"))[0]).toBe("Garden notes");
  await t.req("DELETE", `/memory/${ids.Sourdough}`);
  expect(await vectorHits(t, "baking bread in a hot oven")).not.toContain("Sourdough");
}

describe("DiskANN vector leg", () => {
  it("serves the vector leg from libsql_vector_idx when forced on a libSQL file, like the exact scan", async () => {
    const ann = await openTestMemory({ CAIRN_VECTOR_INDEX: "diskann" }, { embedder: embedder() });
    const scan = await openTestMemory({}, { embedder: embedder() });
    try {
      await exercise(ann, "diskann");
      await exercise(scan, "scan");
      expect(await vectorHits(ann, "card payments reconciliation")).toEqual(await vectorHits(scan, "card payments reconciliation"));
    } finally {
      await ann.close();
      await scan.close();
    }
  });

  it.skipIf(!hasSqld)("on a remote libSQL server: auto keeps the exact scan, diskann is served by sqld's index", async () => {
    const sqld = await startSqld();
    try {
      // Issue 20: below CAIRN_VECTOR_SCAN_MAX a server node scans its own matrix (no index maintained by sqld).
      const auto = await openTestMemory({ CAIRN_DB_URL: sqld.url }, { embedder: embedder() });
      try { await exercise(auto, "scan"); } finally { await auto.close(); }
      const sqld2 = await startSqld();
      const ann = await openTestMemory({ CAIRN_DB_URL: sqld2.url, CAIRN_VECTOR_INDEX: "diskann" }, { embedder: embedder() });
      try { await exercise(ann, "diskann"); } finally { await ann.close(); await sqld2.stop(); }
    } finally {
      await sqld.stop();
    }
  });
});
