/**
 * The graph over HTTP (SPEC §2.6, §3, §4.2, §4.6, §7, §8): validation codes
 * on `/ingest`, the bi-temporal supersede and duplicate rules, `at` views,
 * traversal limits and `kind`, history, entity and relations routes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
let now = Date.parse("2025-01-01T00:00:00.000Z");
const tick = (ms = 60_000) => void (now += ms);

beforeEach(async () => {
  now = Date.parse("2025-01-01T00:00:00.000Z");
  t = await openTestMemory({}, { clock: () => new Date(now) });
});
afterEach(async () => { await t.close(); });

let n = 0;
const ingest = async (body: Record<string, unknown>) => t.req("POST", "/ingest", { title: "t", content: `note ${n++}`, ...body });
const json = async (res: Response | Promise<Response>) => (await res).json();
const count = async (table: string, where = "") =>
  Number((await t.memory.db.client.execute(`SELECT COUNT(*) AS c FROM ${table} ${where}`)).rows[0].c);

describe("structured ingest of entities and relations (SPEC §4.2, §7)", () => {
  it.each([
    ["empty name", { entities: [{ name: "" }] }, "name_invalid"],
    ["bad charset", { entities: [{ name: "a/b" }] }, "name_invalid"],
    ["name over 100", { entities: [{ name: "x".repeat(101) }] }, "name_invalid"],
    ["relation endpoint with bad charset", { entities: [{ name: "a" }], relations: [{ from: "a", to: "b!", type: "uses" }] }, "name_invalid"],
    ["type over 64", { entities: [{ name: "a", type: "t".repeat(65) }] }, "entity_invalid"],
    ["upper-case relation", { entities: [{ name: "a" }, { name: "b" }], relations: [{ from: "a", to: "b", type: "Uses" }] }, "relation_invalid"],
    ["relation base over 62", { entities: [{ name: "a" }, { name: "b" }], relations: [{ from: "a", to: "b", type: "r".repeat(63) }] }, "relation_invalid"],
    ["two namespaces", { entities: [{ name: "a" }, { name: "b" }], relations: [{ from: "a", to: "b", type: "a:b:c" }] }, "relation_invalid"],
    ["201 entities", { entities: Array.from({ length: 201 }, (_, i) => ({ name: `e${i}` })) }, "too_many_entities"],
    ["201 relations", { relations: Array.from({ length: 201 }, () => ({ from: "a", to: "b", type: "r" })) }, "too_many_relations"],
    ["unknown endpoint", { entities: [{ name: "a" }], relations: [{ from: "a", to: "ghost", type: "uses" }] }, "relation_invalid"],
  ])("refuses %s with 400 %s and writes nothing", async (_label, body, code) => {
    const res = await ingest(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(code);
    expect({ chunks: await count("chunks"), entities: await count("entities"), relations: await count("relations") })
      .toEqual({ chunks: 0, entities: 0, relations: 0 });
  });

  it("accepts a namespaced relation type and 200 items, and names are case-insensitive per domain", async () => {
    const entities = Array.from({ length: 199 }, (_, i) => ({ name: `Node ${i}` }));
    const res = await ingest({ entities: [...entities, { name: "Ledger", type: "service" }], relations: [{ from: "ledger", to: "NODE 1", type: "ops:owned_by" }] });
    expect(await res.json()).toMatchObject({ status: "created", entitiesAdded: 200, relationsAdded: 1 });
    const again = await json(ingest({ entities: [{ name: "LEDGER" }] }));
    expect(again.entitiesAdded).toBe(1);
    expect(await count("entities", "WHERE name = 'ledger'")).toBe(1);
    const ent = await json(t.req("GET", "/graph/entity/lEdGeR"));
    expect(ent.entity).toMatchObject({ name: "Ledger", type: "service", domain: "global" });
    expect(ent.relations).toEqual([expect.objectContaining({ relation: "ops:owned_by", from: { id: ent.entity.id, name: "Ledger" }, to: expect.objectContaining({ name: "Node 1" }) })]);
  });
});

describe("bi-temporal edges (SPEC §2.6, §3)", () => {
  const rel = (window: Record<string, string> = {}) => ({ entities: [{ name: "Priya" }, { name: "Acme" }], relations: [{ from: "Priya", to: "Acme", type: "works_at", ...window }] });

  it("a changed valid window retires the old edge with superseded_at equal to the new created_at", async () => {
    await ingest(rel({ valid_at: "2020-01-01T00:00:00Z" }));
    const [first] = (await json(t.req("GET", "/graph/relations?from=priya&to=acme"))).relations;
    tick();
    await ingest(rel({ valid_at: "2020-01-01T00:00:00Z", invalid_at: "2024-06-30T00:00:00Z" }));
    const [second] = (await json(t.req("GET", "/graph/relations?from=priya&to=acme"))).relations;
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ valid_at: "2020-01-01T00:00:00.000Z", invalid_at: "2024-06-30T00:00:00.000Z", edge_source: "structured" });
    const h = await json(t.req("GET", `/graph/relationships/${first.id}/history`));
    expect(h.versions.map((v: { id: number }) => v.id)).toEqual([first.id, second.id]);
    expect(h.versions[0]).toMatchObject({ current: false, created_at: "2025-01-01T00:00:00.000Z", superseded_at: second.created_at });
    expect(h.versions[1]).toMatchObject({ current: true, created_at: "2025-01-01T00:01:00.000Z" });
    expect(h.versions[1].superseded_at).toBeUndefined();
    // Retired edges are never deleted.
    expect(await count("relations")).toBe(2);
  });

  it("an identical window is a duplicate: no writes and the same id", async () => {
    await ingest(rel({ valid_at: "2020-01-01" }));
    const before = (await json(t.req("GET", "/graph/relations?from=priya&to=acme"))).relations;
    tick();
    const res = await json(ingest(rel({ valid_at: "2020-01-01T00:00:00.000Z" })));
    expect(res.relationsAdded).toBe(1);
    expect(await count("relations")).toBe(1);
    expect((await json(t.req("GET", "/graph/relations?from=priya&to=acme"))).relations).toEqual(before);
  });

  it("keeps the transaction time moving forward when the clock has not", async () => {
    await ingest(rel());
    await ingest(rel({ valid_at: "2021-01-01" }));
    const rows = (await t.memory.db.client.execute("SELECT created_at, superseded_at FROM relations ORDER BY id")).rows;
    expect(rows[0].superseded_at).toBe(rows[1].created_at);
    expect(Date.parse(String(rows[1].created_at))).toBeGreaterThan(Date.parse(String(rows[0].created_at)));
  });

  it("current reads hide superseded edges; `at` shows the belief held then", async () => {
    await ingest({ entities: [{ name: "Ledger" }, { name: "Postgres" }, { name: "Granite" }], relations: [{ from: "Ledger", to: "Postgres", type: "depends_on" }] });
    const [old] = (await json(t.req("GET", "/graph/relations?from=ledger&to=postgres"))).relations;
    tick();
    await ingest({ relations: [{ from: "Ledger", to: "Postgres", type: "depends_on", invalid_at: "2025-01-01T00:01:00Z" }, { from: "Ledger", to: "Granite", type: "depends_on" }] });
    const [retiredBy] = (await json(t.req("GET", "/graph/relations?from=ledger&to=postgres"))).relations;
    expect(retiredBy.id).not.toBe(old.id);

    const names = (r: { nodes: { name: string }[] }) => r.nodes.map((x) => x.name).sort();
    const nowView = await json(t.req("GET", "/graph/traverse?start=Ledger&max_depth=1"));
    expect(names(nowView)).toEqual(["Granite", "Ledger", "Postgres"]);
    expect(nowView.edges.map((e: { id: number }) => e.id)).not.toContain(old.id);
    const past = await json(t.req("GET", "/graph/traverse?start=Ledger&max_depth=1&at=2025-01-01T00:00:30Z"));
    expect(past.at).toBe("2025-01-01T00:00:30.000Z");
    expect(names(past)).toEqual(["Ledger", "Postgres"]);
    expect(past.edges.map((e: { id: number }) => e.id)).toEqual([old.id]);
    const before = await json(t.req("GET", "/graph/traverse?start=Ledger&at=2024-12-31T00:00:00Z"));
    expect(names(before)).toEqual(["Ledger"]);
    expect((await t.req("GET", "/graph/traverse?start=Ledger&at=yesterday")).status).toBe(400);
  });
});

describe("GET /graph/traverse bounds (SPEC §4.6, §8)", () => {
  it("walks at most 4 hops, whatever max_depth asks", async () => {
    const names = ["A", "B", "C", "D", "E", "F", "G"];
    await ingest({ entities: names.map((name) => ({ name })), relations: names.slice(1).map((to, i) => ({ from: names[i], to, type: "next" })) });
    const r = await json(t.req("GET", "/graph/traverse?start=A&max_depth=9"));
    expect(r.max_depth).toBe(4);
    expect(r.nodes.map((x: { name: string; depth: number }) => `${x.name}${x.depth}`)).toEqual(["A0", "B1", "C2", "D3", "E4"]);
    expect((await json(t.req("GET", "/graph/traverse?start=A"))).nodes).toHaveLength(3); // default depth 2
    expect((await t.req("GET", "/graph/traverse?start=A&max_depth=-1")).status).toBe(400);
    expect((await t.req("GET", "/graph/traverse?start=A&max_depth=two")).status).toBe(400);
  });

  it("visits at most 256 nodes and says it was truncated", async () => {
    const leaves = Array.from({ length: 300 }, (_, i) => `Leaf ${i}`);
    for (let i = 0; i < leaves.length; i += 150) {
      const part = leaves.slice(i, i + 150);
      await ingest({ entities: [{ name: "Hub" }, ...part.map((name) => ({ name }))], relations: part.map((to) => ({ from: "Hub", to, type: "has" })) });
    }
    const r = await json(t.req("GET", "/graph/traverse?start=Hub&max_depth=1"));
    expect(r.nodes).toHaveLength(256);
    expect(r.truncated).toBe(true);
    const small = await json(t.req("GET", "/graph/traverse?start=Leaf 7&max_depth=1"));
    expect(small).toMatchObject({ truncated: false, nodes: [{ name: "Leaf 7", depth: 0 }, { name: "Hub", depth: 1 }] });
  });

  it("kind is an exact type, or a namespace prefix when it ends with ':'", async () => {
    await ingest({
      entities: ["Svc", "Team", "Host", "Lib"].map((name) => ({ name })),
      relations: [{ from: "Team", to: "Svc", type: "ops:owns" }, { from: "Svc", to: "Host", type: "ops:runs_on" }, { from: "Svc", to: "Lib", type: "uses" }],
    });
    const names = async (q: string) => (await json(t.req("GET", `/graph/traverse?start=Svc&max_depth=1${q}`))).nodes.map((x: { name: string }) => x.name).sort();
    expect(await names("")).toEqual(["Host", "Lib", "Svc", "Team"]);
    expect(await names("&kind=ops:")).toEqual(["Host", "Svc", "Team"]);
    expect(await names("&kind=uses")).toEqual(["Lib", "Svc"]);
    expect(await names("&kind=ops")).toEqual(["Svc"]); // exact type `ops` does not exist
    for (const bad of ["Ops:", "ops:x:", "a b"]) {
      const res = await t.req("GET", `/graph/traverse?start=Svc&kind=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("relation_invalid");
    }
  });

  it("explain=true returns {from:{id,name}, relation, to:{id,name}} hop chains", async () => {
    await ingest({ entities: ["Priya", "Ledger", "Night Owls"].map((name) => ({ name })), relations: [{ from: "Priya", to: "Ledger", type: "created" }, { from: "Night Owls", to: "Ledger", type: "on_call_for" }] });
    const r = await json(t.req("GET", "/graph/traverse?start=priya&max_depth=2&explain=true"));
    const ids = Object.fromEntries(r.nodes.map((x: { name: string; id: number }) => [x.name, x.id]));
    const path = r.paths.find((p: { node: { name: string } }) => p.node.name === "Night Owls");
    expect(path.hops).toEqual([
      { from: { id: ids.Priya, name: "Priya" }, relation: "created", to: { id: ids.Ledger, name: "Ledger" } },
      { from: { id: ids["Night Owls"], name: "Night Owls" }, relation: "on_call_for", to: { id: ids.Ledger, name: "Ledger" } },
    ]);
    // Each walked edge carries its provenance: the source that produced it and the chunk it came from.
    const chunk = (await t.memory.db.client.execute("SELECT MAX(id) AS id FROM chunks")).rows[0].id;
    expect(r.edges.map((e: { relation: string; edge_source: string; chunk_id: number }) => [e.relation, e.edge_source, e.chunk_id]).sort())
      .toEqual([["created", "structured", Number(chunk)], ["on_call_for", "structured", Number(chunk)]]);
    expect((await json(t.req("GET", "/graph/traverse?start=priya"))).paths).toBeUndefined();
    expect((await json(t.req("GET", "/graph/entity/night%20OWLS"))).entity).toMatchObject({ name: "Night Owls", id: ids["Night Owls"] });
    expect((await t.req("GET", "/graph/traverse?start=nobody")).status).toBe(404);
    expect((await json(t.req("GET", "/graph/traverse"))).error.code).toBe("name_invalid");
  });
});

describe("GET /graph/relationships/{id}/history (SPEC §4.6)", () => {
  it("returns every version in order from any version's id, and audits the read", async () => {
    const rel = (valid_at: string) => ({ entities: [{ name: "A" }, { name: "B" }], relations: [{ from: "A", to: "B", type: "r", valid_at }] });
    for (const v of ["2020-01-01", "2021-01-01", "2022-01-01"]) {
      await ingest(rel(v));
      tick();
    }
    const ids = (await t.memory.db.client.execute("SELECT id FROM relations ORDER BY id")).rows.map((r) => Number(r.id));
    const histories = await Promise.all(ids.map(async (id) => json(t.req("GET", `/graph/relationships/${id}/history`))));
    for (const h of histories) expect(h.versions).toEqual(histories[0].versions);
    const v = histories[0].versions;
    expect(v.map((x: { id: number }) => x.id)).toEqual(ids);
    expect(v.map((x: { current: boolean }) => x.current)).toEqual([false, false, true]);
    expect(v.map((x: { valid_at: string }) => x.valid_at)).toEqual(["2020-01-01T00:00:00.000Z", "2021-01-01T00:00:00.000Z", "2022-01-01T00:00:00.000Z"]);
    for (let i = 0; i + 1 < v.length; i++) expect(v[i].superseded_at).toBe(v[i + 1].created_at);
    expect(histories[0]).toMatchObject({ relation: "r", from: { name: "A" }, to: { name: "B" } });
    const audit = await t.memory.audit.list({ action: "graph_history_read" });
    expect(audit.rows.map((r) => r.target)).toEqual(ids.map((id) => `relation:${id}`));
  });

  it("answers 404 for an unknown id and 400 for a non-numeric one", async () => {
    const res = await t.req("GET", "/graph/relationships/999/history");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect((await t.req("GET", "/graph/relationships/abc/history")).status).toBe(400);
  });
});

describe("GET /graph/entity and /graph/relations (SPEC §4.6)", () => {
  it("returns the entity with its current one-hop relations, 404 for unknown (any charset: issue 22), 400 for a blank or over-long name", async () => {
    await ingest({ entities: [{ name: "Ledger" }, { name: "Granite" }, { name: "Ferry" }], relations: [{ from: "Ledger", to: "Granite", type: "depends_on" }, { from: "Ferry", to: "Ledger", type: "feeds" }] });
    tick();
    await ingest({ relations: [{ from: "Ledger", to: "Granite", type: "depends_on", valid_at: "2024-01-01" }] });
    const r = await json(t.req("GET", "/graph/entity/ledger"));
    expect(r.relations.map((x: { from: { name: string }; relation: string; to: { name: string } }) => `${x.from.name} ${x.relation} ${x.to.name}`).sort())
      .toEqual(["Ferry feeds Ledger", "Ledger depends_on Granite"]);
    for (const x of r.relations) expect(Object.values(x).includes(null)).toBe(false);
    expect((await t.req("GET", "/graph/entity/nobody")).status).toBe(404);
    expect((await t.req("GET", `/graph/entity/${encodeURIComponent("no/slash")}`)).status).toBe(404);
    const bad = await t.req("GET", `/graph/entity/${"x".repeat(101)}`);
    expect((await bad.json()).error.code).toBe("name_invalid");
  });

  it("relations lists current from→to edges only and is empty for unknown names", async () => {
    await ingest({ entities: [{ name: "A" }, { name: "B" }], relations: [{ from: "A", to: "B", type: "x" }, { from: "A", to: "B", type: "y" }, { from: "B", to: "A", type: "z" }] });
    const r = await json(t.req("GET", "/graph/relations?from=a&to=b"));
    expect(r.relations.map((x: { relation: string }) => x.relation)).toEqual(["x", "y"]);
    expect(await json(t.req("GET", "/graph/relations?from=a&to=nobody"))).toEqual({ relations: [] });
    expect((await t.req("GET", "/graph/relations?from=a")).status).toBe(400);
  });

  it("keeps entities apart per domain and looks names up in the asked domain", async () => {
    await t.req("POST", "/domains", { name: "ops" });
    await ingest({ domain: "ops", entities: [{ name: "Ledger", type: "ops-service" }] });
    await ingest({ entities: [{ name: "Ledger", type: "global-service" }] });
    expect((await json(t.req("GET", "/graph/entity/ledger"))).entity).toMatchObject({ domain: "global", type: "global-service" });
    expect((await json(t.req("GET", "/graph/entity/ledger?domain=ops"))).entity).toMatchObject({ domain: "ops", type: "ops-service" });
  });
});
