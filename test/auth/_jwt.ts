/** Test-side JWS signing with node:crypto: an implementation independent of src/auth/verify-jwt.ts. */
import { createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";

const b64u = (b: Buffer | string) => Buffer.from(b).toString("base64url");

/** A compact JWS over `claims` with the given header algorithm and key. */
export function signJwt(alg: "HS256" | "EdDSA" | "ES256" | "none", claims: Record<string, unknown>, key?: string | KeyObject, header: Record<string, unknown> = {}): string {
  const input = `${b64u(JSON.stringify({ alg, typ: "JWT", ...header }))}.${b64u(JSON.stringify(claims))}`;
  let sig: Buffer;
  if (alg === "none") sig = Buffer.alloc(0);
  else if (alg === "HS256") sig = createHmac("sha256", key as string).update(input).digest();
  else if (alg === "EdDSA") sig = sign(null, Buffer.from(input), key as KeyObject);
  else sig = sign("sha256", Buffer.from(input), { key: key as KeyObject, dsaEncoding: "ieee-p1363" });
  return `${input}.${b64u(sig)}`;
}

/** A fresh key pair and its PEM SPKI public key. */
export function keyPair(kind: "ed25519" | "p256"): { privateKey: KeyObject; pem: string } {
  const kp = kind === "ed25519" ? generateKeyPairSync("ed25519") : generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { privateKey: kp.privateKey, pem: kp.publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/** Seconds since the epoch. */
export const nowS = () => Math.floor(Date.now() / 1000);
