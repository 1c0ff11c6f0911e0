/**
 * Graph-leg evaluation (SPEC §1 Retrieval pipeline step 6), measured, not
 * assumed. Two parts, each run with the graph leg on and off:
 *
 * 1. The graph-eval vault (`fixtures/graph-eval/`): every note is ingested
 *    through the markdown door (`memory.ingestMarkdown`, so edges come from
 *    annotations, front matter, headings and the linker) into a temporary
 *    store; each multi-hop question is recalled with `limit` 5 and scored
 *    by recall@5 and MRR over answer notes. The answer notes share no
 *    content word with their question, so only the graph can reach them.
 * 2. SciFact (`../shared/data/scifact`, train qrels): the corpus goes
 *    through the same markdown door (so the linker builds whatever graph
 *    abstracts yield), and nDCG@10 / recall@10 are compared with the leg on
 *    and off. Skipped with a message when the data is absent.
 *
 * Uses the static embedder when `assets/embed/` is present, else recall is
 * lexical only (said in the output).
 *
 *   npx tsx scripts/eval-graph.ts [--skip-scifact] [--skip-vault] [--vault DIR] [--queries N] [--verbose] [--leg JSON] [--recall JSON] [--keep-store DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { titleFor } from "../src/cli/ingest-dir.ts";
import { parseConfig } from "../src/config/parse-config.ts";
import type { Embedder } from "../src/embed/embedder.ts";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../src/embed/static-embedder.ts";
import { loadBeir } from "../src/eval/beir.ts";
import { meanOf, ndcgAtK, recallAtK, reciprocalRank } from "../src/eval/metrics.ts";
import { openMemory, type Memory } from "../src/memory.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const flag = (n: string) => args.includes(n);
const option = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const VAULT = resolve(option("--vault", join(ROOT, "fixtures/graph-eval")));
const SCIFACT = resolve(ROOT, "../shared/data/scifact");

function embedder(): Embedder | undefined {
  const p = join(ROOT, DEFAULT_STATIC_ASSET_PATH);
  return existsSync(p) ? createStaticEmbedder(new Uint8Array(readFileSync(p))) : undefined;
}

async function openTemp(emb: Embedder | undefined, keepDir?: string): Promise<{ memory: Memory; dir: string }> {
  const dir = keepDir ?? mkdtempSync(join(tmpdir(), "cairn-eval-graph-"));
  const config = parseConfig({ CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_MAX_DOCS: "1000000" });
  const memory = await openMemory(config, { rssBytes: () => process.memoryUsage().rss, embedder: emb });
  // `--leg '{"cueBoost":3}'` overrides graph-leg parameters (for tuning runs).
  Object.assign(memory.graph.legParams, JSON.parse(option("--leg", "{}")));
  // `--recall '{"graphScale":1}'` overrides recall parameters (src/recall/recall-params.ts).
  memory.recallEngine.params = { ...memory.recallEngine.params, ...JSON.parse(option("--recall", "{}")) };
  return { memory, dir };
}

type Hit = { id: number; provenance?: { graph_rank?: number; graph_hops?: { from: { name: string }; relation: string; to: { name: string } }[] } };

async function ranked(memory: Memory, query: string, limit: number, graph: boolean): Promise<Hit[]> {
  const r = await memory.recall({ query, limit, graph, provenance: true });
  return r.hits as Hit[];
}

const f3 = (x: number) => x.toFixed(3);

async function vaultEval(emb: Embedder | undefined): Promise<void> {
  const notesDir = join(VAULT, "notes");
  if (!existsSync(notesDir)) {
    console.log(`graph-eval vault not found at ${VAULT}; skipped`);
    return;
  }
  const { memory, dir } = await openTemp(emb);
  try {
    const fileOf = new Map<number, string>();
    for (const file of readdirSync(notesDir).filter((f) => f.endsWith(".md")).sort()) {
      const content = readFileSync(join(notesDir, file), "utf8");
      const r = await memory.ingestMarkdown({ title: titleFor(file, content), content }, { kind: "vault", sourceLink: file });
      for (const c of r.chunks) fileOf.set(c.id, file);
    }
    const size = memory.graph.model.size();
    const qfile = JSON.parse(readFileSync(join(VAULT, "questions.json"), "utf8")) as { questions: { id: string; question: string; answers: string[] }[]; offtopic?: string[] };
    const questions = qfile.questions;
    console.log(`\n## graph-eval vault: ${fileOf.size} chunks, ${size.entities} entities, ${size.currentEdges} current edges, ${questions.length} questions\n`);
    const byType = await memory.db.client.execute("SELECT type, COUNT(*) AS n FROM relations WHERE superseded_at IS NULL GROUP BY type ORDER BY n DESC");
    console.log(`edges by type: ${byType.rows.map((r) => `${r.type} ${r.n}`).join(", ")}`);
    const hub = await memory.db.client.execute(`SELECT e.display_name AS name, COUNT(*) AS n FROM relations r JOIN entities e ON e.id = r.to_id
      WHERE r.superseded_at IS NULL GROUP BY r.to_id ORDER BY n DESC LIMIT 3`);
    console.log(`biggest hubs (in-degree): ${hub.rows.map((r) => `${r.name} ${r.n}`).join(", ")}\n`);
    // Off-topic queries (issue 22 item 4): no note answers them, so every hit is padding; count those the graph leg or PRF added.
    for (const q of qfile.offtopic ?? []) {
      const r = await memory.recall({ query: q, limit: 5, provenance: true });
      const hits = r.hits as (Hit & { relevance?: string; provenance?: { fts_rank?: number; vector_rank?: number; prf_expanded?: boolean } })[];
      const padded = hits.filter((h) => h.provenance?.graph_rank !== undefined && h.provenance?.fts_rank === undefined && h.provenance?.vector_rank === undefined || h.provenance?.prf_expanded);
      console.log(`off-topic "${q}": ${hits.length} hits (${hits.map((h) => h.relevance).join(",")}), ${padded.length} added by graph/PRF only: ${padded.map((h) => fileOf.get(h.id)).join(", ")}`);
    }
    const rows: { on: { r5: number; rr: number }; off: { r5: number; rr: number } }[] = [];
    const detail: string[] = [];
    for (const q of questions) {
      const judg = new Map(q.answers.map((a) => [a, 1] as const));
      const score = async (graph: boolean) => {
        const hits = await ranked(memory, q.question, 5, graph);
        const files = [...new Set(hits.map((h) => fileOf.get(h.id) ?? `#${h.id}`))];
        const deep = (await ranked(memory, q.question, 100, graph)).map((h) => fileOf.get(h.id) ?? `#${h.id}`);
        return { r5: recallAtK(files, judg, 5) ?? 0, rr: reciprocalRank([...new Set(deep)], judg) ?? 0, files, hits };
      };
      const on = await score(true);
      const off = await score(false);
      rows.push({ on, off });
      if (flag("--verbose")) {
        detail.push(`${q.id} on r@5=${on.r5} rr=${f3(on.rr)} off r@5=${off.r5} rr=${f3(off.rr)}  ${q.question}`);
        detail.push(`     on:  ${on.files.join(", ")}`);
        const hop = on.hits.find((h) => q.answers.includes(fileOf.get(h.id) ?? ""))?.provenance?.graph_hops;
        if (hop) detail.push(`     hops: ${hop.map((h) => `${h.from.name} -[${h.relation}]-> ${h.to.name}`).join(" ; ")}`);
      }
    }
    console.log("| graph leg | recall@5 | MRR |\n|---|---|---|");
    console.log(`| on | ${f3(meanOf(rows.map((r) => r.on.r5)))} | ${f3(meanOf(rows.map((r) => r.on.rr)))} |`);
    console.log(`| off | ${f3(meanOf(rows.map((r) => r.off.r5)))} | ${f3(meanOf(rows.map((r) => r.off.rr)))} |`);
    if (detail.length) console.log("\n" + detail.join("\n"));
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scifactEval(emb: Embedder | undefined): Promise<void> {
  if (!existsSync(join(SCIFACT, "corpus.jsonl"))) {
    console.log(`\nSciFact not found at ${SCIFACT}; skipped`);
    return;
  }
  const set = loadBeir({
    corpus: readFileSync(join(SCIFACT, "corpus.jsonl"), "utf8"),
    queries: readFileSync(join(SCIFACT, "queries.jsonl"), "utf8"),
    qrels: readFileSync(join(SCIFACT, "qrels/train.tsv"), "utf8"),
  });
  const limitQ = Number(option("--queries", String(set.queries.length)));
  // `--keep-store DIR` keeps the ingested SciFact store (and its chunk → doc map) in DIR and reuses it on the next run.
  const keep = option("--keep-store", "");
  if (keep) mkdirSync(keep, { recursive: true });
  const mapFile = keep ? join(keep, "doc-of.json") : "";
  const reuse = keep !== "" && existsSync(mapFile);
  const { memory, dir } = await openTemp(emb, keep || undefined);
  try {
    const docOf = new Map<number, string>(reuse ? JSON.parse(readFileSync(mapFile, "utf8")) : []);
    const t0 = performance.now();
    if (!reuse) {
      for (const d of set.docs) {
        const r = await memory.ingestMarkdown({ title: d.title || d.id, content: d.text || d.title });
        for (const c of r.chunks) docOf.set(c.id, d.id);
      }
      if (keep) writeFileSync(mapFile, JSON.stringify([...docOf]));
    }
    const size = memory.graph.model.size();
    console.log(`\n## SciFact train: ${set.docs.length} docs (${docOf.size} chunks) through the markdown door in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `${size.entities} entities, ${size.currentEdges} current edges\n`);
    const res = { on: [] as { n: number | undefined; r: number | undefined }[], off: [] as { n: number | undefined; r: number | undefined }[] };
    let graphMs = 0, graphFired = 0;
    for (const q of set.queries.slice(0, limitQ)) {
      for (const graph of [true, false]) {
        const r = await memory.recall({ query: q.text, limit: 10, graph, provenance: true });
        const ids = [...new Set((r.hits as Hit[]).map((h) => docOf.get(h.id)!))];
        (graph ? res.on : res.off).push({ n: ndcgAtK(ids, q.judgments, 10), r: recallAtK(ids, q.judgments, 10) });
        if (graph) {
          const tel = r.telemetry as Record<string, number>;
          graphMs += tel.graph_ms ?? 0;
          if ((r.hits as Hit[]).some((h) => h.provenance?.graph_rank !== undefined)) graphFired++;
        }
      }
    }
    const n = Math.min(limitQ, set.queries.length);
    console.log("| graph leg | nDCG@10 | recall@10 |\n|---|---|---|");
    for (const k of ["on", "off"] as const) console.log(`| ${k} | ${meanOf(res[k].map((x) => x.n)).toFixed(4)} | ${meanOf(res[k].map((x) => x.r)).toFixed(4)} |`);
    console.log(`\n${n} queries; graph-ranked hits in the top 10 for ${graphFired}; mean graph_ms ${(graphMs / n).toFixed(3)}`);
    const changed = res.on.map((x, i) => ({ i, d: (x.n ?? 0) - (res.off[i].n ?? 0) })).filter((x) => x.d !== 0);
    console.log(`nDCG@10 changed on ${changed.length} queries: ${changed.filter((x) => x.d > 0).length} up, ${changed.filter((x) => x.d < 0).length} down`);
    if (flag("--verbose")) for (const c of changed) console.log(`  ${set.queries[c.i].id} ${c.d > 0 ? "+" : ""}${c.d.toFixed(3)} ${set.queries[c.i].text}`);
  } finally {
    await memory.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

const emb = embedder();
console.log(emb ? `embedder: static (${DEFAULT_STATIC_ASSET_PATH})` : `embedder: none (${DEFAULT_STATIC_ASSET_PATH} absent) — lexical + graph only`);
if (!flag("--skip-vault")) await vaultEval(emb);
if (!flag("--skip-scifact")) await scifactEval(emb);
