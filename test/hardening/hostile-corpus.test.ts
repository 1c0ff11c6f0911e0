/**
 * The hostile-input corpus (test/hardening/corpus/README.md) against a real
 * server on loopback: every case answers with its expected status and code,
 * never a 500, and `/health` answers afterwards. While each case is in
 * flight `/health` is polled; the worst latency and the time to answer are
 * printed per class (figures, not assertions: no wall-clock bound here).
 * `npm test` sends the cases that are not `heavy`; `npm run fuzz`
 * (CAIRN_FUZZ_HEAVY=1) sends every case.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParsePool } from "../../src/runtime/parse-pool.ts";
import { type RunningServer, serveFetch } from "../../src/runtime/platform.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { cases as aliasBombs } from "./corpus/alias-bombs.ts";
import { cases as compression } from "./corpus/compression.ts";
import { cases as markdown } from "./corpus/markdown.ts";
import { cases as nesting } from "./corpus/nesting.ts";
import { cases as patterns } from "./corpus/patterns.ts";
import { cases as textFields } from "./corpus/text-fields.ts";
import type { HostileCase } from "./corpus/types.ts";
import { caseRequester, type InFlight, inFlight } from "./_in-flight.ts";

const HEAVY = process.env.CAIRN_FUZZ_HEAVY === "1";
const CLASSES: Record<string, HostileCase[]> = {
  "alias-bombs": aliasBombs, markdown, patterns, "text-fields": textFields, nesting, compression,
};

let t: TestMemory;
let server: RunningServer;
let base: string;
beforeAll(async () => {
  // Lexical-only: the corpus is about parsers and validators, not embedding cost. The health poll must not be rate limited.
  // The markdown parse worker as `cairn serve` composes it (src/server.ts), so long documents are parsed off the loop.
  t = await openTestMemory({ CAIRN_EMBED_KIND: "none", CAIRN_RATE_LIMIT_MAX: "10000000" }, { parseWork: await createParsePool() });
  server = await serveFetch((req, env) => t.app.fetch(req, env), { hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const requester = caseRequester(() => base);

/** Sends one case while polling /health; the answer, its time and the worst /health latency seen meanwhile. */
async function run(c: HostileCase): Promise<InFlight> {
  await c.setup?.(requester);
  const headers: Record<string, string> = { ...(c.body ? { "content-type": "application/json" } : {}), ...c.headers };
  // Built before the clock starts: the server shares this process, so building a bomb would read as server time.
  const body = c.body?.() as BodyInit | undefined;
  return await inFlight(() => fetch(base + c.path, { method: c.method, headers, body }), async () => await (await fetch(`${base}/health`)).arrayBuffer());
}

const figures: string[] = [];

describe("the hostile-input corpus against a real server", () => {
  for (const [cls, all] of Object.entries(CLASSES)) {
    const chosen = all.filter((c) => HEAVY || !c.heavy);
    it(`${cls}: ${chosen.length} cases answer as expected, never 500, /health keeps answering`, async () => {
      expect(chosen.length).toBeGreaterThan(0);
      const times: number[] = [];
      let worstHealth = 0;
      for (const c of chosen) {
        const r = await run(c);
        const where = `${cls} / ${c.name}: ${r.status} ${r.code ?? ""}`;
        expect(r.status, where).not.toBe(500);
        expect(c.expect.status, where).toContain(r.status);
        if (c.expect.code !== undefined) expect(r.code, where).toBe(c.expect.code);
        expect((await fetch(`${base}/health`)).status, `${where}: /health after`).toBe(200);
        times.push(r.ms);
        if (process.env.CAIRN_CORPUS_VERBOSE === "1") console.log(`  ${cls} / ${c.name}: ${r.status} in ${r.ms.toFixed(0)} ms, worst /health ${r.worstHealthMs.toFixed(0)} ms`);
        worstHealth = Math.max(worstHealth, r.worstHealthMs);
      }
      times.sort((a, b) => a - b);
      const line = `${cls.padEnd(12)} ${String(chosen.length).padStart(4)} cases  answer median ${times[times.length >> 1]!.toFixed(0)} ms, ` +
        `max ${times.at(-1)!.toFixed(0)} ms  worst /health ${worstHealth.toFixed(0)} ms`;
      figures.push(line);
      console.log(`hostile corpus: ${line}`);
    }, 1_800_000);
  }

  it("the store is consistent after the whole corpus", async () => {
    const r = await t.memory.checkConsistency();
    expect(r.checks.filter((c) => !c.ok && c.name !== "clean_shutdown")).toEqual([]);
    if (figures.length) console.log(`hostile corpus (${HEAVY ? "full" : "npm test slice"}):\n${figures.join("\n")}`);
  });
});
