/**
 * Watch latency of `cairn reconcile --watch` (docs/vault.md): the time from a
 * note saved into a watched vault to the moment recall returns it.
 *
 *   npx tsx bench/vault-watch.ts [--notes 1000] [--edits 300] [--debounce 150] [--server]
 *
 * A vault of `--notes` generated notes is reconciled, then `--edits` saves
 * are made one after another (alternately: a new note, an edit of an
 * existing note written in place, and an edit saved as an editor does, via a
 * temporary file and a rename), each carrying a word no other note holds;
 * after each save recall is asked for that word every 10 ms until it is
 * found. In-process by default (the watch and recall share one memory);
 * `--server` runs `cairn serve` and `cairn reconcile --watch` as two
 * processes on one store and asks the server over HTTP (its recall learns of
 * the write through the change feed). Prints median, p95, p99 and max in ms.
 * The store uses the default static embedder. Nothing is committed; the
 * vault and the store live in a temp directory.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { watchVault } from "../src/files/vault-watch.ts";
import { watchDir } from "../src/runtime/dir-watch.ts";
import { openMemoryForRuntime } from "../src/server.ts";
import { operatorActor } from "../src/ump/actor.ts";

const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const NOTES = option("--notes", 1000);
const EDITS = option("--edits", 300);
const DEBOUNCE = option("--debounce", 150);
const SERVER = args.includes("--server");
const ROOT = resolve(new URL("..", import.meta.url).pathname);

const WORDS = "kiln glaze clay wheel bisque porcelain stoneware slip trim throw centre pull wedge fire cone reduction oxidation ash celadon tenmoku".split(" ");
let seed = 7;
// mulberry32: a full-period 32-bit generator (integer arithmetic, so no precision loss)
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sentence = () => Array.from({ length: 12 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ") + ".";
const note = (i: number, extra = "") => `---\ntitle: Note ${i}\ntags: [studio]\n---\n\n# Note ${i}\n\n${sentence()} ${sentence()}\n\n${sentence()}\n${extra}`;

const dir = mkdtempSync(join(tmpdir(), "cairn-watch-bench-"));
const vault = join(dir, "vault");
mkdirSync(join(vault, "notes"), { recursive: true });
for (let i = 0; i < NOTES; i++) writeFileSync(join(vault, "notes", `n${i}.md`), note(i));
const env = { ...process.env, CAIRN_DB_PATH: join(dir, "cairn.db") };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Saves edit `k` and returns its unique word. */
function save(k: number): string {
  const word = `zq${k}x${Math.floor(rand() * 1e6)}`;
  const kind = k % 3;
  if (kind === 0) writeFileSync(join(vault, `new-${k}.md`), `# New ${k}\n\nA fresh note about ${word} and the kiln.\n`);
  else {
    const i = Math.floor(rand() * NOTES);
    const path = join(vault, "notes", `n${i}.md`);
    const text = note(i, `\nEdit ${k}: ${word} noted.\n`);
    if (kind === 1) writeFileSync(path, text);
    else {
      writeFileSync(`${path}.tmp`, text);
      renameSync(`${path}.tmp`, path);
    }
  }
  return word;
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
}

async function measure(found: (word: string) => Promise<boolean>): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < EDITS; k++) {
    const word = save(k);
    const t0 = performance.now();
    for (;;) {
      if (await found(word)) break;
      if (performance.now() - t0 > 30_000) throw new Error(`edit ${k} (${word}) not recalled after 30 s`);
      await sleep(10);
    }
    out.push(Math.round(performance.now() - t0));
  }
  return out;
}

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => ok(port));
  });
});

let latencies: number[];
if (!SERVER) {
  const memory = await openMemoryForRuntime(parseConfig(env));
  const stop = new AbortController();
  let batches = 0;
  const t0 = performance.now();
  const watching = watchVault(memory, vault, {
    actor: operatorActor(undefined), writeBack: false, watch: watchDir, signal: stop.signal, quietMs: DEBOUNCE, onBatch: () => { batches++; },
  });
  while (batches === 0) await sleep(20);
  console.log(`initial reconcile of ${NOTES} notes: ${Math.round(performance.now() - t0)} ms`);
  latencies = await measure(async (word) => {
    const r = await memory.recall({ query: word, limit: 1 });
    if (process.env.DEBUG_WATCH && !JSON.stringify(r.hits).includes(word)) {
      const rows = await memory.db.client.execute({ sql: "SELECT id, flagged, substr(content, 1, 300) AS c FROM chunks WHERE content LIKE ?", args: [`%${word}%`] });
      if (rows.rows.length) console.log(word, JSON.stringify(r).slice(0, 600), JSON.stringify(rows.rows));
    }
    return JSON.stringify(r.hits).includes(word);
  });
  stop.abort();
  await watching;
  await memory.close();
} else {
  const port = await freePort();
  const bin = join(ROOT, "bin", "cairn.mjs");
  const server = spawn("node", [bin, "serve"], { env: { ...env, BIND_PORT: String(port) }, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${base}/health`)).ok) break; } catch { /* starting */ }
    if (i > 600) throw new Error("server did not start");
    await sleep(100);
  }
  const watch = spawn("node", [bin, "reconcile", vault, "--watch", "--debounce", String(DEBOUNCE)], { env, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  watch.stdout!.on("data", (d) => (out += String(d)));
  while (!/reconcile: /.test(out)) await sleep(50);
  console.log(out.trim());
  latencies = await measure(async (word) => {
    const r = await fetch(`${base}/recall`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: word, limit: 1 }) });
    return (await r.text()).includes(word);
  });
  watch.kill("SIGTERM");
  server.kill("SIGTERM");
  await sleep(1000);
}
const s = stats(latencies);
console.log(`\n| mode | notes | edits | debounce ms | median ms | p95 ms | p99 ms | max ms |`);
console.log(`|---|---|---|---|---|---|---|---|`);
console.log(`| ${SERVER ? "watch + serve (HTTP recall)" : "in-process"} | ${NOTES} | ${s.n} | ${DEBOUNCE} | ${s.median} | ${s.p95} | ${s.p99} | ${s.max} |`);
rmSync(dir, { recursive: true, force: true });
