/**
 * Calibrated abstention and the embedding-query fields (SPEC §1 abstention,
 * §4.1 `vec`, `hyde`, `intent`, `strict`), with the shipped static embedder
 * (the profile the confidence model was calibrated on) and without one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

const NOTES: [string, string][] = [
  ["Ledger service", "The ledger service settles card payments nightly at 02:00 UTC and writes a reconciliation report."],
  ["On-call rotation", "The payments on-call rotation changes every Monday; escalate to the duty manager after 30 minutes."],
  ["Garden notes", "Tomatoes need deep watering twice a week during the hottest summer months."],
  ["Sourdough", "A sourdough loaf needs a mature starter, a long cold proof and a very hot oven."],
  ["Release train", "Mobile releases ship every second Thursday after the regression suite passes on the staging build."],
  ["Office move", "The Dublin office moves to the new building on Grand Canal Dock in March."],
];

// The test default is the production profile (the static embedder); `none` opts out to test the lexical model.
async function seeded(withEmbedder: boolean): Promise<TestMemory> {
  const t = await openTestMemory(withEmbedder ? {} : { CAIRN_EMBED_KIND: "none" });
  for (const [title, content] of NOTES) await t.req("POST", "/ingest", { title, content });
  return t;
}

const NONSENSE = ["xqzvbn plorktastic wub", "qwfp zxjv", "blorptangle snizzwort frumious"];

describe.each([["static embedder", true], ["no embedder (lexical profile)", false]])("abstention with %s", (_label, withEmbedder) => {
  let t: TestMemory;
  beforeAll(async () => { t = await seeded(withEmbedder as boolean); });
  afterAll(async () => { await t.close(); });
  const recall = async (body: unknown) => (await t.req("POST", "/recall", body)).json();

  it.each(NONSENSE)("answers low_confidence with no hits for nonsense: %s", async (query) => {
    const r = await recall({ query, provenance: true });
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
    expect(r.telemetry.confidence).toBeLessThan(0.16);
    expect(r.telemetry.recommendation).toBe("clarify_query");
  });

  it.each([
    ["when does the ledger settle card payments", "Ledger service"],
    ["how often should I water tomatoes", "Garden notes"],
    ["who do I escalate to on the payments rotation", "On-call rotation"],
  ])("answers an on-topic question without a decision field: %s", async (query, title) => {
    const r = await recall({ query, provenance: true });
    expect(r.decision).toBeUndefined();
    expect(r.hits[0].title).toBe(title);
    expect(r.telemetry.confidence).toBeGreaterThanOrEqual(0.16);
    const qa = r.hits[0].provenance.quality_assessment;
    expect(qa.confidence).toBe(r.telemetry.confidence);
    expect(Object.keys(qa.signals).sort()).toEqual(["agreement", "known", "lex_bigram", "lex_candidates", "lex_coverage", "query_terms", "vec_top"]);
  });
});

// SPEC §1 calibrated abstention at its edge (issue 27): queries whose confidence lands just under and just over the
// served threshold (0.16), none of them rescued by an answer guard, so a shifted threshold or a shifted model bias flips
// a decision here. The bands are part of the assertion: a query that drifts far from the edge no longer tests it.
describe("abstention at the threshold with the static embedder", () => {
  let t: TestMemory;
  beforeAll(async () => { t = await seeded(true); });
  afterAll(async () => { await t.close(); });
  const recall = async (query: string) => (await t.req("POST", "/recall", { query, provenance: true })).json();

  it.each(["dock workers strike", "release notes", "mobile phone", "night shift"])("abstains just under the threshold: %s", async (query) => {
    const r = await recall(query);
    expect(r.telemetry.confidence).toBeGreaterThanOrEqual(0.12);
    expect(r.telemetry.confidence).toBeLessThan(0.16);
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
  });

  it.each([
    ["bread", "Sourdough"],
    ["weekly watering schedule", "Garden notes"],
    ["tomato soup recipe", "Garden notes"],
  ])("answers just over the threshold: %s", async (query, title) => {
    const r = await recall(query);
    expect(r.telemetry.confidence).toBeGreaterThanOrEqual(0.16);
    expect(r.telemetry.confidence).toBeLessThan(0.2);
    expect(r.decision).toBeUndefined();
    expect(r.hits[0].title).toBe(title);
    expect(r.hits[0].provenance.quality_assessment.answer_guard).toBeUndefined();
  });
});

describe("abstention at the threshold with the lexical profile", () => {
  let t: TestMemory;
  beforeAll(async () => { t = await seeded(false); });
  afterAll(async () => { await t.close(); });

  it.each(["Dublin weather", "mature cheese", "what happens on Monday"])("abstains just under the threshold: %s", async (query) => {
    const r = await (await t.req("POST", "/recall", { query, provenance: true })).json();
    expect(r.telemetry.confidence).toBeGreaterThanOrEqual(0.12);
    expect(r.telemetry.confidence).toBeLessThan(0.16);
    expect(r.decision).toBe("low_confidence");
  });
});

describe("embedding-query fields with the static embedder", () => {
  let t: TestMemory;
  beforeAll(async () => { t = await seeded(true); });
  afterAll(async () => { await t.close(); });
  const recall = async (body: unknown) => (await t.req("POST", "/recall", body)).json();

  it("embeds vec instead of the query, and hyde beats vec; intent is echoed", async () => {
    const plain = await recall({ query: "bread baking", provenance: true, intent: "cooking" });
    expect(plain.telemetry).toMatchObject({ embedding_query: "query", intent: "cooking" });
    const vec = await recall({ query: "bread baking", vec: "sourdough starter proof oven", provenance: true });
    expect(vec.telemetry.embedding_query).toBe("vec");
    const hyde = await recall({ query: "bread baking", vec: "tomatoes watering", hyde: "A sourdough loaf needs a mature starter.", provenance: true });
    expect(hyde.telemetry.embedding_query).toBe("hyde");
    // The vector leg follows the text it embedded: with hyde about sourdough its top vector hit is the loaf.
    const top = (r: { hits: { title: string; provenance: { vector_rank?: number } }[] }) => r.hits.find((h) => h.provenance.vector_rank === 0)?.title;
    expect(top(hyde)).toBe("Sourdough");
    expect(top(await recall({ query: "bread baking", vec: "tomatoes need watering in summer", provenance: true }))).toBe("Garden notes");
  });

  it("keeps a forced domain forced (strict or not) even when it has no hits", async () => {
    await t.req("POST", "/domains", { name: "empty" });
    for (const strict of [true, false]) {
      const r = await recall({ query: "ledger card payments", domain: "empty", strict });
      expect(r.hits).toEqual([]);
      expect(r.domain).toBe("empty");
    }
    expect((await recall({ query: "ledger card payments" })).hits[0].title).toBe("Ledger service");
  });
});
