/**
 * GitHub App authentication (issue 15): an RS256 JWT signed with the App's private key through Web Crypto, exchanged
 * for a short-lived installation token. GitHub hands out PKCS#1 keys (`BEGIN RSA PRIVATE KEY`); Web Crypto imports
 * only PKCS#8, so a PKCS#1 key is wrapped in a PKCS#8 `PrivateKeyInfo` (version 0, rsaEncryption OID, the PKCS#1 DER
 * as the OCTET STRING) — no new package. Claims per GitHub's docs: `iat` 60 s in the past (clock drift), `exp` at most
 * 10 minutes ahead (9 here), `iss` the App id.
 */

/** Imports a PEM private key (PKCS#1 or PKCS#8) for RS256 signing. */
export async function importAppKey(pem: string): Promise<CryptoKey> {
  const m = /-----BEGIN (RSA )?PRIVATE KEY-----([\s\S]*?)-----END (RSA )?PRIVATE KEY-----/.exec(pem);
  if (!m) throw new Error("The GitHub App key file is not a PEM private key");
  let der: Uint8Array;
  try {
    der = Uint8Array.from(atob(m[2]!.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    throw new Error("The GitHub App key file is not valid base64 PEM");
  }
  const pkcs8 = m[1] ? wrapPkcs1(der) : der;
  return await crypto.subtle.importKey("pkcs8", pkcs8 as BufferSource, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
}

/** Signs the App JWT (`iss` = App id) valid from `now - 60 s` to `now + 540 s`. */
export async function signAppJwt(key: CryptoKey, appId: string, now: Date): Promise<string> {
  const t = Math.floor(now.getTime() / 1000);
  const head = b64url(new TextEncoder().encode(JSON.stringify({ alg: "RS256", typ: "JWT" })));
  const claims = b64url(new TextEncoder().encode(JSON.stringify({ iat: t - 60, exp: t + 540, iss: appId })));
  const input = `${head}.${claims}`;
  const sig = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(input));
  return `${input}.${b64url(new Uint8Array(sig))}`;
}

/** PKCS#8 PrivateKeyInfo around a PKCS#1 RSAPrivateKey DER. */
export function wrapPkcs1(pkcs1: Uint8Array): Uint8Array {
  const version = Uint8Array.of(0x02, 0x01, 0x00);
  // AlgorithmIdentifier: rsaEncryption (1.2.840.113549.1.1.1), NULL parameters.
  const algorithm = Uint8Array.of(0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00);
  const key = tlv(0x04, pkcs1);
  return tlv(0x30, concat(version, algorithm, key));
}

function tlv(tag: number, body: Uint8Array): Uint8Array {
  const n = body.length;
  let len: Uint8Array;
  if (n < 0x80) len = Uint8Array.of(n);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Uint8Array.of(0x80 | bytes.length, ...bytes);
  }
  return concat(Uint8Array.of(tag), len, body);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
