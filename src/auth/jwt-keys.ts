/**
 * Verification keys for JWT/JWS mode (SPEC §5 item 2): an HS256 secret and a
 * PEM SPKI public key whose algorithm follows from the key itself (Ed25519 →
 * `EdDSA`, P-256 → `ES256`). Web Crypto only, so Node and Deno agree.
 */
import { MemoryError } from "../core/errors.ts";
import { base64Decode } from "../ump/base64.ts";

/** The JWS algorithms Cairn verifies. */
export type JwtAlg = "HS256" | "EdDSA" | "ES256";

/** Imported keys, one per algorithm at most. */
export type JwtKeys = Partial<Record<JwtAlg, CryptoKey>>;

// RFC 7518 §3.2: an HS256 key must be at least as long as the hash output.
const MIN_HS256_BYTES = 32;
const ED25519_OID = [0x06, 0x03, 0x2b, 0x65, 0x70];
const P256_CURVE_OID = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

/** Imports the HS256 secret (the file's text, trimmed, as UTF-8 bytes). */
export async function importHs256Secret(text: string): Promise<CryptoKey> {
  const bytes = new TextEncoder().encode(text.trim());
  if (bytes.length < MIN_HS256_BYTES) throw new MemoryError("jwt_key_invalid", `The HS256 secret must be at least ${MIN_HS256_BYTES} bytes`);
  return await crypto.subtle.importKey("raw", bytes as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}

/** Imports a PEM `PUBLIC KEY` (SPKI) and names its algorithm. */
export async function importPublicKeyPem(pem: string): Promise<{ alg: "EdDSA" | "ES256"; key: CryptoKey }> {
  const m = /-----BEGIN PUBLIC KEY-----([\s\S]+?)-----END PUBLIC KEY-----/.exec(pem);
  const der = m ? base64Decode(m[1]!.replace(/\s+/g, "")) : null;
  if (!der) throw new MemoryError("jwt_key_invalid", "The JWT public key file must hold one PEM PUBLIC KEY (SPKI) block");
  try {
    if (contains(der, ED25519_OID)) {
      return { alg: "EdDSA", key: await crypto.subtle.importKey("spki", der as BufferSource, { name: "Ed25519" }, false, ["verify"]) };
    }
    if (contains(der, P256_CURVE_OID)) {
      const key = await crypto.subtle.importKey("spki", der as BufferSource, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
      return { alg: "ES256", key };
    }
  } catch {
    throw new MemoryError("jwt_key_invalid", "The JWT public key could not be imported");
  }
  throw new MemoryError("jwt_key_invalid", "The JWT public key must be Ed25519 (EdDSA) or P-256 (ES256)");
}

function contains(hay: Uint8Array, needle: number[]): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
