/**
 * Edges from markdown (SPEC §2.6 edge sources 1–3, §4.2 `/ingest/markdown`):
 * annotations, front matter tags and aliases, nested headings and the
 * linker's verb patterns, each recorded with its source and the chunk it
 * came from, through the real markdown door and store.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

type EdgeRow = { from: string; type: string; to: string; source: string; chunk: number | null };
async function edges(): Promise<EdgeRow[]> {
  const rs = await t.memory.db.client.execute(`SELECT f.display_name AS f, r.type, t.display_name AS t, r.edge_source, r.chunk_id
    FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id ORDER BY r.id`);
  return rs.rows.map((r) => ({ from: String(r.f), type: String(r.type), to: String(r.t), source: String(r.edge_source), chunk: r.chunk_id === null ? null : Number(r.chunk_id) }));
}
const key = (e: EdgeRow) => `${e.from} -${e.type}-> ${e.to} [${e.source}]`;

const NOTE = [
  "---",
  "tags: [service, payments]",
  "aliases: [Ledger Service]",
  "---",
  "# Ledger",
  "",
  "Ledger depends on Granite. Night Owls is on call for Ledger.",
  "[[Owned By::Payments Team]]",
  "",
  "```",
  "[[uses::Not An Edge]] and Foo depends on Bar",
  "```",
  "",
  "## Storage",
  "",
  "Balances are derived from journal lines. " + "Padding text keeps this section its own chunk. ".repeat(24),
  "",
  "### Replicas",
  "",
  "Granite replicates to Dublin. " + "More padding for a separate chunk. ".repeat(30),
].join("\n");

describe("POST /ingest/markdown builds the graph", () => {
  it("records every edge source with the chunk it came from", async () => {
    const res = await (await t.req("POST", "/ingest/markdown", { title: "Ledger", content: NOTE })).json();
    expect(res.status).toBe("created");
    expect(res.chunks.length).toBeGreaterThanOrEqual(3);
    const got = await edges();
    const chunkOf = (heading: string) => res.chunks.find((c: { heading_path: string[] }) => c.heading_path.at(-1) === heading).id;
    const expected: [string, number][] = [
      ["Ledger -tagged_with-> service [frontmatter]", res.chunks[0].id],
      ["Ledger -tagged_with-> payments [frontmatter]", res.chunks[0].id],
      ["Ledger Service -alias_of-> Ledger [frontmatter]", res.chunks[0].id],
      ["Ledger -owned_by-> Payments Team [annotation]", chunkOf("Ledger")],
      // Heading entities are scoped to their note (issue 22 item 4).
      ["Ledger - Storage -part_of-> Ledger [heading]", chunkOf("Storage")],
      ["Ledger - Replicas -part_of-> Ledger - Storage [heading]", chunkOf("Replicas")],
      ["Ledger -depends_on-> Granite [linker]", chunkOf("Ledger")],
      ["Night Owls -on_call_for-> Ledger [linker]", chunkOf("Ledger")],
    ];
    expect(got.map(key).sort()).toEqual(expected.map(([k]) => k).sort());
    for (const [k, chunk] of expected) expect(got.find((e) => key(e) === k)!.chunk, k).toBe(chunk);
    expect(res).toMatchObject({ relationsAdded: expected.length });
    // Entities are lowercased internally and typed where the source says what they are.
    const types = (await t.memory.db.client.execute("SELECT name, type FROM entities WHERE type IS NOT NULL ORDER BY name")).rows.map((r) => `${r.name}:${r.type}`);
    expect(types).toEqual(["ledger:note", "ledger - replicas:heading", "ledger - storage:heading", "payments:tag", "service:tag"]);
  });

  it("re-ingesting the same document writes no edges; a new note reuses existing entities", async () => {
    await t.req("POST", "/ingest/markdown", { title: "Ledger", content: NOTE });
    const before = await edges();
    const dup = await (await t.req("POST", "/ingest/markdown", { title: "Ledger", content: NOTE })).json();
    expect(dup).toMatchObject({ status: "duplicate", entitiesAdded: 0, relationsAdded: 0 });
    expect(await edges()).toEqual(before);
    await t.req("POST", "/ingest/markdown", { title: "Granite", content: "Granite is maintained by Dev Patel." });
    const ids = (await t.memory.db.client.execute("SELECT COUNT(*) AS c FROM entities WHERE name = 'granite'")).rows[0].c;
    expect(Number(ids)).toBe(1);
    expect((await edges()).map(key)).toContain("Dev Patel -maintains-> Granite [linker]");
  });

  it("relates wikilinked prose in an Obsidian note (linker edge to the linked note's entity)", async () => {
    await t.req("POST", "/ingest/markdown", { title: "Granite", content: "Replicas sit in Frankfurt.\n" });
    await t.req("POST", "/ingest/markdown", { title: "Ledger", content: "Ledger depends on [[Granite|the primary db]].\n" });
    expect((await edges()).map(key)).toContain("Ledger -depends_on-> Granite [linker]");
    const r = await (await t.req("GET", "/graph/relations?from=ledger&to=granite")).json();
    expect(r.relations.map((e: { relation: string }) => e.relation)).toEqual(["depends_on"]);
    expect(Number((await t.memory.db.client.execute("SELECT COUNT(*) AS c FROM entities WHERE name = 'granite'")).rows[0].c)).toBe(1);
  });

  it("links each chunk to its note, its headings, its edges and the known entities it mentions", async () => {
    await t.req("POST", "/ingest", { title: "x", content: "x", entities: [{ name: "Dublin" }] });
    const res = await (await t.req("POST", "/ingest/markdown", { title: "Ledger", content: NOTE })).json();
    const replicas = res.chunks.find((c: { heading_path: string[] }) => c.heading_path.at(-1) === "Replicas").id;
    const rs = await t.memory.db.client.execute({ sql: `SELECT e.display_name AS n, l.subject FROM entity_chunks l JOIN entities e ON e.id = l.entity_id WHERE l.chunk_id = ? ORDER BY e.name`, args: [replicas] });
    expect(rs.rows.map((r) => `${r.n}:${r.subject}`)).toEqual(["Dublin:0", "Granite:0", "Ledger:1", "Ledger - Replicas:1", "Ledger - Storage:1"]);
    // Deleting the chunk drops its links (a trigger), not its edges.
    const edgesBefore = (await edges()).length;
    await t.req("DELETE", `/memory/${replicas}`);
    expect(Number((await t.memory.db.client.execute({ sql: "SELECT COUNT(*) AS c FROM entity_chunks WHERE chunk_id = ?", args: [replicas] })).rows[0].c)).toBe(0);
    expect((await edges()).length).toBe(edgesBefore);
  });
});
