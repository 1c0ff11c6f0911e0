/**
 * Issue 23 §4: erasure that reaches the disk. After a delete, a purge or a
 * data-subject erasure, the erased text must not remain in the database file,
 * its WAL or any side file (the lexical snapshot), neither at once nor after
 * a clean shutdown and restart. Files are created owner-only.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { createApp } from "../../src/http/app.ts";
import { openMemoryForRuntime } from "../../src/server.ts";
import { openapiYaml, tempDir } from "../_helpers/memory.ts";
import type { Memory } from "../../src/memory.ts";
import type { ZendeskFake } from "../connectors/fakes/zendesk-fake.ts";
import { everyDoorEnv, tablesHolding, throughEveryDoor, type DoorIds } from "./_every-door.ts";

const open: Memory[] = [];
const fakes: ZendeskFake[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function boot(dir: string, env: Record<string, string> = { CAIRN_DB_PATH: join(dir, "data", "cairn.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") }) {
  const multi = process.env.CAIRN_TEST_MULTI_DB === "1" ? { CAIRN_MULTI_DB: "true" } : {};
  const memory = await openMemoryForRuntime(parseConfig({ ...env, ...multi }));
  open.push(memory);
  const app = createApp(memory, { openapiYaml });
  const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise.resolve(app.request(path, {
    method, headers: headers ?? (body === undefined ? {} : { "content-type": "application/json" }),
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  }, { remoteAddr: "127.0.0.1" }));
  return { memory, req, close: async () => { open.splice(open.indexOf(memory), 1); await memory.close(); } };
}

/** Every file under the store directory (domain databases in `domains/` too) whose bytes contain `token` (UTF-8). */
function filesHolding(dir: string, token: string): string[] {
  const needle = Buffer.from(token, "utf8");
  return readdirSync(dir, { recursive: true }).map(String)
    .filter((f) => statSync(join(dir, f)).isFile() && readFileSync(join(dir, f)).includes(needle));
}

const erasures: [string, (req: Awaited<ReturnType<typeof boot>>["req"], id: number, token: string) => Promise<Response>][] = [
  ["DELETE /memory/{id}", (req, id) => req("DELETE", `/memory/${id}`)],
  ["POST /purge", (req, id) => req("POST", "/purge", { ids: [id] })],
];

describe("erased text leaves the database, its WAL and the side files", () => {
  for (const [name, erase] of erasures) {
    it(`${name}: gone at once and after a restart`, async () => {
      const dir = tempDir();
      const data = join(dir, "data");
      const token = `zqxtoken${Math.random().toString(36).slice(2, 10)}`;
      let s = await boot(dir);
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await s.req("POST", "/ingest", { title: `note ${i}`, content: `filler note number ${i} about granite cairns and trails` });
        expect(r.status).toBe(200);
      }
      const r = await s.req("POST", "/ingest", { title: "secret", content: `the private fact ${token} must be erasable` });
      ids.push((await r.json()).id);
      // A clean cycle first, so the token is also in the main file and the lexical snapshot.
      await s.close();
      s = await boot(dir);
      expect(filesHolding(data, token).length).toBeGreaterThan(0);
      const res = await erase(s.req, ids[0]!, token);
      expect(res.status).toBe(200);
      expect(filesHolding(data, token)).toEqual([]);
      await s.close();
      expect(filesHolding(data, token)).toEqual([]);
      s = await boot(dir);
      expect(filesHolding(data, token)).toEqual([]);
      const recall = await (await s.req("POST", "/recall", { query: token })).json();
      expect(JSON.stringify(recall)).not.toContain(token);
    });
  }
});

/** Everything a client can read back that could carry the marker, as one string. */
async function servedText(req: Awaited<ReturnType<typeof boot>>["req"], ids: DoorIds): Promise<string> {
  const paths = [
    "/workflow/events?limit=1000", "/proposals?limit=100", "/proposals?status=approved&limit=100", "/kcs/articles", "/kcs/translations",
    "/workflow/claims?limit=1000", "/workflow/claim-batches?limit=1000", "/export?format=ump", "/export", "/audit?limit=1000", "/quarantine",
    ...(ids.runId !== undefined ? [`/workflow/runs/${ids.runId}`] : []),
  ];
  let all = "";
  for (const p of paths) {
    const r = await req("GET", p);
    expect(r.status, p).toBeLessThan(300);
    all += await r.text();
  }
  for (const q of ["kayak pier nine", "blue kayak"]) all += await (await req("POST", "/recall", { query: q, limit: 50 })).text();
  return all;
}

const doorErasures: [string, boolean, (req: Awaited<ReturnType<typeof boot>>["req"], marker: string) => Promise<Response>][] = [
  ["POST /dsar {match}", true, (req, marker) => req("POST", "/dsar", { match: marker })],
  ["POST /purge {ids}", false, async (req, marker) => {
    // The caller finds the ids first (a dry run locates without erasing), then purges them.
    const dry = await (await req("POST", "/dsar", { match: marker, dry_run: true })).json();
    return req("POST", "/purge", { ids: dry.export.chunks.map((c: { id: number }) => c.id) });
  }],
];

describe("one marker through every door leaves no byte behind after an erasure (issue 35)", () => {
  for (const [name, workflow, erase] of doorErasures) {
    it(`${name}: gone from every table, the WAL, the snapshot and every read, at once and after a restart`, async () => {
      const dir = tempDir();
      const data = join(dir, "data");
      const env = everyDoorEnv(dir);
      const marker = `zqxdoor${Math.random().toString(36).slice(2, 10)}`;
      let s = await boot(dir, env);
      for (let i = 0; i < 10; i++) await s.req("POST", "/ingest", { title: `note ${i}`, content: `filler note number ${i} about granite cairns and trails` });
      const ids = await throughEveryDoor(s.req, s.memory, marker, { workflow, cfgDir: env.CAIRN_CONFIG_DIR!, fakes });
      // The append-only audit log names no identifier in clear: sessions, conversations and message ids are salted hashes.
      const audit = JSON.stringify((await s.memory.db.client.execute("SELECT actor, target, detail FROM audit_log")).rows);
      for (const id of [ids.session, ids.umpSession, ids.conversationRef, ...ids.externalIds]) expect(audit, id).not.toContain(id);
      await s.close();
      s = await boot(dir, env);
      expect(filesHolding(data, marker).length).toBeGreaterThan(0);
      // Every read below serves the marker before the erasure (so its absence after means something).
      expect((await servedText(s.req, ids)).toLowerCase()).toContain(marker);
      const res = await erase(s.req, marker);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      // The erasure counts what it removed per table: the claim citing an erased chunk, the KCS translation and its proposal.
      const tables = workflow ? body.certificate.erased.tables : body.tables;
      expect(tables).toMatchObject({ claims: 1, claim_evidence: 2, claim_batch_members: 1, claim_batches: 1, kcs_translations: 1, kcs_articles: 2 });
      if (workflow) {
        expect(tables.channel_out).toBe(1);
        expect(body.certificate.erased.redacted).toMatchObject({ workflow_events: 2, workflow_runs: 2 });
        expect((await (await s.req("POST", "/dsar/verify", body.certificate)).json()).valid).toBe(true);
      }
      expect(await tablesHolding(s.memory, marker)).toEqual([]);
      expect(filesHolding(data, marker)).toEqual([]);
      expect((await servedText(s.req, ids)).toLowerCase()).not.toContain(marker);
      await s.close();
      expect(filesHolding(data, marker)).toEqual([]);
      s = await boot(dir, env);
      expect(filesHolding(data, marker)).toEqual([]);
      expect((await servedText(s.req, ids)).toLowerCase()).not.toContain(marker);
      const chain = await (await s.req("GET", "/audit/verify")).json();
      expect(chain.ok).toBe(true);
    });
  }
});

describe("an erasure that reaches only workflow rows (issue 35)", () => {
  it("POST /dsar {match} on an operator note alone: the note's text leaves the WAL at once", async () => {
    const dir = tempDir();
    const data = join(dir, "data");
    const env = everyDoorEnv(dir);
    const marker = `zqxnote${Math.random().toString(36).slice(2, 10)}`;
    const s = await boot(dir, env);
    const run = await (await s.req("POST", "/workflow/runs", { state_json: { case_ref: "crm:zendesk:acme:1", origin: "operator" } })).json();
    expect((await s.req("POST", `/workflow/runs/${run.run.id}/notes`, { text: `Customer ${marker} called about the kayak.` })).status).toBe(201);
    expect(filesHolding(data, marker).length).toBeGreaterThan(0);
    const res = await s.req("POST", "/dsar", { match: marker });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.certificate.erased).toMatchObject({ chunk_ids: [], redacted: { workflow_events: 1 } });
    expect(filesHolding(data, marker)).toEqual([]);
  });
});

describe("store files are owner-only", () => {
  it("creates the data directory 0700 and the database, WAL and snapshot 0600", async () => {
    const dir = tempDir();
    const s = await boot(dir);
    await s.req("POST", "/ingest", { title: "t", content: "personal data" });
    await s.close();
    const data = join(dir, "data");
    expect(statSync(data).mode & 0o777).toBe(0o700);
    const files = readdirSync(data);
    expect(files).toContain("cairn.db");
    for (const f of files) expect([f, statSync(join(data, f)).mode & 0o777]).toEqual([f, 0o600]);
  });
});
