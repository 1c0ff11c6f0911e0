// The query half of `bench/fts5.ts`, in a fresh plain-Node process (no TypeScript loader, no corpus in memory),
// as Cairn's bench restarts its server before the queries: argv = database file, JSON file of FTS5 MATCH
// expressions (warm-up first). Prints {p50, p95, p99, rssMb, peakRssMb}.
import { createClient } from "@libsql/client";
import { readFileSync } from "node:fs";

const [dbFile, matchFile, warm] = process.argv.slice(2);
const all = JSON.parse(readFileSync(matchFile, "utf8"));
const client = createClient({ url: `file:${dbFile}`, intMode: "number" });
const sql = "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 2.0, 1.0) LIMIT 5";
const times = [];
for (let i = 0; i < all.length; i++) {
  const t = performance.now();
  if (all[i]) await client.execute({ sql, args: [all[i]] });
  if (i >= Number(warm)) times.push(performance.now() - t);
}
client.close();
const pct = (p) => {
  const s = [...times].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
};
const status = readFileSync("/proc/self/status", "utf8");
const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
console.log(JSON.stringify({ p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), rssMb: Math.round(kb("VmRSS") / 1024), peakRssMb: Math.round(kb("VmHWM") / 1024) }));
