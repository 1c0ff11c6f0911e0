/**
 * Issue 23 §1: cross-site request forgery and DNS rebinding against the
 * default, credential-less loopback posture. The request sets are what a
 * browser sends: simple (non-preflighted) cross-site POSTs with text/plain,
 * form and multipart bodies, a rebinding page's Host, and the same-origin
 * fetch the web client at /app makes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

const raw = (method: string, path: string, headers: Record<string, string>, body?: BodyInit) =>
  Promise.resolve(t.app.request(`http://127.0.0.1:8765${path}`, { method, headers, body }, { remoteAddr: "127.0.0.1" }));

async function chunkCount(): Promise<number> {
  return Number((await t.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0]!.n);
}

describe("content type on JSON routes (415 with the envelope)", () => {
  const simple: [string, Record<string, string>, BodyInit | undefined][] = [
    ["text/plain", { "content-type": "text/plain;charset=UTF-8" }, JSON.stringify({ title: "t", content: "csrf text" })],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }, '{"title":"t","content":"csrf form"}='],
    ["multipart", { "content-type": "multipart/form-data; boundary=x" }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n{}\r\n--x--\r\n'],
    ["no type", { "content-length": "35" }, new TextEncoder().encode(JSON.stringify({ title: "t", content: "csrf none" }))],
  ];
  for (const [name, headers, body] of simple) {
    it(`refuses a JSON write sent as ${name}, writing nothing`, async () => {
      const res = await raw("POST", "/ingest", headers, body);
      expect(res.status).toBe(415);
      expect((await res.json()).error.code).toBe("unsupported_media_type");
      expect(res.headers.get("x-api-version")).toBeTruthy();
      expect(await chunkCount()).toBe(0);
    });
  }

  it("refuses the purge a cross-site page posts as text/plain", async () => {
    const ing = await t.req("POST", "/ingest", { title: "keep", content: "kept across a forged purge" });
    const id = (await ing.json()).id;
    const res = await raw("POST", "/purge", { "content-type": "text/plain" }, JSON.stringify({ ids: [id] }));
    expect(res.status).toBe(415);
    expect(await chunkCount()).toBe(1);
  });

  it("accepts application/json with a charset parameter", async () => {
    const res = await raw("POST", "/ingest", { "content-type": "Application/JSON; charset=utf-8" }, JSON.stringify({ title: "t", content: "fine" }));
    expect(res.status).toBe(200);
  });

  it("lets a bodiless POST through (nothing to parse)", async () => {
    const res = await raw("POST", "/domains/none/vacuum", {});
    expect(res.status).not.toBe(415);
  });

  it("keeps the raw snapshot import reachable as application/octet-stream", async () => {
    const res = await raw("POST", "/domains/general/import", { "content-type": "application/octet-stream" }, new Uint8Array([1, 2, 3]));
    expect(res.status).not.toBe(415);
  });
});

describe("Host and Origin in the credential-less posture (403 origin_refused)", () => {
  it("refuses a DNS-rebinding Host on the full export", async () => {
    const res = await raw("GET", "/export", { host: "attacker.example:8765" });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe("origin_refused");
    expect(body.error.details.reason).toBe("host_not_loopback");
  });

  it("refuses a cross-site Origin on a JSON write, writing nothing", async () => {
    const res = await raw("POST", "/ingest", { "content-type": "application/json", origin: "https://evil.example" }, JSON.stringify({ title: "t", content: "forged" }));
    expect(res.status).toBe(403);
    expect((await res.json()).error.details.reason).toBe("origin_mismatch");
    expect(await chunkCount()).toBe(0);
  });

  it("refuses Origin null (sandboxed frames, file pages)", async () => {
    const res = await raw("GET", "/stats", { origin: "null" });
    expect(res.status).toBe(403);
  });

  it("refuses another loopback port's page (a different origin)", async () => {
    const res = await raw("GET", "/stats", { origin: "http://127.0.0.1:9999" });
    expect(res.status).toBe(403);
  });

  for (const host of ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "127.0.0.2"]) {
    it(`accepts the loopback Host ${host}`, async () => {
      const res = await raw("GET", "/stats", { host });
      expect(res.status).toBe(200);
    });
  }

  it("serves the same-origin fetch the /app client makes", async () => {
    const res = await raw("POST", "/ingest", {
      "content-type": "application/json", origin: "http://127.0.0.1:8765", "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors",
    }, JSON.stringify({ title: "app", content: "written by the web client" }));
    expect(res.status).toBe(200);
    expect(await chunkCount()).toBe(1);
  });

  it("does not apply the Host rule once a credential is configured", async () => {
    const tok = await openTestMemory({ AUTH_TOKEN: "s3cret-token-value-long-enough" });
    try {
      const res = await Promise.resolve(tok.app.request("http://cairn.internal/stats", { headers: { authorization: "Bearer s3cret-token-value-long-enough" } }, { remoteAddr: "10.0.0.5" }));
      expect(res.status).toBe(200);
    } finally {
      await tok.close();
    }
  });
});
