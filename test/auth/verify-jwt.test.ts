// JWT/JWS verification outcomes (SPEC §5 item 2), reason by reason: tokens signed with node:crypto (test/auth/_jwt.ts),
// keys imported by the product's own importers from real Ed25519 / P-256 / HMAC material, and a fixed clock so the
// 30 s leeway edges are exact. Over HTTP every refusal is a 401 (test/auth/authenticate.test.ts); the reason here is the
// verifier's closed contract, which the authenticator folds into the /metrics `reason` label (expired vs invalid).
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { importHs256Secret, importPublicKeyPem, type JwtKeys } from "../../src/auth/jwt-keys.ts";
import { JWT_LEEWAY_S, looksLikeJws, verifyJwt } from "../../src/auth/verify-jwt.ts";
import { keyPair, signJwt } from "./_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
const T = 1_900_000_000; // the fixed "now", in seconds
const at = (s: number) => ({ now: new Date(s * 1000) });
const b64u = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
const claims = (extra: Record<string, unknown> = {}) => ({ sub: "alice", exp: T + 600, ...extra });

async function hsKeys(): Promise<JwtKeys> {
  return { HS256: await importHs256Secret(HS) };
}

describe("verifyJwt: signatures and algorithms", () => {
  it("verifies HS256, EdDSA and ES256 with the configured key and builds a jwt principal", async () => {
    const ed = keyPair("ed25519");
    const ec = keyPair("p256");
    const keys: JwtKeys = { HS256: await importHs256Secret(HS), EdDSA: (await importPublicKeyPem(ed.pem)).key, ES256: (await importPublicKeyPem(ec.pem)).key };
    const c = claims({ roles: ["reader", "admin:work"], tenant: "acme" });
    const want = { ok: true, principal: { subject: "alice", roles: ["reader", "admin:work"], kind: "jwt", tenant: "acme" } };
    expect(await verifyJwt(signJwt("HS256", c, HS), keys, at(T))).toEqual(want);
    expect(await verifyJwt(signJwt("EdDSA", c, ed.privateKey), keys, at(T))).toEqual(want);
    expect(await verifyJwt(signJwt("ES256", c, ec.privateKey), keys, at(T))).toEqual(want);
  });

  it("refuses a signature by another key, a tampered payload and a truncated signature with `signature`", async () => {
    const ed = keyPair("ed25519");
    const ec = keyPair("p256");
    const keys: JwtKeys = { HS256: await importHs256Secret(HS), EdDSA: (await importPublicKeyPem(ed.pem)).key, ES256: (await importPublicKeyPem(ec.pem)).key };
    const sig = { ok: false, reason: "signature" };
    expect(await verifyJwt(signJwt("HS256", claims(), `${HS}x`), keys, at(T))).toEqual(sig);
    expect(await verifyJwt(signJwt("EdDSA", claims(), keyPair("ed25519").privateKey), keys, at(T))).toEqual(sig);
    expect(await verifyJwt(signJwt("ES256", claims(), keyPair("p256").privateKey), keys, at(T))).toEqual(sig);
    const [h, , s] = signJwt("ES256", claims(), ec.privateKey).split(".");
    expect(await verifyJwt(`${h}.${b64u(claims({ sub: "mallory" }))}.${s}`, keys, at(T))).toEqual(sig);
    // An ES256 signature must be the 64-byte IEEE P1363 form; a DER-encoded one is refused.
    const good = signJwt("ES256", claims(), ec.privateKey);
    const [gh, gp, gs] = good.split(".");
    expect(await verifyJwt(`${gh}.${gp}.${b64u(Buffer.from(gs!, "base64url").subarray(0, 63).toString("latin1"))}`, keys, at(T))).toEqual(sig);
    expect(await verifyJwt(`${gh}.${gp}.${Buffer.concat([Buffer.from(gs!, "base64url"), Buffer.from([0])]).toString("base64url")}`, keys, at(T))).toEqual(sig);
    // Ed25519 with a wrong-length signature: Web Crypto rejects, the verifier says `signature` rather than throwing.
    const [eh, ep] = signJwt("EdDSA", claims(), ed.privateKey).split(".");
    expect(await verifyJwt(`${eh}.${ep}.${b64u("short")}`, keys, at(T))).toEqual(sig);
  });

  it("refuses `none`, unknown algorithms, algorithms without a configured key and crit headers with `algorithm`", async () => {
    const ed = keyPair("ed25519");
    const edOnly: JwtKeys = { EdDSA: (await importPublicKeyPem(ed.pem)).key };
    const alg = { ok: false, reason: "algorithm" };
    const unsigned = signJwt("none", claims());
    expect(await verifyJwt(`${unsigned}${b64u("x")}`, edOnly, at(T))).toEqual(alg);
    // HS256 keyed with the public key's PEM text: never checked against the public key.
    expect(await verifyJwt(signJwt("HS256", claims(), ed.pem), edOnly, at(T))).toEqual(alg);
    expect(await verifyJwt(signJwt("ES256", claims(), keyPair("p256").privateKey), edOnly, at(T))).toEqual(alg);
    expect(await verifyJwt(signJwt("EdDSA", claims(), ed.privateKey), await hsKeys(), at(T))).toEqual(alg);
    // Names that exist on every object ("constructor", "toString", "__proto__") are no algorithm either.
    for (const a of ["RS256", "HS512", "eddsa", "", 1, "constructor", "toString", "__proto__"]) {
      const input = `${b64u({ alg: a, typ: "JWT" })}.${b64u(claims())}`;
      expect(await verifyJwt(`${input}.${b64u("sig")}`, { ...edOnly, ...(await hsKeys()) }, at(T))).toEqual(alg);
    }
    expect(await verifyJwt(signJwt("EdDSA", claims(), ed.privateKey, { crit: ["exp"] }), edOnly, at(T))).toEqual(alg);
    expect(await verifyJwt(signJwt("EdDSA", claims(), ed.privateKey, { crit: [] }), edOnly, at(T))).toEqual(alg);
    expect((await verifyJwt(signJwt("EdDSA", claims(), ed.privateKey, { kid: "k1" }), edOnly, at(T))).ok).toBe(true);
  });

  it("refuses what is not a compact JWS of two JSON objects with `malformed`", async () => {
    const keys = await hsKeys();
    const good = signJwt("HS256", claims(), HS);
    const [h, p, s] = good.split(".") as [string, string, string];
    const bad = [
      "", "a.b", "a.b.c.d", `${good}.`, ` ${good}`, `${good} `, `${h}.${p}.${s}=`, `${h}..${s}`, `.${p}.${s}`, `${h}.${p}.`,
      `${b64u("[1]")}.${p}.${s}`, `${h}.${b64u("[]")}.${s}`, `${h}.${b64u("null")}.${s}`, `${h}.${b64u("42")}.${s}`, `${h}.${b64u("\"s\"")}.${s}`,
      `${h}.${b64u("{not json")}.${s}`, `${h}.${p}x.${s}`, `${h}x.${p}.${s}`, `${h}.${p}.${s}xy`,
    ];
    for (const tok of bad) expect({ tok, r: await verifyJwt(tok, keys, at(T)) }).toEqual({ tok, r: { ok: false, reason: "malformed" } });
    expect(looksLikeJws(good)).toBe(true);
    for (const tok of ["a.b", "a.b.c.d", `x${good}!`, `!${good}`, `${good}!`, "a.b.c\n"]) expect({ tok, shape: looksLikeJws(tok) }).toEqual({ tok, shape: false });
    expect(looksLikeJws("A-_z.0.9")).toBe(true);
  });
});

describe("verifyJwt: the time window (30 s leeway)", () => {
  it("accepts up to exp + 30 s and refuses one second later as `expired`", async () => {
    const keys = await hsKeys();
    expect(JWT_LEEWAY_S).toBe(30);
    const tok = signJwt("HS256", claims({ exp: T }), HS);
    expect((await verifyJwt(tok, keys, at(T + 30))).ok).toBe(true);
    expect(await verifyJwt(tok, keys, { now: new Date((T + 30) * 1000 + 1) })).toEqual({ ok: false, reason: "expired" });
    expect(await verifyJwt(tok, keys, at(T + 31))).toEqual({ ok: false, reason: "expired" });
    expect((await verifyJwt(tok, keys, at(T - 1000))).ok).toBe(true);
  });

  it("accepts from nbf − 30 s and refuses earlier as `not_yet_valid`", async () => {
    const keys = await hsKeys();
    const tok = signJwt("HS256", claims({ nbf: T }), HS);
    expect((await verifyJwt(tok, keys, at(T - 30))).ok).toBe(true);
    expect((await verifyJwt(tok, keys, at(T))).ok).toBe(true);
    expect(await verifyJwt(tok, keys, { now: new Date((T - 30) * 1000 - 1) })).toEqual({ ok: false, reason: "not_yet_valid" });
    expect(await verifyJwt(tok, keys, at(T - 31))).toEqual({ ok: false, reason: "not_yet_valid" });
  });

  it("requires a numeric exp and a numeric nbf when present (`claims`)", async () => {
    const keys = await hsKeys();
    const bad = { ok: false, reason: "claims" };
    const { exp: _drop, ...noExp } = claims();
    expect(await verifyJwt(signJwt("HS256", noExp, HS), keys, at(T))).toEqual(bad);
    expect(await verifyJwt(signJwt("HS256", claims({ exp: String(T + 600) }), HS), keys, at(T))).toEqual(bad);
    expect(await verifyJwt(signJwt("HS256", claims({ exp: null }), HS), keys, at(T))).toEqual(bad);
    expect(await verifyJwt(signJwt("HS256", claims({ nbf: String(T) }), HS), keys, at(T))).toEqual(bad);
    expect(await verifyJwt(signJwt("HS256", claims({ nbf: null }), HS), keys, at(T))).toEqual(bad);
    // A huge exp is a number and finite; 1e400 parses to Infinity and is refused.
    expect((await verifyJwt(signJwt("HS256", claims({ exp: 1e300 }), HS), keys, at(T))).ok).toBe(true);
    const [h] = signJwt("HS256", claims(), HS).split(".");
    const inf = `${h}.${b64u(`{"sub":"alice","exp":1e400}`)}`;
    const { createHmac } = await import("node:crypto");
    expect(await verifyJwt(`${inf}.${createHmac("sha256", HS).update(inf).digest("base64url")}`, keys, at(T))).toEqual(bad);
    const infNbf = `${h}.${b64u(`{"sub":"alice","exp":${T + 600},"nbf":-1e400}`)}`;
    expect(await verifyJwt(`${infNbf}.${createHmac("sha256", HS).update(infNbf).digest("base64url")}`, keys, at(T))).toEqual(bad);
  });
});

describe("verifyJwt: issuer, audience and the claims Cairn reads", () => {
  it("checks iss only when configured", async () => {
    const keys = await hsKeys();
    expect((await verifyJwt(signJwt("HS256", claims({ iss: "anyone" }), HS), keys, at(T))).ok).toBe(true);
    const opts = { ...at(T), issuer: "idp" };
    expect((await verifyJwt(signJwt("HS256", claims({ iss: "idp" }), HS), keys, opts)).ok).toBe(true);
    expect(await verifyJwt(signJwt("HS256", claims({ iss: "idp2" }), HS), keys, opts)).toEqual({ ok: false, reason: "issuer" });
    expect(await verifyJwt(signJwt("HS256", claims(), HS), keys, opts)).toEqual({ ok: false, reason: "issuer" });
  });

  it("checks aud (a string or an array holding it) only when configured", async () => {
    const keys = await hsKeys();
    expect((await verifyJwt(signJwt("HS256", claims({ aud: "else" }), HS), keys, at(T))).ok).toBe(true);
    const opts = { ...at(T), audience: "cairn" };
    expect((await verifyJwt(signJwt("HS256", claims({ aud: "cairn" }), HS), keys, opts)).ok).toBe(true);
    expect((await verifyJwt(signJwt("HS256", claims({ aud: ["x", "cairn"] }), HS), keys, opts)).ok).toBe(true);
    for (const aud of ["else", ["x"], [], undefined, "cairn2", ["cairnx"], { cairn: true }, 7]) {
      expect({ aud, r: await verifyJwt(signJwt("HS256", claims({ aud }), HS), keys, opts) }).toEqual({ aud, r: { ok: false, reason: "audience" } });
    }
  });

  it("requires a non-empty string sub, a string tenant when present, and string roles", async () => {
    const keys = await hsKeys();
    for (const extra of [{ sub: "" }, { sub: 7 }, { sub: undefined }, { tenant: 5 }, { tenant: null }, { roles: "admin" }, { roles: ["reader", 1] },
      { roles: { 0: "admin" } }]) {
      expect({ extra, r: await verifyJwt(signJwt("HS256", claims(extra), HS), keys, at(T)) }).toEqual({ extra, r: { ok: false, reason: "claims" } });
    }
  });

  it("reads absent roles as none, leaves an empty tenant off, and copies the claims into the principal", async () => {
    const keys = await hsKeys();
    expect(await verifyJwt(signJwt("HS256", claims(), HS), keys, at(T))).toEqual({ ok: true, principal: { subject: "alice", roles: [], kind: "jwt" } });
    expect(await verifyJwt(signJwt("HS256", claims({ tenant: "", roles: [] }), HS), keys, at(T))).toEqual({ ok: true, principal: { subject: "alice", roles: [], kind: "jwt" } });
    const r = await verifyJwt(signJwt("HS256", claims({ tenant: "t1", roles: ["writer"] }), HS), keys, at(T));
    expect(r).toEqual({ ok: true, principal: { subject: "alice", tenant: "t1", roles: ["writer"], kind: "jwt" } });
  });
});

describe("JWT key import (SPEC §5 item 2)", () => {
  it("names the algorithm from the key: Ed25519 → EdDSA, P-256 → ES256", async () => {
    expect((await importPublicKeyPem(keyPair("ed25519").pem)).alg).toBe("EdDSA");
    expect((await importPublicKeyPem(keyPair("p256").pem)).alg).toBe("ES256");
    // Text around the PEM block is ignored.
    expect((await importPublicKeyPem(`comment\n${keyPair("ed25519").pem}\ntrailer`)).alg).toBe("EdDSA");
  });

  it("refuses other key types, a missing PEM block and a key that cannot be imported, each with its message", async () => {
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    const x25519 = generateKeyPairSync("x25519").publicKey.export({ type: "spki", format: "pem" }).toString();
    const wrongType = /must be Ed25519 \(EdDSA\) or P-256 \(ES256\)/;
    await expect(importPublicKeyPem(p384)).rejects.toThrow(wrongType);
    await expect(importPublicKeyPem(x25519)).rejects.toThrow(wrongType);
    const noBlock = /must hold one PEM PUBLIC KEY \(SPKI\) block/;
    await expect(importPublicKeyPem("")).rejects.toThrow(noBlock);
    await expect(importPublicKeyPem(keyPair("ed25519").pem.replace("PUBLIC KEY-----\n", "PRIVATE KEY-----\n"))).rejects.toThrow(noBlock);
    await expect(importPublicKeyPem("-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----")).rejects.toThrow(noBlock);
    // The Ed25519 OID with a truncated key, and the OID as the very last bytes of the DER: recognised, not importable.
    const edDer = Buffer.from(keyPair("ed25519").pem.replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
    const pem = (b: Buffer) => `-----BEGIN PUBLIC KEY-----\n${b.toString("base64")}\n-----END PUBLIC KEY-----\n`;
    await expect(importPublicKeyPem(pem(edDer.subarray(0, edDer.length - 1)))).rejects.toThrow(/could not be imported/);
    await expect(importPublicKeyPem(pem(Buffer.from([0x30, 0x00, 0x06, 0x03, 0x2b, 0x65, 0x70])))).rejects.toThrow(/could not be imported/);
    await expect(importPublicKeyPem(pem(Buffer.from([0x06, 0x03, 0x2b, 0x65])))).rejects.toThrow(wrongType);
    const p256Oid = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    await expect(importPublicKeyPem(pem(Buffer.from([0x30, ...p256Oid])))).rejects.toThrow(/could not be imported/);
    for (const err of [await importPublicKeyPem("").catch((e) => e), await importPublicKeyPem(p384).catch((e) => e)]) expect(err.code).toBe("jwt_key_invalid");
  });

  it("needs an HS256 secret of at least 32 bytes after trimming, and verifies with the trimmed text", async () => {
    const s32 = "k".repeat(32);
    await expect(importHs256Secret("k".repeat(31))).rejects.toThrow(/at least 32 bytes/);
    await expect(importHs256Secret(`  ${"k".repeat(31)}\n`)).rejects.toThrow(/at least 32 bytes/);
    expect((await importHs256Secret("k".repeat(31)).catch((e) => e)).code).toBe("jwt_key_invalid");
    const key = await importHs256Secret(`\n ${s32}  \n`);
    expect((await verifyJwt(signJwt("HS256", claims(), s32), { HS256: key }, at(T))).ok).toBe(true);
    // Multi-byte characters count as bytes: 11 × "€" is 33 bytes.
    expect((await verifyJwt(signJwt("HS256", claims(), "€".repeat(11)), { HS256: await importHs256Secret("€".repeat(11)) }, at(T))).ok).toBe(true);
  });
});
