/** Domain snapshots (SPEC §4.5, §8): export stream, atomic streamed import, round trip to a second server. */
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { TestMemory } from "../_helpers/memory.ts";
import { useSnapshotServers } from "./_servers.ts";

const server = useSnapshotServers();

const NOTES = [
  ["Pager rotation", "The pager rotation for the payments team changes every Monday at nine."],
  ["Ledger deploys", "Deploys to the ledger service need two reviewers and a green canary."],
  ["Canary", "The canary runs for thirty minutes before the payments rollout continues."],
  ["Kiwi", "Kiwi is the code name of the new checkout service owned by the payments team."],
  ["Backups", "Database backups are verified every Sunday by restoring into staging."],
];

/** A domain with chunks, edges, a pending proposal and a tombstone. */
async function seeded(): Promise<TestMemory> {
  const a = await server();
  await a.req("POST", "/domains", { name: "work" });
  for (const [title, content] of NOTES) {
    expect((await a.req("POST", "/ingest", {
      domain: "work", title, content, region: "eu",
      entities: [{ name: "Payments", type: "team" }, { name: title }], relations: [{ from: "Payments", to: title, type: "owns" }],
    })).status).toBe(200);
  }
  const gone = await (await a.req("POST", "/ingest", { domain: "work", title: "Old", content: "An obsolete note about fax machines." })).json();
  expect((await a.req("DELETE", `/memory/${gone.id}`)).status).toBe(200);
  expect((await a.req("POST", "/ingest/proposal", { domain: "work", content: "A pending idea about the cafeteria menu." })).status).toBe(200);
  return a;
}

async function exportBytes(m: TestMemory, name: string): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await m.req("GET", `/domains/${name}/export`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const importBytes = (m: TestMemory, name: string, bytes: Uint8Array) =>
  m.app.request(`/domains/${name}/import`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes as BodyInit }, { remoteAddr: "127.0.0.1" });

const lines = (bytes: Uint8Array) => gunzipSync(bytes).toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));

const hitsOf = async (m: TestMemory, domain: string, query: string) =>
  (await (await m.req("POST", "/recall", { query, domain, limit: 5 })).json()).hits.map((h: { title?: string; content: string }) => h.title ?? h.content);

describe("domain snapshot export (SPEC §4.5)", () => {
  it("streams gzip'd NDJSON with a versioned header, every section and a checksum trailer, as an attachment", async () => {
    const a = await seeded();
    const { res, bytes } = await exportBytes(a, "work");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="work-.*\.cairn-snapshot\.ndjson\.gz"$/);
    const ls = lines(bytes);
    expect(ls[0]).toMatchObject({ t: "header", format: "cairn-domain-snapshot", version: 1, domain: "work", embedder: { dim: expect.any(Number) } });
    const trailer = ls[ls.length - 1];
    expect(trailer.counts).toMatchObject({ chunk: 5, entity: 6, relation: 5, proposal: 1, tombstone: 1 });
    expect(ls.filter((l) => l.t === "chunk").every((l) => typeof l.vector === "string")).toBe(true);
    const text = gunzipSync(bytes).toString("utf8");
    const body = text.slice(0, text.lastIndexOf("{\"t\":\"end\""));
    const { createHash } = await import("node:crypto");
    expect(trailer.sha256).toBe(createHash("sha256").update(body).digest("hex"));
  });

  it("answers 404 for an unknown domain", async () => {
    const a = await server();
    expect((await a.req("GET", "/domains/nope/export")).status).toBe(404);
  });
});

describe("domain snapshot import (SPEC §4.5)", () => {
  it("round trip: imported under a new name on a second server, the same queries give the same hits in the same order", async () => {
    const a = await seeded();
    const { bytes } = await exportBytes(a, "work");
    const b = await server();
    const res = await importBytes(b, "copy", bytes);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: "copy", source_domain: "work", imported: { chunk: 5, entity: 6, relation: 5, proposal: 1, tombstone: 1 } });
    for (const q of ["payments rotation", "canary rollout", "checkout service code name", "who verifies backups", "ledger reviewers"]) {
      const before = await hitsOf(a, "work", q);
      expect(before.length).toBeGreaterThan(0);
      expect({ q, hits: await hitsOf(b, "copy", q) }).toEqual({ q, hits: before });
    }
    const rel = await (await b.req("GET", "/graph/relations?from=payments&to=kiwi&domain=copy")).json();
    expect(rel.relations).toHaveLength(1);
    const pending = await (await b.req("GET", "/proposals?status=pending")).json();
    expect(pending).toEqual([expect.objectContaining({ domain: "copy" })]);
    const audit = (await (await b.req("GET", "/audit?action=domain_import")).json()).rows;
    expect(audit).toEqual([expect.objectContaining({ target: "domain:copy" })]);
    expect((await (await b.req("GET", "/audit/verify")).json()).ok).toBe(true);
    // Exporting the copy gives the same rows again.
    expect(lines((await exportBytes(b, "copy")).bytes).at(-1).counts).toEqual(lines(bytes).at(-1).counts);
  });

  it("UMP records come in with their chunks: a revised fact stays superseded on the importing server without a restart", async () => {
    const a = await server();
    await a.req("POST", "/domains", { name: "work" });
    await a.req("POST", "/ingest", { domain: "work", title: "staging db", content: "The staging database lives in eu-west-1" });
    const old = JSON.parse(await (await a.req("GET", "/export?format=ump")).text()).records[0];
    const rev = await (await a.req("POST", "/ump/revise", { id: old.id, patch: { body: { text: "The staging database moved to eu-central-1" } } })).json();
    expect(rev.supersedes).toEqual([old.id]);
    const contents = async (m: TestMemory, domain: string) =>
      (await (await m.req("POST", "/recall", { query: "staging database", domain, limit: 5 })).json()).hits.map((h: { content: string }) => h.content);
    expect(await contents(a, "work")).toEqual(["The staging database moved to eu-central-1"]);
    const b = await server();
    const res = await importBytes(b, "work", (await exportBytes(a, "work")).bytes);
    expect(await res.json()).toMatchObject({ imported: { chunk: 2, ump_record: 2 } });
    // The superseded version is not current recall on B either, and the current one is served at once.
    expect(await contents(b, "work")).toEqual(["The staging database moved to eu-central-1"]);
    const ump = await (await b.req("POST", "/ump/recall", { query: "staging database", limit: 5 })).json();
    expect(ump.results.map((r: { record: { id: string } }) => r.record.id)).toEqual([rev.id]);
  });

  it("refuses an existing target (409 domain_exists) and global (400 domain_protected)", async () => {
    const a = await seeded();
    const { bytes } = await exportBytes(a, "work");
    expect((await importBytes(a, "work", bytes)).status).toBe(409);
    const g = await importBytes(a, "global", bytes);
    expect(g.status).toBe(400);
    expect((await g.json()).error.code).toBe("domain_protected");
  });

  it("refuses content this server already stores (409 snapshot_conflict) and leaves nothing behind", async () => {
    const a = await seeded();
    const { bytes } = await exportBytes(a, "work");
    const res = await importBytes(a, "copy", bytes);
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("snapshot_conflict");
    expect((await (await a.req("GET", "/domains")).json()).domains.map((d: { name: string }) => d.name)).not.toContain("copy");
  });

  it("a truncated, corrupted, re-counted or empty snapshot leaves nothing behind (400 snapshot_invalid)", async () => {
    const a = await seeded();
    const { bytes } = await exportBytes(a, "work");
    const raw = gunzipSync(bytes).toString("utf8");
    const cut = raw.slice(0, raw.lastIndexOf("{\"t\":\"end\""));
    const tampered = raw.replace("every Monday", "every Friday");
    const badGzip = bytes.slice();
    badGzip[Math.floor(bytes.length / 2)] ^= 0xff;
    const cases: Record<string, Uint8Array> = {
      truncatedGzip: bytes.slice(0, Math.floor(bytes.length * 0.6)),
      noTrailer: gzipSync(cut),
      tampered: gzipSync(tampered),
      corruptedGzip: badGzip,
      notGzip: new TextEncoder().encode("hello"),
      empty: new Uint8Array(0),
    };
    const b = await server();
    for (const [name, body] of Object.entries(cases)) {
      const res = await importBytes(b, "copy", body);
      expect({ name, status: res.status, code: (await res.json()).error.code }).toEqual({ name, status: 400, code: "snapshot_invalid" });
    }
    expect((await (await b.req("GET", "/domains")).json()).domains.map((d: { name: string }) => d.name)).toEqual(["global"]);
    expect((await (await b.req("POST", "/recall", { query: "payments rotation" })).json()).hits).toEqual([]);
    expect((await (await b.req("GET", "/audit?action=domain_import")).json()).rows).toEqual([]);
  });

  it("answers a bare 413 for a declared body over 1 GiB on the import sub-route; other routes keep 1 MiB", async () => {
    const b = await server();
    const res = await b.app.request("/domains/copy/import", {
      method: "POST", headers: { "content-type": "application/octet-stream", "content-length": String(1024 ** 3 + 1) }, body: "x",
    }, { remoteAddr: "127.0.0.1" });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("");
    const small = await b.req("POST", "/parcels/import", { expected_signer: "did:key:z6Mk", parcel: { pad: "x".repeat(1024 * 1024) } });
    expect(small.status).toBe(413);
  });
});
