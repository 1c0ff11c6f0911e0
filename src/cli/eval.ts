/**
 * `cairn eval <dir-or-file>` (SPEC §4.12): reads a BEIR-layout directory
 * (`corpus.jsonl`, `queries.jsonl`, `qrels/<split>.tsv`) or a LoCoMo JSON
 * file, ingests it into temporary stores through the bulk ingest door, runs
 * every judged query through recall, and prints recall@5, recall@10,
 * nDCG@10 and MRR; `--floor r5=… --floor r10=… --floor mrr=… --floor
 * ndcg=…` makes the command exit non-zero under a floor. A progress bar on a
 * TTY. The temporary stores are deleted afterwards.
 */
import { parseConfig } from "../config/parse-config.ts";
import { loadBeir } from "../eval/beir.ts";
import { loadLocomo } from "../eval/locomo.ts";
import { checkFloors, evalBeir, evalLocomo, parseFloors, type EvalReport, type EvalScores, type EvalStore } from "../eval/recall-eval.ts";
import { EVAL_MODES, modeParams, type EvalMode } from "../eval/recall-modes.ts";
import { makeTempDir, readEnv, readTextIfExists, removeDir } from "../runtime/platform.ts";
import { openMemoryForRuntime } from "../server.ts";
import { createProgress } from "./progress.ts";

/** Options of the command. */
export interface EvalOptions {
  floor?: string | string[];
  mode?: string;
  split?: string;
  json?: boolean;
  /** LoCoMo: index each turn alone through the bulk door (the pre-conversation-door rendering), not through `POST /ingest/conversation`. */
  turnOnly?: boolean;
}

/** Variables a user's environment may pass to the temporary store (the embedder, reranker and graph switches). */
const PASSED = ["CAIRN_EMBED_KIND", "CAIRN_EMBED_MODEL_DIR", "CAIRN_RERANK_MODEL_DIR", "CAIRN_RECALL_GRAPH_ENABLED", "INJECTION_POLICY"];

/** Runs the evaluation; returns the printed lines and whether every floor held. */
export async function evalCommand(path: string, o: EvalOptions): Promise<{ lines: string[]; ok: boolean }> {
  const floors = parseFloors(o.floor === undefined ? [] : Array.isArray(o.floor) ? o.floor : [o.floor]);
  const mode = (o.mode ?? "fused") as EvalMode;
  if (!EVAL_MODES.includes(mode)) throw new Error(`--mode must be one of ${EVAL_MODES.join(", ")}`);
  const preset = modeParams(mode);
  const env = readEnv();
  const open = async (): Promise<EvalStore> => {
    const dir = await makeTempDir("cairn-eval-");
    const vars: Record<string, string | undefined> = { CAIRN_DB_PATH: `${dir}/eval.db`, CAIRN_UMP_KEY_DIR: `${dir}/ump`, CAIRN_MAX_DOCS: "10000000", CAIRN_MAX_DB_MIB: "1000000" };
    for (const k of PASSED) if (env[k] !== undefined) vars[k] = env[k];
    const memory = await openMemoryForRuntime(parseConfig(vars));
    memory.recallEngine.params = { ...memory.recallEngine.params, ...preset.params };
    const store: EvalStore = {
      async ingest(docs) {
        const r = await memory.ingestBatch({ items: docs.map((d) => ({ title: d.title, content: d.content })) });
        return r.items.map((i) => i.id);
      },
      async ingestConversation(session, turns) {
        const r = await memory.ingestConversation({ session, turns: [...turns] });
        return r.turns.map((t) => t.id);
      },
      async recall(query, limit) {
        const r = await memory.recall({ query, limit, graph: preset.graph });
        return { ids: (r.hits as { id: number }[]).map((h) => h.id), abstained: r.decision === "low_confidence" };
      },
      async close() {
        await memory.close();
        await removeDir(dir);
      },
    };
    // LoCoMo goes through the conversation door (issue 24), so the figures are what users get; --turn-only keeps the old path.
    if (o.turnOnly) delete store.ingestConversation;
    return store;
  };
  const report = await runOn(path, open, o);
  const failures = checkFloors(report, floors);
  const lines = o.json ? [JSON.stringify({ mode, ...report, floors_failed: failures }, null, 2)] : formatReport(path, mode, report);
  if (!o.json) for (const f of failures) lines.push(`FLOOR FAILED: ${f}`);
  return { lines, ok: failures.length === 0 };
}

async function runOn(path: string, open: () => Promise<EvalStore>, o: EvalOptions): Promise<EvalReport> {
  const base = path.replace(/\/$/, "");
  const corpus = await readTextIfExists(`${base}/corpus.jsonl`);
  if (corpus !== undefined) {
    const split = o.split ?? ((await readTextIfExists(`${base}/qrels/test.tsv`)) !== undefined ? "test" : "train");
    const [queries, qrels] = await Promise.all([readTextIfExists(`${base}/queries.jsonl`), readTextIfExists(`${base}/qrels/${split}.tsv`)]);
    if (queries === undefined || qrels === undefined) throw new Error(`${base} has corpus.jsonl but no queries.jsonl or qrels/${split}.tsv`);
    const set = loadBeir({ corpus, queries, qrels });
    return await evalBeir(set, open, createProgress(set.queries.length, "eval"));
  }
  const text = await readTextIfExists(base);
  if (text === undefined) throw new Error(`${path} is neither a BEIR directory (corpus.jsonl) nor a readable LoCoMo JSON file`);
  const convs = loadLocomo(text, { previousTurn: !o.turnOnly });
  const total = convs.reduce((n, c) => n + c.questions.filter((q) => q.category === 5 || q.evidence.length > 0).length, 0);
  return await evalLocomo(convs, open, createProgress(total, "eval"));
}

const f4 = (x: number) => x.toFixed(4);

function row(label: string, s: EvalScores): string {
  return `| ${label} | ${s.queries} | ${f4(s.recall5)} | ${f4(s.recall10)} | ${f4(s.ndcg10)} | ${f4(s.mrr)} | ${s.abstained} |`;
}

function formatReport(path: string, mode: string, r: EvalReport): string[] {
  const lines = [
    `${r.dataset} ${path} · mode ${mode} · ${r.docs} docs ingested in ${(r.ingestMs / 1000).toFixed(1)} s · query p50 ${r.queryMsP50} ms, p95 ${r.queryMsP95} ms`,
    "| set | queries | recall@5 | recall@10 | nDCG@10 | MRR | abstained |",
    "|---|---|---|---|---|---|---|",
    row("all", r),
  ];
  for (const [c, s] of Object.entries(r.byCategory ?? {})) lines.push(row(`category ${c}`, s));
  if (r.adversarial) lines.push(`category 5 (unanswerable, not scored): ${r.adversarial.abstained} of ${r.adversarial.queries} abstained`);
  return lines;
}
