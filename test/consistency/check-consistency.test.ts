import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { findCycle } from "../../src/consistency/check-consistency.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const failing = (r: { checks: { name: string; ok: boolean; sample?: number[] }[] }) =>
  Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.name, c.sample]));

describe("checkConsistency", () => {
  it("is clean after ordinary governed work", async () => {
    t = await openTestMemory();
    const a = (await (await t.req("POST", "/ingest", { title: "a", content: "first fact" })).json()).id;
    await t.req("POST", "/ingest/proposal", { content: "second fact" });
    const [p] = await (await t.req("GET", "/proposals")).json();
    const b = (await (await t.req("POST", `/proposals/${p.id}/approve?digest=${p.content_digest}&supersedes=${a}`)).json()).promoted_chunk_id;
    await t.req("POST", "/purge", { ids: [b] });
    const r = await t.memory.checkConsistency();
    expect(failing(r)).toEqual({});
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual([
      "audit_chain", "orphan_vectors", "dangling_relation_owners", "dangling_links", "supersede_cycle", "promoted_missing", "proposal_state", "tombstoned_present",
      "stored_text_nul", "ump_record_unverifiable",
      "clean_shutdown",
    ]);
  });

  it("names each broken invariant with sample ids", async () => {
    t = await openTestMemory();
    const a = (await (await t.req("POST", "/ingest", { title: "a", content: "alpha" })).json()).id;
    const b = (await (await t.req("POST", "/ingest", { title: "b", content: "beta" })).json()).id;
    const c = createClient({ url: `file:${t.dbPath}` });
    const now = "2025-01-01T00:00:00Z";
    await c.batch([
      { sql: "INSERT INTO consolidation_links (kind, from_chunk_id, to_chunk_id, status, basis, created_at, approved_at) VALUES ('supersedes', ?, ?, 'approved', '{}', ?, ?)", args: [a, b, now, now] },
      { sql: "INSERT INTO consolidation_links (kind, from_chunk_id, to_chunk_id, status, basis, created_at, approved_at) VALUES ('supersedes', ?, ?, 'approved', '{}', ?, ?)", args: [b, a, now, now] },
      { sql: "INSERT INTO consolidation_links (kind, from_chunk_id, to_chunk_id, status, basis, created_at) VALUES ('contradicts', ?, 777, 'proposed', '{}', ?)", args: [a, now] },
      { sql: "INSERT INTO proposals (status, kind, door, content, content_hash, domain, ingest_kind, score, score_breakdown, screen, created_at, decided_at, promoted_chunk_id) VALUES ('approved', 'memory', 'x', 'c', 'h', 'global', 'memory', 1, '{}', '{}', ?, ?, 888)", args: [now, now] },
      { sql: "INSERT INTO proposals (status, kind, door, content, content_hash, domain, ingest_kind, score, score_breakdown, screen, created_at) VALUES ('rejected', 'memory', 'x', 'c', 'h2', 'global', 'memory', 1, '{}', '{}', ?)", args: [now] },
    ], "write");
    c.close();
    const r = await t.memory.checkConsistency();
    expect(r.ok).toBe(false);
    const f = failing(r);
    expect(Object.keys(f).sort()).toEqual(["dangling_links", "promoted_missing", "proposal_state", "supersede_cycle"]);
    expect(f.supersede_cycle!.sort()).toEqual([a, b].sort());
    expect(f.dangling_links).toEqual([3]);
  });

  it("findCycle finds a cycle and only a cycle", () => {
    expect(findCycle([[1, 2], [2, 3]])).toBeUndefined();
    expect(findCycle([[1, 2], [2, 3], [3, 1]])).toEqual([1, 2, 3]);
    expect(findCycle([[5, 5]])).toEqual([5]);
  });
});
