import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createClient, type InStatement } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { createStaticEmbedder } from "../../src/embed/static-embedder.ts";
import type { SnapshotStore } from "../../src/recall/load-index.ts";
import { eraseInTx } from "../../src/erasure/erase-in-tx.ts";
import type { Exec } from "../../src/store/db.ts";
import { sql } from "../_helpers/sql.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const embedder = createStaticEmbedder(new Uint8Array(readFileSync(join(root, "assets/embed/cairn-static-glove-100d.bin"))));

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const count = async (dbPath: string, table: string) => Number((await sql(dbPath, `SELECT COUNT(*) AS n FROM ${table}`))[0].n);

/** A lexical snapshot kept in a real file beside the database. */
function fileSnapshots(dir: string): SnapshotStore {
  const path = join(dir, "lexical.json");
  return {
    load: async () => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined),
    save: async (data) => writeFileSync(path, JSON.stringify(data)),
  };
}

async function recallIds(tm: TestMemory, query: string): Promise<number[]> {
  const res = await tm.req("POST", "/recall", { query, limit: 20 });
  expect(res.status).toBe(200);
  return (await res.json()).hits.map((h: { id: number }) => h.id);
}

async function approveAll(tm: TestMemory) {
  for (const p of await (await tm.req("GET", "/proposals?status=pending")).json()) {
    const r = await tm.req("POST", `/proposals/${p.id}/approve?digest=${p.content_digest}`);
    expect(r.status).toBe(200);
  }
}

describe("DELETE /memory/{id} (SPEC §3, §4.4)", () => {
  it("removes the chunk, its vector and lexical entries, nulls owned relation references, records a tombstone and an audit row", async () => {
    t = await openTestMemory({}, { embedder });
    const id = (await (await t.req("POST", "/ingest", {
      title: "Quokka", content: "The quokka enclosure opens at dawn.", entities: [{ name: "quokka" }, { name: "enclosure" }],
      relations: [{ from: "quokka", to: "enclosure", type: "lives_in" }],
    })).json()).id;
    expect(await recallIds(t, "quokka enclosure")).toEqual([id]);
    expect(await count(t.dbPath, "chunk_vectors")).toBe(1);
    const res = await t.req("DELETE", `/memory/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect(await count(t.dbPath, "chunks")).toBe(0);
    expect(await count(t.dbPath, "chunk_vectors")).toBe(0);
    expect(await sql(t.dbPath, "SELECT chunk_id FROM relations")).toEqual([{ chunk_id: null }]);
    expect(await sql(t.dbPath, "SELECT chunk_id, reason FROM tombstones")).toEqual([{ chunk_id: id, reason: "delete" }]);
    expect(t.memory.recallEngine.index.lexical.search("quokka", 5)).toEqual([]);
    expect(await recallIds(t, "quokka enclosure")).toEqual([]);
    const audit = (await (await t.req("GET", "/audit?action=delete")).json()).rows;
    expect(audit).toEqual([expect.objectContaining({ target: `chunk:${id}` })]);
    expect((await t.req("DELETE", `/memory/${id}`)).status).toBe(404);
    expect((await t.req("DELETE", "/memory/abc")).status).toBe(400);
  });
});

describe("POST /purge (SPEC §4.4)", () => {
  it("purges by id list in one transaction with tombstones, one audit row, and the proposals that promoted them", async () => {
    t = await openTestMemory({}, { embedder });
    const ids: number[] = [];
    for (const c of ["Purge target one mentions walrus.", "Purge target two mentions walrus.", "Keeper mentions walrus too."]) {
      ids.push((await (await t.req("POST", "/ingest", { title: "w", content: c })).json()).id);
    }
    await t.req("POST", "/ingest/proposal", { content: "Promoted walrus fact." });
    await approveAll(t);
    const promoted = Number((await sql(t.dbPath, "SELECT promoted_chunk_id AS id FROM proposals"))[0].id);
    const res = await t.req("POST", "/purge", { ids: [ids[0], ids[1], promoted, 987654] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ purged: 3, ids: [ids[0], ids[1], promoted].sort((a, b) => a - b), proposals_deleted: 1, missing: [987654] });
    expect((await sql(t.dbPath, "SELECT id FROM chunks")).map((r) => r.id)).toEqual([ids[2]]);
    expect(await count(t.dbPath, "chunk_vectors")).toBe(1);
    expect(await count(t.dbPath, "proposals")).toBe(0);
    expect(await sql(t.dbPath, "SELECT chunk_id, reason FROM tombstones ORDER BY chunk_id")).toEqual(body.ids.map((id: number) => ({ chunk_id: id, reason: "purge" })));
    const audit = (await (await t.req("GET", "/audit?action=purge")).json()).rows;
    expect(audit).toHaveLength(1);
    // The audit row binds the purged id set without listing it: SHA-256 of the ids ascending, comma-joined.
    const idsSha = createHash("sha256").update(body.ids.join(",")).digest("hex");
    expect(audit[0].detail).toMatchObject({ chunks: 3, proposals: 1, ids_sha256: idsSha });
    expect(JSON.stringify(audit[0])).not.toContain("walrus");
    expect(await recallIds(t, "walrus")).toEqual([ids[2]]);
  });

  it("purges by owner and refuses ambiguous or malformed bodies", async () => {
    t = await openTestMemory();
    await t.req("POST", "/ingest/proposal", { content: "Alice's notebook entry one.", owner: "did:key:alice" });
    await t.req("POST", "/ingest/proposal", { content: "Bob's notebook entry.", owner: "did:key:bob" });
    await approveAll(t);
    const r = await (await t.req("POST", "/purge", { owner: "did:key:alice" })).json();
    expect(r).toMatchObject({ purged: 1, proposals_deleted: 1 });
    expect(await sql(t.dbPath, "SELECT content FROM chunks")).toEqual([{ content: "Bob's notebook entry." }]);
    expect(await (await t.req("POST", "/purge", { owner: "did:key:nobody" })).json()).toEqual({ purged: 0, ids: [], proposals_deleted: 0, tables: {} });
    for (const bad of [{}, { ids: [1], owner: "x" }, { ids: [] }, { ids: ["1"] }, { owner: "" }]) {
      const res = await t.req("POST", "/purge", bad);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
    expect((await (await t.req("GET", "/audit?action=purge")).json()).rows).toHaveLength(1);
  });
});

describe("POST /dsar (SPEC §1 item 6, §3)", () => {
  const EMAIL = "jane.roe@example.org";

  async function seed(tm: TestMemory) {
    const direct = (await (await tm.req("POST", "/ingest", { title: "Ticket 88", content: `Customer ${EMAIL} reported the zeppelin invoice bug.` })).json()).id;
    const other = (await (await tm.req("POST", "/ingest", { title: "Ticket 89", content: "Another customer asked about zeppelin pricing." })).json()).id;
    await tm.req("POST", "/ingest/proposal", { content: "Jane prefers zeppelin invoices by post.", owner: "did:key:jane" });
    await approveAll(tm);
    const owned = Number((await sql(tm.dbPath, "SELECT promoted_chunk_id AS id FROM proposals"))[0].id);
    // Still pending, mentions the subject by email: the content-match delete removes it.
    await tm.req("POST", "/ingest/proposal", { content: `Follow up with ${EMAIL.toUpperCase()} about the zeppelin refund.` });
    await tm.req("POST", "/ingest/proposal", { content: "Unrelated pending zeppelin note." });
    // A graph entity named after the subject, on a chunk whose text does not name her.
    const account = (await (await tm.req("POST", "/ingest", {
      title: "Account", content: "Account manager notes for the airship account.",
      entities: [{ name: "Jane Roe", type: "person" }, { name: "Airship Co" }], relations: [{ from: "Jane Roe", to: "Airship Co", type: "customer_of" }],
    })).json()).id;
    return { direct, other, owned, account };
  }

  it("locates, exports, purges, deletes reachable and matching proposals, and issues a chain-verifiable certificate", async () => {
    const dir = tempDir();
    t = await openTestMemory({}, { embedder, snapshots: fileSnapshots(dir) }, dir);
    const { direct, other, owned, account } = await seed(t);
    const seeded = (ids: number[]) => ids.filter((id) => id !== account);
    expect(seeded(await recallIds(t, "zeppelin")).sort()).toEqual([direct, other, owned].sort());

    const res = await t.req("POST", "/dsar", { email: EMAIL, owner: "did:key:jane", match: "jane roe" });
    expect(res.status).toBe(200);
    const out = await res.json();
    expect(out.located).toEqual({ chunks: 2, proposals: 2, tables: {} });
    expect(out.export.chunks.map((c: { id: number }) => c.id)).toEqual([direct, owned].sort((a, b) => a - b));
    expect(out.export.chunks.map((c: { content: string }) => c.content).join(" ")).toContain(EMAIL);
    const cert = out.certificate;
    expect(cert).toMatchObject({ format: "cairn-erasure-certificate/1", erased: { chunk_ids: [direct, owned].sort((a, b) => a - b) } });
    expect(cert.erased.proposal_ids).toHaveLength(2);
    expect(cert.erased).toMatchObject({ entities: 1, relations: 1 });
    expect((await sql(t.dbPath, "SELECT name FROM entities ORDER BY name")).map((r) => r.name)).toEqual(["airship co"]);
    expect(await count(t.dbPath, "relations")).toBe(0);
    expect(JSON.stringify(cert)).not.toContain(EMAIL);

    // Gone from the store, the proposals, recall and the in-memory lexical index.
    expect((await sql(t.dbPath, "SELECT id FROM chunks ORDER BY id")).map((r) => r.id)).toEqual([other, account]);
    expect(await sql(t.dbPath, "SELECT content FROM proposals")).toEqual([{ content: "Unrelated pending zeppelin note." }]);
    expect(seeded(await recallIds(t, "zeppelin"))).toEqual([other]);
    expect(await recallIds(t, "jane roe invoice bug")).not.toContain(direct);
    expect(t.memory.recallEngine.index.lexical.search("jane", 5)).toEqual([]);
    const audit = (await (await t.req("GET", "/audit?action=erasure")).json()).rows;
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toMatch(/jane|zeppelin/i);
    expect(await (await t.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true });

    // Anyone can verify it against the chain; the data subject can check it was about them.
    expect(await (await t.req("POST", "/dsar/verify", cert)).json()).toMatchObject({ valid: true });
    expect((await (await t.req("POST", "/dsar/verify", { certificate: cert, subject: { email: EMAIL.toUpperCase(), owner: "did:key:jane", match: "jane roe" } })).json()).valid).toBe(true);
    expect((await (await t.req("POST", "/dsar/verify", { certificate: cert, subject: { email: "someone@else.org", owner: "did:key:jane", match: "jane roe" } })).json()).valid).toBe(false);
    const forged = { ...cert, erased: { ...cert.erased, chunk_ids: [direct] } };
    const fv = await (await t.req("POST", "/dsar/verify", forged)).json();
    expect(fv.valid).toBe(false);
    expect(fv.checks.find((c: { name: string }) => c.name === "digest").ok).toBe(false);
    expect(await (await t.req("GET", `/dsar/certificates/${cert.id}`)).json()).toEqual(cert);

    // After a restart (lexical snapshot persisted and reloaded), nothing returns the erased text.
    await t.memory.close();
    const snapshot = readFileSync(join(dir, "lexical.json"), "utf8");
    expect(snapshot).toContain("zeppelin");
    expect(snapshot).not.toMatch(/jane|invoic|roe\b|refund/i);
    t = await openTestMemory({}, { embedder, snapshots: fileSnapshots(dir) }, dir);
    expect(t.memory.recallEngine.lexicalSource).toBe("snapshot");
    expect(t.memory.recallEngine.index.lexical.search("jane invoice", 5)).toEqual([]);
    // A query mostly made of erased terms may abstain (SPEC §1: low_confidence); it never returns them.
    expect(seeded(await recallIds(t, "jane roe zeppelin invoice bug"))).not.toContain(direct);
    expect(seeded(await recallIds(t, "zeppelin"))).toEqual([other]);
    expect(JSON.stringify(await sql(t.dbPath, "SELECT name, display_name FROM entities"))).not.toMatch(/jane/i);
    const all = await sql(t.dbPath, "SELECT content FROM chunks UNION ALL SELECT content FROM proposals");
    expect(JSON.stringify(all)).not.toContain("jane.roe");

    // A tampered audit row breaks the certificate's chain check.
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_update");
    await c.execute("UPDATE audit_log SET ts = '2000-01-01T00:00:00.000Z' WHERE id = 1");
    c.close();
    const broken = await (await t.req("POST", "/dsar/verify", cert)).json();
    expect(broken.valid).toBe(false);
    expect(broken.checks.find((x: { name: string }) => x.name === "chain")).toMatchObject({ ok: false, detail: "chain broken at audit row 1" });
  });

  it("announces a committed erasure to erasure listeners (the opt-in webhook) without personal data", async () => {
    t = await openTestMemory();
    await seed(t);
    const heard: Record<string, unknown>[] = [];
    t.memory.onErasure((n) => void heard.push(n));
    const out = await (await t.req("POST", "/dsar", { email: EMAIL })).json();
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([expect.objectContaining({ certificate_id: out.certificate.id, certificate_digest: out.certificate.digest, chunks: 1 })]);
    expect(JSON.stringify(heard)).not.toContain("jane");
    await t.req("POST", "/dsar", { email: EMAIL, dry_run: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toHaveLength(1);
  });

  it("dry_run locates and exports without deleting, auditing or certifying", async () => {
    t = await openTestMemory();
    const { direct } = await seed(t);
    const before = await count(t.dbPath, "audit_log");
    const out = await (await t.req("POST", "/dsar", { email: EMAIL, dry_run: true })).json();
    expect(out).toMatchObject({ dry_run: true, located: { chunks: 1, proposals: 1 } });
    expect(out.export.chunks[0].id).toBe(direct);
    expect(out.certificate).toBeUndefined();
    expect(await count(t.dbPath, "audit_log")).toBe(before);
    expect(await count(t.dbPath, "erasure_certificates")).toBe(0);
    for (const bad of [{}, { email: "not-an-email" }, { match: "ab" }, { dry_run: "yes", owner: "x" }]) {
      expect((await t.req("POST", "/dsar", bad)).status).toBe(400);
    }
  });

  it("rolls the whole erasure back on a failure midway: nothing deleted, no audit row, no certificate", async () => {
    t = await openTestMemory({}, { embedder });
    const { direct, owned } = await seed(t);
    const snapshot = async () => ({
      chunks: await count(t!.dbPath, "chunks"), vectors: await count(t!.dbPath, "chunk_vectors"), proposals: await count(t!.dbPath, "proposals"),
      tombstones: await count(t!.dbPath, "tombstones"), audit: await count(t!.dbPath, "audit_log"), certificates: await count(t!.dbPath, "erasure_certificates"),
    });
    const before = await snapshot();
    // Inject a real database failure at the proposal step, after the chunk rows were already deleted in the transaction.
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("CREATE TRIGGER fail_proposal_delete BEFORE DELETE ON proposals BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    c.close();
    const res = await t.req("POST", "/dsar", { email: EMAIL, owner: "did:key:jane" });
    expect(res.status).toBe(500);
    expect((await res.json()).error).toEqual({ code: "internal_error", message: "internal error", details: { request_id: expect.any(String) } });
    expect(await snapshot()).toEqual(before);
    expect((await recallIds(t, "zeppelin")).sort()).toEqual(expect.arrayContaining([direct, owned]));
    expect(await (await t.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true });
  });
});

describe("erasure id lists (SPEC §8: 900 ids per statement)", () => {
  it("erases 2,000 chunks with no statement over 900 ids, and a failure at the 1,500th rolls all of them back", async () => {
    t = await openTestMemory();
    const c = createClient({ url: `file:${t.dbPath}` });
    const stmts: InStatement[] = [];
    for (let i = 0; i < 2000; i++) {
      stmts.push({ sql: "INSERT INTO chunks (content, domain, content_hash, source, confidence, created_at) VALUES (?, 'global', ?, 'memory', 1, '2025-01-01T00:00:00Z')", args: [`bulk subject-x note ${i}`, `h${i}`] });
    }
    await c.batch(stmts, "write");
    const ids = (await c.execute("SELECT id FROM chunks ORDER BY id")).rows.map((r) => Number(r.id));
    await c.execute(`CREATE TRIGGER fail_one BEFORE DELETE ON chunks WHEN old.id = ${ids[1499]} BEGIN SELECT RAISE(ABORT, 'injected'); END`);
    const failed = await t.req("POST", "/dsar", { match: "subject-x" });
    expect(failed.status).toBe(500);
    expect(await count(t.dbPath, "chunks")).toBe(2000);
    expect(await count(t.dbPath, "tombstones")).toBe(0);
    await c.execute("DROP TRIGGER fail_one");
    c.close();

    // Observe the real transaction's statements while the executor runs.
    const widest: number[] = [];
    await t.memory.db.write(async (tx) => {
      const spy: Exec = {
        execute: (s) => {
          const args = typeof s === "string" ? [] : (s.args as unknown[]);
          widest.push(Array.isArray(args) ? args.length : 0);
          return tx.execute(s);
        },
      };
      const erased = await eraseInTx(spy, { chunkIds: ids, reason: "erasure", now: "2025-01-02T00:00:00Z" });
      expect(erased.chunkIds).toHaveLength(2000);
      throw new Error("roll back the observation run");
    }).catch((e: Error) => expect(e.message).toBe("roll back the observation run"));
    expect(Math.max(...widest)).toBeLessThanOrEqual(902); // 900 ids, plus reason and timestamp on the tombstone insert
    expect(await count(t.dbPath, "chunks")).toBe(2000);

    const ok = await (await t.req("POST", "/dsar", { match: "SUBJECT-X" })).json();
    expect(ok.certificate.erased.chunk_ids).toHaveLength(2000);
    expect(await count(t.dbPath, "chunks")).toBe(0);
    expect(await count(t.dbPath, "tombstones")).toBe(2000);
    expect((await (await t.req("POST", "/dsar/verify", ok.certificate)).json()).valid).toBe(true);
  });
});

describe("erasure of graph names derived from the subject", () => {
  it("removes an entity whose cleaned name came from the subject's email (frontmatter alias, annotation)", async () => {
    t = await openTestMemory();
    const doc = "---\naliases: [\"dana.ng@example.com\"]\n---\nEscalations reach [[owned_by::dana.ng@example.com]] for the heron pager.\n";
    expect((await t.req("POST", "/ingest/markdown", { title: "Heron runbook", content: doc })).status).toBe(200);
    const before = JSON.stringify(await (await t.req("GET", "/graph/entity/Heron%20runbook")).json());
    expect(before).toContain("danang examplecom");

    const out = await (await t.req("POST", "/dsar", { email: "Dana.Ng@example.com" })).json();
    expect(out.certificate.erased.entities).toBe(1);
    const after = await (await t.req("GET", "/graph/entity/Heron%20runbook")).json();
    expect(JSON.stringify(after)).not.toMatch(/danang|examplecom/i);
    expect((await t.req("GET", "/graph/entity/danang%20examplecom")).status).toBe(404);
    const walk = await t.req("GET", "/graph/traverse?start=Heron%20runbook&max_depth=2&explain=true");
    expect(walk.status).toBe(200);
    expect(JSON.stringify(await walk.json())).not.toMatch(/danang/i);
    expect(JSON.stringify(await sql(t.dbPath, "SELECT name, display_name FROM entities"))).not.toMatch(/danang/i);
    expect(await (await t.req("POST", "/dsar/verify", out.certificate)).json()).toMatchObject({ valid: true });
  });
});
