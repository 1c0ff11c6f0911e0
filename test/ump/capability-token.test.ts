import * as ed from "@noble/ed25519";
import { blake3 } from "@noble/hashes/blake3.js";
import { describe, expect, it } from "vitest";
import { authorizeOp, mintToken, parseScopeArgs, parseTtl, verifyToken, verifyTokenAsync, type VerifyTokenOptions, type VerifyTokenResult } from "../../src/ump/capability-token.ts";
import { canonicalize } from "../../src/ump/canonical-json.ts";
import { didFromSeed, publicKeyFromSeed } from "../../src/ump/did-key.ts";
import type { CapabilityClaims } from "../../src/ump/types.ts";

const operator = new Uint8Array(32).fill(1);
const stranger = new Uint8Array(32).fill(2);
const operatorDid = didFromSeed(operator);
const now = new Date("2026-07-01T12:00:00Z");
const trust = { trustedIssuers: [operatorDid] };
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Signs arbitrary claims exactly as the UMP notes describe, without the module under test. */
async function handMade(claims: Record<string, unknown>, seed = operator): Promise<string> {
  const payload = b64url(utf8(canonicalize(claims)));
  return `umpcap.${payload}.ed25519:${b64url(await ed.signAsync(blake3(utf8(payload)), seed))}`;
}

const baseClaims = { v: "ump-cap/1.0", iss: operatorDid, verbs: ["read"], scope: { project: "x" }, exp: "2026-07-02T12:00:00.000Z", jti: "j1" };

describe("mintToken", () => {
  it("produces umpcap.<base64url JCS claims>.ed25519:<base64url sig> signed over BLAKE3(payload)", async () => {
    const token = mintToken(operator, { verbs: ["read", "derive"], scope: { project: "x" }, ttl: "24h", now, aud: "did:key:z6MkPeer" });
    expect(token).toMatch(/^umpcap\.[A-Za-z0-9_-]+\.ed25519:[A-Za-z0-9_-]{86}$/);
    const [, payload, sig] = token.split(".") as [string, string, string];
    const json = Buffer.from(payload, "base64url").toString("utf8");
    const claims = JSON.parse(json) as CapabilityClaims;
    expect(json).toBe(canonicalize(claims)); // the payload is the JCS form itself
    expect(claims).toMatchObject({ v: "ump-cap/1.0", iss: operatorDid, aud: "did:key:z6MkPeer", verbs: ["read", "derive"], scope: { project: "x" }, exp: "2026-07-02T12:00:00.000Z" });
    expect(claims.jti).toMatch(/^[a-z2-7]{26}$/);
    const signature = Buffer.from(sig.slice("ed25519:".length), "base64url");
    expect(await ed.verifyAsync(signature, blake3(utf8(payload)), publicKeyFromSeed(operator))).toBe(true);
  });

  it("gives every token its own jti", () => {
    const a = verifyToken(mintToken(operator, { verbs: ["read"], scope: {}, ttlMs: 1000, now }), { now, ...trust });
    const b = verifyToken(mintToken(operator, { verbs: ["read"], scope: {}, ttlMs: 1000, now }), { now, ...trust });
    expect(a.ok && b.ok && a.claims.jti !== b.claims.jti).toBe(true);
  });

  it("accepts an absolute exp and nbf", () => {
    const token = mintToken(operator, { verbs: ["write"], scope: {}, exp: "2026-08-01T00:00:00Z", nbf: new Date("2026-07-01T00:00:00Z"), now, jti: "fixed" });
    const result = verifyToken(token, { now, ...trust });
    expect(result).toEqual({ ok: true, claims: expect.objectContaining({ exp: "2026-08-01T00:00:00.000Z", nbf: "2026-07-01T00:00:00.000Z", jti: "fixed" }) });
  });

  it.each([
    [{ verbs: [] }, /Verbs/],
    [{ verbs: ["admin"] }, /Verbs/],
    [{ scope: { tenant: "t" } }, /Unknown scope key/],
    [{ scope: { visibility: "secret" } }, /visibility/],
    [{ scope: { project: "" } }, /non-empty/],
    [{ ttl: "soon" }, /TTL/],
    [{ ttl: undefined, ttlMs: -5 }, /TTL/],
    [{ exp: "2026-06-01T00:00:00Z", ttl: undefined }, /after/],
    [{ exp: "2026-08-01T00:00:00Z" }, /exactly one/],
  ])("refuses the bad grant %j", (patch, message) => {
    const grant = { verbs: ["read"], scope: {}, ttl: "1h", now, ...patch } as Parameters<typeof mintToken>[1];
    expect(() => mintToken(operator, grant)).toThrow(message);
  });
});

type Verify = (token: string, opts: VerifyTokenOptions) => Promise<VerifyTokenResult>;
const variants: [string, Verify][] = [
  ["verifyToken (sync, pure JS)", async (t, o) => verifyToken(t, o)],
  ["verifyTokenAsync (Web Crypto)", verifyTokenAsync],
];

describe.each(variants)("%s", (_name, verify) => {
  const token = mintToken(operator, { verbs: ["read"], scope: { project: "x" }, ttl: "24h", now, jti: "t1" });

  it("accepts a valid token and returns its claims", async () => {
    expect(await verify(token, { now, ...trust })).toEqual({
      ok: true,
      claims: { v: "ump-cap/1.0", iss: operatorDid, verbs: ["read"], scope: { project: "x" }, exp: "2026-07-02T12:00:00.000Z", jti: "t1" },
    });
  });

  it("accepts a token made by hand from the notes (interop), including the 0.1 claims version", async () => {
    expect((await verify(await handMade(baseClaims), { now, ...trust })).ok).toBe(true);
    expect((await verify(await handMade({ ...baseClaims, v: "ump-cap/0.1" }), { now, ...trust })).ok).toBe(true);
  });

  it("refuses expired and not-yet-valid tokens, with the window inclusive at both ends", async () => {
    const exp = new Date("2026-07-02T12:00:00.000Z");
    expect((await verify(token, { now: exp, ...trust })).ok).toBe(true);
    expect(await verify(token, { now: new Date(exp.getTime() + 1), ...trust })).toEqual({ ok: false, reason: "expired" });
    const later = mintToken(operator, { verbs: ["read"], scope: {}, nbf: "2026-07-05T00:00:00Z", exp: "2026-07-06T00:00:00Z", now });
    expect(await verify(later, { now, ...trust })).toEqual({ ok: false, reason: "not_yet_valid" });
    expect((await verify(later, { now: new Date("2026-07-05T00:00:00Z"), ...trust })).ok).toBe(true);
  });

  it("refuses a token whose claims were edited after signing", async () => {
    const [, , sig] = token.split(".");
    const widened = { ...baseClaims, verbs: ["read", "write"], jti: "t1" };
    const forged = `umpcap.${b64url(utf8(canonicalize(widened)))}.${sig}`;
    expect(await verify(forged, { now, ...trust })).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses a token signed by another key that claims the operator as issuer", async () => {
    expect(await verify(await handMade(baseClaims, stranger), { now, ...trust })).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses a correctly signed token from an untrusted issuer, e.g. after key rotation", async () => {
    const foreign = mintToken(stranger, { verbs: ["read"], scope: {}, ttl: "1h", now });
    expect(await verify(foreign, { now, ...trust })).toEqual({ ok: false, reason: "issuer" });
    expect(await verify(token, { now, trustedIssuers: [didFromSeed(stranger)] })).toEqual({ ok: false, reason: "issuer" });
  });

  it("refuses an unknown claims version", async () => {
    expect(await verify(await handMade({ ...baseClaims, v: "ump-cap/2.0" }), { now, ...trust })).toEqual({ ok: false, reason: "version" });
  });

  it("refuses revoked token ids", async () => {
    expect(await verify(token, { now, ...trust, revoked: (jti) => jti === "t1" })).toEqual({ ok: false, reason: "revoked" });
    expect((await verify(token, { now, ...trust, revoked: (jti) => jti === "other" })).ok).toBe(true);
  });

  it("fails closed on malformed tokens", async () => {
    const [, payload, sig] = token.split(".") as [string, string, string];
    const malformed = [
      "",
      "Bearer " + token,
      `umpcap.${payload}`,
      `umpcap.${payload}.${sig}.extra`,
      `jwt.${payload}.${sig}`,
      `umpcap.${payload}.${sig.replace("ed25519:", "rsa:")}`,
      `umpcap.${payload}=.${sig}`,
      `umpcap.${b64url(utf8("not json"))}.${sig}`,
      `umpcap.${b64url(utf8("[1,2]"))}.${sig}`,
      `umpcap.${payload}.ed25519:***`,
      await handMade({ ...baseClaims, verbs: ["read", "admin"] }),
      await handMade({ ...baseClaims, scope: { tenant: "t" } }),
      await handMade({ ...baseClaims, exp: "tomorrow" }),
      await handMade({ ...baseClaims, jti: undefined }),
    ];
    for (const bad of malformed) expect(await verify(bad, { now, ...trust }), bad.slice(0, 40)).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("authorizeOp", () => {
  const claims = (verbs: string[], scope: Record<string, string>) => ({ ...baseClaims, verbs, scope }) as CapabilityClaims;
  const record = { owner: operatorDid, project: "x", agent: "claude-code", visibility: "shared" };

  it("lets a read-only token read but not write", () => {
    expect(authorizeOp(claims(["read"], {}), "read", record)).toBe(true);
    expect(authorizeOp(claims(["read"], {}), "write", record)).toBe(false);
    expect(authorizeOp(claims(["read"], {}), "export", record)).toBe(false);
  });

  it("confines a project-scoped token to its project", () => {
    const c = claims(["read", "write"], { project: "x" });
    expect(authorizeOp(c, "write", record)).toBe(true);
    expect(authorizeOp(c, "write", { ...record, project: "y" })).toBe(false);
    expect(authorizeOp(c, "read", { owner: operatorDid, visibility: "shared" })).toBe(false);
  });

  it("requires every scope key of the token to match", () => {
    const c = claims(["read"], { owner: operatorDid, agent: "claude-code", visibility: "shared" });
    expect(authorizeOp(c, "read", record)).toBe(true);
    expect(authorizeOp(c, "read", { ...record, visibility: "private" })).toBe(false);
    expect(authorizeOp(c, "read", { ...record, agent: "codex" })).toBe(false);
    expect(authorizeOp(c, "read", { ...record, owner: "did:key:z6MkOther" })).toBe(false);
  });

  it("never grants an admin verb", () => {
    expect(authorizeOp(claims(["read", "admin"], {}), "admin" as never, record)).toBe(false);
  });
});

describe("TTL and scope arguments", () => {
  it.each([
    ["30s", 30_000],
    ["30m", 1_800_000],
    ["24h", 86_400_000],
    ["7d", 604_800_000],
    ["2w", 1_209_600_000],
    ["1d12h", 129_600_000],
  ])("parses %s", (text, ms) => expect(parseTtl(text)).toBe(ms));

  it.each(["", "10", "5x", "0h", "-1h", "1.5h", "h", "24 h", "P1D"])("rejects %j", (text) => expect(parseTtl(text)).toBeNull());

  it("parses --scope key=value arguments and refuses unknown or repeated keys", () => {
    expect(parseScopeArgs(["project=github.com/a/b", "visibility=shared", "owner=did:key:z6Mk=x"])).toEqual({
      project: "github.com/a/b",
      visibility: "shared",
      owner: "did:key:z6Mk=x",
    });
    expect(parseScopeArgs([])).toEqual({});
    expect(() => parseScopeArgs(["tenant=t"])).toThrow(/key one of/);
    expect(() => parseScopeArgs(["project"])).toThrow(/key=value/);
    expect(() => parseScopeArgs(["project=a", "project=b"])).toThrow(/twice/);
    expect(() => parseScopeArgs(["visibility=secret"])).toThrow(/visibility/);
  });
});
