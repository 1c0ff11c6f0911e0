import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAuthenticator } from "../../src/auth/authenticator.ts";
import { timingSafeEqual } from "../../src/auth/constant-time.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { keyPair, nowS, signJwt } from "./_jwt.ts";

const TOKEN = "op-token-0123456789abcdef";
const HS_SECRET = "an-hs256-secret-that-is-at-least-32-bytes-long";
let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function file(dir: string, name: string, text: string, mode = 0o600): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

async function expect401(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Missing, invalid or expired credential" } });
}

describe("opaque bearer (SPEC §5 item 1)", () => {
  it("answers 401 unauthorized for a missing, malformed or wrong credential on every non-public route", async () => {
    t = await openTestMemory({ AUTH_TOKEN: TOKEN });
    for (const headers of [{}, { authorization: "" }, { authorization: `Basic ${btoa("a:b")}` }, { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, { authorization: "Bearer" }, { authorization: `Bearer ${TOKEN} extra` }] as Record<string, string>[]) {
      await expect401(await t.req("GET", "/stats", undefined, headers));
      await expect401(await t.req("POST", "/ingest", { title: "t", content: "c" }, headers));
    }
    // Nothing was written by the refused ingests.
    expect((await (await t.req("GET", "/stats", undefined, { authorization: `Bearer ${TOKEN}` })).json()).docs).toBe(0);
  });

  it("requires the token from loopback too once one is configured, and accepts it case-insensitively on the scheme", async () => {
    t = await openTestMemory({ AUTH_TOKEN: TOKEN });
    await expect401(await t.req("GET", "/domains", undefined, {}, "127.0.0.1"));
    expect((await t.req("GET", "/domains", undefined, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    expect((await t.req("POST", "/ingest", { title: "t", content: "c" }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it("serves the three public routes without a credential and keeps unmatched paths probe-blind 404s", async () => {
    t = await openTestMemory({ AUTH_TOKEN: TOKEN });
    expect((await t.req("GET", "/health")).status).toBe(200);
    const miss = await t.req("GET", "/admin/secret");
    expect(miss.status).toBe(404);
    expect(await miss.json()).toEqual({ error: { code: "not_found", message: "not found" } });
    // A wrong method on a known path is unmatched too.
    expect((await t.req("PUT", "/stats")).status).toBe(404);
  });

  it("compares the token through the constant-time comparator", async () => {
    const calls: [string, string][] = [];
    const auth = createAuthenticator({
      credentials: { bearerToken: TOKEN, jwtKeys: {}, required: true }, now: () => new Date(),
      compare: (a, b) => {
        calls.push([a, b]);
        return timingSafeEqual(a, b);
      },
    });
    expect((await auth.authenticate({ authorization: `Bearer ${TOKEN}`, acceptsCapability: false })).ok).toBe(true);
    expect((await auth.authenticate({ authorization: "Bearer nope", acceptsCapability: false })).ok).toBe(false);
    expect(calls).toEqual([[TOKEN, TOKEN], ["nope", TOKEN]]);
  });

  it("timingSafeEqual agrees with equality on equal, different and different-length inputs", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true);
    expect(timingSafeEqual("abc", "abd")).toBe(false);
    expect(timingSafeEqual("abc", "abcd")).toBe(false);
    expect(timingSafeEqual("", "")).toBe(true);
    expect(timingSafeEqual("", "a")).toBe(false);
  });
});

describe("loopback without a credential (SPEC §1, §5 item 1)", () => {
  it("treats a loopback caller as the local operator and refuses a non-loopback peer", async () => {
    t = await openTestMemory();
    expect((await t.req("GET", "/stats", undefined, {}, "127.0.0.1")).status).toBe(200);
    expect((await t.req("GET", "/stats", undefined, {}, "::1")).status).toBe(200);
    expect((await t.req("GET", "/stats", undefined, {}, "::ffff:127.0.0.1")).status).toBe(200);
    await expect401(await t.req("GET", "/stats", undefined, {}, "10.1.2.3"));
    await expect401(await t.req("GET", "/stats", undefined, {}, "::ffff:192.168.0.4"));
  });
});

describe("JWT/JWS mode (SPEC §5 item 2)", () => {
  const claims = (extra: Record<string, unknown> = {}) => ({ sub: "alice", tenant: "acme", roles: ["reader"], exp: nowS() + 600, ...extra });

  it("accepts HS256 with the secret file and reads sub, tenant and roles", async () => {
    const dir = tempDir();
    t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: file(dir, "hs", HS_SECRET) }, {}, dir);
    const res = await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt("HS256", claims(), HS_SECRET)}` });
    expect(res.status).toBe(200);
    // reader cannot write: the roles claim was read.
    const w = await t.req("POST", "/ingest", { title: "t", content: "c" }, { authorization: `Bearer ${signJwt("HS256", claims(), HS_SECRET)}` });
    expect(w.status).toBe(403);
  });

  it.each(["ed25519", "p256"] as const)("accepts %s public-key tokens and refuses ones signed by another key", async (kind) => {
    const dir = tempDir();
    const k = keyPair(kind);
    const other = keyPair(kind);
    const alg = kind === "ed25519" ? "EdDSA" : "ES256";
    t = await openTestMemory({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "k.pem", k.pem, 0o644) }, {}, dir);
    expect((await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt(alg, claims(), k.privateKey)}` })).status).toBe(200);
    await expect401(await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt(alg, claims(), other.privateKey)}` }));
  });

  it("refuses expired, not-yet-valid, unsigned, algorithm-confused, tampered and claim-less tokens with 401", async () => {
    const dir = tempDir();
    const k = keyPair("ed25519");
    t = await openTestMemory({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "k.pem", k.pem, 0o644) }, {}, dir);
    const good = signJwt("EdDSA", claims(), k.privateKey);
    const [h, , s] = good.split(".");
    const bad = [
      signJwt("EdDSA", claims({ exp: nowS() - 120 }), k.privateKey),
      signJwt("EdDSA", claims({ nbf: nowS() + 600 }), k.privateKey),
      signJwt("none", claims()),
      // HS256 "signed" with the public key text: must never be checked against the public key.
      signJwt("HS256", claims(), k.pem),
      `${h}.${Buffer.from(JSON.stringify(claims({ roles: ["admin"] }))).toString("base64url")}.${s}`,
      signJwt("EdDSA", { sub: "alice" }, k.privateKey),
      signJwt("EdDSA", claims({ sub: "" }), k.privateKey),
      signJwt("EdDSA", claims({ roles: "admin" }), k.privateKey),
      signJwt("EdDSA", claims(), k.privateKey, { crit: ["x"] }),
    ];
    for (const tok of bad) await expect401(await t.req("GET", "/stats", undefined, { authorization: `Bearer ${tok}` }));
    expect((await t.req("GET", "/stats", undefined, { authorization: `Bearer ${good}` })).status).toBe(200);
  });

  it("checks iss and aud when configured", async () => {
    const dir = tempDir();
    t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: file(dir, "hs", HS_SECRET), CAIRN_JWT_ISSUER: "idp", CAIRN_JWT_AUDIENCE: "cairn" }, {}, dir);
    const ok = signJwt("HS256", claims({ iss: "idp", aud: ["other", "cairn"] }), HS_SECRET);
    expect((await t.req("GET", "/stats", undefined, { authorization: `Bearer ${ok}` })).status).toBe(200);
    await expect401(await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt("HS256", claims({ iss: "evil", aud: "cairn" }), HS_SECRET)}` }));
    await expect401(await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt("HS256", claims({ iss: "idp", aud: "else" }), HS_SECRET)}` }));
  });

  it("accepts the opaque bearer beside JWT mode", async () => {
    const dir = tempDir();
    t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: file(dir, "hs", HS_SECRET), AUTH_TOKEN_FILE: file(dir, "tok", TOKEN) }, {}, dir);
    expect((await t.req("POST", "/ingest", { title: "t", content: "c" }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await t.req("GET", "/stats", undefined, { authorization: `Bearer ${signJwt("HS256", claims(), HS_SECRET)}` })).status).toBe(200);
  });
});
