/**
 * SPEC §2.2–2.4: a hit's `source` says how it was found, and its provenance carries the rank of every leg that
 * found it. Over the graph-eval vault's multi-hop questions (where the graph leg and the PRF-expanded pass both
 * fire), every label must agree with the ranks, and a `source` filter must return exactly the hits whose provenance
 * names that leg.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VAULT_DIR } from "../../fixtures/graph-eval/load-vault.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
const questions = (JSON.parse(readFileSync(join(VAULT_DIR, "..", "questions.json"), "utf8")) as { questions: { question: string }[] }).questions;

beforeAll(async () => {
  t = await openTestMemory();
  for (const f of readdirSync(VAULT_DIR).filter((x) => x.endsWith(".md")).sort()) {
    const r = await t.req("POST", "/ingest/markdown", { title: f.replace(/\.md$/, ""), content: readFileSync(join(VAULT_DIR, f), "utf8") });
    expect(r.status).toBe(200);
  }
}, 240_000);
afterAll(async () => { await t.close(); });

type Hit = { id: number; source: string; provenance: Record<string, unknown> };
const recall = async (body: Record<string, unknown>): Promise<Hit[]> => {
  const r = await t.req("POST", "/recall", { limit: 10, provenance: true, abstain: false, ...body });
  expect(r.status).toBe(200);
  return (await r.json()).hits as Hit[];
};

describe("source labels say how each hit was found", () => {
  it("labels agree with the ranks in provenance, and each leg filter returns the hits that leg found", async () => {
    const bad: string[] = [];
    let graphHits = 0, prfHits = 0;
    for (const { question } of questions) {
      const hits = await recall({ query: question });
      for (const h of hits) {
        const p = h.provenance;
        const lexical = p.fts_rank !== undefined || p.prf_rank !== undefined;
        const vector = p.vector_rank !== undefined;
        const expected = vector && lexical ? "both" : vector ? "vector" : p.fts_rank !== undefined ? "fts" : p.graph_rank !== undefined ? "graph" : lexical ? "fts" : "none";
        if (h.source !== expected) bad.push(`${question} #${h.id}: ${h.source} vs ranks ${JSON.stringify({ v: p.vector_rank, f: p.fts_rank, prf: p.prf_rank, g: p.graph_rank })}`);
        if (h.source === "fts" && p.fts_rank === undefined && p.prf_rank === undefined) bad.push(`${question} #${h.id}: fts without a lexical rank`);
        if (p.graph_rank !== undefined) graphHits++;
        if (p.prf_rank !== undefined) prfHits++;
      }
      for (const leg of ["graph", "fts", "vector"] as const) {
        const filtered = await recall({ query: question, source: leg });
        const rankOf = (h: Hit) => (leg === "fts" ? h.provenance.fts_rank ?? h.provenance.prf_rank : h.provenance[`${leg}_rank`]);
        for (const h of filtered) if (rankOf(h) === undefined) bad.push(`${question} source=${leg} returned #${h.id} (${h.source}) without a ${leg} rank`);
      }
    }
    expect(graphHits).toBeGreaterThan(0);
    expect(prfHits).toBeGreaterThan(0);
    expect(bad).toEqual([]);
  }, 240_000);
});
