/**
 * File-system events and listings for `cairn reconcile --watch` (the runtime
 * side; the batching and the reconcile live in `src/files/vault-watch.ts`).
 * Node's recursive `fs.watch` (Linux from Node 20: one inotify watch per
 * directory, new and moved directories followed) or Deno's `watchFs`. Events
 * carry only a path relative to the root, possibly a directory's or a
 * temporary file's: the caller rescans, so a missed or coalesced event costs
 * nothing but latency. No watcher dependency: these cover Linux, macOS and
 * Windows (measured in docs/vault.md).
 */
import { isDeno } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;

/** A running watch. */
export interface DirWatch {
  close(): void;
}

/** Watches `root` recursively; `onEvent` gets a root-relative path (undefined when the platform names none). */
export function watchDir(root: string, onEvent: (path: string | undefined) => void, onError: (e: Error) => void): DirWatch {
  if (isDeno) {
    const w = g.Deno.watchFs(root, { recursive: true });
    (async () => {
      try {
        for await (const ev of w) for (const p of ev.paths as string[]) onEvent(p.startsWith(root + "/") ? p.slice(root.length + 1) : undefined);
      } catch (e) {
        onError(e as Error);
      }
    })();
    return { close: () => w.close() };
  }
  // deno-lint-ignore no-explicit-any
  let w: any;
  let closed = false;
  (async () => {
    const fs = await import("node:fs");
    if (closed) return;
    try {
      w = fs.watch(root, { recursive: true, persistent: true }, (_ev: string, name: string | Buffer | null) => onEvent(name === null ? undefined : String(name).replaceAll("\\", "/")));
      w.on("error", (e: Error) => onError(e));
    } catch (e) {
      onError(e as Error);
    }
  })();
  return { close: () => { closed = true; w?.close(); } };
}

/** A file found by `listFiles`. */
export interface ListedFile {
  /** Absolute path. */
  path: string;
  mtimeMs: number;
  size: number;
}

/**
 * Files under `dir` (recursively, sorted as `walkFiles` sorts them, hidden entries skipped) whose names end with one
 * of `exts`, with their modification time and size. A directory or file that vanishes during the walk is skipped.
 */
export async function listFiles(dir: string, exts: string[]): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  const fs = isDeno ? undefined : await import("node:fs/promises");
  const visit = async (d: string): Promise<void> => {
    let entries: { name: string; isDir: boolean }[] = [];
    try {
      if (isDeno) for await (const e of g.Deno.readDir(d)) entries.push({ name: e.name, isDir: e.isDirectory });
      else entries = (await fs!.readdir(d, { withFileTypes: true })).map((e) => ({ name: e.name, isDir: e.isDirectory() }));
    } catch {
      return; // vanished (or unreadable) since its parent was listed
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const p = `${d}/${e.name}`;
      if (e.isDir) await visit(p);
      else if (exts.some((x) => e.name.toLowerCase().endsWith(x))) {
        try {
          const s = isDeno ? await g.Deno.stat(p) : await fs!.stat(p);
          out.push({ path: p, mtimeMs: isDeno ? (s.mtime?.getTime() ?? 0) : s.mtimeMs, size: s.size });
        } catch {
          // vanished between the listing and the stat
        }
      }
    }
  };
  await visit(dir.replace(/\/$/, ""));
  return out;
}
