import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openMemoryForRuntime } from "../../src/server.ts";
import { listChunkLabelsAfter } from "../../src/store/chunks.ts";
import { listVectorsAfter, listVectorsPacked } from "../../src/store/vectors.ts";
import { tempDir } from "../_helpers/memory.ts";

describe("boot pages (labels and vectors read as one aggregate row per page)", () => {
  it("labels and packed vectors match the per-row reads, page by page; a mis-sized vector falls back to rows", async () => {
    const dir = tempDir();
    const config = parseConfig({ CAIRN_DB_PATH: join(dir, "c.db") });
    const m = await openMemoryForRuntime(config);
    await m.domains.create("pottery");
    await m.ingest({ title: "Kiln", content: "The kiln firing schedule peaks at 1280 degrees." });
    await m.ingest({ title: "Glaze", content: "Celadon glaze needs a reduction atmosphere.", domain: "pottery" });
    await m.ingest({ title: "Clay", content: "Stoneware clay shrinks about twelve percent." });
    const c = m.db.client;
    const labels = await listChunkLabelsAfter(c, 0, 2);
    expect(labels.map((l) => l.domain)).toEqual(["global", "pottery"]);
    expect(labels[0]).toMatchObject({ id: 1, source: "structured", flagged: false });
    expect(labels[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(labels[0]).not.toHaveProperty("expiresAt");
    expect((await listChunkLabelsAfter(c, labels[1].id, 2)).map((l) => l.id)).toEqual([3]);
    expect(await listChunkLabelsAfter(c, 3, 2)).toEqual([]);

    const dim = m.recallEngine.index.vectors!.dim;
    const rows = await listVectorsAfter(c, 0, 10);
    const packed = (await listVectorsPacked(c, 0, 10, dim))!;
    expect(packed.ids).toEqual(rows.map((r) => r.id));
    rows.forEach((r, i) => expect(Array.from(packed.data.subarray(i * dim, (i + 1) * dim))).toEqual(Array.from(r.vec)));
    expect((await listVectorsPacked(c, 1, 1, dim))!.ids).toEqual([2]);
    expect(await listVectorsPacked(c, 3, 10, dim)).toEqual({ ids: [], data: new Float32Array(0) });
    await c.execute({ sql: "UPDATE chunk_vectors SET embedding = ? WHERE chunk_id = 2", args: [new Uint8Array(8)] });
    expect(await listVectorsPacked(c, 0, 10, dim)).toBeNull();
    await m.close();
  });

  it("carries a conversation turn's speaker and dates as an object, as the live write indexed them", async () => {
    const dir = tempDir();
    const m = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "c.db") }));
    await m.ingestConversation({ session: { id: "s1", date: "2024-04-02" }, turns: [{ speaker: "Alice", text: "I planted basil in the garden." }] });
    const [label] = await listChunkLabelsAfter(m.db.client, 0, 10);
    const live = (await m.db.client.execute("SELECT meta FROM chunks WHERE id = 1")).rows[0].meta as string;
    expect(label.meta?.conversation).toEqual(JSON.parse(live).conversation);
    expect(label.meta?.conversation).toMatchObject({ speaker: "Alice" });
    // A split markdown document's chunks carry its id (the per-document cap reads it).
    const long = "# Guide\n\n" + ["One", "Two", "Three"].map((h) => `## ${h}\n\n${"Words about the guide section. ".repeat(30)}\n`).join("\n");
    const doc = await m.ingestMarkdown({ title: "Guide", content: long });
    expect(doc.chunks.length).toBeGreaterThan(1);
    const labels = await listChunkLabelsAfter(m.db.client, 1, 10);
    const stored = JSON.parse((await m.db.client.execute({ sql: "SELECT meta FROM chunks WHERE id = ?", args: [doc.chunks[0].id] })).rows[0].meta as string);
    expect(labels.map((l) => l.meta?.document)).toEqual(doc.chunks.map(() => ({ id: stored.document.id })));
    await m.close();
  });
});
