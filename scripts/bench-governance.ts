/**
 * Governance costs on a synthetic store (no assertion; prints a table):
 * filing and approving proposals, the consolidation proposer over N chunks,
 * the temporal recall filter on 100 candidates, recall with the filter
 * against a no-op filter, a data-subject erasure of 2,000 chunks, and a
 * full audit-chain verification. Wall times in ms on whatever machine runs it.
 *
 *   npx tsx scripts/bench-governance.ts [--n 5000] [--proposals 200] [--queries 200]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createClient, type InStatement } from "@libsql/client";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemory, type Memory } from "../src/memory.ts";
import { cachedTemporalSource } from "../src/review/link-cache.ts";
import { dbTemporalSource, temporalFilter } from "../src/review/recall-filter.ts";

const { values: flags } = parseArgs({
  options: { n: { type: "string", default: "5000" }, proposals: { type: "string", default: "200" }, queries: { type: "string", default: "200" } },
});
const N = Number(flags.n);
const P = Number(flags.proposals);
const Q = Number(flags.queries);

let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};
const WORDS = "ledger payment invoice backup server rotation password wifi deploy window region cluster queue worker token budget report audit policy vendor contract renewal incident pager escalation runbook schedule migration database replica index cache latency".split(" ");
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const rows: [string, string, string, string][] = [];
const record = (name: string, samples: number[], note = "") =>
  rows.push([name, pct(samples, 50).toFixed(2), pct(samples, 95).toFixed(2), note]);
const time = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
};

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-gov-"));
const dbPath = join(dir, "bench.db");
const open = () => openMemory(parseConfig({ CAIRN_DB_PATH: dbPath, CAIRN_MAX_DOCS: "1000000" }), { rssBytes: () => process.memoryUsage().rss });

// Seed N chunks directly (5% near-duplicate pairs, 2,000 carrying a subject's email).
let memory: Memory = await open();
await memory.close();
const c = createClient({ url: `file:${dbPath}` });
const stmts: InStatement[] = [];
for (let i = 0; i < N; i++) {
  const base = `${sentence(12)} item ${i}`;
  const text = i < 2000 ? `${base} contact subject@example.org` : base;
  stmts.push({ sql: "INSERT INTO chunks (title, content, domain, content_hash, source, confidence, created_at) VALUES (?, ?, 'global', ?, 'structured', 1, ?)", args: [`t${i}`, text, `seed${i}`, new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString()] });
  if (i % 20 === 0) stmts.push({ sql: "INSERT INTO chunks (title, content, domain, content_hash, source, confidence, created_at) VALUES (?, ?, 'global', ?, 'structured', 1, ?)", args: [`t${i}`, `${base} again`, `dup${i}`, new Date(Date.UTC(2025, 0, 2) + i * 1000).toISOString()] });
}
await c.batch(stmts, "write");
c.close();
memory = await open();

const filed: number[] = [];
const fileTimes: number[] = [];
for (let i = 0; i < P; i++) {
  const [ms, r] = await time(() => memory.review.propose({ content: `proposal ${i}: ${sentence(15)}` }));
  fileTimes.push(ms);
  filed.push(r.id);
}
record("file proposal", fileTimes, `${P} proposals`);
const views = await memory.review.list({ status: "pending", limit: 500 });
const approveTimes: number[] = [];
for (const v of views.slice(0, P)) approveTimes.push((await time(() => memory.review.approve(v.id, { digest: v.content_digest })))[0]);
record("approve proposal", approveTimes, "digest check + promotion + audit, one transaction");

const [proposeMs, proposed] = await time(() => memory.consolidate.propose({}));
rows.push(["consolidate/propose", proposeMs.toFixed(0), "", `${N + P} chunks → ${proposed.proposed.length} links`]);
for (const l of proposed.proposed.filter((_, i) => i % 2 === 0)) await memory.consolidate.approve({ id: l.id });

const allIds = Array.from({ length: N }, (_, i) => i + 1);
const sources = {
  store: dbTemporalSource(memory.db.client),
  cached: cachedTemporalSource(memory.db.client, (id) => memory.recallEngine.index.labels.get(id)),
};
for (const [name, src] of Object.entries(sources)) {
  const filterTimes: number[] = [];
  for (let q = 0; q < Q; q++) {
    const ids = Array.from({ length: 100 }, () => allIds[Math.floor(rand() * allIds.length)]);
    filterTimes.push((await time(() => temporalFilter(src, ids, { includeDecayed: false, nowMs: Date.now() })))[0]);
  }
  record(`temporalFilter(100 ids), ${name} source`, filterTimes, `${proposed.proposed.length} links, half approved`);
}

const queries = Array.from({ length: Q }, () => sentence(3));
const recallTimes: number[] = [];
for (const q of queries) recallTimes.push((await time(() => memory.recall({ query: q, limit: 10 })))[0]);
record("recall (with temporal filter)", recallTimes, "lexical only, no embedder");
memory.recallEngine.setTemporalFilter(async () => ({ drop: new Set(), conflict: new Set(), decayed: new Set() }));
const bareTimes: number[] = [];
for (const q of queries) bareTimes.push((await time(() => memory.recall({ query: q, limit: 10 })))[0]);
record("recall (no-op filter)", bareTimes, "");

const [dsarMs, d] = await time(() => memory.erasure.dsar({ email: "subject@example.org" }));
rows.push(["dsar (locate+export+purge+cert)", dsarMs.toFixed(0), "", `${d.certificate!.erased.chunk_ids.length} chunks`]);
const [verifyMs, v] = await time(() => memory.audit.verify());
rows.push(["audit/verify", verifyMs.toFixed(0), "", `${v.rows} rows, ok=${v.ok}`]);
const [certMs, cv] = await time(() => memory.erasure.verify(d.certificate));
rows.push(["certificate verify", certMs.toFixed(0), "", `valid=${cv.valid}`]);
await memory.close();
rmSync(dir, { recursive: true, force: true });

console.log(`| step | p50 ms | p95 ms | note |\n|---|---|---|---|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
