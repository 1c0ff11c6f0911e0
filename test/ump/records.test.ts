/**
 * UMP record behaviour over HTTP (SPEC §2.8, §3, §4.9, §6): supersede with
 * a readable past, soft and hard forget with tombstones and audit rows,
 * feedback counts, change events without bodies, consent redaction and
 * retention, and the one-kernel view of chunks written through `/ingest`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { didFromSeed, generateSeed } from "../../src/ump/did-key.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { independentVerify } from "./_independent-verifier.ts";
import { type KeyedMemory, openKeyed, rec } from "./_keyed.ts";

let t: TestMemory | KeyedMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A clock tests move by hand. */
function manualClock(start = Date.parse("2026-03-01T09:00:00.000Z")) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => void (now += ms), at: () => new Date(now).toISOString() };
}

const HOUR = 3_600_000;
const json = async (res: Response | Promise<Response>) => (await res).json();

describe("revise (bi-temporal supersede)", () => {
  it("supersedes the old version, which stays readable by id and by recall at a past valid_at", async () => {
    const c = manualClock();
    const m = (t = await openTestMemory({}, { clock: c.clock }));
    const first = await json(m.req("POST", "/ump/remember", rec("The staging database lives in eu-west-1", { title: "staging db" })));
    const createdAt = c.at();
    c.advance(HOUR);
    const rev = await json(m.req("POST", "/ump/revise", { id: first.id, patch: { body: { text: "The staging database moved to eu-central-1" } } }));
    expect(rev.supersedes).toEqual([first.id]);
    const old = (await json(m.req("GET", `/ump/memory/${first.id}`))).record;
    expect(old.time.valid_to).toBe(c.at());
    expect(old.superseded_by).toEqual([rev.id]);
    const cur = (await json(m.req("GET", `/ump/memory/${rev.id}`))).record;
    expect(cur).toMatchObject({ supersedes: [first.id], title: "staging db", time: { valid_from: c.at(), valid_to: null } });
    c.advance(HOUR);
    const now = await json(m.req("POST", "/ump/recall", { query: "staging database", limit: 5 }));
    expect(now.results.map((r: { record: { id: string } }) => r.record.id)).toEqual([rev.id]);
    const past = await json(m.req("POST", "/ump/recall", { query: "staging database", filter: { valid_at: createdAt } }));
    expect(past.results.map((r: { record: { id: string } }) => r.record.id)).toEqual([first.id]);
    // The legacy /recall serves only the current version too (one kernel, one temporal seam).
    const legacy = await json(m.req("POST", "/recall", { query: "staging database" }));
    expect(legacy.hits.map((h: { content: string }) => h.content)).toEqual(["The staging database moved to eu-central-1"]);
  });

  it("the new version stays in the domain of the record it revises", async () => {
    const m = (t = await openTestMemory());
    await m.req("POST", "/domains", { name: "work" });
    await m.req("POST", "/ingest", { domain: "work", title: "staging db", content: "The staging database lives in eu-west-1" });
    const old = JSON.parse(await (await m.req("GET", "/export?format=ump")).text()).records[0];
    await json(m.req("POST", "/ump/revise", { id: old.id, patch: { body: { text: "The staging database moved to eu-central-1" } } }));
    const inWork = await json(m.req("POST", "/recall", { query: "staging database", domain: "work" }));
    expect(inWork.hits.map((h: { content: string; domain?: string }) => h.content)).toEqual(["The staging database moved to eu-central-1"]);
  });

  it("revising a superseded version is a 409 conflict; patching fixed members is invalid_record", async () => {
    const m = (t = await openTestMemory());
    const a = await json(m.req("POST", "/ump/remember", rec("first wording of a fact")));
    await json(m.req("POST", "/ump/revise", { id: a.id, patch: { body: { text: "second wording of a fact" } } }));
    const again = await m.req("POST", "/ump/revise", { id: a.id, patch: { body: { text: "third wording" } } });
    expect(again.status).toBe(409);
    const fixed = await m.req("POST", "/ump/revise", { id: a.id, patch: { id: "urn:ump:aaaa" } });
    expect((await fixed.json()).error.code).toBe("invalid_record");
  });

  it("a title-only revision shares the chunk and keeps both versions", async () => {
    const m = (t = await openTestMemory());
    const a = await json(m.req("POST", "/ump/remember", rec("same text, new title", { title: "old" })));
    const b = await json(m.req("POST", "/ump/revise", { id: a.id, patch: { title: "new" } }));
    expect((await json(m.req("GET", `/ump/memory/${b.id}`))).record.title).toBe("new");
    expect((await json(m.req("GET", `/ump/memory/${a.id}`))).record.superseded_by).toEqual([b.id]);
  });
});

describe("forget", () => {
  it("soft forget tombstones the lineage: not served, tombstone and audit rows, chunk kept", async () => {
    const m = (t = await openTestMemory());
    const a = await json(m.req("POST", "/ump/remember", rec("The VPN password rotates weekly")));
    const b = await json(m.req("POST", "/ump/revise", { id: a.id, patch: { body: { text: "The VPN password rotates daily" } } }));
    const f = await json(m.req("POST", "/ump/forget", { id: b.id, reason: "user asked" }));
    expect(f).toEqual({ result: "tombstoned" });
    for (const id of [a.id, b.id]) expect((await m.req("GET", `/ump/memory/${id}`)).status).toBe(404);
    expect((await json(m.req("POST", "/ump/recall", { query: "VPN password rotates" }))).results).toEqual([]);
    expect((await json(m.req("POST", "/recall", { query: "VPN password rotates" }))).hits).toEqual([]);
    const audit = await json(m.req("POST", "/ump/audit", { action: "ump_forget" }));
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].detail).toMatchObject({ hard: false, reason_ref: expect.stringMatching(/^[0-9a-f]{64}$/), ids: expect.arrayContaining([a.id, b.id]) });
    // The append-only audit row keeps the reason's salted hash, never the free text (issue 35).
    expect(JSON.stringify(audit.rows)).not.toContain("user asked");
    const tomb = await m.memory.db.execute("SELECT COUNT(*) AS n FROM tombstones WHERE reason LIKE 'ump_forget%'");
    expect(Number(tomb.rows[0].n)).toBe(2);
    expect(Number((await m.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n)).toBe(2);
    expect((await m.req("POST", "/ump/forget", { id: a.id })).status).toBe(404);
  });

  it("hard forget erases the chunks, vectors and rows of the lineage, with tombstones and audit rows", async () => {
    const m = (t = await openTestMemory());
    const a = await json(m.req("POST", "/ump/remember", rec("Alice's phone is in the HR sheet")));
    const b = await json(m.req("POST", "/ump/revise", { id: a.id, patch: { body: { text: "Alice's phone moved to the vault" } } }));
    expect(await json(m.req("POST", "/ump/forget", { id: a.id, hard: true, reason: "erasure request" }))).toEqual({ result: "erased" });
    for (const table of ["chunks", "ump_records"]) {
      expect(Number((await m.memory.db.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n), table).toBe(0);
    }
    for (const id of [a.id, b.id]) expect((await m.req("GET", `/ump/memory/${id}`)).status).toBe(404);
    const forgets = await json(m.req("POST", "/ump/audit", { action: "ump_forget" }));
    expect(forgets.rows).toHaveLength(1);
    expect(forgets.rows[0].detail).toMatchObject({ hard: true, reason_ref: expect.stringMatching(/^[0-9a-f]{64}$/), ids: expect.arrayContaining([a.id, b.id]) });
    expect(JSON.stringify(forgets.rows)).not.toContain("erasure request");
    expect(forgets.rows[0].detail.chunks).toHaveLength(2);
    const tombs = await m.memory.db.execute("SELECT COUNT(*) AS n FROM tombstones WHERE reason = 'ump_forget'");
    expect(Number(tombs.rows[0].n)).toBe(2);
    expect((await json(m.req("GET", "/ump/audit/verify"))).ok).toBe(true);
  });

  it("hard forget keeps a chunk another record still uses", async () => {
    const m = (t = await openTestMemory());
    const mine = await json(m.req("POST", "/ump/remember", rec("shared wording", { scope: { project: "x" } })));
    const other = await json(m.req("POST", "/ump/remember", rec("shared wording", { scope: { project: "y" } })));
    expect(other.result).toBe("created");
    await json(m.req("POST", "/ump/forget", { id: mine.id, hard: true }));
    expect((await m.req("GET", `/ump/memory/${other.id}`)).status).toBe(200);
    expect((await m.req("GET", `/ump/memory/${mine.id}`)).status).toBe(404);
  });
});

describe("feedback and subscribe", () => {
  it("stores and counts feedback, which moves the salience signal", async () => {
    const m = (t = await openTestMemory());
    const a = await json(m.req("POST", "/ump/remember", rec("Prefer squash merges on the api repo")));
    const before = (await json(m.req("POST", "/ump/recall", { query: "squash merges" }))).results[0].signals.salience;
    for (const outcome of ["followed", "followed", "ignored"]) {
      expect(await json(m.req("POST", "/ump/feedback", { id: a.id, outcome, session: "s1" }))).toEqual({ ok: true });
    }
    const got = await json(m.req("GET", `/ump/memory/${a.id}`));
    expect(got.feedback).toEqual({ followed: 2, overridden: 0, ignored: 1, contradicted: 0 });
    const after = (await json(m.req("POST", "/ump/recall", { query: "squash merges" }))).results[0].signals;
    expect(after.salience).toBeCloseTo(before + 0.1, 6);
    expect(Object.keys(after).sort()).toEqual(["provenance_depth", "recency", "salience", "scope_match", "similarity"]);
  });

  it("streams {kind, id} change events, never bodies, only for records the subscriber may read", async () => {
    const k = (t = await openKeyed());
    const peer = didFromSeed(generateSeed());
    const op = k.token(["read", "write"]);
    const sub = await k.as(k.token(["read"], {}, { aud: peer }), "GET", "/ump/subscribe");
    expect(sub.status).toBe(200);
    expect(sub.headers.get("content-type")).toContain("text/event-stream");
    const reader = sub.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const readUntil = async (needle: string) => {
      while (!seen.includes(needle)) seen += decoder.decode((await reader.read()).value);
    };
    await readUntil(": connected");
    const hidden = await json(k.as(op, "POST", "/ump/remember", rec("operator-private note, not for peers")));
    const shared = await json(k.as(op, "POST", "/ump/remember", rec("a shared runbook step", { scope: { visibility: "shared" } })));
    await readUntil(shared.id);
    await reader.cancel();
    const events = seen.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
    expect(events).toEqual([{ kind: "created", id: shared.id }]);
    expect(seen).not.toContain(hidden.id);
    expect(seen).not.toContain("runbook");
  });
});

describe("consent", () => {
  it("strips consent.redact paths on export and across a visibility boundary, re-signed so it still verifies", async () => {
    const k = (t = await openKeyed());
    const peer = didFromSeed(generateSeed());
    const op = k.token(["read", "write", "export"]);
    const body = rec("deploy key handling for the shared CI", {
      body: { text: "deploy key handling for the shared CI", structured: { key_id: "k-123", owner_email: "ops@example.com" } },
      scope: { visibility: "shared" }, consent: { redact: ["body.structured.owner_email"], exportable: true },
    });
    const r = await json(k.as(op, "POST", "/ump/remember", body));
    const own = (await json(k.as(op, "GET", `/ump/memory/${r.id}`))).record;
    expect(own.body.structured.owner_email).toBe("ops@example.com");
    const seen = (await json(k.as(k.token(["read"], {}, { aud: peer }), "GET", `/ump/memory/${r.id}`))).record;
    expect(seen.body.structured).toEqual({ key_id: "k-123" });
    expect(independentVerify(seen)).toBe(true);
    const exported = (await json(k.as(op, "GET", "/export?format=ump"))).records.find((x: { id: string }) => x.id === r.id);
    expect(exported.body.structured).toEqual({ key_id: "k-123" });
    expect(independentVerify(exported)).toBe(true);
    const md = await (await k.as(op, "GET", "/export?format=ump-md")).text();
    expect(md).not.toContain("ops@example.com");
  });

  it("leaves consent.exportable=false records out of exports", async () => {
    const m = (t = await openTestMemory());
    const keep = await json(m.req("POST", "/ump/remember", rec("exportable memory")));
    await json(m.req("POST", "/ump/remember", rec("stays on this machine", { consent: { exportable: false } })));
    expect((await json(m.req("GET", "/export?format=ump"))).records.map((r: { id: string }) => r.id)).toEqual([keep.id]);
  });

  it("consent.retention expiry hides the record at once and the sweep tombstones it with an audit row", async () => {
    const c = manualClock();
    const m = (t = await openTestMemory({}, { clock: c.clock }));
    const r = await json(m.req("POST", "/ump/remember", rec("temporary incident bridge number", { consent: { retention: "PT2H" } })));
    const keep = await json(m.req("POST", "/ump/remember", rec("permanent incident bridge policy")));
    expect((await json(m.req("POST", "/ump/recall", { query: "incident bridge" }))).results).toHaveLength(2);
    c.advance(3 * HOUR);
    const after = await json(m.req("POST", "/ump/recall", { query: "incident bridge" }));
    expect(after.results.map((x: { record: { id: string } }) => x.record.id)).toEqual([keep.id]);
    expect((await m.req("GET", `/ump/memory/${r.id}`)).status).toBe(404);
    const audit = await json(m.req("POST", "/ump/audit", { action: "ump_retention_expired" }));
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].detail.ids).toEqual([r.id]);
    const row = await m.memory.db.execute({ sql: "SELECT status FROM ump_records WHERE id = ?", args: [r.id] });
    expect(row.rows[0].status).toBe("tombstoned");
  });
});

describe("one kernel", () => {
  it("serves a chunk written through /ingest as a UMP record with a stable content-addressed id", async () => {
    const m = (t = await openTestMemory());
    await json(m.req("POST", "/ingest", { title: "Backups", content: "Nightly backups run at 02:00 UTC to the cold bucket" }));
    const a = await json(m.req("POST", "/ump/recall", { query: "nightly backups" }));
    expect(a.results).toHaveLength(1);
    const record = a.results[0].record;
    expect(record).toMatchObject({ kind: "semantic", title: "Backups", scope: { owner: "did:cairn:local", visibility: "private" } });
    const b = await json(m.req("POST", "/ump/recall", { query: "nightly backups" }));
    expect(b.results[0].record.id).toBe(record.id);
    expect((await m.req("GET", `/ump/memory/${record.id}`)).status).toBe(200);
    expect(a.results[0].untrusted).toBe(true);
  });

  it("drops a record's rows when its chunk is deleted through DELETE /memory/{id}", async () => {
    const m = (t = await openTestMemory());
    const r = await json(m.req("POST", "/ump/remember", rec("to be deleted through the chunk route")));
    const chunk = await m.memory.db.execute({ sql: "SELECT chunk_id FROM ump_records WHERE id = ?", args: [r.id] });
    expect((await m.req("DELETE", `/memory/${chunk.rows[0].chunk_id}`)).status).toBe(200);
    expect((await m.req("GET", `/ump/memory/${r.id}`)).status).toBe(404);
    expect(Number((await m.memory.db.execute("SELECT COUNT(*) AS n FROM ump_records")).rows[0].n)).toBe(0);
  });

  it("applies the read seam to served text and re-seals the view", async () => {
    const m = (t = await openTestMemory());
    const r = await json(m.req("POST", "/ump/remember", rec("Call ops at ops-lead@example.com when paged")));
    expect(r.flagged).toBeUndefined();
    const got = (await json(m.req("GET", `/ump/memory/${r.id}`))).record;
    expect(got.body.text).toBe("Call ops at [redacted:email] when paged");
    // Export goes through the same seam (SPEC §4 export); only an operator's raw export carries the stored text.
    const exported = (await json(m.req("GET", "/export?format=ump"))).records[0];
    expect(exported.body.text).toBe("Call ops at [redacted:email] when paged");
    expect(exported.integrity.content_hash).toBe(got.integrity.content_hash);
    const raw = (await json(m.req("GET", "/export?format=ump&raw=true"))).records[0];
    expect(raw.body.text).toBe("Call ops at ops-lead@example.com when paged");
    expect(got.integrity.content_hash).not.toBe(raw.integrity.content_hash);
  });
});
