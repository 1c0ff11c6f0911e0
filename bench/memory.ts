/**
 * Issue 25: where a served process's resident memory goes, over a store kept by `npm run bench -- --keep`.
 *
 *   npx tsx bench/memory.ts --store DIR [--dist DIR] [--queries N] [--runs N]
 *
 * Starts `node --expose-gc --import bench/mem-probe.mjs <dist>/cli.js serve` over DIR/bench.db (the compiled build,
 * as the bench serves it; `--dist` points at another build, e.g. an older commit's, kept beside this one so that
 * node_modules resolves), samples memory after boot, runs N SciFact queries through `POST /recall` as the bench
 * does, samples again, and prints the breakdown (RSS anonymous / file-backed, V8 heap, array buffers, what is
 * left for native code such as libSQL) — as the process stands, then after a full GC. RSS does not depend on
 * machine load, so this runs freely on a shared machine.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "../src/eval/beir.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const STORE = resolve(opt("--store", ""));
const DIST = resolve(opt("--dist", join(ROOT, "dist")));
// --source DIR: serve DIR/cli.ts through tsx instead of a compiled build (larger RSS; compare like with like).
const SOURCE = args.includes("--source") ? resolve(opt("--source", ROOT)) : undefined;
const QUERIES = Number(opt("--queries", "1000"));
const RUNS = Number(opt("--runs", "1"));
const EXTRA = args.includes("--node-args") ? opt("--node-args", "").split(" ").filter(Boolean) : [];
if (!existsSync(join(STORE, "bench.db"))) throw new Error(`--store ${STORE}: no bench.db there (npm run bench -- --keep)`);

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => ok(port));
  });
});
const queries = (parseJsonl(readFileSync(resolve(ROOT, "../shared/data/scifact/queries.jsonl"), "utf8")) as { text: string }[]).map((q) => q.text);
const cpuS = (pid: number | undefined) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function once(): Promise<Record<string, unknown>> {
  const port = await freePort();
  const probe = join(STORE, `probe-${process.pid}.jsonl`);
  rmSync(probe, { force: true });
  const entry = SOURCE ? ["--import", "tsx", join(SOURCE, "cli.ts")] : [join(DIST, "cli.js")];
  const child = spawn(process.execPath, ["--max-semi-space-size=4", "--expose-gc", ...EXTRA, "--import", join(ROOT, "bench", "mem-probe.mjs"), ...entry, "serve"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CAIRN_DB_PATH: join(STORE, "bench.db"), CAIRN_UMP_KEY_DIR: join(STORE, "ump"), BIND_PORT: String(port), CAIRN_MAX_DOCS: "10000000", CAIRN_RATE_LIMIT_MAX: "100000000", CAIRN_MEM_PROBE: probe },
  });
  const line = await new Promise<string>((ok, fail) => {
    let buf = "";
    child.stdout!.on("data", (b: Buffer) => { buf += b.toString(); if (buf.includes("listening")) ok(buf); });
    child.once("exit", (code) => fail(new Error(`server exited (${code}): ${buf}`)));
  });
  const bootMs = Number(/boot (\d+) ms/.exec(line)?.[1] ?? NaN);
  const sample = async () => {
    const n = existsSync(probe) ? readFileSync(probe, "utf8").trim().split("\n").length : 0;
    child.kill("SIGUSR2");
    for (let i = 0; i < 2400; i++) {
      await sleep(50);
      const lines = existsSync(probe) ? readFileSync(probe, "utf8").trim().split("\n") : [];
      if (lines.length > n && lines[n]) return JSON.parse(lines[n]);
    }
    throw new Error("probe did not answer");
  };
  const base = `http://127.0.0.1:${port}`;
  // CPU seconds from /proc (load-independent, unlike wall times): the boot's, then per query.
  const bootCpuS = cpuS(child.pid);
  const boot = await sample();
  const q0 = cpuS(child.pid);
  for (let i = 0; i < 50 + QUERIES; i++) {
    const res = await fetch(base + "/recall", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: queries[(i * 7) % queries.length] }) });
    if (!res.ok) throw new Error(`/recall ${res.status}`);
    await res.arrayBuffer();
  }
  const queryCpuMs = ((cpuS(child.pid) - q0) * 1000) / (50 + QUERIES);
  const after = await sample();
  const done = new Promise((ok) => child.once("exit", ok));
  child.kill("SIGTERM");
  await done;
  rmSync(probe, { force: true });
  return { bootMs, bootCpuS, queryCpuMs, boot, after };
}

const rows: Record<string, unknown>[] = [];
for (let r = 0; r < RUNS; r++) rows.push(await once());
const show = (label: string, s: Record<string, number>) =>
  `| ${label} | ${s.rss} | ${s.anon} | ${s.file} | ${s.heapTotal} (${s.heapUsed} used) | ${s.external} (${s.arrayBuffers} array buffers) | ${s.unaccountedAnon} | ${s.hwm} |`;
console.log(`\n${STORE} served by ${SOURCE ? `${SOURCE}/cli.ts (tsx)` : DIST}, ${QUERIES} queries\n`);
console.log("| moment | RSS | anon | file | V8 heap total (used) | external (array buffers) | anon − heap − external | peak |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const b = r.boot as Record<string, Record<string, number>>;
  const a = r.after as Record<string, Record<string, number>>;
  console.log(show(`boot (${r.bootMs} ms, ${r.bootCpuS} CPU-s; ${Math.round((r.queryCpuMs as number) * 100) / 100} CPU-ms a query)`, b.before));
  if (b.afterGc) console.log(show("boot, after full GC", b.afterGc));
  console.log(show("after queries", a.before));
  if (a.afterGc) console.log(show("after queries, full GC", a.afterGc));
}
if (args.includes("--json")) console.log(JSON.stringify(rows));
