/**
 * Issue 36 finding 3: in a small store of chunked markdown, the graph leg's sibling chunks of one document (they
 * share its heading entities) must not push out hits that the lexical or vector leg found, and one document keeps
 * at most three places in the head unless the question names it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
const names = new Map<number, string>();
const section = (h: string, body: string) =>
  `## ${h}\n\n${body} ${body.split(". ")[0]}, as the studio agreed at the members meeting last spring and wrote into this handbook.\n`;
const HANDBOOK = "# Studio handbook\n\nRules and routines for everyone who uses the shared pottery studio.\n\n" + [
  section("Kiln", "The kiln is loaded by the technician only. Cones are checked before every firing and the lid stays shut until the kiln is below 100 degrees."),
  section("Clay", "Reclaimed clay goes into the blue bins. Wedge it well before use and cover unfinished pieces with plastic so they dry evenly."),
  section("Wheels", "Book a wheel on the sheet by the door. Clean the splash pan and sponge the wheel head when you finish your session."),
  section("Shelves", "Each member has one shelf. Label every piece with your initials underneath; unlabelled work is recycled after two weeks."),
  section("Cleaning", "Wet-mop the floor at the end of the day. Never sweep dry clay dust, it is a health hazard in the studio."),
  section("Tools", "Shared tools hang on the pegboard. Return ribs, wires and trimming tools washed and dried after use."),
  section("Members", "New members get an induction on their first evening and a locker key from the front desk."),
  section("Opening hours", "The studio opens at 9 am on weekdays and 10 am at weekends; the last session ends at 9 pm."),
  section("Firing schedule", "Bisque firings run on Mondays and glaze firings on Thursdays; pieces must be on the firing shelf by noon."),
  section("Safety", "Wear closed shoes, tie back long hair near the wheels, and report any cracked kiln shelf to the technician."),
].join("\n");
const NOTES = [
  { title: "Crawling glaze", content: "Glaze crawling leaves bare patches where the glaze pulled back during firing. It is usually caused by dust or grease on the bisque, or by glaze applied too thickly; wipe pieces with a damp sponge before glazing." },
  { title: "Pinholes", content: "Pinholes in a fired glaze come from gas escaping the clay body; a slower bisque firing helps." },
  { title: "Shivering", content: "Shivering is glaze flaking off rims because the glaze shrinks less than the clay body." },
  { title: "Glaze recipes", content: "Our celadon and tenmoku glaze recipes are in the binder on the glaze table." },
];

beforeAll(async () => {
  t = await openTestMemory();
  const h = await (await t.req("POST", "/ingest/markdown", { title: "Studio handbook", content: HANDBOOK })).json();
  expect(h.chunks.length).toBeGreaterThan(5);
  for (const c of h.chunks) names.set(c.id, "handbook");
  for (const n of NOTES) names.set((await (await t.req("POST", "/ingest/markdown", n)).json()).id, n.title);
});
afterAll(async () => { await t.close(); });
const recall = async (query: string) =>
  ((await (await t.req("POST", "/recall", { query, limit: 10, provenance: true })).json()).hits as { id: number; source: string }[])
    .map((h) => ({ name: names.get(h.id)!, source: h.source }));

describe("the graph leg in a store of chunked documents (issue 36)", () => {
  it("never puts a graph-only sibling chunk above a hit the lexical or vector leg found", async () => {
    const hits = await recall("What causes glaze crawling in the kiln?");
    expect(hits[0].name).toBe("Crawling glaze");
    const firstGraphOnly = hits.findIndex((h) => h.source === "graph");
    const lastEvidence = hits.map((h) => h.source !== "graph").lastIndexOf(true);
    if (firstGraphOnly >= 0) expect(lastEvidence).toBeLessThan(firstGraphOnly);
    // The notes lexical and vector found (lexical 2nd–6th, vector 1st–4th) keep their places in the top ten.
    for (const n of ["Shivering", "Glaze recipes", "Pinholes"]) expect(hits.map((h) => h.name)).toContain(n);
  });

  it("gives one document at most three places before another document's hit, unless the question names it", async () => {
    const hits = await recall("What should members do after firing pieces in the studio?");
    const firstOther = hits.findIndex((h) => h.name !== "handbook");
    expect(firstOther).toBeGreaterThan(-1);
    expect(firstOther).toBeLessThanOrEqual(3);
    const named = await recall("What does the studio handbook say about firing?");
    expect(named.slice(0, 5).every((h) => h.name === "handbook")).toBe(true);
  });
});
