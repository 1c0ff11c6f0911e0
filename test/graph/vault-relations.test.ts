/**
 * Issue 22 item 4: a Basic Memory-style vault. `- relation_type [[Target]]`
 * list items give typed edges (beside `[[relation::entity]]`), observation
 * lines `- [category] text #tag` tag their note, heading entities are scoped
 * to their document (a boilerplate "Observations" heading joins nothing),
 * and the graph leg and PRF add no hit that shares only a tag or a heading
 * word with what the query matched.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGraphLeg } from "../../src/graph/graph-leg.ts";
import { expansionWords } from "../../src/recall/prf.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

const person = (name: string, tag: string, lines: string[]) => `---
title: ${name}
type: person
tags:
- person
- ${tag}
---

# ${name}

## Observations
${lines.join("\n")}

## Relations
`;

const ALICE = person("Alice Moreau", "climbing", ["- [role] Structural engineer for footbridges #bridges", "- [fact] Keeps bees on the roof"]) +
  "- works_at [[Arcwell Studio]]\n- lives_in [[Lyon]] (since 2019)\n";
const BOB = person("Bob Tanner", "climbing", ["- [role] Pastry chef at a night bakery #baking", "- [fact] Restores vintage mopeds"]) + "- lives_in [[Leeds]]\n";
const ARCWELL = "---\ntitle: Arcwell Studio\ntags: [organization]\n---\n\n# Arcwell Studio\n\nDesign office for pedestrian crossings.\n\n## Observations\n- [fact] Ten staff in a former tram depot\n";

async function ingest(title: string, content: string): Promise<number> {
  const r = await (await t.req("POST", "/ingest/markdown", { title, content })).json();
  return r.chunks[0].id;
}
async function edges(): Promise<string[]> {
  const rs = await t.memory.db.client.execute(`SELECT f.display_name AS f, r.type, t.display_name AS t, r.edge_source AS s
    FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id WHERE r.superseded_at IS NULL ORDER BY r.id`);
  return rs.rows.map((r) => `${r.f} -${r.type}-> ${r.t} [${r.s}]`);
}

describe("Basic Memory vault notes make a graph", () => {
  it("relation list items give typed edges; observation #tags tag the note", async () => {
    await ingest("Alice Moreau", ALICE);
    const got = await edges();
    expect(got).toContain("Alice Moreau -works_at-> Arcwell Studio [annotation]");
    expect(got).toContain("Alice Moreau -lives_in-> Lyon [annotation]");
    expect(got).toContain("Alice Moreau -tagged_with-> bridges [annotation]");
    expect(got.some((e) => e.includes("-role->") || e.includes("[role]"))).toBe(false);
  });

  it("a generic heading is one entity per document, never a hub joining unrelated notes", async () => {
    await ingest("Alice Moreau", ALICE);
    await ingest("Bob Tanner", BOB);
    const rs = await t.memory.db.client.execute(`SELECT e.display_name AS name, COUNT(DISTINCT l.chunk_id) AS chunks FROM entities e
      JOIN entity_chunks l ON l.entity_id = e.id WHERE lower(e.display_name) LIKE '%observations%' GROUP BY e.id`);
    expect(rs.rows.length).toBe(2);
    for (const r of rs.rows) expect(Number(r.chunks)).toBe(1);
  });
});

describe("the graph leg and PRF do not pad with notes that share only a tag or a heading", () => {
  it("from Alice's note the leg reaches her employer, not Bob who shares a tag and the headings", async () => {
    const alice = await ingest("Alice Moreau", ALICE);
    const bob = await ingest("Bob Tanner", BOB);
    const arcwell = await ingest("Arcwell Studio", ARCWELL);
    const model = t.memory.graph.model;
    await model.sync(t.memory.db);
    const r = runGraphLeg(model, { query: "footbridge engineer", seedChunkIds: [alice], filter: () => true, limit: 10 });
    expect(r.ids).toContain(arcwell);
    expect(r.ids).not.toContain(bob);
  });

  it("PRF draws no expansion word from tags, categories or headings the feedback notes share", () => {
    const words = expansionWords(undefined as never, ["bridge"], [ALICE, BOB], 10);
    for (const w of ["person", "climbing", "observations", "relations", "role", "fact"]) expect(words).not.toContain(w);
  });
});

describe("the graph leg does not outweigh answers the other legs already found (issue 22)", () => {
  it("a relational question weighs the leg fully only while an answer is missing from the fused top", async () => {
    const alice = await ingest("Alice Moreau", ALICE);
    const bob = await ingest("Bob Tanner", BOB);
    const arcwell = await ingest("Arcwell Studio", ARCWELL);
    const model = t.memory.graph.model;
    await model.sync(t.memory.db);
    const ask = (seedChunkIds: number[]) => runGraphLeg(model, { query: "Who works at Arcwell Studio?", seedChunkIds, filter: () => true, limit: 10 });
    const missing = ask([arcwell, bob]);
    expect(missing.relational).toBe(true);
    expect(missing.weight).toBe(2);
    expect(missing.ids[0]).toBe(alice);
    const found = ask([alice, arcwell]);
    expect(found.relational).toBe(true);
    expect(found.weight).toBe(0.5);
  });
});
