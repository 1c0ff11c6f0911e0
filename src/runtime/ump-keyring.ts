/**
 * The operator key on disk (SPEC §5 item 5): an Ed25519 seed in
 * `<config_dir>/ump/` (file 0600, directory 0700; `CAIRN_UMP_KEY_DIR`
 * relocates it). Any seed file in the directory is picked up
 * (`operator.key` first, then by name); the directory is re-read on every
 * call, so deleting and regenerating the key (rotation) takes effect at
 * once, in a running server too. The read is synchronous (a directory
 * listing and one small file) because the request guard checks capability
 * tokens synchronously. Seed files hold 64 hex digits (what
 * `keygen` writes), 32 raw bytes, or base64 of 32 bytes. A seed file
 * readable by group or others is refused, never silently used.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { MemoryError } from "../core/errors.ts";
import { generateSeed } from "../ump/did-key.ts";
import { isDeno } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;

/** The operator key source the composition root reads (a port). */
export interface Keyring {
  /** The key directory. */
  readonly dir: string;
  /** The current seed, or undefined when no seed file is present. */
  current(): Promise<Uint8Array | undefined>;
  /** The same, synchronously. */
  currentSync(): Uint8Array | undefined;
  /** Creates `operator.key` with a fresh seed; refuses when a seed file already exists. */
  generate(): Promise<{ path: string; seed: Uint8Array }>;
}

/** The default seed file name. */
export const KEY_FILE = "operator.key";

/** A keyring over a directory. */
export function dirKeyring(dir: string): Keyring {
  const clean = dir.replace(/\/+$/, "") || "/";
  return {
    dir: clean,
    current: () => Promise.resolve(findSeed(clean)?.seed),
    currentSync: () => findSeed(clean)?.seed,
    async generate() {
      const existing = findSeed(clean);
      if (existing) throw new MemoryError("operator_key_exists", "An operator key already exists; to rotate, delete it and run keygen again", { file: existing.name });
      await makePrivateDir(clean);
      const seed = generateSeed();
      const path = `${clean}/${KEY_FILE}`;
      const hex = [...seed].map((b) => b.toString(16).padStart(2, "0")).join("") + "\n";
      await writeNewPrivateFile(path, hex);
      return { path, seed };
    },
  };
}

/** Parses seed file bytes: 64 hex digits, base64 of 32 bytes, or 32 raw bytes; undefined otherwise. */
export function parseSeed(bytes: Uint8Array): Uint8Array | undefined {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Uint8Array.from(text.match(/../g)!.map((h) => parseInt(h, 16)));
  if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    const raw = atob(text);
    if (raw.length === 32) return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }
  if (bytes.length === 32) return bytes.slice();
  return undefined;
}

function findSeed(dir: string): { name: string; seed: Uint8Array } | undefined {
  const names = listFiles(dir);
  if (!names) return undefined;
  names.sort((a, b) => (a === KEY_FILE ? -1 : b === KEY_FILE ? 1 : a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = `${dir}/${name}`;
    let bytes: Uint8Array;
    let mode: number | undefined;
    try {
      bytes = new Uint8Array(readFileSync(path));
      mode = windows() ? undefined : statSync(path).mode;
    } catch {
      continue; // vanished between listing and reading (a rotation in progress)
    }
    const seed = parseSeed(bytes);
    if (!seed) continue;
    // SPEC §5: the seed is owner-only (0600); a readable-by-others key is refused, not used.
    if (mode !== undefined && (mode & 0o077) !== 0) {
      throw new MemoryError("operator_key_insecure", `The operator key file "${name}" is readable by group or others; chmod 600 it`, undefined, 500);
    }
    return { name, seed };
  }
  return undefined;
}

function listFiles(dir: string): string[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return undefined; // no directory: no key
  }
}

function windows(): boolean {
  return isDeno ? g.Deno.build.os === "windows" : g.process.platform === "win32";
}

async function makePrivateDir(dir: string): Promise<void> {
  if (isDeno) {
    await g.Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    if (g.Deno.build.os !== "windows") await g.Deno.chmod(dir, 0o700);
    return;
  }
  const fs = await import("node:fs/promises");
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (g.process.platform !== "win32") await fs.chmod(dir, 0o700); // mkdir's mode is filtered by the umask
}

async function writeNewPrivateFile(path: string, text: string): Promise<void> {
  if (isDeno) {
    await g.Deno.writeTextFile(path, text, { createNew: true, mode: 0o600 });
    if (g.Deno.build.os !== "windows") await g.Deno.chmod(path, 0o600);
    return;
  }
  const fs = await import("node:fs/promises");
  await fs.writeFile(path, text, { flag: "wx", mode: 0o600 });
  if (g.process.platform !== "win32") await fs.chmod(path, 0o600);
}
