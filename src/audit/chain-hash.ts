/**
 * The audit chain's hash rule (SPEC §1 item 5): each row's hash is
 * SHA-256 over the previous row's hash (lowercase hex, UTF-8) followed by
 * the row's own canonical bytes (RFC 8785 JCS of
 * `{id, ts, action, actor, target, detail}`, absent fields as null).
 * The first row links to 64 zeros.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { canonicalBytes } from "../ump/canonical-json.ts";

/** The genesis link. */
export const GENESIS_HASH = "0".repeat(64);

/** The hashed fields of one row. */
export interface ChainFields {
  id: number;
  ts: string;
  action: string;
  actor?: string | null;
  target?: string | null;
  detail: Record<string, unknown>;
}

/** Computes a row's hash from the previous hash and its fields. */
export function chainHash(prevHash: string, f: ChainFields): string {
  const body = canonicalBytes({ id: f.id, ts: f.ts, action: f.action, actor: f.actor ?? null, target: f.target ?? null, detail: f.detail });
  const prev = new TextEncoder().encode(prevHash);
  const buf = new Uint8Array(prev.length + body.length);
  buf.set(prev, 0);
  buf.set(body, prev.length);
  return bytesToHex(sha256(buf));
}
