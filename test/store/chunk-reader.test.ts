import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openMemoryForRuntime } from "../../src/server.ts";
import { chunkReaderAttached, fetchChunks } from "../../src/store/chunk-reader.ts";
import { getChunks } from "../../src/store/chunks.ts";
import { tempDir } from "../_helpers/memory.ts";

const byId = <T extends { id: number }>(xs: T[]) => [...xs].sort((a, b) => a.id - b.id);

describe("recall's chunk fetch (one prepared statement on a read connection, issue 25)", () => {
  it("returns exactly what the client read returns, for any id list, and sees later commits", async () => {
    const dir = tempDir();
    const m = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "c.db") }));
    await m.domains.create("pottery");
    await m.ingest({ title: "Kiln", content: "The kiln firing schedule peaks at 1280 degrees.", source: "https://example.org/kiln", region: "eu" });
    await m.ingest({ title: "Glaze", content: "Celadon glaze needs a reduction atmosphere.", domain: "pottery", expires_at: "2099-01-01T00:00:00Z" });
    await m.ingestConversation({ session: { id: "s1", date: "2024-05-01" }, turns: [{ speaker: "Ana", text: "The stoneware shrank twelve percent." }] });
    const c = m.db.client;
    expect(chunkReaderAttached(m.db)).toBe(true);
    await m.ingestMemory({ content: "Untitled note: bisque firing comes before the glaze firing." });
    const ids = [3, 1, 99, 4, 2, 1];
    const fetched = byId(await fetchChunks(m.db, ids));
    expect(fetched.map((x) => x.id)).toEqual([1, 2, 3, 4]);
    expect(fetched).toEqual(byId(await getChunks(c, [1, 2, 3, 4])));
    expect(fetched[0]).toMatchObject({ title: "Kiln", originSource: "https://example.org/kiln", region: "eu" });
    expect(fetched[1]).toMatchObject({ expiresAt: "2099-01-01T00:00:00Z", domain: "pottery" });
    expect(fetched[2].meta).toBeDefined();
    expect(fetched[3]).not.toHaveProperty("title");
    expect(await fetchChunks(m.db, [])).toEqual([]);
    // A write committed after the statement was prepared is visible to it.
    const r = await m.ingest({ title: "Clay", content: "Stoneware clay shrinks about twelve percent." }) as { id: number };
    expect((await fetchChunks(m.db, [r.id]))[0]).toMatchObject({ id: r.id, title: "Clay" });
    await m.close();
    expect(chunkReaderAttached(m.db)).toBe(false);
  });

  it("holds no read snapshot after a fetch: the WAL still checkpoints to zero bytes (erasure, issue 23 §4)", async () => {
    const dir = tempDir();
    const path = join(dir, "c.db");
    const m = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: path }));
    for (let i = 0; i < 5; i++) await m.ingest({ title: `Entry ${i}`, content: `Entry ${i} about glaze chemistry and kiln atmospheres.` });
    expect((await fetchChunks(m.db, [1, 2, 3])).length).toBe(3);
    expect(await m.db.checkpoint()).toBe(true);
    expect(statSync(`${path}-wal`).size).toBe(0);
    // And recall (which fetches through it) leaves it so too.
    await m.recall({ query: "kiln atmospheres" });
    await m.ingest({ title: "More", content: "One more entry, about celadon." });
    expect(await m.db.checkpoint()).toBe(true);
    expect(statSync(`${path}-wal`).size).toBe(0);
    await m.close();
  });
});
