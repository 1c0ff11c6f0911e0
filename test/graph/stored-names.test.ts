/**
 * Issue 22 item 3: the SPEC §2.6 name pattern governs *input* entities; a
 * read of a name markdown ingest stored finds it (404 only when unknown),
 * whatever its script or punctuation.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

const DOC = `---
title: Trip notes
tags: [Zürich, Node.js]
aliases: [Reise]
---
# Trip notes

Met Tanaka in Zürich. [[works_at::O'Reilly Media]] [[uses::C++]] [[located_in::東京]] [[met::Zoë Ågren]]
`;

const get = (name: string) => t.req("GET", `/graph/entity/${encodeURIComponent(name)}`);

describe("graph reads of names ingest created", () => {
  it.each(["Zürich", "zürich", "Node.js", "C++", "O'Reilly Media", "東京", "Zoë Ågren"])("GET /graph/entity/%s finds the stored entity", async (name) => {
    expect((await t.req("POST", "/ingest/markdown", { content: DOC, title: "Trip notes" })).status).toBe(200);
    const res = await get(name);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.relations.length).toBeGreaterThan(0);
    expect(body.relations.some((r: { from: { name: string } }) => r.from.name === "Trip notes")).toBe(true);
  });

  it("keeps the script of a name: Zürich is stored as Zürich, 東京 is kept", async () => {
    await t.req("POST", "/ingest/markdown", { content: DOC, title: "Trip notes" });
    expect((await (await get("Zürich")).json()).entity.name).toBe("Zürich");
    expect((await (await get("東京")).json()).entity.name).toBe("東京");
  });

  it("relations and traverse accept the same names; an unknown name is 404, a blank one 400", async () => {
    await t.req("POST", "/ingest/markdown", { content: DOC, title: "Trip notes" });
    const rel = await t.req("GET", `/graph/relations?from=${encodeURIComponent("Trip notes")}&to=${encodeURIComponent("O'Reilly Media")}`);
    expect(rel.status).toBe(200);
    expect((await rel.json()).relations.map((r: { relation: string }) => r.relation)).toEqual(["works_at"]);
    const tr = await t.req("GET", `/graph/traverse?start=${encodeURIComponent("Zürich")}&max_depth=1`);
    expect(tr.status).toBe(200);
    const unknown = await get("Île-de-France");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("not_found");
    const blank = await get("   ");
    expect(blank.status).toBe(400);
    expect((await blank.json()).error.code).toBe("name_invalid");
  });

  it("structured input keeps the SPEC §2.6 pattern", async () => {
    const res = await t.req("POST", "/ingest", { title: "t", content: "x", entities: [{ name: "Zürich" }] });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("name_invalid");
  });
});
