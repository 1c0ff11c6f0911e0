// Authentication outcomes (SPEC §5 items 1, 2, 6): which principal a request gets, or which closed reason its 401
// carries (the `reason` label of cairn_auth_failures_total on /metrics). Real HMAC and Ed25519 keys, capability tokens
// minted by the UMP signer with a fresh seed (the /metrics side is test/auth/metrics-reasons.test.ts).
import { describe, expect, it } from "vitest";
import { createAuthenticator, type Authenticator, type AuthRequest } from "../../src/auth/authenticator.ts";
import { importHs256Secret, importPublicKeyPem } from "../../src/auth/jwt-keys.ts";
import type { Credentials } from "../../src/auth/load-credentials.ts";
import { mintToken } from "../../src/ump/capability-token.ts";
import { didFromSeed, generateSeed } from "../../src/ump/did-key.ts";
import { keyPair, nowS, signJwt } from "./_jwt.ts";

const TOKEN = "op-token-0123456789abcdef";
const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
const jwtClaims = (extra: Record<string, unknown> = {}) => ({ sub: "alice", roles: ["reader"], exp: nowS() + 600, ...extra });

async function full(extra: { issuer?: string; audience?: string } = {}): Promise<Authenticator> {
  const credentials: Credentials = { bearerToken: TOKEN, jwtKeys: { HS256: await importHs256Secret(HS) }, required: true };
  return createAuthenticator({ credentials, now: () => new Date(), ...extra });
}
const req = (authorization: string | undefined, more: Partial<AuthRequest> = {}): AuthRequest => ({ authorization, acceptsCapability: false, ...more });
const reasonOf = async (a: Authenticator, r: AuthRequest) => {
  const o = await a.authenticate(r);
  return o.ok ? `ok:${o.principal.kind}` : o.reason;
};

describe("with a credential configured", () => {
  it("says missing for no header or a blank one, malformed for a header that is not one Bearer token", async () => {
    const a = await full();
    expect(a.required).toBe(true);
    for (const h of [undefined, "", "   ", "\t"]) expect({ h, r: await reasonOf(a, req(h)) }).toEqual({ h, r: "missing" });
    for (const h of ["Basic YTpi", "Bearer", "Bearer ", `Bearer ${TOKEN} extra`, `xBearer ${TOKEN}`, `Bearer\t${TOKEN}`, `Bearer ${TOKEN}\t`, `Token ${TOKEN}`,
      ` Bearer ${TOKEN}`, `Bearer ${TOKEN}é`]) {
      expect({ h, r: await reasonOf(a, req(h)) }).toEqual({ h, r: "malformed" });
    }
  });

  it("accepts the opaque token with any case of the scheme and extra spaces, as the bearer operator", async () => {
    const a = await full();
    for (const h of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER   ${TOKEN}`, `Bearer ${TOKEN}   `]) {
      expect({ h, o: await a.authenticate(req(h)) }).toEqual({ h, o: { ok: true, principal: { subject: "operator", roles: ["admin"], kind: "bearer" } } });
    }
    expect(await reasonOf(a, req(`Bearer ${TOKEN}x`))).toBe("invalid");
    expect(await reasonOf(a, req(`Bearer ${TOKEN.toUpperCase()}`))).toBe("invalid");
  });

  it("verifies a JWT beside the token: valid → its principal, expired → expired, anything else wrong → invalid", async () => {
    const a = await full();
    const ok = await a.authenticate(req(`Bearer ${signJwt("HS256", jwtClaims({ tenant: "acme" }), HS)}`));
    expect(ok).toEqual({ ok: true, principal: { subject: "alice", tenant: "acme", roles: ["reader"], kind: "jwt" } });
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims({ exp: nowS() - 120 }), HS)}`))).toBe("expired");
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims({ nbf: nowS() + 600 }), HS)}`))).toBe("invalid");
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims(), `${HS}-other`)}`))).toBe("invalid");
    expect(await reasonOf(a, req(`Bearer ${signJwt("none", jwtClaims())}x`))).toBe("invalid");
  });

  it("passes the configured issuer and audience to the verifier", async () => {
    const a = await full({ issuer: "idp", audience: "cairn" });
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims({ iss: "idp", aud: "cairn" }), HS)}`))).toBe("ok:jwt");
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims({ aud: "cairn" }), HS)}`))).toBe("invalid");
    expect(await reasonOf(a, req(`Bearer ${signJwt("HS256", jwtClaims({ iss: "idp" }), HS)}`))).toBe("invalid");
  });

  it("without JWT keys a JWS-shaped token is simply invalid; with only a public key, EdDSA tokens work", async () => {
    const tokenOnly = createAuthenticator({ credentials: { bearerToken: TOKEN, jwtKeys: {}, required: true }, now: () => new Date() });
    expect(await reasonOf(tokenOnly, req(`Bearer ${signJwt("HS256", jwtClaims(), HS)}`))).toBe("invalid");
    expect(await reasonOf(tokenOnly, req(`Bearer ${signJwt("HS256", jwtClaims({ exp: nowS() - 120 }), HS)}`))).toBe("invalid");
    const k = keyPair("ed25519");
    const jwtOnly = createAuthenticator({ credentials: { jwtKeys: { EdDSA: (await importPublicKeyPem(k.pem)).key }, required: true }, now: () => new Date() });
    expect(await reasonOf(jwtOnly, req(`Bearer ${signJwt("EdDSA", jwtClaims(), k.privateKey)}`))).toBe("ok:jwt");
    // No opaque token configured: no string matches it, not even an empty-looking one.
    expect(await reasonOf(jwtOnly, req("Bearer undefined"))).toBe("invalid");
  });

  it("follows the injected clock for expiry", async () => {
    const credentials: Credentials = { jwtKeys: { HS256: await importHs256Secret(HS) }, required: true };
    const tok = `Bearer ${signJwt("HS256", jwtClaims({ exp: 2_000_000_000 }), HS)}`;
    const past = createAuthenticator({ credentials, now: () => new Date(1_999_999_000_000) });
    const future = createAuthenticator({ credentials, now: () => new Date(2_000_001_000_000) });
    expect(await reasonOf(past, req(tok))).toBe("ok:jwt");
    expect(await reasonOf(future, req(tok))).toBe("expired");
  });
});

describe("capability tokens (SPEC §5 item 6)", () => {
  const seed = generateSeed();
  const issuer = didFromSeed(seed);
  const mint = (o: Partial<Parameters<typeof mintToken>[1]> = {}) =>
    mintToken(seed, { verbs: ["read"], scope: { owner: "peer-bob" }, now: new Date(), ttl: "1h", ...o });

  it("gives a capability principal only on routes that accept one, once the UMP layer trusts the issuer", async () => {
    const a = await full();
    const tok = `Bearer ${mint()}`;
    // No trust installed yet.
    expect(await reasonOf(a, req(tok, { acceptsCapability: true }))).toBe("invalid");
    a.setCapabilityTrust(() => ({ trustedIssuers: [issuer] }));
    const o = await a.authenticate(req(tok, { acceptsCapability: true }));
    expect(o.ok && { subject: o.principal.subject, roles: o.principal.roles, kind: o.principal.kind, verbs: o.principal.capability?.verbs, iss: o.principal.capability?.iss })
      .toEqual({ subject: "peer-bob", roles: [], kind: "capability", verbs: ["read"], iss: issuer });
    // On a route that does not accept capability tokens it is no credential.
    expect(await reasonOf(a, req(tok))).toBe("invalid");
  });

  it("names a capability without an owner by its jti, and refuses expired, revoked and untrusted tokens", async () => {
    const a = await full();
    let revoked = new Set<string>();
    a.setCapabilityTrust(() => ({ trustedIssuers: [issuer], revoked: (j) => revoked.has(j) }));
    const anon = await a.authenticate(req(`Bearer ${mint({ scope: {}, jti: "abc123" })}`, { acceptsCapability: true }));
    expect(anon.ok && anon.principal.subject).toBe("capability:abc123");
    const expired = mint({ now: new Date(Date.now() - 7_200_000) });
    expect(await reasonOf(a, req(`Bearer ${expired}`, { acceptsCapability: true }))).toBe("expired");
    revoked = new Set(["gone1"]);
    expect(await reasonOf(a, req(`Bearer ${mint({ jti: "gone1" })}`, { acceptsCapability: true }))).toBe("invalid");
    expect(await reasonOf(a, req(`Bearer ${mint({ jti: "kept1" })}`, { acceptsCapability: true }))).toBe("ok:capability");
    const stranger = mintToken(generateSeed(), { verbs: ["read"], scope: {}, now: new Date(), ttl: "1h" });
    expect(await reasonOf(a, req(`Bearer ${stranger}`, { acceptsCapability: true }))).toBe("invalid");
    const notYet = mint({ nbf: new Date(Date.now() + 600_000), ttl: undefined, exp: new Date(Date.now() + 7_200_000) });
    expect(await reasonOf(a, req(`Bearer ${notYet}`, { acceptsCapability: true }))).toBe("invalid");
  });
});

describe("loopback without a credential (SPEC §1, §5 item 1)", () => {
  const open = () => createAuthenticator({ credentials: { jwtKeys: {}, required: false }, now: () => new Date() });
  const LOCAL = { ok: true, principal: { subject: "local-operator", roles: ["admin"], kind: "anonymous-loopback" } };

  it("is the local operator in-process and on loopback, whatever header it sends; a remote peer is refused", async () => {
    const a = open();
    expect(a.required).toBe(false);
    expect(await a.authenticate(req(undefined))).toEqual(LOCAL);
    for (const peer of ["127.0.0.1", "::1", "127.8.9.10"]) expect(await a.authenticate(req("Bearer whatever", { peer }))).toEqual(LOCAL);
    for (const peer of ["10.0.0.1", "192.168.1.2", "::ffff:8.8.8.8", "fe80::1"]) {
      expect({ peer, r: await reasonOf(a, req(`Bearer ${TOKEN}`, { peer })) }).toEqual({ peer, r: "not_loopback" });
    }
  });

  it("honours a capability token presented on loopback, so a peer's token keeps its limits", async () => {
    const a = open();
    const seed = generateSeed();
    a.setCapabilityTrust(() => ({ trustedIssuers: [didFromSeed(seed)] }));
    const tok = `Bearer ${mintToken(seed, { verbs: ["read"], scope: { owner: "peer-bob" }, now: new Date(), ttl: "1h" })}`;
    expect(await reasonOf(a, req(tok, { peer: "127.0.0.1", acceptsCapability: true }))).toBe("ok:capability");
    // On a route that takes no capability the caller is still the local operator.
    expect(await a.authenticate(req(tok, { peer: "127.0.0.1" }))).toEqual(LOCAL);
    // A capability token that does not verify is refused rather than upgraded to the operator.
    const forged = `Bearer ${mintToken(generateSeed(), { verbs: ["read"], scope: {}, now: new Date(), ttl: "1h" })}`;
    expect(await reasonOf(a, req(forged, { peer: "127.0.0.1", acceptsCapability: true }))).toBe("invalid");
    // Remote peers are refused before any token is looked at.
    expect(await reasonOf(a, req(tok, { peer: "10.0.0.1", acceptsCapability: true }))).toBe("not_loopback");
  });
});
