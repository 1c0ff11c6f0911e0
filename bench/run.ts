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
 * Options: --docs N (default 50000), --queries N (default 1000), --json, --keep (leave the temp store).
 * Skips with a message when ../shared/data/scifact is absent.
 */
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data/scifact");
const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const DOCS = option("--docs", 50_000);
const QUERIES = option("--queries", 1_000);
const BATCH = 250;
const TARGETS = { p95: 20, bootMs: 2000, rssMb: 350, docsPerS: 1000 };

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
  // Same V8 setting as `npm run serve` and the bin's shebang: 4 MB young-generation semi-spaces (README "Recall").
  const child = spawn(process.execPath, ["--max-semi-space-size=4", join(ROOT, "bin", "cairn.mjs"), "serve"], {
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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
};

// Serve what users run after `npm ci`: the compiled build, refreshed from the current sources.
execSync("npm run -s build", { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { title?: string; text?: string }[];
const queries = (parseJsonl(readFileSync(join(DATA, "queries.jsonl"), "utf8")) as { text: string }[]).map((q) => q.text);
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-"));
const port = await freePort();
try {
  let run = await serve(dir, port);
  const firstBootMs = run.bootMs;
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) {
    await post(run.base, "/ingest/batch", { items: docs.slice(i, i + BATCH).map((d) => ({ title: d.title, content: d.content })) });
  }
  const ingestS = (performance.now() - t0) / 1000;
  await stop(run);
  run = await serve(dir, port);
  for (let i = 0; i < 50; i++) await post(run.base, "/recall", { query: queries[i % queries.length] });
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await post(run.base, "/recall", { query: queries[(i * 7) % queries.length] });
    times.push(performance.now() - t);
  }
  const health = await (await fetch(run.base + "/health/db")).json() as { capacity?: { rss_mib?: number; docs?: number } };
  const status = existsSync(`/proc/${run.child.pid}/status`) ? readFileSync(`/proc/${run.child.pid}/status`, "utf8") : "";
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  await stop(run);
  const r = {
    docs: health.capacity?.docs ?? DOCS, docsPerS: Math.round(DOCS / ingestS), ingestS: Math.round(ingestS * 10) / 10,
    firstBootMs, bootMs: run.bootMs, bootWallMs: run.wallMs,
    p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99),
    rssMb: health.capacity?.rss_mib ?? Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024),
  };
  if (args.includes("--json")) console.log(JSON.stringify(r));
  const ok = (v: boolean) => (v ? "ok" : "MISSED");
  console.log(`\nCairn bench: ${r.docs} chunks (SciFact replicated and perturbed), ${QUERIES} /recall queries over loopback HTTP\n`);
  console.log("| measure | figure | target | |");
  console.log("|---|---|---|---|");
  console.log(`| batched ingest (POST /ingest/batch, ${BATCH}/request) | ${r.docsPerS} docs/s (${r.ingestS} s) | ≥ ${TARGETS.docsPerS} docs/s | ${ok(r.docsPerS >= TARGETS.docsPerS)} |`);
  console.log(`| cold boot (server-reported; spawn to listening ${r.bootWallMs} ms) | ${r.bootMs} ms | ≤ ${TARGETS.bootMs} ms | ${ok(r.bootMs <= TARGETS.bootMs)} |`);
  console.log(`| /recall p50 / p95 / p99 (limit 5) | ${r.p50} / ${r.p95} / ${r.p99} ms | p95 ≤ ${TARGETS.p95} ms | ${ok(r.p95 <= TARGETS.p95)} |`);
  console.log(`| RSS after queries (peak) | ${r.rssMb} MB (${r.peakRssMb} MB) | ≤ ${TARGETS.rssMb} MB | ${ok(r.rssMb <= TARGETS.rssMb)} |`);
} finally {
  // --keep leaves the store for a look (its path is printed).
  if (args.includes("--keep")) console.log(`store kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
