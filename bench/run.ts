/**
 * `npm run bench` (issue "Recall engine", SPEC §8 targets): the served
 * service, end to end, at 50,000 chunks.
 *
 *   1. builds 50,000 documents from SciFact's corpus (texts replicated and
 *      perturbed, `scaleCorpus`, seed 42);
 *   2. starts `cairn serve` (the npm bin: compiled dist/ when `npm run build`
 *      is current, as after `npm ci`) as a child process on a temp libSQL file and
 *      ingests them over loopback HTTP through `POST /ingest/batch`
 *      (250 per request) → docs/s;
 *   3. stops it (the lexical snapshot is saved on shutdown) and starts it
 *      again cold → boot time as the server reports it (open, migrations,
 *      vectors and snapshot loaded) and spawn-to-listening wall time;
 *   4. sends 1,000 SciFact train queries to `POST /recall` (limit 5, one at
 *      a time, after 50 warm-up queries) → p50 / p95 / p99;
 *   5. reads the server's RSS from /health/db (and its peak from /proc).
 *
 * Options: --docs N (default 50000), --queries N (default 1000), --json, --keep (leave the temp store),
 *   --cpu-prof DIR (V8 CPU profiles of the two server runs), --compare fts5 (issue 25: the same documents and
 *   queries through SQLite FTS5 in a child process, `bench/fts5.ts`, printed beside Cairn's figures; issue 36: with
 *   nDCG@10 and R@10 of both over the judged SciFact train queries, not only speed),
 *   --dist DIR (serve a compiled build kept elsewhere, `node DIR/cli.js serve`, instead of building this checkout:
 *   a long run is then not affected by source edits made meanwhile, and an older commit's build can be compared).
 * Skips with a message when ../shared/data/scifact is absent.
 */
import { execFileSync, execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl, parseQrels } from "../src/eval/beir.ts";
import { meanOf, ndcgAtK, recallAtK } from "../src/eval/metrics.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// ../shared/data beside the checkout (a git worktree one level deeper finds it one more level up).
const DATA = [resolve(ROOT, "../shared/data/scifact"), resolve(ROOT, "../../shared/data/scifact")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data/scifact");
const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const DOCS = option("--docs", 50_000);
const QUERIES = option("--queries", 1_000);
const BATCH = 250;
// --cpu-prof DIR: each server process writes a V8 CPU profile into DIR on exit (ingest run, then boot + queries run).
const DIST = args.includes("--dist") ? resolve(args[args.indexOf("--dist") + 1]) : undefined;
const PROFILE = args.includes("--cpu-prof") ? ["--cpu-prof", `--cpu-prof-dir=${resolve(args[args.indexOf("--cpu-prof") + 1])}`] : [];
// Issue 25: ≥ 5,000 docs/s; at 50k p95 ≤ 10 ms and RSS ≤ 250 MB; at 200k (the desktop envelope) p95 ≤ 15 ms, RSS ≤ 512 MB.
const TARGETS = DOCS > 50_000 ? { p95: 15, bootMs: 2000, rssMb: 512, docsPerS: 5000 } : { p95: 10, bootMs: 2000, rssMb: 250, docsPerS: 5000 };

// Issue 20: `--server` benches two nodes over one libSQL server instead (bench/server.ts).
if (args.includes("--server")) {
  await (await import("./server.ts")).benchServer();
  process.exit(0);
}

if (!existsSync(join(DATA, "corpus.jsonl"))) {
  console.log("bench skipped: ../shared/data/scifact is absent (see ../shared/data/README.md)");
  process.exit(0);
}

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => ok(port));
  });
});

interface Running { child: ChildProcess; bootMs: number; wallMs: number; base: string }

async function serve(dir: string, port: number): Promise<Running> {
  const t0 = performance.now();
  // The npm bin runs the compiled dist/ when it is current (else cli.ts through tsx) in this one process,
  // so the child's pid is the one whose memory we read.
  // Same V8 setting as `npm run serve` and the bin's shebang: 4 MB young-generation semi-spaces (docs/benchmarks.md).
  const entry = DIST ? join(DIST, "cli.js") : join(ROOT, "bin", "cairn.mjs");
  const child = spawn(process.execPath, ["--max-semi-space-size=4", ...PROFILE, entry, "serve"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env, CAIRN_DB_PATH: join(dir, "bench.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), BIND_PORT: String(port),
      CAIRN_MAX_DOCS: "10000000", CAIRN_RATE_LIMIT_MAX: "100000000",
    },
  });
  const line = await new Promise<string>((ok, fail) => {
    let buf = "";
    child.stdout!.on("data", (b: Buffer) => {
      buf += b.toString();
      if (buf.includes("listening")) ok(buf);
    });
    child.once("exit", (code) => fail(new Error(`server exited (${code}) before listening: ${buf}`)));
  });
  const bootMs = Number(/boot (\d+) ms/.exec(line)?.[1] ?? NaN);
  return { child, bootMs, wallMs: Math.round(performance.now() - t0), base: `http://127.0.0.1:${port}` };
}

async function stop(r: Running): Promise<void> {
  const done = new Promise((ok) => r.child.once("exit", ok));
  r.child.kill("SIGTERM");
  await done;
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json() as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** CPU seconds (user + system) a process has used so far, from /proc (NaN elsewhere); robust to a loaded machine. */
const cpuS = (pid: number | undefined) => {
  const f = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(f)) return NaN;
  const stat = readFileSync(f, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14, 15), in USER_HZ = 100 ticks
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
};

// Serve what users run after `npm ci`: the compiled build, refreshed from the current sources.
if (!DIST) execSync("npm run -s build", { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { _id: string; title?: string; text?: string }[];
const queryRows = parseJsonl(readFileSync(join(DATA, "queries.jsonl"), "utf8")) as { _id: string; text: string }[];
const queries = queryRows.map((q) => q.text);
// Quality at scale (issue 36): the judged train queries, their relevant abstracts among the perturbed copies.
const qrels = parseQrels(readFileSync(join(DATA, "qrels", "train.tsv"), "utf8"));
const judged = queryRows.filter((q) => qrels.has(q._id));
/** nDCG@10 and R@10 of rankings given as scaled-document ids (1-based; the first corpus.length are the originals). */
const quality = (ranked: number[][]) => {
  const docs = (ids: number[]) => ids.map((i) => (i >= 1 && i <= corpus.length ? corpus[i - 1]._id : `copy:${i}`));
  return {
    ndcg10: Math.round(meanOf(ranked.map((r, k) => ndcgAtK(docs(r), qrels.get(judged[k]._id)!, 10))) * 1e4) / 1e4,
    recall10: Math.round(meanOf(ranked.map((r, k) => recallAtK(docs(r), qrels.get(judged[k]._id)!, 10))) * 1e4) / 1e4,
  };
};
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-"));
const port = await freePort();
try {
  let run = await serve(dir, port);
  const firstBootMs = run.bootMs;
  const c0 = cpuS(run.child.pid);
  const t0 = performance.now();
  const docOfChunk = new Map<number, number>();
  for (let i = 0; i < docs.length; i += BATCH) {
    const part = docs.slice(i, i + BATCH);
    const r = await post(run.base, "/ingest/batch", { items: part.map((d) => ({ title: d.title, content: d.content })) }) as { items: { id: number }[] };
    r.items.forEach((it, k) => { if (!docOfChunk.has(it.id)) docOfChunk.set(it.id, part[k].id); });
  }
  const ingestS = (performance.now() - t0) / 1000;
  const ingestCpuS = cpuS(run.child.pid) - c0;
  await stop(run);
  run = await serve(dir, port);
  for (let i = 0; i < 50; i++) await post(run.base, "/recall", { query: queries[i % queries.length] });
  const times: number[] = [];
  const q0 = cpuS(run.child.pid);
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await post(run.base, "/recall", { query: queries[(i * 7) % queries.length] });
    times.push(performance.now() - t);
  }
  const queryCpuMs = ((cpuS(run.child.pid) - q0) * 1000) / QUERIES;
  // Quality pass (not timed): every judged train query, the top 10.
  const ranked: number[][] = [];
  for (const q of judged) {
    const r = await post(run.base, "/recall", { query: q.text, limit: 10 }) as { hits: { id: number }[] };
    ranked.push(r.hits.map((h) => docOfChunk.get(h.id) ?? -h.id));
  }
  const q10 = quality(ranked);
  const health = await (await fetch(run.base + "/health/db")).json() as { capacity?: { rss_mib?: number; docs?: number } };
  const status = existsSync(`/proc/${run.child.pid}/status`) ? readFileSync(`/proc/${run.child.pid}/status`, "utf8") : "";
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  await stop(run);
  const r = {
    docs: health.capacity?.docs ?? DOCS, docsPerS: Math.round(DOCS / ingestS), ingestS: Math.round(ingestS * 10) / 10,
    ingestCpuS: Math.round(ingestCpuS * 10) / 10, docsPerCpuS: Math.round(DOCS / ingestCpuS), queryCpuMs: Math.round(queryCpuMs * 100) / 100,
    firstBootMs, bootMs: run.bootMs, bootWallMs: run.wallMs,
    p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99),
    rssMb: health.capacity?.rss_mib ?? Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024),
    ...q10,
  };
  // --compare fts5: the baseline measured in the same run, never remembered (issue 25).
  const fts5 = args.includes("--compare") && args[args.indexOf("--compare") + 1] === "fts5"
    ? JSON.parse(execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "bench", "fts5.ts"), "--docs", String(DOCS), "--queries", String(QUERIES)],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!) as { buildS: number; docsPerS: number; p50: number; p95: number; p99: number; rssMb: number; peakRssMb: number; ranked: number[][] }
    : undefined;
  const fts5q = fts5 ? quality(fts5.ranked) : undefined;
  if (fts5) delete (fts5 as { ranked?: unknown }).ranked;
  if (args.includes("--json")) console.log(JSON.stringify(fts5 ? { ...r, fts5: { ...fts5, ...fts5q } } : r));
  const ok = (v: boolean) => (v ? "ok" : "MISSED");
  console.log(`\nCairn bench: ${r.docs} chunks (SciFact replicated and perturbed), ${QUERIES} /recall queries over loopback HTTP\n`);
  console.log("| measure | figure | target | |");
  console.log("|---|---|---|---|");
  console.log(`| batched ingest (POST /ingest/batch, ${BATCH}/request) | ${r.docsPerS} docs/s (${r.ingestS} s) | ≥ ${TARGETS.docsPerS} docs/s | ${ok(r.docsPerS >= TARGETS.docsPerS)} |`);
  console.log(`| server CPU: ingest (docs per CPU-second) / per query | ${r.ingestCpuS} s (${r.docsPerCpuS}) / ${r.queryCpuMs} ms | (load-independent) | |`);
  console.log(`| cold boot (server-reported; spawn to listening ${r.bootWallMs} ms) | ${r.bootMs} ms | ≤ ${TARGETS.bootMs} ms | ${ok(r.bootMs <= TARGETS.bootMs)} |`);
  console.log(`| /recall p50 / p95 / p99 (limit 5) | ${r.p50} / ${r.p95} / ${r.p99} ms | p95 ≤ ${TARGETS.p95} ms | ${ok(r.p95 <= TARGETS.p95)} |`);
  console.log(`| RSS after queries (peak) | ${r.rssMb} MB (${r.peakRssMb} MB) | ≤ ${TARGETS.rssMb} MB | ${ok(r.rssMb <= TARGETS.rssMb)} |`);
  console.log(`| quality: nDCG@10 / R@10 (${judged.length} judged SciFact train queries, limit 10) | ${r.ndcg10} / ${r.recall10} | (\`--compare fts5\`: beside FTS5) | |`);
  if (fts5) {
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(`\nSide by side, same ${r.docs} documents and ${QUERIES} queries (Cairn: HTTP, 250/request, screen + embedding + audit; FTS5: in process, porter, stopwords removed)\n`);
    console.log("| | Cairn | SQLite FTS5 | Cairn / FTS5 |");
    console.log("|---|---|---|---|");
    console.log(`| build / ingest | ${r.ingestS} s (${r.docsPerS} docs/s) | ${fts5.buildS} s (${fts5.docsPerS} docs/s) | ${x(r.ingestS, fts5.buildS)} |`);
    console.log(`| query p50 / p95 | ${r.p50} / ${r.p95} ms | ${fts5.p50} / ${fts5.p95} ms | ${x(r.p95, fts5.p95)} (p95) |`);
    console.log(`| RSS after queries (peak) | ${r.rssMb} MB (${r.peakRssMb} MB) | ${fts5.rssMb} MB (${fts5.peakRssMb} MB) | ${x(r.rssMb, fts5.rssMb)} |`);
    // Issue 36: quality beside speed, the same judged queries over the same documents.
    console.log(`| nDCG@10 / R@10, ${judged.length} judged SciFact train queries (relevant: the originals; copies are distractors) | ${r.ndcg10} / ${r.recall10} | ${fts5q!.ndcg10} / ${fts5q!.recall10} | ${(r.ndcg10 - fts5q!.ndcg10).toFixed(4)} (nDCG) |`);
  }
} finally {
  // --keep leaves the store for a look (its path is printed).
  if (args.includes("--keep")) console.log(`store kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
