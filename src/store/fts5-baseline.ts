/**
 * The plain full-text baseline recall is measured against (issue 36: "never below plain FTS5"): SQLite FTS5 with
 * the porter stemmer over the identical chunks a Cairn store holds, English stopwords removed from documents and
 * queries (Cairn's list, `src/lexical/stopwords.ts`), title and content ranked by `bm25(docs, 2.0, 1.0)` (Cairn's
 * title weight), query words OR'ed. Built in a private in-memory libSQL database, so it never touches the store.
 * Used by `cairn eval` and `npm run bench -- --compare fts5`; never on a serving path.
 */
import { createClient, type Client } from "@libsql/client";
import { ENGLISH_STOPWORDS } from "../lexical/stopwords.ts";

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const ROWS_PER_INSERT = 250;

/** Lowercased words with stopwords dropped (what FTS5 is given; its porter tokenizer stems them). */
export function fts5Words(text: string): string[] {
  return (text.toLowerCase().replace(/’/g, "'").match(WORD) ?? []).filter((w) => !ENGLISH_STOPWORDS.has(w));
}

/** An FTS5 MATCH expression: each distinct word quoted (no operator syntax reaches FTS5), OR'ed; "" when none. */
export function fts5Match(text: string): string {
  return [...new Set(fts5Words(text).map((w) => w.replace(/'/g, "")))].filter(Boolean).map((w) => `"${w}"`).join(" OR ");
}

/** An FTS5 index over a copy of a store's chunks. */
export interface Fts5Baseline {
  /** Chunk ids of the best `k` matches, best first (ties by id); [] when the query has no indexable word. */
  search(query: string, k: number): Promise<number[]>;
  close(): void;
}

/** Builds the baseline over `chunks` (id, title, content as stored). */
export async function buildFts5Baseline(chunks: Iterable<{ id: number; title?: string; content: string }>): Promise<Fts5Baseline> {
  const client: Client = createClient({ url: ":memory:", intMode: "number" });
  await client.execute("CREATE VIRTUAL TABLE docs USING fts5(title, content, tokenize = 'porter unicode61')");
  let rows: { id: number; title?: string; content: string }[] = [];
  const flush = async () => {
    if (!rows.length) return;
    await client.execute({
      sql: `INSERT INTO docs (rowid, title, content) VALUES ${rows.map(() => "(?, ?, ?)").join(", ")}`,
      args: rows.flatMap((c) => [c.id, fts5Words(c.title ?? "").join(" "), fts5Words(c.content).join(" ")]),
    });
    rows = [];
  };
  for (const c of chunks) {
    rows.push(c);
    if (rows.length >= ROWS_PER_INSERT) await flush();
  }
  await flush();
  await client.execute("INSERT INTO docs (docs) VALUES ('optimize')");
  return {
    async search(query, k) {
      const match = fts5Match(query);
      if (!match) return [];
      const rs = await client.execute({ sql: "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 2.0, 1.0), rowid LIMIT ?", args: [match, k] });
      return rs.rows.map((r) => Number(r.rowid));
    },
    close: () => client.close(),
  };
}
