/**
 * Wrongful abstention and off-topic catch by store size (issue 36 finding 2), through the served pipeline and the
 * door a user would use:
 *
 *   short-memories  fixtures/short-memories through the memory door, as prefix stores of 25 … 298 memories; the
 *                   judged questions whose answer is in the store are answerable, its off-topic and nonsense
 *                   queries are not;
 *   vaults          fixtures/bm-vault and fixtures/graph-eval through the markdown door;
 *   scifact         ../shared/data/scifact (5,183 abstracts, bulk door): the 809 train queries; off-topic: LoCoMo
 *                   questions;
 *   locomo          ../shared/data/locomo, one store per conversation (conversation door): categories 1–4; off-topic:
 *                   SciFact queries; category 5 reported apart (it asks about things the conversation discusses).
 *
 * Every store also gets the same 15 nonsense strings. "Wrongly abstained" counts answerable queries answered
 * `low_confidence`; "hiding an answer" those of them whose judged document recall ranks in the top 10 with
 * `abstain: false`.
 *
 *   npx tsx scripts/abstention-by-size.ts [--sets short-memories,vaults,scifact,locomo] [--misses]
 *
 * `DUMP=file.json` writes one row per query (signals, confidence, guard, the judged document's rank with abstention
 * off, and per query term its document frequency and whether the best lexical hit holds it) for offline analysis.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { parseJsonl } from "../src/eval/beir.ts";
import { LOCOMO_ADVERSARIAL, loadLocomo } from "../src/eval/locomo.ts";
import { createAnalyzer } from "../src/lexical/analyzer.ts";
import type { Memory } from "../src/memory.ts";
import { loadEmbedder } from "../src/runtime/model-loader.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
// ../shared/data beside the checkout; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const DATA = process.env.CAIRN_SHARED_DATA ?? [resolve(ROOT, "../shared/data"), resolve(ROOT, "../../shared/data")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data");
const args = process.argv.slice(2);
const SETS = (args.includes("--sets") ? args[args.indexOf("--sets") + 1] : "short-memories,vaults,scifact,locomo").split(",");
const MISSES = args.includes("--misses");
const analyzer = createAnalyzer();
// DUMP only: the full-scan cosines, from the same static table the stores use.
const embedder = process.env.DUMP ? await loadEmbedder(parseConfig({})) : undefined;

const NONSENSE = [
  "xqzv plorb wug", "asdfgh jkl qwerty", "lorem ipsum dolor sit amet", "zzzz bbbb kkkk", "flibbertigibbet snorkelwump gazoo",
  "qwpeoriuty zmxncbv", "blorp fizzwick trundlemore", "12345 67890 abcde", "ooga booga wibble", "vrrr kkt plm snq",
  "glimmerfax obtrude vexil", "hjkl hjkl hjkl", "znorf quibble plinth", "mxyzptlk", "wubba lubba dub dub",
];

interface Q { text: string; rel: Set<string>; kind: "answerable" | "off-topic" | "nonsense" | "category-5" }
interface Tally { ans: number; wrong: number; hiding: number; off: number; offCaught: number; non: number; nonCaught: number; c5: number; c5Caught: number }
const dump: unknown[] = [];
const rows: string[] = [];

/** Asks every query of one filled store; `docOf` maps chunk ids to judged document ids. */
async function ask(label: string, size: number, memory: Memory, docOf: Map<number, string>, queries: readonly Q[], t: Tally): Promise<void> {
  const lexical = memory.recallEngine.index.lexical;
  const n = lexical.size;
  for (const q of queries) {
    const served = await memory.recall({ query: q.text, limit: 10 });
    const open = await memory.recall({ query: q.text, limit: 10, abstain: false, provenance: true });
    const hits = open.hits as unknown as { id: number; score: number; provenance: { fts_rank?: number; vector_rank?: number; quality_assessment: { confidence: number; signals: unknown; answer_guard?: string } } }[];
    const abstained = served.decision === "low_confidence";
    const relRank = hits.findIndex((h) => q.rel.has(docOf.get(h.id) ?? ""));
    if (q.kind === "answerable") {
      t.ans++;
      if (abstained) {
        t.wrong++;
        if (relRank >= 0) t.hiding++;
        if (MISSES) console.log(`  wrongly abstained: ${label} ${JSON.stringify(q.text)} judged at ${relRank} ${JSON.stringify(hits[0]?.provenance.quality_assessment)}`);
      }
    } else if (q.kind === "off-topic") { t.off++; if (abstained) t.offCaught++; }
    else if (q.kind === "nonsense") { t.non++; if (abstained) t.nonCaught++; }
    else { t.c5++; if (abstained) t.c5Caught++; }
    if (process.env.DUMP) {
      const top = hits[0] ? lexical.docTerms(hits.find((h) => h.provenance.fts_rank === 0)?.id ?? -1) : undefined;
      const held = new Set<number>([...(top?.title ?? []), ...(top?.content ?? [])]);
      const terms = [...new Set(analyzer.analyze(q.text).sequence)].map((term) => {
        const id = lexical.termId(term);
        const e = Math.exp(lexical.idf(term)) - 1;
        return { df: id === undefined ? 0 : Math.round((n + 0.5 - 0.5 * e) / (1 + e)), top: id !== undefined && held.has(id) };
      });
      const vectors = memory.recallEngine.index.vectors;
      const qv = embedder && vectors ? (await embedder.embed([q.text]))[0] : undefined;
      const scan = qv ? vectors!.search(qv, n) : [];
      const scanRank = (id: number | undefined) => (id === undefined ? -1 : scan.findIndex((h) => h.id === id));
      const lexTop = hits.find((h) => h.provenance.fts_rank === 0)?.id;
      dump.push({
        scan: { top: scan.slice(0, 5).map((h) => Math.round(h.score * 1e4) / 1e4), mean: scan.length ? scan.reduce((a, h) => a + h.score, 0) / scan.length : 0, lexTopRank: scanRank(lexTop), servedTopRank: scanRank(hits[0]?.id), relRank: scan.findIndex((h) => q.rel.has(docOf.get(h.id) ?? "")) },
        set: label, size, n, kind: q.kind, text: q.text, abstained, relRank, quality: hits[0]?.provenance.quality_assessment,
        top: hits.slice(0, 5).map((h) => ({ fts: h.provenance.fts_rank, vec: h.provenance.vector_rank, score: h.score, rel: q.rel.has(docOf.get(h.id) ?? "") })), terms,
      });
    }
  }
}

async function open(): Promise<{ memory: Memory; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-abstain-"));
  const memory = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000" }));
  return { memory, dir };
}

const blank = (): Tally => ({ ans: 0, wrong: 0, hiding: 0, off: 0, offCaught: 0, non: 0, nonCaught: 0, c5: 0, c5Caught: 0 });
const frac = (a: number, b: number) => (b ? `${a} of ${b}` : "–");
function row(set: string, docs: number | string, t: Tally): void {
  rows.push(`| ${set} | ${docs} | ${t.ans} | ${t.wrong} | ${t.hiding} | ${frac(t.offCaught, t.off)} | ${frac(t.nonCaught, t.non)} | ${frac(t.c5Caught, t.c5)} |`);
}
const nonsense = (): Q[] => NONSENSE.map((text) => ({ text, rel: new Set(), kind: "nonsense" }));
const jsonl = (p: string) => parseJsonl(readFileSync(p, "utf8")) as Record<string, string>[];

if (SETS.includes("short-memories")) {
  const F = join(ROOT, "fixtures/short-memories");
  const corpus = jsonl(join(F, "corpus.jsonl"));
  const judged = new Map<string, Set<string>>();
  for (const line of readFileSync(join(F, "qrels/test.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [q, d] = line.split("\t");
    judged.set(q, (judged.get(q) ?? new Set()).add(d));
  }
  const questions = jsonl(join(F, "queries.jsonl"));
  const off = jsonl(join(F, "offtopic.jsonl"));
  for (const size of [25, 50, 100, 200, corpus.length]) {
    const docs = corpus.slice(0, size);
    const have = new Set(docs.map((d) => d._id));
    const { memory, dir } = await open();
    const r = await memory.ingestMemory({ entries: docs.map((d) => ({ content: d.text })) }) as { results: { id?: number }[] };
    const docOf = new Map(r.results.map((x, i) => [x.id!, docs[i]._id] as const));
    const queries: Q[] = [
      ...questions.filter((q) => [...judged.get(q._id)!].some((d) => have.has(d))).map((q) => ({ text: q.text, rel: new Set([...judged.get(q._id)!].filter((d) => have.has(d))), kind: "answerable" as const })),
      ...off.map((q) => ({ text: q.text, rel: new Set<string>(), kind: (q.kind === "nonsense" ? "nonsense" : "off-topic") as Q["kind"] })),
    ];
    const t = blank();
    await ask("short-memories", size, memory, docOf, queries, t);
    row("short memories (memory door)", size, t);
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (SETS.includes("vaults")) {
  const offtopic = (JSON.parse(readFileSync(join(ROOT, "fixtures/bm-vault/questions.json"), "utf8")).offtopic as string[]).map((text) => ({ text, rel: new Set<string>(), kind: "off-topic" as const }));
  for (const vault of ["bm-vault", "graph-eval"]) {
    const dirOf = join(ROOT, "fixtures", vault);
    const { memory, dir } = await open();
    const docOf = new Map<number, string>();
    const files = readdirSync(join(dirOf, "notes")).filter((f) => f.endsWith(".md")).sort();
    for (const f of files) {
      const content = readFileSync(join(dirOf, "notes", f), "utf8");
      const title = /^title:\s*(.+)$/m.exec(content)?.[1]?.trim() ?? /^#\s+(.+)$/m.exec(content)?.[1]?.trim() ?? f.replace(/\.md$/, "");
      for (const c of (await memory.ingestMarkdown({ title, content })).chunks) docOf.set(c.id, f);
    }
    const qs = (JSON.parse(readFileSync(join(dirOf, "questions.json"), "utf8")).questions as { question: string; answers: string[] }[])
      .map((q) => ({ text: q.question, rel: new Set(q.answers), kind: "answerable" as const }));
    const t = blank();
    await ask(vault, files.length, memory, docOf, [...qs, ...offtopic, ...nonsense()], t);
    row(`${vault} (markdown door, chunked)`, `${files.length} notes, ${docOf.size} chunks`, t);
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const haveData = existsSync(join(DATA, "scifact/corpus.jsonl")) && existsSync(join(DATA, "locomo/locomo-dev.json"));
if (!haveData && (SETS.includes("scifact") || SETS.includes("locomo"))) console.log("scifact and locomo skipped: ../shared/data is absent");
if (haveData && SETS.includes("scifact")) {
  const corpus = jsonl(join(DATA, "scifact/corpus.jsonl"));
  const judged = new Map<string, Set<string>>();
  for (const line of readFileSync(join(DATA, "scifact/qrels/train.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [q, d] = line.split("\t");
    judged.set(q, (judged.get(q) ?? new Set()).add(d));
  }
  const locomoQs = loadLocomo(readFileSync(join(DATA, "locomo/locomo-dev.json"), "utf8")).flatMap((c) => c.questions.filter((q) => q.category !== LOCOMO_ADVERSARIAL).map((q) => q.question));
  const { memory, dir } = await open();
  const docOf = new Map<number, string>();
  for (let i = 0; i < corpus.length; i += 500) {
    const part = corpus.slice(i, i + 500);
    const r = await memory.ingestBatch({ items: part.map((d) => ({ title: d.title.trim() || d._id, content: d.text || d.title })) });
    r.items.forEach((it, k) => docOf.set(it.id, part[k]._id));
  }
  const queries: Q[] = [
    ...jsonl(join(DATA, "scifact/queries.jsonl")).filter((q) => judged.has(q._id)).map((q) => ({ text: q.text, rel: judged.get(q._id)!, kind: "answerable" as const })),
    ...locomoQs.filter((_, i) => i % 4 === 0).map((text) => ({ text, rel: new Set<string>(), kind: "off-topic" as const })),
    ...nonsense(),
  ];
  const t = blank();
  await ask("scifact", corpus.length, memory, docOf, queries, t);
  row("SciFact train (bulk door)", corpus.length, t);
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
if (haveData && SETS.includes("locomo")) {
  const scifactQs = jsonl(join(DATA, "scifact/queries.jsonl")).map((q) => q.text);
  const t = blank();
  let docs = 0;
  for (const [ci, conv] of loadLocomo(readFileSync(join(DATA, "locomo/locomo-dev.json"), "utf8")).entries()) {
    const { memory, dir } = await open();
    const docOf = new Map<number, string>();
    for (const s of [...new Set(conv.docs.map((d) => d.session))]) {
      const turns = conv.docs.filter((d) => d.session === s);
      const r = await memory.ingestConversation({ session: { id: String(s), date: turns[0].date }, turns: turns.map((x) => ({ speaker: x.speaker, text: x.text, id: x.id })) });
      r.turns.forEach((x, k) => x.id !== undefined && docOf.set(x.id, turns[k].id));
    }
    docs += conv.docs.length;
    const queries: Q[] = [
      ...conv.questions.filter((q) => q.category !== LOCOMO_ADVERSARIAL && q.evidence.length).map((q) => ({ text: q.question, rel: new Set(q.evidence), kind: "answerable" as const })),
      ...conv.questions.filter((q) => q.category === LOCOMO_ADVERSARIAL).map((q) => ({ text: q.question, rel: new Set<string>(), kind: "category-5" as const })),
      ...scifactQs.filter((_, i) => i % 37 === ci).map((text) => ({ text, rel: new Set<string>(), kind: "off-topic" as const })),
      ...nonsense(),
    ];
    await ask("locomo", conv.docs.length, memory, docOf, queries, t);
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
  row("LoCoMo 1–6 (conversation door, one store each)", `${docs} turns`, t);
}

console.log("| set | store size | answerable | wrongly abstained | of them hiding an answer | off-topic caught | nonsense caught | category 5 caught |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(dump));
