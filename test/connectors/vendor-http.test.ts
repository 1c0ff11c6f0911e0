import { mkdtempSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSubjectRef } from "../../src/connectors/subject-salt.ts";
import { createVendorHttp, retryAfterSec } from "../../src/connectors/vendor-http.ts";
import { VendorError } from "../../src/connectors/vendor.ts";
import { privateSaltFile } from "../../src/runtime/private-file.ts";
import { startServer } from "../outbound/_server.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function server(handle: Parameters<typeof startServer>[0]) {
  const s = await startServer(handle);
  closers.push(s.close);
  return s;
}

const noDns = async () => [] as string[];

function http(origin: string, extra: Partial<Parameters<typeof createVendorHttp>[0]> = {}) {
  const waits: number[] = [];
  const h = createVendorHttp({
    allowedOrigins: [origin], allowLoopback: true, resolve: noDns, backoffMs: 10,
    sleep: async (ms) => void waits.push(ms), ...extra,
  });
  return { h, waits };
}

async function failure(p: Promise<unknown>): Promise<VendorError> {
  try {
    await p;
  } catch (e) {
    return e as VendorError;
  }
  throw new Error("expected a VendorError");
}

describe("createVendorHttp", () => {
  it("retries a 429 after its Retry-After seconds, then returns the JSON body", async () => {
    const s = await server((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { "retry-after": "7", "content-type": "application/json" });
        return res.end('{"message":"slow down"}');
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    const { h, waits } = http(s.origin);
    const r = await h.getJson(`${s.origin}/x`, { accept: "application/json" });
    expect(r.body).toEqual({ ok: true });
    expect(waits).toEqual([7000]);
    expect(s.seen).toHaveLength(2);
  });

  it("reads an HTTP-date Retry-After and GitHub's x-ratelimit-reset", () => {
    const now = new Date("2026-11-25T10:00:00Z");
    expect(retryAfterSec(new Headers({ "retry-after": "Wed, 25 Nov 2026 10:00:30 GMT" }), now)).toBe(30);
    const reset = String(now.getTime() / 1000 + 42);
    expect(retryAfterSec(new Headers({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }), now)).toBe(42);
    expect(retryAfterSec(new Headers({ "x-ratelimit-remaining": "10", "x-ratelimit-reset": reset }), now)).toBeUndefined();
  });

  it("gives up on persistent 5xx after the bounded retries with a safe message", async () => {
    const s = await server((_req, res) => {
      res.writeHead(503);
      res.end("secret-looking body");
    });
    const { h, waits } = http(s.origin, { retries: 2 });
    const e = await failure(h.getJson(`${s.origin}/tickets?token=abc`, {}));
    expect(e).toBeInstanceOf(VendorError);
    expect(e.reason).toBe("server_error");
    expect(s.seen).toHaveLength(3);
    expect(waits).toEqual([10, 20]);
    expect(e.message).not.toContain("token=abc");
    expect(e.message).not.toContain("secret-looking");
  });

  it("refuses a Retry-After beyond the cap without waiting", async () => {
    const s = await server((_req, res) => {
      res.writeHead(429, { "retry-after": "3600" });
      res.end();
    });
    const { h, waits } = http(s.origin, { maxRetryAfterSec: 120 });
    const e = await failure(h.getJson(`${s.origin}/x`, {}));
    expect(e.reason).toBe("rate_limited");
    expect(waits).toEqual([]);
  });

  it("maps malformed JSON, 401 and a redirect to malformed, auth and refused", async () => {
    const s = await server((req, res) => {
      if (req.url === "/bad") return res.end("{not json");
      if (req.url === "/auth") {
        res.writeHead(401);
        return res.end();
      }
      res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" });
      res.end();
    });
    const { h } = http(s.origin);
    expect((await failure(h.getJson(`${s.origin}/bad`, {}))).reason).toBe("malformed");
    expect((await failure(h.getJson(`${s.origin}/auth`, {}))).reason).toBe("auth");
    expect((await failure(h.getJson(`${s.origin}/redir`, {}))).reason).toBe("refused");
    expect(s.seen.map((r) => r.url)).toEqual(["/bad", "/auth", "/redir"]);
  });

  it("never contacts a host that is not in config, nor loopback without the opt-in", async () => {
    const s = await server((_req, res) => res.end("{}"));
    const other = await server((_req, res) => res.end("{}"));
    const { h } = http(s.origin);
    expect((await failure(h.getJson(`${other.origin}/x`, {}))).reason).toBe("refused");
    const closed = createVendorHttp({ allowedOrigins: [s.origin], resolve: noDns, sleep: async () => {} });
    expect((await failure(closed.getJson(`${s.origin}/x`, {}))).reason).toBe("refused");
    expect(other.seen).toHaveLength(0);
    expect(s.seen).toHaveLength(0);
  });

  it("retries a timeout and reports it after the last attempt", async () => {
    const s = await server(() => { /* never answers */ });
    // Attempts are counted at the client: under load the server may not have read a request before its deadline.
    let attempts = 0;
    const fetchImpl: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const { h } = http(s.origin, { timeoutMs: 300, retries: 1, fetchImpl });
    const e = await failure(h.getJson(`${s.origin}/slow`, {}));
    expect(e.reason).toBe("timeout");
    expect(e.message).toMatch(/gave up after 2 attempts/);
    expect(attempts).toBe(2);
  });

  it("posts JSON for the token exchange", async () => {
    const s = await server((req, res) => {
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, type: req.headers["content-type"], body: JSON.parse(req.body) }));
    });
    const { h } = http(s.origin);
    const r = await h.postJson(`${s.origin}/t`, {}, { a: 1 });
    expect(r.body).toEqual({ method: "POST", type: "application/json", body: { a: 1 } });
  });
});

describe("subjectRef", () => {
  it("hashes identities with a salt kept in a 0600 file made on first use", async () => {
    const dir = mkdtempSync(join(tmpdir(), "salt-"));
    const path = join(dir, "connectors", "subject-salt");
    const ref = createSubjectRef(privateSaltFile(path));
    const a = await ref("Ann@Example.com");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await ref("ann@example.com ")).toBe(a);
    expect(await ref("bob@example.com")).not.toBe(a);
    // A second process reads the same salt, so refs stay linkable across runs.
    expect(await createSubjectRef(privateSaltFile(path))("ann@example.com")).toBe(a);
    // A different salt gives a different ref: the hash is salted, not a bare SHA-256.
    const other = join(dir, "other-salt");
    expect(await createSubjectRef(privateSaltFile(other))("ann@example.com")).not.toBe(a);
  });

  it("refuses a salt file readable by others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "salt-"));
    const path = join(dir, "subject-salt");
    writeFileSync(path, "ab".repeat(32));
    chmodSync(path, 0o644);
    await expect(createSubjectRef(privateSaltFile(path))("x")).rejects.toThrow(/chmod 600/);
  });
});
