/**
 * UMP operation costs on a keyed store (signing on every write, native
 * Ed25519 verification before every emit), over the real HTTP app with a
 * capability token: remember, get, recall (limit 10), revise, and a full
 * export / import of the store as `*.ump.json` and `*.ump.md`. Prints wall
 * p50/p95 per operation and the file-binding throughput as a table; no
 * assertion (STYLE rule 16).
 *
 *   npx tsx scripts/bench-ump.ts [--n 500] [--embed none|static]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseConfig } from "../src/config/parse-config.ts";
import { createApp } from "../src/http/app.ts";
import { openMemory } from "../src/memory.ts";
import { loadEmbedder } from "../src/runtime/model-loader.ts";
import { dirKeyring } from "../src/runtime/ump-keyring.ts";
import { mintToken } from "../src/ump/capability-token.ts";

const { values: flags } = parseArgs({ options: { n: { type: "string", default: "500" }, embed: { type: "string", default: "static" } } });
const n = Number(flags.n);
const dir = mkdtempSync(join(tmpdir(), "cairn-bench-ump-"));
const keyring = dirKeyring(join(dir, "keys"));
const { seed } = await keyring.generate();
const config = parseConfig({ CAIRN_DB_PATH: join(dir, "b.db"), CAIRN_EMBED_KIND: flags.embed! });
const memory = await openMemory(config, { rssBytes: () => process.memoryUsage().rss, embedder: await loadEmbedder(config), umpKey: () => keyring.currentSync() });
const app = createApp(memory, { openapiYaml: "" });
const token = mintToken(seed, { verbs: ["read", "write", "export"], scope: {}, ttl: "1h", now: new Date() });
const call = async (method: string, path: string, body?: unknown, type = "application/json") => {
  const res = await app.request(path, { method, headers: { "content-type": type, authorization: `Bearer ${token}` }, body: typeof body === "string" ? body : body === undefined ? undefined : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
};
const topics = ["deploy", "backup", "rotation", "cache", "billing", "oncall", "kafka", "postgres", "ingress", "quota"];
const text = (i: number) => `Memory ${i}: the ${topics[i % 10]} runbook says step ${i % 7} uses ${topics[(i * 3) % 10]} and ${topics[(i * 7) % 10]}.`;

const timings: Record<string, number[]> = { remember: [], get: [], recall: [], revise: [] };
const ids: string[] = [];
const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const out = await fn();
  timings[name].push(performance.now() - t0);
  return out;
};
for (let i = 0; i < n; i++) {
  const r = await time("remember", async () => (await call("POST", "/ump/remember", { kind: "semantic", body: { text: text(i) }, scope: { project: `p${i % 5}` } })).json());
  ids.push(r.id);
}
for (let i = 0; i < 200; i++) await time("get", () => call("GET", `/ump/memory/${ids[(i * 37) % ids.length]}`));
for (let i = 0; i < 200; i++) await time("recall", () => call("POST", "/ump/recall", { query: `${topics[i % 10]} runbook step`, limit: 10 }));
for (let i = 0; i < 100; i++) await time("revise", () => call("POST", "/ump/revise", { id: ids[i], patch: { body: { text: `${text(i)} (revised)` } } }));

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const rows = Object.entries(timings).map(([k, xs]) => `| ${k} | ${xs.length} | ${pct(xs, 0.5).toFixed(2)} | ${pct(xs, 0.95).toFixed(2)} |`);
console.log(`UMP over HTTP (keyed, capability token, ${n} records, embed ${flags.embed})\n\n| operation | calls | p50 ms | p95 ms |\n|---|---|---|---|\n${rows.join("\n")}`);

const file: string[] = [];
for (const format of ["ump", "ump-md"]) {
  let t0 = performance.now();
  const body = await (await call("GET", `/export?format=${format}`)).text();
  const exportMs = performance.now() - t0;
  const target = await openMemory(parseConfig({ CAIRN_DB_PATH: join(dir, `t-${format}.db`), CAIRN_EMBED_KIND: flags.embed! }), {
    rssBytes: () => process.memoryUsage().rss, embedder: await loadEmbedder(config), umpKey: () => keyring.currentSync(),
  });
  const targetApp = createApp(target, { openapiYaml: "" });
  t0 = performance.now();
  const res = await targetApp.request(`/ingest?format=${format}`, { method: "POST", headers: { "content-type": format === "ump" ? "application/json" : "text/markdown", authorization: `Bearer ${token}` }, body });
  const imported = await res.json();
  const importMs = performance.now() - t0;
  // An import past the 30 s request deadline answers 503; `cairn ump import` has no deadline.
  const created = res.status === 200 ? String(imported.created) : `${res.status} ${imported.error?.code}`;
  file.push(`| ${format} | ${created} | ${(body.length / 1048576).toFixed(2)} | ${exportMs.toFixed(0)} | ${importMs.toFixed(0)} |`);
  await target.close();
}
console.log(`\nFile binding (export from the store above, import into a fresh keyed store)\n\n| format | records | MiB | export ms | import ms |\n|---|---|---|---|---|\n${file.join("\n")}`);
await memory.close();
rmSync(dir, { recursive: true, force: true });
