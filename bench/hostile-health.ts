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
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cases as aliasBombs } from "../test/hardening/corpus/alias-bombs.ts";
import { cases as compression } from "../test/hardening/corpus/compression.ts";
import { cases as markdown } from "../test/hardening/corpus/markdown.ts";
import { cases as nesting } from "../test/hardening/corpus/nesting.ts";
import { cases as patterns } from "../test/hardening/corpus/patterns.ts";
import { cases as textFields } from "../test/hardening/corpus/text-fields.ts";
import type { HostileCase } from "../test/hardening/corpus/types.ts";
import { caseRequester, inFlight as sendInFlight } from "../test/hardening/_in-flight.ts";
import { prose } from "../test/_helpers/prose.ts";
import { spawnServe } from "../test/_helpers/serve.ts";

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

interface Served { base: string; stop(): Promise<void>; dir: string }

async function serve(env: Record<string, string>): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-hostile-"));
  const s = await spawnServe({
    CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_EMBED_KIND: args.embed!, CAIRN_RATE_LIMIT_MAX: "100000000", ...env,
  }, { nodeArgs: ["--max-semi-space-size=4"], stderr: "inherit", bootTries: 1200 });
  return { base: s.base, stop: s.stop, dir };
}

async function stop(s: Served): Promise<void> {
  await s.stop();
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

/** Sends one request while polling /health on fresh connections; the answer, its time and the worst /health latency. */
const inFlight = (base: string, send: () => Promise<Response>) => sendInFlight(send, () => health(base), 2);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (xs: number[]) => xs.length === 1 ? `${xs[0]!.toFixed(0)}` : `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

async function corpus(): Promise<void> {
  const s = await serve({});
  const requester = caseRequester(() => s.base);
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
