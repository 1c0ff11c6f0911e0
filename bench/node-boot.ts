/**
 * Issue 20: boots one node over a kept server-bench store (`npm run bench -- --scale N --server --keep`) from a copy of
 * a node's boot cache, times recall and the clean stop (which writes the cache), then boots again from the cache that
 * stop wrote. How the memory and boot figures of docs/benchmarks.md "Several nodes over one libSQL server" were taken.
 *
 *   npx tsx bench/node-boot.ts --store DIR [--cache FILE] [--rows float32|int8] [--queries 500] [--cpu-prof DIR]
 *
 * DIR is the kept directory (its `sqld/` is served by a fresh sqld); FILE defaults to DIR/node-b.node-cache.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "../src/eval/beir.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const STORE = resolve(opt("--store", ""));
const ROWS = opt("--rows", "float32");
const QUERIES = Number(opt("--queries", "500"));
const PROF = args.includes("--cpu-prof") ? resolve(opt("--cpu-prof", "")) : undefined;
if (!existsSync(join(STORE, "sqld"))) throw new Error(`--store ${STORE}: no sqld/ there (npm run bench -- --server --keep)`);
const work = mkdtempSync(join(tmpdir(), "cairn-node-boot-"));
const cache = join(work, "node.node-cache");
copyFileSync(resolve(opt("--cache", join(STORE, "node-b.node-cache"))), cache);

const free = () => 20000 + Math.floor(Math.random() * 20000);
const sq = free(), port = sq + 1;
const sqld = spawn(join(ROOT, "node_modules/.bin/sqld"), ["--http-listen-addr", `127.0.0.1:${sq}`, "-d", join(STORE, "sqld"), "--no-welcome"], { stdio: "ignore" });
const proc = (pid: number, field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);
const cpuS = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const call = async (m: string, p: string, body?: unknown) =>
  (await fetch(`http://127.0.0.1:${port}${p}`, { method: m, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined })).json() as Promise<Record<string, any>>;

async function start(): Promise<{ c: ChildProcess; bootMs: number }> {
  const node = ["--max-semi-space-size=4", ...(PROF ? ["--cpu-prof", "--cpu-prof-dir", PROF] : []), join(ROOT, "bin/cairn.mjs"), "serve"];
  const c = spawn(process.execPath, node, {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env, CAIRN_DB_URL: `http://127.0.0.1:${sq}`, BIND_PORT: String(port), CAIRN_NODE_ID: "node-boot", CAIRN_NODE_CACHE: cache,
      CAIRN_NODE_VECTOR_ROWS: ROWS, CAIRN_MAX_DOCS: "100000000", CAIRN_MAX_DB_MIB: "10000000", CAIRN_RATE_LIMIT_MAX: "100000000",
      CAIRN_VECTOR_SCAN_MAX: "100000000", CAIRN_MAX_RSS_MIB: "1536", CAIRN_UMP_KEY_DIR: join(work, "ump"),
    },
  });
  const line = await new Promise<string>((ok, no) => {
    let b = "";
    c.stdout!.on("data", (d: Buffer) => (b += d.toString()).includes("listening") && ok(b));
    c.once("exit", (x) => no(new Error(`node exited (${x}) before listening`)));
  });
  return { c, bootMs: Number(/boot (\d+) ms/.exec(line)?.[1]) };
}
async function stop(c: ChildProcess): Promise<number> {
  const t = performance.now();
  const done = new Promise((r) => c.once("exit", r));
  c.kill("SIGTERM");
  await done;
  return Math.round(performance.now() - t);
}

try {
  for (let i = 0; i < 300; i++) {
    try { if ((await fetch(`http://127.0.0.1:${sq}/health`)).ok) break; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  const queries = (parseJsonl(readFileSync(resolve(ROOT, "../shared/data/scifact/queries.jsonl"), "utf8")) as { text: string }[]).map((q) => q.text);
  const first = await start();
  const h = await call("GET", "/health/db");
  const pid = first.c.pid!;
  const afterBoot = proc(pid, "VmRSS");
  for (let i = 0; i < 30; i++) await call("POST", "/recall", { query: queries[i % queries.length] });
  const cpu0 = cpuS(pid);
  const ts: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await call("POST", "/recall", { query: queries[(i * 7) % queries.length] });
    ts.push(performance.now() - t);
  }
  const cpuPerQuery = ((cpuS(pid) - cpu0) * 1000) / QUERIES;
  ts.sort((x, y) => x - y);
  const q = (p: number) => Math.round(ts[Math.min(ts.length - 1, Math.floor(p * ts.length))] * 10) / 10;
  const afterQueries = proc(pid, "VmRSS"), peak = proc(pid, "VmHWM");
  const stopMs = await stop(first.c);
  const second = await start();
  const h2 = await call("GET", "/health/db");
  const afterBoot2 = proc(second.c.pid!, "VmRSS");
  await stop(second.c);
  console.log(`\nNode boot over ${STORE} (${h.capacity.docs} chunks), rows ${h.vector_rows}; load ${readFileSync("/proc/loadavg", "utf8").slice(0, 14)}\n`);
  console.log("| measure | figure |\n|---|---|");
  console.log(`| boot from the copied cache (${JSON.stringify(h.node.boot_cache)}) | ${first.bootMs} ms |`);
  console.log(`| RSS after boot / after ${QUERIES} recalls (peak) | ${afterBoot} / ${afterQueries} MB (${peak}) |`);
  console.log(`| /recall p50 / p95 / p99; CPU a query | ${q(0.5)} / ${q(0.95)} / ${q(0.99)} ms; ${Math.round(cpuPerQuery * 10) / 10} ms |`);
  console.log(`| clean stop (writes the cache) / cache file | ${stopMs} ms / ${Math.round(statSync(cache).size / 1048576)} MB |`);
  console.log(`| boot again from that cache (${JSON.stringify(h2.node.boot_cache)}) / RSS after it | ${second.bootMs} ms / ${afterBoot2} MB |`);
} finally {
  sqld.kill();
}
