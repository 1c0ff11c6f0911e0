/**
 * Load check of the per-IP budget (SPEC §8), run with
 * `npx tsx bench/rate-limit-load.ts`. Boots the real server on 127.0.0.1
 * (port 0, temp libSQL file, default budget 10,000 per 60 s), then:
 *
 * - client A, bound to source address 127.0.0.1, sends 12,000 `GET /health`
 *   requests over 16 keep-alive connections, stopping at 60 s at the latest
 *   (as fast as it can, or evenly over 55 s with `--paced`);
 * - client B, bound to source address 127.0.0.2 (another address on the
 *   loopback range), sends one request every 50 ms meanwhile and for 2 s
 *   after A is done.
 *
 * Prints how many of A's requests were served (expected: exactly the budget)
 * and B's latency and status while A floods. All traffic stays on loopback;
 * loops are bounded in count and time.
 */
import { Agent, request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootServer } from "../src/server.ts";

const TOTAL = 12_000;
const CONCURRENCY = 16;
const HARD_STOP_MS = 60_000;
// `--paced`: spread A's 12,000 requests evenly over 55 s instead of sending them as fast as possible,
// so the budget is shown to hold across (almost) the whole window, not only in a burst.
const PACED = process.argv.includes("--paced");
const PACE_MS = 55_000 / TOTAL;

function get(agent: Agent, port: number, localAddress: string, path = "/health"): Promise<{ status: number; ms: number; body: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent, localAddress }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, body }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      errors.set(e.code ?? e.message, (errors.get(e.code ?? e.message) ?? 0) + 1);
      resolve({ status: 0, ms: performance.now() - t0, body: "" });
    });
    req.end();
  });
}

/** Transport errors by code (a refused or reset connection is a failure, not a crash of the check). */
const errors = new Map<string, number>();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const f = (x: number) => x.toFixed(2);

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-rl-"));
const booted = await bootServer({ CAIRN_DB_PATH: join(dir, "bench.db"), CAIRN_EMBED_KIND: "none" }, 0);
const port = booted.server.port;
const agentA = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const agentB = new Agent({ keepAlive: true, maxSockets: 1 });

const a = { served: 0, limited: 0, other: 0, badBody: 0, servedMs: [] as number[], limitedMs: [] as number[] };
const b = { served: 0, failed: 0, ms: [] as number[] };
let sent = 0;
let aDone = false;
const t0 = performance.now();

const floodWorker = async () => {
  while (sent < TOTAL && performance.now() - t0 < HARD_STOP_MS) {
    const slot = sent++;
    if (PACED) {
      const wait = t0 + slot * PACE_MS - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    const r = await get(agentA, port, "127.0.0.1");
    if (r.status === 200) {
      a.served++;
      a.servedMs.push(r.ms);
    } else if (r.status === 429) {
      a.limited++;
      a.limitedMs.push(r.ms);
      if (r.body !== '{"error":"rate_limited","code":"rate_limited"}') a.badBody++;
    } else a.other++;
  }
};

const probe = async () => {
  let stopAt = Infinity;
  while (performance.now() < stopAt && performance.now() - t0 < HARD_STOP_MS + 5_000) {
    const r = await get(agentB, port, "127.0.0.2");
    if (r.status === 200) b.served++;
    else b.failed++;
    b.ms.push(r.ms);
    if (aDone && stopAt === Infinity) stopAt = performance.now() + 2_000;
    await new Promise((res) => setTimeout(res, 50));
  }
};

const probing = probe();
await Promise.all(Array.from({ length: CONCURRENCY }, floodWorker));
const floodMs = performance.now() - t0;
aDone = true;
await probing;

// Read the server's own counters from the address that is still within its budget.
const metrics = (await get(agentB, port, "127.0.0.2", "/metrics")).body;
agentA.destroy();
agentB.destroy();
await booted.close();
rmSync(dir, { recursive: true, force: true });

console.log(`\nPer-IP budget load check (SPEC §8: 10,000 requests per 60 s per client), ${PACED ? "paced over 55 s" : "burst"}\n`);
console.log("| client | source | sent | 200 | 429 | other | p50 ms | p95 ms | max ms |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
console.log(`| A (flood), served | 127.0.0.1 | ${sent} | ${a.served} | | ${a.other} | ${f(pct(a.servedMs, 50))} | ${f(pct(a.servedMs, 95))} | ${f(Math.max(...a.servedMs))} |`);
console.log(`| A (flood), refused | 127.0.0.1 | | | ${a.limited} | | ${f(pct(a.limitedMs, 50))} | ${f(pct(a.limitedMs, 95))} | ${f(Math.max(...a.limitedMs))} |`);
console.log(`| B (probe) | 127.0.0.2 | ${b.ms.length} | ${b.served} | 0 | ${b.failed} | ${f(pct(b.ms, 50))} | ${f(pct(b.ms, 95))} | ${f(Math.max(...b.ms))} |`);
console.log(`\nflood wall time ${(floodMs / 1000).toFixed(1)} s (${Math.round(sent / (floodMs / 1000))} req/s); 429 bodies not exactly {error, code}: ${a.badBody}`);
console.log(`served to A: ${a.served} (budget 10000) -> ${a.served === 10_000 ? "exactly the budget" : "NOT the budget"}; B refused: ${b.failed}`);
console.log(`transport errors: ${errors.size ? [...errors].map(([k, v]) => `${k} ${v}`).join(", ") : "none"}`);
console.log(metrics.split("\n").filter((l) => /^cairn_rate_limited_total|^cairn_rate_limit_buckets|^brain_rss_mib/.test(l)).join("\n"));
