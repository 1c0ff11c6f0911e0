/**
 * Helpers of the file-door tests: copy a fixture vault, ingest it through
 * `/ingest/markdown` as the reference, and read back the stored rows a user
 * sees through recall (chunk text, title, heading path, line span, front
 * matter, entity links, edges), keyed by content because ids differ.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Memory } from "../../src/memory.ts";
import { walkFiles } from "../../src/runtime/platform.ts";
import { noteTitle } from "../../src/sources/source-service.ts";
import { listChunksAfter } from "../../src/store/chunks.ts";
import { tempDir, type TestMemory } from "../_helpers/memory.ts";

/** A fresh copy of a fixture vault (tests may change it). */
export function copyVault(fixture: string): string {
  const dir = join(tempDir("vault-"), "notes");
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

/** Posts every note of `dir` to `/ingest/markdown` in the order the file doors read them. */
export async function ingestReference(m: TestMemory, dir: string): Promise<void> {
  for (const f of await walkFiles(dir, [".md", ".markdown"])) {
    const content = readFileSync(f, "utf8");
    const r = await m.req("POST", "/ingest/markdown", { title: noteTitle(f.slice(dir.length + 1), content), content });
    if (r.status !== 200) throw new Error(`${f}: ${r.status} ${await r.text()}`);
  }
}

/** One chunk as stored, without what only says which door wrote it (ingest kind, source link) or ids. */
export interface ChunkRow {
  text: string;
  title?: string;
  heading_path: unknown;
  line_start: unknown;
  line_end: unknown;
  frontmatter: unknown;
  tags: unknown;
  aliases: unknown;
  document: unknown;
  entities: string[];
}

/** Every chunk's row and every current edge, sorted. */
export async function storedRows(memory: Memory): Promise<{ chunks: ChunkRow[]; edges: string[]; entities: string[] }> {
  const chunks: ChunkRow[] = [];
  for (const c of await listChunksAfter(memory.db.client, 0, 10_000)) {
    const meta = (c.meta ?? {}) as Record<string, unknown>;
    const links = await memory.db.client.execute({
      sql: `SELECT e.display_name AS n, l.subject AS s FROM entity_chunks l JOIN entities e ON e.id = l.entity_id WHERE l.chunk_id = ? ORDER BY e.name`,
      args: [c.id],
    });
    const doc = meta.document as { index?: number; count?: number } | undefined;
    chunks.push({
      text: c.content, title: c.title, heading_path: meta.heading_path, line_start: meta.line_start, line_end: meta.line_end,
      frontmatter: meta.frontmatter, tags: meta.tags, aliases: meta.aliases, document: doc ? `${doc.index}/${doc.count}` : undefined,
      entities: links.rows.map((r) => `${r.n}${Number(r.s) ? " (subject)" : ""}`),
    });
  }
  chunks.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const rs = await memory.db.client.execute(`SELECT f.display_name AS f, r.type, t.display_name AS t, r.edge_source AS s, c.content AS c
    FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id LEFT JOIN chunks c ON c.id = r.chunk_id
    WHERE r.superseded_at IS NULL`);
  const edges = rs.rows.map((r) => `${r.f} -${r.type}-> ${r.t} [${r.s}] @${r.c === null ? "-" : String(r.c).slice(0, 50)}`).sort();
  const ents = await memory.db.client.execute("SELECT display_name AS n, type FROM entities");
  const entities = ents.rows.map((r) => `${r.n}:${r.type ?? ""}`).sort();
  return { chunks, edges, entities };
}
