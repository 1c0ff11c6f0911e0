/**
 * Abstention in small stores (issue 24 item 4): stores of 10 to 200 SciFact
 * documents (three seeded draws per size), each holding the judged documents
 * of some train queries plus fillers, are queried through the served
 * pipeline (static embedder) with
 *   answerable   — those train queries, and acronym-heavy jargon queries made
 *                  from the acronyms of the store's documents ("role of TNF in RA");
 *   unanswerable — LoCoMo questions (off-topic) and seeded nonsense strings.
 * Prints, per store size, how many answerable queries were wrongly abstained
 * on and how many unanswerable ones were caught, and the same for the
 * lexical-only preset (which never abstains) as the recall@5 reference.
 *
 *   npx tsx scripts/abstention-small-stores.ts
 *
 * `DUMP=/tmp/small.json` also writes one row per query (size, seed, kind, answerable, the quality signals and
 * the answer guard, with abstention on), the small-store rows scripts/calibrate-abstention.ts `--small` refits on.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { loadBeir } from "../src/eval/beir.ts";
import { LOCOMO_ADVERSARIAL, loadLocomo } from "../src/eval/locomo.ts";
import { seededRandom } from "../src/eval/scale-corpus.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// ../shared/data beside the checkout; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const DATA = process.env.CAIRN_SHARED_DATA ?? [resolve(ROOT, "../shared/data"), resolve(ROOT, "../../shared/data")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data");
if (!existsSync(join(DATA, "scifact/corpus.jsonl"))) {
  console.log("skipped: ../shared/data is absent");
  process.exit(0);
}
const read = (p: string) => readFileSync(join(DATA, p), "utf8");
const set = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
const offTopic = loadLocomo(read("locomo/locomo-dev.json")).flatMap((c) => c.questions.filter((q) => q.category !== LOCOMO_ADVERSARIAL).map((q) => q.question));
const docById = new Map(set.docs.map((d) => [d.id, d] as const));
const ACRONYM = /\b[A-Z][A-Z0-9]{1,6}\b/g;
const acronymsOf = (text: string) => [...new Set((text.match(ACRONYM) ?? []).filter((a) => /[A-Z].*[A-Z]/.test(a)))];

// `SIZES=10,25 SEEDS=1,2 MISSES=1`: a subset of sizes/draws, and each wrongly abstained query printed.
const SIZES = (process.env.SIZES ?? "10,25,50,100,200").split(",").map(Number);
const SEEDS = (process.env.SEEDS ?? "1,2,3").split(",").map(Number);
const MISSES = process.env.MISSES === "1";
const rows: string[] = [];
const dump: { size: number; seed: number; kind: string; answerable: boolean; signals: unknown; guard?: string }[] = [];
const keep = (size: number, seed: number, kind: string, answerable: boolean, q: { signals?: unknown; answer_guard?: string } | undefined) =>
  void (q?.signals && dump.push({ size, seed, kind, answerable, signals: q.signals, ...(q.answer_guard ? { guard: q.answer_guard } : {}) }));
for (const size of SIZES) {
  let ans = 0, wrong = 0, acr = 0, acrWrong = 0, off = 0, offCaught = 0, non = 0, nonCaught = 0, hit5 = 0, hit5Lex = 0;
  for (const seed of SEEDS) {
    const rnd = seededRandom(size * 100 + seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    // Judged documents of up to size/2 queries, then random fillers.
    const ids = new Set<string>();
    const answerable: { text: string; rel: Set<string>; acronym: boolean }[] = [];
    for (let tries = 0; tries < 1000 && answerable.length < Math.max(3, size / 2); tries++) {
      const q = pick(set.queries);
      const rel = [...q.judgments.keys()].filter((id) => docById.has(id));
      if (!rel.length || ids.size + rel.length > size || answerable.some((a) => a.text === q.text)) continue;
      rel.forEach((id) => ids.add(id));
      answerable.push({ text: q.text, rel: new Set(rel), acronym: false });
    }
    while (ids.size < size) ids.add(pick(set.docs).id);
    const docs = [...ids].map((id) => docById.get(id)!);
    // Acronym queries: a document's acronyms that no other document of the store has.
    const counts = new Map<string, number>();
    for (const d of docs) for (const a of acronymsOf(`${d.title} ${d.text}`)) counts.set(a, (counts.get(a) ?? 0) + 1);
    for (const d of docs) {
      const own = acronymsOf(`${d.title} ${d.text}`).filter((a) => counts.get(a) === 1);
      if (!own.length) continue;
      const text = own.length > 1 ? `role of ${own[0]} in ${own[1]}` : `what is known about ${own[0]}`;
      answerable.push({ text, rel: new Set([d.id]), acronym: true });
    }
    const dir = mkdtempSync(join(tmpdir(), "cairn-small-"));
    const memory = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") }));
    const r = await memory.ingestBatch({ items: docs.map((d) => ({ title: d.title.trim() || d.id, content: d.text || d.title })) });
    const docOf = new Map(r.items.map((it, k) => [it.id, docs[k].id] as const));
    const ask = async (query: string, abstain = true) => {
      const out = await memory.recall({ query, limit: 5, abstain, provenance: true });
      const hits = out.hits as { id: number; provenance?: { quality_assessment?: { signals?: unknown; answer_guard?: string } } }[];
      // The signals ride on the served hits (abstain: false serves them whatever the confidence); none: an empty search.
      const quality = hits[0]?.provenance?.quality_assessment ?? { signals: { lex_coverage: 0, lex_bigram: 0, vec_top: 0, agreement: 0, lex_candidates: 0 } };
      return { abstained: out.decision === "low_confidence", ids: hits.map((h) => docOf.get(h.id)!), quality };
    };
    for (const a of answerable) {
      const got = await ask(a.text);
      const open = await ask(a.text, false);
      keep(size, seed, a.acronym ? "acronym" : "scifact", true, open.quality);
      if (MISSES && got.abstained) console.log(`miss size=${size} seed=${seed} q=${JSON.stringify(a.text)} relAt=${open.ids.findIndex((id) => a.rel.has(id))} top=${JSON.stringify(docById.get(open.ids[0])?.title.slice(0, 80))} q=${JSON.stringify(open.quality)}`);
      if (a.acronym) { acr++; if (got.abstained) acrWrong++; } else { ans++; if (got.abstained) wrong++; }
      if (got.ids.some((id) => a.rel.has(id))) hit5++;
      if (open.ids.some((id) => a.rel.has(id))) hit5Lex++;
    }
    for (let i = 0; i < 20; i++) {
      off++;
      const q = pick(offTopic);
      const got = await ask(q);
      if (process.env.DUMP) keep(size, seed, "off-topic", false, (await ask(q, false)).quality);
      if (got.abstained) offCaught++;
    }
    for (let i = 0; i < 20; i++) {
      const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => Array.from({ length: 4 + Math.floor(rnd() * 5) }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(rnd() * 26)]).join(""));
      non++;
      const got = await ask(words.join(" "));
      if (process.env.DUMP) keep(size, seed, "nonsense", false, (await ask(words.join(" "), false)).quality);
      if (got.abstained) nonCaught++;
    }
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const pct = (a: number, b: number) => `${a}/${b} (${((100 * a) / Math.max(1, b)).toFixed(1)}%)`;
  rows.push(`| ${size} | ${pct(wrong, ans)} | ${pct(acrWrong, acr)} | ${pct(wrong + acrWrong, ans + acr)} | ${pct(offCaught, off)} | ${pct(nonCaught, non)} | ${(hit5 / (ans + acr)).toFixed(3)} / ${(hit5Lex / (ans + acr)).toFixed(3)} |`);
}
console.log("| store size (docs) | SciFact queries wrongly abstained | acronym queries wrongly abstained | all answerable wrongly abstained | off-topic caught | nonsense caught | answerable hit@5: served / abstain off |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(dump));
