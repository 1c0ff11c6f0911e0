/**
 * Property-based fuzzing of every route (issue 23 §6). For each endpoint the
 * app registers, fast-check generates path parameters, query strings, body
 * types and bodies (from the route's declared schema where the OpenAPI
 * document has one, generically otherwise) and asserts what a client must be
 * able to rely on: never a 500, always the SPEC §7 envelope on a non-2xx
 * (except the bare 413 and 429), X-Api-Version on every response, nothing
 * written on a refusal, and `check-consistency` clean at the end.
 * `npm test` runs a bounded number of cases per route; `npm run fuzz` sets
 * CAIRN_FUZZ_RUNS for a longer run (and CAIRN_FUZZ_SEED to replay one).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isEndpointRoute } from "../../src/http/endpoint.ts";
import { fuzzRoutes, requestFor, type FuzzRequest } from "../_helpers/fuzz.ts";
import { openapiYaml, openTestMemory, type TestMemory } from "../_helpers/memory.ts";

const RUNS = Number(process.env.CAIRN_FUZZ_RUNS ?? 12);
const SEED = process.env.CAIRN_FUZZ_SEED === undefined ? undefined : Number(process.env.CAIRN_FUZZ_SEED);
// Streams that never end by design: the check would wait on them forever, so only their status is read.
const STREAMING = new Set(["GET /ump/subscribe"]);

let t: TestMemory;
beforeAll(async () => {
  t = await openTestMemory();
  // A little content, so ids and domains the generators name sometimes exist.
  for (let i = 0; i < 3; i++) await t.req("POST", "/ingest", { title: `seed ${i}`, content: `seed entry ${i} about cairns on the ridge` });
  await t.req("POST", "/ingest/proposal", { title: "p", content: "a proposal to review" });
});
afterAll(async () => { await t.close(); });

/** Row counts of every table: a refusal must leave them as they were. */
async function fingerprint(): Promise<string> {
  const tables = (await t.memory.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")).rows.map((r) => String(r.name));
  const counts: string[] = [];
  for (const name of tables) counts.push(`${name}=${(await t.memory.db.execute(`SELECT COUNT(*) AS n FROM "${name}"`)).rows[0]!.n}`);
  return counts.join(",");
}

async function send(r: FuzzRequest, streaming: boolean): Promise<{ status: number; version: string | null; text: string }> {
  const res = await t.app.request(r.path, { method: r.method, headers: r.headers, body: r.body }, { remoteAddr: "127.0.0.1" });
  if (streaming && res.status === 200) {
    await res.body?.cancel();
    return { status: res.status, version: res.headers.get("x-api-version"), text: "" };
  }
  return { status: res.status, version: res.headers.get("x-api-version"), text: await res.text() };
}

describe("every route under generated requests", () => {
  it("never answers 500, always the envelope and version header, writes nothing on a refusal", async () => {
    const endpoints = t.app.routes.filter(isEndpointRoute);
    const { routes, doc } = fuzzRoutes(endpoints, openapiYaml);
    let cases = 0;
    let schemaDriven = 0;
    for (const route of routes) {
      if (route.body) schemaDriven++;
      const key = `${route.method} ${route.pattern}`;
      await fc.assert(fc.asyncProperty(requestFor(route, doc), async (r) => {
        cases++;
        const before = await fingerprint();
        const res = await send(r, STREAMING.has(key));
        const where = `${key} → ${r.method} ${r.path.slice(0, 120)} [${r.headers["content-type"] ?? "-"}] ${typeof r.body === "string" ? r.body.slice(0, 160) : ""}`;
        expect(res.status, where).not.toBe(500);
        expect(res.status, where).toBeLessThan(600);
        expect(res.version, where).toBeTruthy();
        if (res.status >= 400 && res.status !== 413 && res.status !== 429) {
          const env = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
          expect(typeof env.error?.code, where).toBe("string");
          expect(typeof env.error?.message, where).toBe("string");
          expect(await fingerprint(), `${where}: a refusal wrote`).toBe(before);
        }
      }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
    }
    const check = await t.memory.checkConsistency();
    expect(check.checks.filter((c) => !c.ok)).toEqual([]);
    console.log(`fuzz: ${cases} cases over ${routes.length} routes (${schemaDriven} with a declared body schema), ${RUNS} per route`);
    expect(routes.length).toBeGreaterThan(40);
  }, 1_800_000);
});
