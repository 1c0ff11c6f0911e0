/**
 * What is on disk, for the vault planner: every note and record file of a
 * vault with the hash of its content. One-shot reconcile reads every file;
 * the watch keeps a cache (modification time, size, hash) and reads again
 * only the files whose time or size changed or that an event named (a path,
 * or a directory above it), so a batch on a large vault reads what changed.
 * A file that vanishes between the listing and the read is absent.
 */
import { listFiles } from "../runtime/dir-watch.ts";
import { MemoryError } from "../core/errors.ts";
import { readTextIfExists } from "../runtime/platform.ts";
import type { DiskEntry } from "./vault-plan.ts";

/** The extensions the vault binding reads. */
export const VAULT_EXTS = [".md", ".markdown"];

/** What the watch remembers of each file between batches. */
export type ScanCache = Map<string, { mtimeMs: number; size: number; hash: string }>;

/** Options of one scan. */
export interface ScanOptions {
  /** Reused and updated in place; absent: every file is read. */
  cache?: ScanCache;
  /** Root-relative paths an event named (files or directories): read again whatever the cache says. */
  dirty?: ReadonlySet<string>;
}

/** True when `path` or a directory above it was named by an event. */
function named(path: string, dirty: ReadonlySet<string> | undefined): boolean {
  if (!dirty?.size) return false;
  if (dirty.has(path)) return true;
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) if (dirty.has(path.slice(0, i))) return true;
  return false;
}

/** Lists the vault under `root` (absolute) with content hashes. */
export async function scanVault(root: string, hashOf: (text: string) => Promise<string>, o: ScanOptions = {}): Promise<DiskEntry[]> {
  const disk: DiskEntry[] = [];
  const seen = new Set<string>();
  let files: Awaited<ReturnType<typeof listFiles>>;
  try {
    files = await listFiles(root, VAULT_EXTS);
  } catch {
    // One line naming the folder, not an errno dump; nothing is planned, so nothing looks deleted.
    throw new MemoryError("invalid_request", `${root} is not a readable directory`);
  }
  for (const f of files) {
    const path = f.path.slice(root.length + 1);
    const had = o.cache?.get(path);
    if (had && had.mtimeMs === f.mtimeMs && had.size === f.size && !named(path, o.dirty)) {
      disk.push({ path, hash: had.hash });
      seen.add(path);
      continue;
    }
    const text = await readTextIfExists(f.path);
    if (text === undefined) continue; // vanished since the listing
    const hash = await hashOf(text);
    disk.push({ path, hash });
    seen.add(path);
    o.cache?.set(path, { mtimeMs: f.mtimeMs, size: f.size, hash });
  }
  if (o.cache) for (const p of [...o.cache.keys()]) if (!seen.has(p)) o.cache.delete(p);
  return disk;
}
