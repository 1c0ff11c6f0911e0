/**
 * Import speed and memory of `cairn import` (docs/vault.md): imports a chat
 * export into a fresh temp store and prints the wall time, MB/s,
 * conversations/s and turns/s, and the process's peak RSS. Generate the
 * export first (it is not committed):
 *
 *   npx tsx scripts/gen-chat-export.ts --mb 100 --out /tmp/chatgpt-100mb/conversations.json
 *   npx tsx bench/chat-import.ts /tmp/chatgpt-100mb/conversations.json [--format chatgpt|claude] [--lexical] [--again] [--read-only] [--with-indexes] [--keep <dir>]
 *
 * The store uses the default static embedder (`--lexical`: none). `--again`
 * imports the same export a second time and reports that run too (nothing
 * is stored; the cost of reading and comparing). Peak RSS is the process's
 * high-water mark (`process.resourceUsage().maxRSS`), so run one import per
 * process; the peaks of heap, external and array-buffer memory are
 * sampled beside it. `--read-only` reads and converts the export (the
 * streaming reader, the converters, the door's body) and stores nothing.
 * The store is opened as `cairn import` opens it, write-only (no recall
 * index); `--with-indexes` opens the full memory, whose recall indexes grow
 * with every chunk written (how the import ran before it was write-only).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importChats } from "../src/chats/import-chats.ts";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--keep" && args[i - 1] !== "--format");
if (!file) {
  console.log("usage: npx tsx bench/chat-import.ts <conversations.json|export.zip> [--format chatgpt|claude] [--lexical] [--again] [--read-only] [--with-indexes] [--keep <dir>]");
  process.exit(2);
}
const format = (args.includes("--format") ? args[args.indexOf("--format") + 1] : "chatgpt") as "chatgpt" | "claude";
// `--keep <dir>`: the store is written there and left for a later look (e.g. the RSS of a server booting on it).
const keep = args.includes("--keep") ? args[args.indexOf("--keep") + 1] : undefined;
if (keep) mkdirSync(keep, { recursive: true });
const dir = keep ?? mkdtempSync(join(tmpdir(), "cairn-import-bench-"));
// A 100 MB export holds ~55,000 turns, past the default 50,000-chunk envelope (CAIRN_MAX_DOCS): raised here unless set.
const env = { CAIRN_MAX_DOCS: "5000000", ...process.env, CAIRN_DB_PATH: join(dir, "cairn.db"), ...(args.includes("--lexical") ? { CAIRN_EMBED_KIND: "none" } : {}) };
// As `cairn import` opens it (write-only: no recall index); `--with-indexes`: the full memory, as before that.
const memory = await openMemoryForRuntime(parseConfig(env), { writeOnly: !args.includes("--with-indexes") });
const mb = statSync(file).size / 1024 / 1024;
// Where the memory is: the high-water mark of each part `process.memoryUsage()` names, sampled every 200 ms.
const peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
const sample = () => {
  const m = process.memoryUsage();
  for (const k of Object.keys(peak) as (keyof typeof peak)[]) peak[k] = Math.max(peak[k], m[k]);
};
const sampler = setInterval(sample, 200);
const rows: string[] = [];
for (const run of args.includes("--again") ? ["first", "again"] : ["first"]) {
  const t0 = performance.now();
  let last = 0;
  const readOnly = args.includes("--read-only");
  const s = await importChats((b, o) => (readOnly
    ? Promise.resolve({ session: String(b.session.id), domain: "global", turns: [], created: b.turns.length, duplicate: 0, skipped: 0, proposed: 0 })
    : memory.ingestConversation(b, o)), [file], {
    format, me: "Ana",
    onProgress: (p) => {
      if (performance.now() - last < 10_000) return;
      last = performance.now();
      const m = process.memoryUsage();
      const f = (n: number) => Math.round(n / 1048576);
      console.error(`  ${run}: ${p.conversations} conversations, ${Math.floor((100 * p.bytes) / p.totalBytes)}%, rss ${f(m.rss)} MB (heap ${f(m.heapUsed)}, external ${f(m.external)}, array buffers ${f(m.arrayBuffers)})`);
    },
  });
  const sec = (performance.now() - t0) / 1000;
  const turns = s.turns.created + s.turns.duplicate;
  rows.push(`| ${run} | ${mb.toFixed(0)} | ${s.conversations} | ${turns} | ${s.turns.created} | ${sec.toFixed(1)} | ${(mb / sec).toFixed(2)} | ${(s.conversations / sec).toFixed(1)} | ${Math.round(turns / sec)} |`);
  if (s.failed.length || s.unreadable.length) console.error(`failed ${s.failed.length}, unreadable ${s.unreadable.length}`);
}
clearInterval(sampler);
await memory.close();
const maxRss = process.resourceUsage().maxRSS / 1024; // KiB → MiB
console.log(`\n| run | MB | conversations | turns | created | s | MB/s | conv/s | turns/s |`);
console.log(`|---|---|---|---|---|---|---|---|---|`);
for (const r of rows) console.log(r);
const mib = (n: number) => Math.round(n / 1048576);
console.log(`\npeak RSS ${Math.round(maxRss)} MB (sampled ${mib(peak.rss)} MB; heap used ${mib(peak.heapUsed)}, external ${mib(peak.external)}, array buffers ${mib(peak.arrayBuffers)}); store ${(statSync(join(dir, "cairn.db")).size / 1048576).toFixed(0)} MB`);
if (!keep) rmSync(dir, { recursive: true, force: true });
