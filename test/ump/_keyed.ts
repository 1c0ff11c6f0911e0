/** Test helpers: a memory with a real operator key on disk, and capability tokens signed by it. */
import { join } from "node:path";
import type { MemoryPorts } from "../../src/memory.ts";
import { dirKeyring, type Keyring } from "../../src/runtime/ump-keyring.ts";
import { mintToken } from "../../src/ump/capability-token.ts";
import { didFromSeed } from "../../src/ump/did-key.ts";
import type { TokenScope, Verb } from "../../src/ump/types.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

/** A keyed test memory. */
export interface KeyedMemory extends TestMemory {
  seed: Uint8Array;
  did: string;
  keyring: Keyring;
  keyDir: string;
  /** Mints a token signed by the current key. */
  token(verbs: Verb[], scope?: TokenScope, o?: { aud?: string; ttl?: string; now?: Date; nbf?: Date; exp?: Date }): string;
  /** JSON request with a bearer. */
  as(token: string | undefined, method: string, path: string, body?: unknown): Promise<Response>;
}

/** Opens a memory whose operator key lives in a fresh 0700 directory. */
export async function openKeyed(env: Record<string, string> = {}, ports: Partial<MemoryPorts> = {}): Promise<KeyedMemory> {
  const dir = tempDir();
  const keyDir = join(dir, "keys");
  const keyring = dirKeyring(keyDir);
  const { seed } = await keyring.generate();
  const t = await openTestMemory({ CAIRN_UMP_KEY_DIR: keyDir, ...env }, { umpKey: () => keyring.currentSync(), ...ports }, dir);
  return {
    ...t, seed, did: didFromSeed(seed), keyring, keyDir,
    token: (verbs, scope = {}, o = {}) =>
      mintToken(seed, { verbs, scope, aud: o.aud, now: o.now ?? new Date(), nbf: o.nbf, ...(o.exp ? { exp: o.exp } : { ttl: o.ttl ?? "1h" }) }),
    as: (token, method, path, body) => t.req(method, path, body, token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/** A remember body. */
export function rec(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ump: "1.0", kind: "semantic", body: { text }, ...extra };
}
