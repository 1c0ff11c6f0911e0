import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { DEFAULT_BM25_PARAMS } from "../../src/lexical/bm25-params.ts";
import { openMemoryForRuntime } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

describe("lexical index persistence beside the database", () => {
  it("boots from the snapshot when it is current and rebuilds when the store moved on", async () => {
    const dir = tempDir();
    const config = parseConfig({ CAIRN_DB_PATH: join(dir, "c.db") });
    const a = await openMemoryForRuntime(config);
    expect(a.recallEngine.lexicalSource).toBe("rebuilt");
    await a.ingest({ title: "Kiln", content: "The kiln firing schedule peaks at 1280 degrees." });
    await a.close();
    expect(existsSync(join(dir, "c.db.lexical.snap"))).toBe(true);

    const b = await openMemoryForRuntime(config);
    expect(b.recallEngine.lexicalSource).toBe("snapshot");
    const hits = (await b.recall({ query: "kiln firing schedule" })).hits as { title: string }[];
    expect(hits[0].title).toBe("Kiln");
    // A write the snapshot never saw (the process dies before persisting).
    await b.ingest({ title: "Glaze", content: "Celadon glaze needs a reduction atmosphere." });
    b.db.close();

    const c = await openMemoryForRuntime(config);
    expect(c.recallEngine.lexicalSource).toBe("rebuilt");
    const glaze = (await c.recall({ query: "celadon reduction glaze" })).hits as { title: string }[];
    expect(glaze[0].title).toBe("Glaze");
    await c.close();
  }, 120_000);

  it("serves a snapshot saved under other BM25 parameters with the current defaults", async () => {
    const dir = tempDir();
    const config = parseConfig({ CAIRN_DB_PATH: join(dir, "c.db") });
    const a = await openMemoryForRuntime(config);
    await a.ingest({ title: "Kiln", content: "The kiln firing schedule peaks at 1280 degrees." });
    a.recallEngine.index.lexical.params = { k1: 0.5, b: 0.9, titleWeight: 1 };
    await a.close();

    const b = await openMemoryForRuntime(config);
    expect(b.recallEngine.lexicalSource).toBe("snapshot");
    expect(b.recallEngine.index.lexical.params).toEqual(DEFAULT_BM25_PARAMS);
    await b.close();
  }, 120_000);
});
