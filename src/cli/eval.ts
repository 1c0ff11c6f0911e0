/**
 * `cairn eval <path>` (SPEC §4.12): scores recall on a BEIR-layout directory (`corpus.jsonl`, `queries.jsonl`,
 * `qrels/<split>.tsv`; through the bulk door, or the memory door with `--door memory` or a `cairn-eval.json`
 * saying `{"door": "memory"}`; `offtopic.jsonl` adds unanswerable queries), a LoCoMo JSON file (through the
 * conversation door) or a markdown vault (`notes/` and `questions.json`, through the markdown door). Each store
 * is temporary and filled once; its queries run in the served pipeline and, beside it (issue 36), lexical-only
 * and SQLite FTS5 over the identical chunks the store holds (`--compare`), and with `--restart` once more after
 * the store is closed and reopened on the same database. Prints recall@5, recall@10, nDCG@10, MRR, wrongful
 * abstentions and unanswerable queries caught; `--floor r5=… r10=… mrr=… ndcg=…` (on the first run) makes the
 * command exit non-zero under a floor. A progress bar on a TTY.
 */
import { parseConfig } from "../config/parse-config.ts";
import { loadBeir, parseJsonl } from "../eval/beir.ts";
import { beirUnits, locomoUnits, vaultUnits, type EvalSet, type VaultQuestion } from "../eval/eval-sets.ts";
import { loadLocomo } from "../eval/locomo.ts";
import { checkFloors, evaluateSet, parseFloors, type EvalReport, type EvalRun, type EvalRunScores, type EvalScores, type EvalStore } from "../eval/recall-eval.ts";
import { EVAL_MODES, modeParams, type EvalMode } from "../eval/recall-modes.ts";
import type { Memory } from "../memory.ts";
import type { RecallParams } from "../recall/recall-params.ts";
import { makeTempDir, readEnv, readTextIfExists, removeDir, walkFiles } from "../runtime/platform.ts";
import { openMemoryForRuntime } from "../server.ts";
import { noteTitle } from "../sources/source-service.ts";
import { buildFts5Baseline, type Fts5Baseline } from "../store/fts5-baseline.ts";
import { listChunksAfter } from "../store/chunks.ts";
import { createProgress } from "./progress.ts";

/** Options of the command. */
export interface EvalOptions {
  floor?: string | string[];
  mode?: string;
  split?: string;
  json?: boolean;
  /** LoCoMo: index each turn alone through the bulk door (the pre-conversation-door rendering), not through `POST /ingest/conversation`. */
  turnOnly?: boolean;
  /** Runs beside the first: a comma list of `lexical`, `vector`, `fused`, `fts5`, or `none`. */
  compare?: string;
  /** Run the first mode again after closing and reopening each store. */
  restart?: boolean;
  /** BEIR directories: `batch` (default) or `memory`. */
  door?: string;
  /** Tuning only: recall parameter overrides as JSON (`{"speakerNames": "first"}`), applied to every recall mode. */
  params?: string;
}

/** Variables a user's environment may pass to the temporary store (the embedder, reranker and graph switches). */
const PASSED = ["CAIRN_EMBED_KIND", "CAIRN_EMBED_MODEL_DIR", "CAIRN_RERANK_MODEL_DIR", "CAIRN_RECALL_GRAPH_ENABLED", "INJECTION_POLICY"];

/** The runs asked for: the mode first, then the comparisons, then the restart. */
export function evalRuns(o: Pick<EvalOptions, "mode" | "compare" | "restart">): EvalRun[] {
  const mode = (o.mode ?? "fused") as EvalMode;
  if (!EVAL_MODES.includes(mode)) throw new Error(`--mode must be one of ${EVAL_MODES.join(", ")}`);
  const compare = (o.compare ?? "lexical,fts5").split(",").map((s) => s.trim()).filter((s) => s && s !== "none");
  for (const c of compare) if (c !== "fts5" && !EVAL_MODES.includes(c as EvalMode)) throw new Error(`--compare takes ${[...EVAL_MODES, "fts5"].join(", ")} or none, not '${c}'`);
  const runs: EvalRun[] = [mode];
  for (const c of compare as EvalRun[]) if (!runs.includes(c)) runs.push(c);
  if (o.restart) runs.push("restart");
  return runs;
}

/** Runs the evaluation; returns the printed lines and whether every floor held. */
export async function evalCommand(path: string, o: EvalOptions): Promise<{ lines: string[]; ok: boolean }> {
  const floors = parseFloors(o.floor === undefined ? [] : Array.isArray(o.floor) ? o.floor : [o.floor]);
  const runs = evalRuns(o);
  const env = readEnv();
  const open = async (): Promise<EvalStore> => {
    const dir = await makeTempDir("cairn-eval-");
    const vars: Record<string, string | undefined> = { CAIRN_DB_PATH: `${dir}/eval.db`, CAIRN_UMP_KEY_DIR: `${dir}/ump`, CAIRN_MAX_DOCS: "10000000", CAIRN_MAX_DB_MIB: "1000000" };
    for (const k of PASSED) if (env[k] !== undefined) vars[k] = env[k];
    const config = parseConfig(vars);
    let memory: Memory = await openMemoryForRuntime(config);
    const base = { ...memory.recallEngine.params, ...(o.params ? JSON.parse(o.params) as Partial<RecallParams> : {}) };
    let fts5: Fts5Baseline | undefined;
    const store: EvalStore = {
      async ingest(docs) {
        const r = await memory.ingestBatch({ items: docs.map((d) => ({ title: d.title, content: d.content })) });
        return r.items.map((i) => i.id);
      },
      async ingestConversation(session, turns) {
        const r = await memory.ingestConversation({ session, turns: [...turns] });
        return r.turns.map((t) => t.id);
      },
      async ingestMemories(entries) {
        const r = await memory.ingestMemory({ entries: entries.map((e) => ({ ...e })) }) as { results: { id?: number }[] };
        return r.results.map((x) => x.id);
      },
      async ingestMarkdown(doc) {
        return (await memory.ingestMarkdown(doc)).chunks.map((c) => c.id);
      },
      async chunks() {
        const out: { id: number; title?: string; content: string }[] = [];
        for (let after = 0; ;) {
          const page = await listChunksAfter(memory.db.client, after, 1000);
          if (!page.length) break;
          // Every stored chunk, quarantined ones too: the baseline is a plain index over what the store holds.
          for (const c of page) out.push({ id: c.id, title: c.title, content: c.content });
          after = page[page.length - 1].id;
        }
        return out;
      },
      async fts5(query, limit) {
        fts5 ??= await buildFts5Baseline(await store.chunks!());
        return await fts5.search(query, limit);
      },
      async recall(query, limit, mode = "fused") {
        const preset = modeParams(mode);
        memory.recallEngine.params = { ...base, ...preset.params };
        const r = await memory.recall({ query, limit, graph: preset.graph });
        return { ids: (r.hits as { id: number }[]).map((h) => h.id), abstained: r.decision === "low_confidence" };
      },
      async restart() {
        await memory.close();
        memory = await openMemoryForRuntime(config);
      },
      async close() {
        fts5?.close();
        await memory.close();
        await removeDir(dir);
      },
    };
    // LoCoMo goes through the conversation door (issue 24), so the figures are what users get; --turn-only keeps the old path.
    if (o.turnOnly) delete store.ingestConversation;
    return store;
  };
  const set = await readSet(path, o);
  const total = set.units.reduce((n, u) => n + u.queries.length, 0) * runs.length;
  const report = await evaluateSet(set, open, runs, createProgress(total, "eval"));
  const failures = checkFloors(report, floors);
  const lines = o.json ? [JSON.stringify({ mode: runs[0], ...report, floors_failed: failures }, null, 2)] : formatReport(path, report);
  if (!o.json) for (const f of failures) lines.push(`FLOOR FAILED: ${f}`);
  return { lines, ok: failures.length === 0 };
}

/** Reads a BEIR directory, a vault directory or a LoCoMo file into an evaluation set. */
export async function readSet(path: string, o: Pick<EvalOptions, "split" | "door" | "turnOnly">): Promise<EvalSet> {
  const base = path.replace(/\/$/, "");
  const corpus = await readTextIfExists(`${base}/corpus.jsonl`);
  if (corpus !== undefined) {
    const split = o.split ?? ((await readTextIfExists(`${base}/qrels/test.tsv`)) !== undefined ? "test" : "train");
    const [queries, qrels, manifest, offtopic] = await Promise.all([
      readTextIfExists(`${base}/queries.jsonl`), readTextIfExists(`${base}/qrels/${split}.tsv`), readTextIfExists(`${base}/cairn-eval.json`), readTextIfExists(`${base}/offtopic.jsonl`),
    ]);
    if (queries === undefined || qrels === undefined) throw new Error(`${base} has corpus.jsonl but no queries.jsonl or qrels/${split}.tsv`);
    const door = o.door ?? (manifest ? (JSON.parse(manifest) as { door?: string }).door : undefined) ?? "batch";
    if (door !== "batch" && door !== "memory") throw new Error(`--door must be batch or memory, not '${door}'`);
    const off = offtopic ? (parseJsonl(offtopic) as { _id: string; text: string }[]).map((q) => ({ id: q._id, text: q.text })) : [];
    return beirUnits(loadBeir({ corpus, queries, qrels }), door, off);
  }
  const questions = await readTextIfExists(`${base}/questions.json`);
  if (questions !== undefined) {
    const q = JSON.parse(questions) as { questions: VaultQuestion[]; offtopic?: string[] };
    const files = await walkFiles(`${base}/notes`, [".md", ".markdown"]);
    const notes = await Promise.all(files.map(async (f) => {
      const content = (await readTextIfExists(f))!;
      return { file: f.slice(`${base}/notes/`.length), title: noteTitle(f, content), content };
    }));
    return vaultUnits(base.split("/").pop() ?? base, notes, q.questions, q.offtopic ?? []);
  }
  const text = await readTextIfExists(base);
  if (text === undefined) throw new Error(`${path} is neither a BEIR directory (corpus.jsonl), a vault (questions.json) nor a readable LoCoMo JSON file`);
  return locomoUnits(loadLocomo(text, { previousTurn: !o.turnOnly }));
}

const f4 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(4));

const RUN_LABELS: Record<EvalRun, string> = {
  fused: "Cairn default", lexical: "Cairn lexical-only", vector: "Cairn vector-only", fts5: "SQLite FTS5, same chunks", restart: "after a restart",
};

function row(label: string, s: EvalScores, caught?: { queries: number; abstained: number }): string {
  return `| ${label} | ${s.queries} | ${f4(s.recall5)} | ${f4(s.recall10)} | ${f4(s.ndcg10)} | ${f4(s.mrr)} | ${s.abstained} | ${caught ? `${caught.abstained} of ${caught.queries}` : "–"} |`;
}

function formatReport(path: string, r: EvalReport): string[] {
  const lines = [
    `${r.dataset} ${path} · ${r.docs} docs ingested in ${(r.ingestMs / 1000).toFixed(1)} s · query p50 ${r.queryMsP50} ms, p95 ${r.queryMsP95} ms (${RUN_LABELS[r.runs[0].run]})`,
    "| run | queries | recall@5 | recall@10 | nDCG@10 | MRR | wrongly abstained | unanswerable abstained |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const label = (x: EvalRunScores) => (x.run === "restart" ? `${RUN_LABELS[r.runs[0].run]} ${RUN_LABELS.restart}` : RUN_LABELS[x.run]);
  for (const x of r.runs) lines.push(row(label(x), x, x.unanswerable));
  for (const [c, s] of Object.entries(r.byCategory ?? {})) lines.push(row(`${label(r.runs[0])}, category ${c}`, s));
  return lines;
}
