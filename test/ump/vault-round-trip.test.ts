/**
 * Issue 22 item 2: a vault store exported (`cairn ump export --format md` and
 * `--format ump`) and imported into a fresh database keeps what recall
 * depends on: graph entities and edges, ingest kinds and labels, source
 * links, file sources, front matter, and the grouping of a document's
 * chunks; recall answers the fixture's questions with the same notes in the
 * same order before and after.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { umpExport, umpImport } from "../../src/cli/ump-commands.ts";
import type { Memory } from "../../src/memory.ts";
import { parseUmpJson, parseUmpMarkdown } from "../../src/ump/file-projection.ts";
import { getChunk, listChunksAfter } from "../../src/store/chunks.ts";
import { tempDir } from "../_helpers/memory.ts";
import { useTestMemories } from "../_helpers/memories.ts";

const VAULT = resolve(new URL("../../fixtures/bm-vault", import.meta.url).pathname);
const questions = (JSON.parse(readFileSync(join(VAULT, "questions.json"), "utf8")) as { questions: { question: string }[] }).questions;

// A note longer than one chunk (2,000 characters), so the markdown door splits it in two.
const LONG = `---\ntitle: Irrigation Handbook\ntags: [water, handbook]\naliases: [Drip Guide]\n---\n\n# Irrigation Handbook\n\n## Drip lines\n\n` +
  "Drip lines feed each row of seedlings through pressure-compensating emitters spaced thirty centimetres apart. ".repeat(12) +
  "\n\n## Flushing\n\n" + "Flush the mains every spring before the first fertigation run so that silt never reaches the emitters. ".repeat(12) + "\n";

const fresh = useTestMemories();

async function count(m: Memory, sql: string): Promise<number> {
  return Number((await m.db.client.execute(sql)).rows[0].n);
}
async function counts(m: Memory) {
  return {
    chunks: await count(m, "SELECT COUNT(*) AS n FROM chunks"),
    entities: await count(m, "SELECT COUNT(*) AS n FROM entities"),
    relations: await count(m, "SELECT COUNT(*) AS n FROM relations WHERE superseded_at IS NULL"),
    links: await count(m, "SELECT COUNT(*) AS n FROM entity_chunks"),
    sources: await count(m, "SELECT COUNT(*) AS n FROM file_sources"),
    sourceChunks: await count(m, "SELECT COUNT(*) AS n FROM file_source_chunks WHERE stale = 0"),
  };
}
/** Every edge as display names, and every chunk's labels, keyed by content (ids differ between stores). */
async function edges(m: Memory): Promise<string[]> {
  const rs = await m.db.client.execute(`SELECT f.display_name AS f, r.type, t.display_name AS t, r.edge_source AS s, c.content AS c
    FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id LEFT JOIN chunks c ON c.id = r.chunk_id
    WHERE r.superseded_at IS NULL`);
  return rs.rows.map((r) => `${r.f} -${r.type}-> ${r.t} [${r.s}] @${String(r.c).slice(0, 40)}`).sort();
}
async function labels(m: Memory): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const c of await listChunksAfter(m.db.client, 0, 1000)) {
    const { owner: _o, ump_id: _u, ...meta } = (c.meta ?? {}) as Record<string, unknown>;
    const links = await m.db.client.execute({ sql: `SELECT e.display_name AS n, l.subject AS s FROM entity_chunks l JOIN entities e ON e.id = l.entity_id
      WHERE l.chunk_id = ? ORDER BY e.display_name`, args: [c.id] });
    out.set(c.content, {
      title: c.title, domain: c.domain, source: c.source, origin: c.origin, originSource: c.originSource, confidence: c.confidence,
      memoryKind: c.memoryKind, createdAt: c.createdAt, meta, entities: links.rows.map((r) => `${r.n}:${r.s}`),
    });
  }
  return out;
}
/** Recall's top hits for every question, as note contents (ids differ between stores). */
async function answers(m: Memory): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of questions) {
    const r = await m.recall({ query: q.question, limit: 5 });
    const hits: string[] = [];
    for (const h of r.hits as { id: number }[]) hits.push((await getChunk(m.db.client, h.id))!.content);
    out.push(hits);
  }
  return out;
}

describe("UMP export → import of a vault store (issue 22 item 2)", () => {
  for (const format of ["md", "ump"] as const) {
    it(`--format ${format} keeps the graph, labels, sources, front matter, chunk grouping and recall`, async () => {
      const a = await fresh();
      const dir = join(VAULT, "notes");
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".md")).sort()) {
        await a.memory.sources.ingestFile({ kind: "vault", root: "/home/me/notes", path: file, content: readFileSync(join(dir, file), "utf8") });
      }
      const long = await a.memory.ingestMarkdown({ title: "Irrigation Handbook", content: LONG }, { sourceLink: "handbook/irrigation.md" });
      expect(long.chunks.length).toBe(2);
      const before = { counts: await counts(a.memory), edges: await edges(a.memory), labels: await labels(a.memory), answers: await answers(a.memory) };
      expect(before.counts.relations).toBeGreaterThan(100);
      expect(before.counts.sources).toBe(24);
      expect(before.answers.flat().length).toBeGreaterThan(questions.length);

      const file = join(tempDir(), format === "md" ? "memory.ump.md" : "memory.ump.json");
      await umpExport(a.memory, { format, out: file });
      // The two chunks of the long note say they are parts 1 and 2 of one document.
      const text = readFileSync(file, "utf8");
      const records = (format === "md" ? parseUmpMarkdown(text) : parseUmpJson(text)) as Record<string, unknown>[];
      type Doc = { id: string; index: number; count: number };
      const docs = records.map((r) => (r["x-cairn"] as { document?: Doc } | undefined)?.document).filter((d): d is Doc => d?.count === 2);
      expect(docs.map((d) => d.index).sort()).toEqual([0, 1]);
      expect(new Set(docs.map((d) => d.id)).size).toBe(1);
      // Graph edges travel as UMP relations too (the note's own edges, target entity:<name>).
      const amara = records.find((r) => r.title === "Amara Okafor")!;
      expect(amara.relations).toEqual(expect.arrayContaining([{ type: "works_at", target: "entity:Fieldwise" }]));

      const b = await fresh();
      const imported = await umpImport(b.memory, file);
      expect(imported.rejected).toBe(0);
      expect(await counts(b.memory)).toEqual(before.counts);
      expect(await edges(b.memory)).toEqual(before.edges);
      const after = await labels(b.memory);
      expect([...after.keys()].sort()).toEqual([...before.labels.keys()].sort());
      for (const [content, l] of before.labels) expect(after.get(content), content.slice(0, 60)).toEqual(l);
      expect(await answers(b.memory)).toEqual(before.answers);

      // Exporting the imported store again gives the same records (ids, text and carried state).
      const again = join(tempDir(), format === "md" ? "again.ump.md" : "again.ump.json");
      await umpExport(b.memory, { format: "ump", out: again });
      await umpExport(a.memory, { format: "ump", out: file + ".json" });
      const strip = (p: string) => (JSON.parse(readFileSync(p, "utf8")) as { records: Record<string, unknown>[] }).records.map(({ integrity: _i, ...r }) => r);
      expect(strip(again)).toEqual(strip(file + ".json"));
    }, 120_000);
  }
});
