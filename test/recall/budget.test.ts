/**
 * The search budget (SPEC §1, §7): a recall that runs past
 * `CAIRN_RECALL_BUDGET_MS` answers 503 `recall_unavailable` in the error
 * envelope, and the next request is served normally. The slow stage here
 * is an opt-in cross-encoder that never answers (the rerank tier's port).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrossScorer } from "../../src/recall/ports.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
let hang = true;
const slowCrossEncoder: CrossScorer = {
  id: "never-answers",
  score: (_q, docs) => (hang ? new Promise<number[]>(() => {}) : Promise.resolve(docs.map(() => 0))),
};

beforeAll(async () => {
  t = await openTestMemory({ CAIRN_RECALL_BUDGET_MS: "300" }, { crossEncoder: slowCrossEncoder });
  await t.req("POST", "/ingest", { title: "Ledger", content: "The ledger settles card payments nightly." });
});
afterAll(async () => { await t.close(); });

describe("recall search budget", () => {
  it("answers 503 recall_unavailable when the search runs past the budget, then recovers", async () => {
    const res = await t.req("POST", "/recall", { query: "ledger payments" });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe("recall_unavailable");
    hang = false;
    const ok = await t.req("POST", "/recall", { query: "ledger payments" });
    expect(ok.status).toBe(200);
    expect((await ok.json()).hits[0].title).toBe("Ledger");
  });
});
