import * as ed from "@noble/ed25519";
import { blake3 } from "@noble/hashes/blake3.js";
import { describe, expect, it } from "vitest";
import { authorizeOp, mintToken, parseScopeArgs, parseTtl, verifyToken, verifyTokenAsync, type MintOptions, type VerifyTokenOptions, type VerifyTokenResult } from "../../src/ump/capability-token.ts";
import { canonicalize } from "../../src/ump/canonical-json.ts";
import { didFromSeed } from "../../src/ump/did-key.ts";
import type { CapabilityClaims } from "../../src/ump/types.ts";

// Edges of the capability-token checks (SPEC §2.9, UMP notes "Capability tokens") that the main file leaves open:
// grants that must be refused at mint time, claims that must fail closed, and the exact window edges.

const operator = new Uint8Array(32).fill(11);
const operatorDid = didFromSeed(operator);
const now = new Date("2026-07-01T12:00:00Z");
const trust = { trustedIssuers: [operatorDid] };
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const utf8 = (s: string) => new TextEncoder().encode(s);
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as CapabilityClaims;

/** Signs an arbitrary payload exactly as the UMP notes describe, without the module under test. */
async function signPayload(payload: string, seed = operator): Promise<string> {
  return `umpcap.${payload}.ed25519:${b64url(await ed.signAsync(blake3(utf8(payload)), seed))}`;
}
const handMade = (claims: Record<string, unknown>, seed = operator) => signPayload(b64url(utf8(canonicalize(claims))), seed);
const base = { v: "ump-cap/1.0", iss: operatorDid, verbs: ["read"], scope: {}, exp: "2026-07-02T12:00:00.000Z", jti: "j1" };

const grant = (patch: Partial<MintOptions>): MintOptions => ({ verbs: ["read"], scope: {}, ttl: "1h", now, ...patch });

describe("mintToken grants", () => {
  it("writes each granted verb once, copies the scope, and names an audience only when one is given", () => {
    const claims = claimsOf(mintToken(operator, grant({ verbs: ["read", "export", "read"], scope: { agent: "codex", visibility: "private" } })));
    expect(claims.verbs).toEqual(["read", "export"]);
    expect(claims.scope).toEqual({ agent: "codex", visibility: "private" });
    expect(claims).not.toHaveProperty("aud");
    expect(claims).not.toHaveProperty("nbf");
    expect(claims.exp).toBe("2026-07-01T13:00:00.000Z");
    expect(claims.iss).toBe(operatorDid);
  });

  it("sets the expiry from ttlMs, from a ttl text or from an absolute exp", () => {
    expect(claimsOf(mintToken(operator, grant({ ttl: undefined, ttlMs: 90_000 }))).exp).toBe("2026-07-01T12:01:30.000Z");
    expect(claimsOf(mintToken(operator, grant({ ttl: "1d12h" }))).exp).toBe("2026-07-03T00:00:00.000Z");
    expect(claimsOf(mintToken(operator, grant({ ttl: undefined, exp: new Date("2026-09-01T00:00:00Z") }))).exp).toBe("2026-09-01T00:00:00.000Z");
  });

  it.each([
    ["a grant mixing a real verb with an unknown one", { verbs: ["read", "admin"] as never }, /Verbs must be a non-empty subset of read, write, derive, export/],
    ["a scope that is not an object", { scope: null as never }, /Scope must be an object/],
    ["a scope that is an array", { scope: ["project"] as never }, /Scope must be an object/],
    ["a scope value that is not a string", { scope: { project: 7 } as never }, /Scope "project" must be a non-empty string/],
    ["a visibility outside private, shared, public", { scope: { visibility: "internal" } }, /Scope visibility must be one of private, shared, public/],
    ["no expiry at all", { ttl: undefined }, /Give exactly one of ttlMs, ttl or exp/],
    ["both ttl and ttlMs", { ttlMs: 1000 }, /Give exactly one of ttlMs, ttl or exp/],
    ["a zero ttlMs", { ttl: undefined, ttlMs: 0 }, /TTL must be positive, like 30m, 24h or 7d/],
    ["an infinite ttlMs", { ttl: undefined, ttlMs: Infinity }, /TTL must be positive/],
    ["a NaN ttlMs", { ttl: undefined, ttlMs: NaN }, /TTL must be positive/],
    ["an exp that is not a time", { ttl: undefined, exp: "next tuesday" }, /"exp" is not a valid time/],
    ["an nbf that is not a time", { nbf: "soonish" }, /"nbf" is not a valid time/],
    ["an invalid Date as exp", { ttl: undefined, exp: new Date(NaN) }, /"exp" is not a valid time/],
    ["an exp equal to the mint time (an empty window)", { ttl: undefined, exp: now }, /Expiry must be after the start of validity/],
    ["an exp before a later nbf, though after now", { ttl: undefined, nbf: "2026-07-10T00:00:00Z", exp: "2026-07-05T00:00:00Z" }, /Expiry must be after the start of validity/],
    ["an exp equal to nbf", { ttl: undefined, nbf: "2026-07-10T00:00:00Z", exp: "2026-07-10T00:00:00Z" }, /Expiry must be after/],
  ])("refuses %s with invalid_request", (_what, patch, message) => {
    let err: unknown;
    try {
      mintToken(operator, grant(patch as Partial<MintOptions>));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "invalid_request" });
    expect(String((err as Error).message)).toMatch(message);
  });

  it("mints a token whose window starts at a future nbf even though exp is only after nbf", () => {
    const t = mintToken(operator, grant({ ttl: undefined, nbf: "2026-07-10T00:00:00Z", exp: "2026-07-10T00:00:01Z" }));
    expect(claimsOf(t)).toMatchObject({ nbf: "2026-07-10T00:00:00.000Z", exp: "2026-07-10T00:00:01.000Z" });
  });
});

type Verify = (token: string, opts: VerifyTokenOptions) => Promise<VerifyTokenResult>;
const variants: [string, Verify][] = [
  ["verifyToken (sync)", async (t, o) => verifyToken(t, o)],
  ["verifyTokenAsync (Web Crypto)", verifyTokenAsync],
];

describe.each(variants)("%s refuses", (_name, verify) => {
  const refusedAs = async (token: string, reason: string, opts: VerifyTokenOptions = { now, ...trust }) =>
    expect(await verify(token, opts), String(token).slice(0, 60)).toEqual({ ok: false, reason });

  it("anything that is not a token string, without throwing", async () => {
    for (const bad of [undefined, null, 42, { token: "x" }]) await refusedAs(bad as never, "malformed");
  });

  it("claims that fail closed: bad types for v, iss, jti, aud, exp, nbf, verbs and scope", async () => {
    await refusedAs(await handMade({ ...base, v: 1 }), "malformed");
    await refusedAs(await handMade({ ...base, iss: 5 }), "malformed");
    await refusedAs(await handMade({ ...base, jti: "" }), "malformed");
    await refusedAs(await handMade({ ...base, jti: 9 }), "malformed");
    await refusedAs(await handMade({ ...base, aud: 12 }), "malformed");
    await refusedAs(await handMade({ ...base, exp: 2030 }), "malformed"); // a number Date.parse would read as the year 2030
    await refusedAs(await handMade({ ...base, nbf: "whenever" }), "malformed");
    await refusedAs(await handMade({ ...base, nbf: 2020 }), "malformed");
    await refusedAs(await handMade({ ...base, verbs: "read" }), "malformed");
    await refusedAs(await handMade({ ...base, scope: ["project"] }), "malformed");
    await refusedAs(await handMade({ ...base, scope: null }), "malformed");
    await refusedAs(await handMade({ ...base, scope: { project: "" } }), "malformed");
    await refusedAs(await handMade({ ...base, scope: { visibility: "internal" } }), "malformed");
    await refusedAs(await signPayload(b64url(utf8("null"))), "malformed");
    await refusedAs(await signPayload(b64url(utf8('"a string"'))), "malformed");
    await refusedAs(await signPayload(b64url(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))), "malformed"); // not UTF-8
    // Valid JSON around a byte that is not UTF-8: read leniently it would become U+FFFD and pass.
    const json = utf8(canonicalize({ ...base, jti: "JTI" }));
    const at = json.findIndex((_, i) => json[i] === 0x4a && json[i + 1] === 0x54 && json[i + 2] === 0x49);
    await refusedAs(await signPayload(b64url(Uint8Array.from(json, (x, i) => (i === at ? 0xff : x)))), "malformed");
    expect((await verify(await signPayload(b64url(json)), { now, ...trust })).ok).toBe(true);
  });

  it("the same claims signed correctly pass, so each refusal above is about the one field", async () => {
    expect((await verify(await handMade({ ...base, aud: "did:key:z6MkPeer", nbf: "2026-07-01T00:00:00Z", scope: { visibility: "public" } }), { now, ...trust })).ok).toBe(true);
  });

  it("a trusted issuer whose did:key does not decode to an Ed25519 key", async () => {
    const bogus = "did:key:z6MkNotARealKey";
    await refusedAs(await handMade({ ...base, iss: bogus }), "signature", { now, trustedIssuers: [bogus] });
  });

  it("a token signed over the wrong bytes: the payload itself instead of its BLAKE3 digest", async () => {
    const payload = b64url(utf8(canonicalize(base)));
    const sig = b64url(await ed.signAsync(utf8(payload), operator));
    await refusedAs(`umpcap.${payload}.ed25519:${sig}`, "signature");
  });

  it("an expired token by one millisecond, and passes exactly at nbf and exactly at exp", async () => {
    const t = await handMade({ ...base, nbf: "2026-07-01T12:00:00.000Z" });
    expect((await verify(t, { now: new Date("2026-07-01T12:00:00.000Z"), ...trust })).ok).toBe(true);
    await refusedAs(t, "not_yet_valid", { now: new Date("2026-07-01T11:59:59.999Z"), ...trust });
    expect((await verify(t, { now: new Date("2026-07-02T12:00:00.000Z"), ...trust })).ok).toBe(true);
    await refusedAs(t, "expired", { now: new Date("2026-07-02T12:00:00.001Z"), ...trust });
  });

  it("checks the signature before the time window: a forged expired token reads as forged", async () => {
    const forged = await handMade({ ...base, exp: "2026-06-01T00:00:00Z" }, new Uint8Array(32).fill(12));
    await refusedAs(forged, "signature");
  });
});

describe("authorizeOp on an over-scoped request", () => {
  const claims = (verbs: string[], scope: Record<string, string>) => ({ ...base, verbs, scope }) as CapabilityClaims;

  it("refuses every verb the token lacks, and a record missing a key the token restricts", () => {
    const derive = claims(["derive"], { owner: operatorDid });
    expect(authorizeOp(derive, "derive", { owner: operatorDid })).toBe(true);
    for (const verb of ["read", "write", "export"] as const) expect(authorizeOp(derive, verb, { owner: operatorDid })).toBe(false);
    expect(authorizeOp(derive, "derive", {})).toBe(false);
    // Keys the token leaves open do not restrict.
    expect(authorizeOp(claims(["read"], {}), "read", {})).toBe(true);
  });
});

describe("parseTtl and parseScopeArgs edges", () => {
  it("refuses text that only contains a TTL, a non-string, and totals past the safe-integer range", () => {
    for (const bad of ["x1h", "1hx", " 1h", "1h "]) expect(parseTtl(bad)).toBeNull();
    expect(parseTtl(5 as never)).toBeNull();
    expect(parseTtl("99999999999999w")).toBeNull();
    expect(parseTtl("1w1d1h1m1s")).toBe(604_800_000 + 86_400_000 + 3_600_000 + 60_000 + 1_000);
  });

  it("refuses a key-less argument and an empty value", () => {
    expect(() => parseScopeArgs(["=x"])).toThrow(/key=value with key one of owner, project, agent, visibility, got "=x"/);
    expect(() => parseScopeArgs(["project="])).toThrow(/Scope "project" must be a non-empty string/);
    expect(() => parseScopeArgs(["project=a", "project=b"])).toThrow('Scope key "project" given twice');
  });
});
