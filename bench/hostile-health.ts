/**
 * Hostile input against `cairn serve` (docs/limits.md "Figures: hostile input and /health"):
 * `npx tsx bench/hostile-health.ts [--reps 3] [--class markdown,alias-bombs] [--match "400 K|alias bomb"] [--embed static|none]`
 * (`--match`: cases whose name holds one of the `|`-separated strings; `--no-deadlines` skips the last part).
 *
 * Starts `cairn serve` (bin/cairn.mjs: dist/ when current, else the sources) on a temp store and port, then sends
 * each case of the hostile-input corpus (test/hardening/corpus/, heavy cases included) over loopback HTTP, one at a
 * time, while polling `GET /health` every 5 ms on fresh connections. Per case it prints the status and code, the time
 * to answer and the worst `/health` latency seen while the case was in flight: the median of `--reps` runs, with the
 * range. A case whose answer is not the one the corpus expects is marked `UNEXPECTED`. Then, on two more servers, the
 * deadlines on CPU-bound work: a 900 KB ingest under CAIRN_REQUEST_DEADLINE_MS=50 and a recall over 2,000 chunks
 * under CAIRN_RECALL_BUDGET_MS=1 (the codes, and the /health latency meanwhile).
 *
 * Figures, not assertions: the codes are asserted by the tests (test/hardening/hostile-corpus.test.ts,
 * test/hardening/deadlines.test.ts, test/parcel/snapshot-bounds.test.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cases as aliasBombs } from "../test/hardening/corpus/alias-bombs.ts";
import { cases as compression } from "../test/hardening/corpus/compression.ts";
import { cases as markdown } from "../test/hardening/corpus/markdown.ts";
import { cases as nesting } from "../test/hardening/corpus/nesting.ts";
import { cases as patterns } from "../test/hardening/corpus/patterns.ts";
import { cases as textFields } from "../test/hardening/corpus/text-fields.ts";
import type { CaseRequester, HostileCase } from "../test/hardening/corpus/types.ts";

const root = resolve(new URL("..", import.meta.url).pathname);
const { values: args } = parseArgs({
  options: {
    reps: { type: "string", default: "3" }, class: { type: "string" }, match: { type: "string" },
    embed: { type: "string", default: "static" }, "no-deadlines": { type: "boolean", default: false },
  },
});
const CLASSES: Record<string, HostileCase[]> = {
  "alias-bombs": aliasBombs, markdown, patterns, compression, nesting, "text-fields": textFields,
};
const chosenClasses = args.class ? args.class.split(",") : ["alias-bombs", "markdown", "patterns", "compression", "nesting"];
const REPS = Number(args.reps);

async function freePort(): Promise<number> {
  return await new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

interface Served { base: string; proc: ChildProcess; dir: string }

async function serve(env: Record<string, string>): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-hostile-"));
  const port = await freePort();
  const proc = spawn("node", ["--max-semi-space-size=4", join(root, "bin", "cairn.mjs"), "serve"], {
    cwd: root, stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env, BIND_PORT: String(port), CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"),
      CAIRN_EMBED_KIND: args.embed!, CAIRN_RATE_LIMIT_MAX: "100000000", ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (proc.exitCode !== null) throw new Error("cairn serve exited during boot");
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, proc, dir };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("cairn serve did not start");
}

async function stop(s: Served): Promise<void> {
  const done = new Promise<void>((r) => s.proc.once("exit", () => r()));
  s.proc.kill("SIGTERM");
  await done;
  rmSync(s.dir, { recursive: true, force: true });
}

/** One `/health` on a fresh connection (no keep-alive queueing behind the case's own socket). */
function health(base: string): Promise<number> {
  return new Promise((res, rej) => {
    const r = request(`${base}/health`, { agent: false }, (m) => {
      m.resume();
      m.on("end", () => res(m.statusCode ?? 0));
    });
    r.on("error", rej);
    r.end();
  });
}

/** Sends one request while polling /health; the answer, its time and the worst /health latency meanwhile. */
async function inFlight(base: string, send: () => Promise<Response>): Promise<{ status: number; code?: string; ms: number; worstHealthMs: number }> {
  let done = false;
  let worst = 0;
  // Every probe started while the case is in flight counts, whole (one blocked by the case ends after its answer).
  const poll = (async () => {
    await new Promise((r) => setTimeout(r, 2));
    while (!done) {
      const t0 = performance.now();
      await health(base);
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  const res = await send();
  const text = await res.text();
  const ms = performance.now() - t0;
  done = true;
  await poll;
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code, ms, worstHealthMs: worst };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (xs: number[]) => xs.length === 1 ? `${xs[0]!.toFixed(0)}` : `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

async function corpus(): Promise<void> {
  const s = await serve({});
  const requester: CaseRequester = (method, path, body, headers = {}) =>
    fetch(s.base + path, {
      method, headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  try {
    console.log(`cairn serve, CAIRN_EMBED_KIND=${args.embed}; ${REPS} run(s) per case; ms: median (min–max)`);
    console.log("class | case | answer | time to answer (ms) | worst /health in flight (ms)");
    for (const cls of chosenClasses) {
      for (const c of CLASSES[cls] ?? []) {
        if (args.match && !args.match.split("|").some((m) => c.name.includes(m))) continue;
        const ms: number[] = [];
        const worst: number[] = [];
        let answer = "";
        for (let i = 0; i < REPS; i++) {
          await c.setup?.(requester);
          const body = c.body?.();
          const headers: Record<string, string> = { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...c.headers };
          const r = await inFlight(s.base, () => fetch(s.base + c.path, { method: c.method, headers, body: body as BodyInit | undefined }));
          const expected = c.expect.status.includes(r.status) && (c.expect.code === undefined || c.expect.code === r.code);
          answer = `${r.status}${r.code ? ` ${r.code}` : ""}${expected ? "" : " UNEXPECTED"}`;
          ms.push(r.ms);
          worst.push(r.worstHealthMs);
        }
        console.log(`${cls} | ${c.name} | ${answer} | ${fmt(ms)} | ${fmt(worst)}`);
      }
    }
  } finally {
    await stop(s);
  }
}

function prose(bytes: number, seed: number): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let x = seed >>> 0;
  const next = () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join("");
    const p = next() < 0.08 ? `${w}.\n` : `${w} `;
    parts.push(p);
    n += p.length;
  }
  return parts.join("").slice(0, bytes);
}

async function deadlines(): Promise<void> {
  console.log("\ndeadlines on CPU-bound work | answer | time to answer (ms) | worst /health in flight (ms)");
  const post = (base: string, path: string, body: unknown) => () =>
    fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  {
    const s = await serve({ CAIRN_REQUEST_DEADLINE_MS: "50" });
    try {
      const ms: number[] = [];
      const worst: number[] = [];
      let answer = "";
      for (let i = 0; i < REPS; i++) {
        const r = await inFlight(s.base, post(s.base, "/ingest", { title: `big ${i}`, content: prose(900_000, i + 1) }));
        answer = `${r.status} ${r.code ?? ""}`;
        ms.push(r.ms);
        worst.push(r.worstHealthMs);
      }
      console.log(`POST /ingest 900 KB, CAIRN_REQUEST_DEADLINE_MS=50 | ${answer} | ${fmt(ms)} | ${fmt(worst)}`);
    } finally {
      await stop(s);
    }
  }
  {
    const s = await serve({ CAIRN_RECALL_BUDGET_MS: "1" });
    try {
      for (let b = 0; b < 8; b++) {
        const items = Array.from({ length: 250 }, (_, i) => ({ title: `n${b}-${i}`, content: prose(600, b * 1000 + i) }));
        const r = await post(s.base, "/ingest/batch", { items })();
        if (!r.ok) throw new Error(`seeding the recall store: ${r.status} ${await r.text()}`);
      }
      const ms: number[] = [];
      const worst: number[] = [];
      let answer = "";
      for (let i = 0; i < REPS; i++) {
        const r = await inFlight(s.base, post(s.base, "/recall", { query: prose(80, 5000 + i).replace(/[.\n]/g, " "), limit: 10 }));
        answer = `${r.status} ${r.code ?? ""}`;
        ms.push(r.ms);
        worst.push(r.worstHealthMs);
      }
      console.log(`POST /recall over 2,000 chunks, CAIRN_RECALL_BUDGET_MS=1 | ${answer} | ${fmt(ms)} | ${fmt(worst)}`);
    } finally {
      await stop(s);
    }
  }
}

await corpus();
if (!args["no-deadlines"]) await deadlines();
