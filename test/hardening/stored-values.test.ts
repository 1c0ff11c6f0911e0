/**
 * Issue 23 §2: the last 500s and values stored unvalidated. Each body here
 * once answered 500 or was stored as sent; each must now be a 400 with the
 * SPEC §7 envelope and leave the store unchanged. A 500 that remains logs one
 * line carrying a request id the client also receives.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
let logged: { level: string; message: string; fields: Record<string, unknown> }[];
beforeEach(async () => {
  logged = [];
  t = await openTestMemory({}, { log: (level, message, fields) => void logged.push({ level, message, fields }) });
});
afterEach(async () => { await t.close(); });

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await t.memory.db.execute(sql)).rows as unknown as Record<string, unknown>[];
}
const chunkCount = async () => Number((await rows("SELECT COUNT(*) AS n FROM chunks"))[0]!.n);

async function refused(path: string, body: string | unknown, code?: string): Promise<void> {
  const res = await t.req("POST", path, body);
  expect(res.status, `${path} ${typeof body === "string" ? body : JSON.stringify(body)}`).toBe(400);
  const env = await res.json();
  expect(typeof env.error.code).toBe("string");
  if (code) expect(env.error.code).toBe(code);
}

describe("POST /ingest/memory batch: body-level domain and origin are validated", () => {
  for (const domain of ["{}", "[]", "1e400", "1", "true"]) {
    it(`domain ${domain} is a 400, nothing stored`, async () => {
      await refused("/ingest/memory", `{"entries":["hi there"],"domain":${domain}}`, "domain_invalid");
      expect(await chunkCount()).toBe(0);
    });
  }
  for (const origin of ["[]", "{}", '"root"', "7"]) {
    it(`origin ${origin} is a 400, nothing stored`, async () => {
      await refused("/ingest/memory", `{"entries":["hi there"],"origin":${origin}}`);
      expect(await chunkCount()).toBe(0);
    });
  }
  it("a valid body-level origin still applies to string entries", async () => {
    const res = await t.req("POST", "/ingest/memory", { entries: ["a human wrote this"], origin: "human" });
    expect(res.status).toBe(200);
    expect((await rows("SELECT origin FROM chunks"))[0]!.origin).toBe("human");
  });
});

describe("timestamps are strict ISO-8601", () => {
  for (const v of ["-1", "1.5", "2024", "12", "Tuesday"]) {
    it(`expires_at ${JSON.stringify(v)} on /ingest is a 400`, async () => {
      await refused("/ingest", { title: "t", content: "timestamp probe", expires_at: v });
      expect(await chunkCount()).toBe(0);
    });
    it(`valid_at ${JSON.stringify(v)} on a relation is a 400`, async () => {
      await refused("/ingest", {
        title: "t", content: "relation probe", entities: [{ name: "a" }, { name: "b" }],
        relations: [{ from: "a", to: "b", type: "knows", valid_at: v }],
      });
      expect(await chunkCount()).toBe(0);
    });
  }
  it("a full timestamp and a date are accepted", async () => {
    expect((await t.req("POST", "/ingest", { title: "t", content: "good stamp", expires_at: "2031-01-02T03:04:05Z" })).status).toBe(200);
    expect((await t.req("POST", "/ingest", { title: "t", content: "good date", expires_at: "2031-01-02" })).status).toBe(200);
  });
});

describe("the ump field of a ?format=ump batch must be a version string", () => {
  for (const v of ["1", "true", "null", "{}", "[]"]) {
    it(`ump ${v} is a 400`, async () => {
      await refused("/ingest?format=ump", `{"ump":${v},"records":[{"kind":"semantic","body":{"text":"x"}},{"kind":"semantic","body":{"text":"y"}}]}`, "invalid_record");
      expect(await chunkCount()).toBe(0);
    });
  }
  it('ump "1.0" imports the same batch', async () => {
    const res = await t.req("POST", "/ingest?format=ump", '{"ump":"1.0","records":[{"kind":"semantic","body":{"text":"x"}},{"kind":"semantic","body":{"text":"y"}}]}');
    expect(res.status).toBe(200);
    expect(await chunkCount()).toBe(2);
  });
});

describe("POST /consolidate/propose validates its domain", () => {
  it('domain "" is a 400', async () => { await refused("/consolidate/propose", { domain: "" }, "domain_invalid"); });
  it("a 100 KB domain is a 400", async () => { await refused("/consolidate/propose", { domain: "a".repeat(100_000) }, "domain_invalid"); });
  it("an unknown well-formed domain proposes nothing", async () => {
    expect((await t.req("POST", "/consolidate/propose", { domain: "general" })).status).toBe(200);
  });
});

describe("lone surrogates are refused, never stored as U+FFFD", () => {
  it("a lone high surrogate in content is a 400 invalid_unicode", async () => {
    await refused("/ingest", '{"title":"t","content":"before \\ud800 after"}', "invalid_unicode");
    expect(await chunkCount()).toBe(0);
  });
  it("a lone low surrogate in a key is a 400", async () => {
    await refused("/ingest/memory", '{"entries":["x"],"\\udc00":1}', "invalid_unicode");
  });
  it("a proper surrogate pair (an emoji) is stored as sent", async () => {
    const res = await t.req("POST", "/ingest", '{"title":"t","content":"rock \\ud83e\\udea8 cairn"}');
    expect(res.status).toBe(200);
    expect((await rows("SELECT content FROM chunks"))[0]!.content).toBe("rock \u{1FAA8} cairn");
  });
});

describe("a 500 logs one line with a request id the client also receives", () => {
  it("answers internal_error with details.request_id and X-Request-Id, logged once", async () => {
    // A route that fails the way a database does, rendered by the app's own error path.
    const res = await (async () => {
      const { Hono } = await import("hono");
      const { renderError } = await import("../../src/http/app.ts");
      const app = new Hono();
      app.get("/boom", () => { throw new Error("SQLITE_IOERR: disk I/O error at /secret/path"); });
      app.onError((e, c) => renderError(e, c, t.memory));
      return await app.request("/boom");
    })();
    expect(res!.status).toBe(500);
    const body = await res!.json();
    expect(body.error.code).toBe("internal_error");
    expect(body.error.message).not.toMatch(/secret|SQLITE/);
    const id = body.error.details.request_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res!.headers.get("x-request-id")).toBe(id);
    const lines = logged.filter((l) => l.level === "error");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fields.request_id).toBe(id);
  });
});
