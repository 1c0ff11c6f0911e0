/**
 * The SQLite FTS5 side of `npm run bench -- --compare fts5` (issue 25): the
 * same SciFact-derived documents (`scaleCorpus`, seed 42) and the same
 * queries as the Cairn run, indexed by FTS5 through `@libsql/client` on a
 * temp file, in its own process so its RSS is its own. FTS5 is set up as the
 * usual baseline: `tokenize = 'porter unicode61'`, English stopwords removed
 * from documents and queries (Cairn's list, `src/lexical/stopwords.ts`; the words and MATCH expression are
 * `src/store/fts5-baseline.ts`'s, the baseline `cairn eval` uses),
 * title and content columns ranked by `bm25(docs, 2.0, 1.0)` (Cairn's title
 * weight), query words OR'ed, top 5. Build = one transaction of 250-row
 * multi-row INSERTs plus FTS5's `optimize`; the queries then run in a fresh
 * plain-Node process (`fts5-query.mjs`; no HTTP), after 50 warm-up queries,
 * and its RSS is the figure reported.
 *
 * Run alone: `npx tsx bench/fts5.ts --docs N --queries N` → one JSON line.
 */
import { createClient } from "@libsql/client";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl, parseQrels } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";
import { fts5Match as matchOf, fts5Words as words } from "../src/store/fts5-baseline.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// ../shared/data beside the checkout (a git worktree one level deeper finds it one more level up).
const DATA = [resolve(ROOT, "../shared/data/scifact"), resolve(ROOT, "../../shared/data/scifact")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data/scifact");
const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const DOCS = option("--docs", 50_000);
const QUERIES = option("--queries", 1_000);
const BATCH = 250;

const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { title?: string; text?: string }[];
const queryRows = parseJsonl(readFileSync(join(DATA, "queries.jsonl"), "utf8")) as { _id: string; text: string }[];
const queries = queryRows.map((q) => q.text);
// Issue 36: the judged train queries' top 10 (rowids = scaled-document ids), scored by bench/run.ts.
const qrels = parseQrels(readFileSync(join(DATA, "qrels", "train.tsv"), "utf8"));
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
const dir = mkdtempSync(join(tmpdir(), "cairn-fts5-"));
const client = createClient({ url: `file:${join(dir, "fts5.db")}`, intMode: "number" });
try {
  await client.execute("PRAGMA journal_mode = WAL");
  await client.execute("CREATE VIRTUAL TABLE docs USING fts5(title, content, tokenize = 'porter unicode61')");
  const t0 = performance.now();
  const tx = await client.transaction("write");
  for (let i = 0; i < docs.length; i += BATCH) {
    const part = docs.slice(i, i + BATCH);
    await tx.execute({
      sql: `INSERT INTO docs (rowid, title, content) VALUES ${part.map(() => "(?, ?, ?)").join(", ")}`,
      args: part.flatMap((d) => [d.id, words(d.title).join(" "), words(d.content).join(" ")]),
    });
  }
  await tx.execute("INSERT INTO docs (docs) VALUES ('optimize')");
  await tx.commit();
  const buildS = (performance.now() - t0) / 1000;
  const ranked: number[][] = [];
  for (const q of queryRows.filter((x) => qrels.has(x._id))) {
    const m = matchOf(q.text);
    ranked.push(m ? (await client.execute({ sql: "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 2.0, 1.0), rowid LIMIT 10", args: [m] })).rows.map((row) => Number(row.rowid)) : []);
  }
  client.close();
  // Queries in a fresh plain-Node process, as Cairn's bench restarts its server: its RSS is FTS5's serving footprint.
  const matches = [...Array.from({ length: 50 }, (_, i) => queries[i % queries.length]), ...Array.from({ length: QUERIES }, (_, i) => queries[(i * 7) % queries.length])].map(matchOf);
  writeFileSync(join(dir, "matches.json"), JSON.stringify(matches));
  const q = JSON.parse(execFileSync(process.execPath, [join(ROOT, "bench", "fts5-query.mjs"), join(dir, "fts5.db"), join(dir, "matches.json"), "50"], { cwd: ROOT, encoding: "utf8" }));
  console.log(JSON.stringify({ docs: DOCS, buildS: Math.round(buildS * 10) / 10, docsPerS: Math.round(DOCS / buildS), ...q, ranked }));
} finally {
  if (!client.closed) client.close();
  rmSync(dir, { recursive: true, force: true });
}
