/**
 * SPEC §1 "Storage stays verbatim. Every emitted text field is transformed at the read seam": `GET /export` and
 * `cairn ump export` emit what `/ump/memory` and `/recall` emit to the same caller (PII redacted without `pii:read`,
 * markdown reference definitions and invisible characters stripped), re-sealed so every record still verifies. A raw
 * backup is a separate, explicit choice: `raw=true` (`--raw`), for the operator only, and audited.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseUmpMarkdown } from "../../src/ump/files.ts";
import { cairnInProcess } from "../_helpers/cli.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { nowS, signJwt } from "../auth/_jwt.ts";
import { independentVerify } from "./_independent-verifier.ts";
import { openKeyed } from "./_keyed.ts";

const open: TestMemory[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
});

const TEXT = "Escalate to dana@example.org or +44 20 7946 0958.\n\n[runbook]: https://intranet.example/runbook\n\nZero\u200Bwidth.";

describe("GET /export goes through the read seam", () => {
  it("emits the same redacted text /ump/memory serves, re-sealed so the record still verifies, in both formats", async () => {
    const m = await openKeyed();
    open.push(m);
    const token = m.token(["read", "write", "export"]);
    const { id } = await (await m.as(token, "POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text: TEXT }, title: "Mail dana@example.org" })).json();
    const got = await (await m.as(token, "GET", `/ump/memory/${encodeURIComponent(id)}`)).json();
    const served = got.record ?? got;
    expect(served.body.text).toContain("[redacted:email]");

    const env = await (await m.as(token, "GET", "/export?format=ump")).json();
    const rec = env.records.find((r: { id: string }) => r.id === id);
    expect(rec.body.text).toBe(served.body.text);
    expect(rec.title).toBe(served.title);
    for (const raw of ["dana@example.org", "7946 0958", "intranet.example", "\u200B"]) expect(JSON.stringify(env)).not.toContain(raw);
    expect(independentVerify(rec)).toBe(true);

    const md = await (await m.as(token, "GET", "/export?format=ump-md")).text();
    // A capability token is never the operator: no raw backup.
    expect((await m.as(token, "GET", "/export?format=ump&raw=true")).status).toBe(403);
    for (const raw of ["dana@example.org", "7946 0958", "intranet.example"]) expect(md).not.toContain(raw);
    expect((parseUmpMarkdown(md).find((r) => r.id === id) as { body: { text: string } }).body.text).toBe(served.body.text);
    // Storage stays verbatim.
    const stored = await m.memory.db.execute("SELECT content FROM chunks");
    expect(stored.rows.map((r) => String(r.content)).join()).toContain("dana@example.org");
  });

  it("gives the operator a raw backup only when asked, and audits it; anyone else is refused", async () => {
    const dir = tempDir();
    const secret = join(dir, "hs");
    writeFileSync(secret, "an-hs256-secret-that-is-at-least-32-bytes-long");
    chmodSync(secret, 0o600);
    const m = await openTestMemory({ CAIRN_JWT_SECRET_FILE: secret }, {}, dir);
    open.push(m);
    const as = (roles: string[]) => ({ authorization: `Bearer ${signJwt("HS256", { sub: "ops", roles, exp: nowS() + 600 }, "an-hs256-secret-that-is-at-least-32-bytes-long")}` });
    expect((await m.req("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text: TEXT } }, as(["admin"]))).status).toBe(200);
    const raw = await m.req("GET", "/export?format=ump&raw=true", undefined, as(["admin"]));
    expect(raw.status).toBe(200);
    expect(JSON.stringify(await raw.json())).toContain("dana@example.org");
    const rows = (await m.memory.audit.list({ action: "export_raw" })).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.detail).toMatchObject({ format: "ump", records: 1 });
    const refused = await m.req("GET", "/export?format=ump&raw=true", undefined, as(["reader", "writer"]));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
    expect((await m.req("GET", "/export?format=ump&raw=maybe", undefined, as(["admin"]))).status).toBe(400);
  });

  it("cairn ump export redacts by default and writes the raw backup with --raw, audited", async () => {
    const m = await openTestMemory();
    await m.req("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text: TEXT } });
    await m.memory.close();
    const env = { CAIRN_DB_PATH: m.dbPath, CAIRN_CONFIG_DIR: join(m.dir, "config") };
    const plain = await cairnInProcess(["ump", "export"], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("[redacted:email]");
    expect(plain.stdout).not.toContain("dana@example.org");
    const raw = await cairnInProcess(["ump", "export", "--raw"], env);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toContain("dana@example.org");
    const again = await openTestMemory({}, {}, m.dir);
    open.push(again);
    expect((await again.memory.audit.list({ action: "export_raw" })).rows).toHaveLength(1);
  });
});
