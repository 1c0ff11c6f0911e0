/**
 * File-system events and listings for `cairn reconcile --watch` (the runtime
 * side; the batching and the reconcile live in `src/files/vault-watch.ts`).
 * Events carry only a path relative to the root, possibly a directory's or a
 * temporary file's: the caller rescans what they name, so a coalesced event
 * costs nothing but latency.
 *
 * On Linux, Node's `fs.watch(…, {recursive: true})` loses events: measured
 * here on Node 20.20, 18 to 21 of 300 saves into a 1,000-note folder raised no
 * event, and 50 of 300 when each of 200 files is saved once or twice
 * (`test/runtime/dir-watch.test.ts`; nodejs/node#48437). So on Linux this
 * sets one plain `fs.watch` (inotify) per directory itself, which lost none
 * of the same saves, skipping hidden directories (`.git`,
 * `.obsidian`: a checkout's object writes never wake the watch) and following
 * directories as they appear, move and vanish. macOS and Windows watch a tree
 * natively (FSEvents, ReadDirectoryChangesW), so Node's recursive mode is used
 * there; Deno's `watchFs` everywhere. No watcher dependency.
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
  let native: any;
  let tree: DirWatch | undefined;
  let closed = false;
  (async () => {
    const fs = await import("node:fs");
    if (closed) return;
    try {
      if (g.process.platform === "linux") tree = watchTree(fs, root, onEvent, onError);
      else {
        native = fs.watch(root, { recursive: true, persistent: true }, (_ev: string, name: string | Buffer | null) =>
          onEvent(name === null ? undefined : String(name).replaceAll("\\", "/")));
        native.on("error", (e: Error) => onError(e));
      }
    } catch (e) {
      onError(e as Error);
    }
  })();
  return { close: () => { closed = true; native?.close(); tree?.close(); } };
}

/** One inotify watch per (non-hidden) directory under `root`, following directories as they come and go. */
// deno-lint-ignore no-explicit-any
function watchTree(fs: any, root: string, onEvent: (path: string | undefined) => void, onError: (e: Error) => void): DirWatch {
  // deno-lint-ignore no-explicit-any
  const watchers = new Map<string, any>();
  let closed = false;
  const abs = (rel: string) => (rel ? `${root}/${rel}` : root);
  const drop = (rel: string) => {
    for (const [k, w] of watchers) {
      if (k === rel || k.startsWith(`${rel}/`)) {
        w.close();
        watchers.delete(k);
      }
    }
  };
  const add = (rel: string): void => {
    if (closed || watchers.has(rel)) return;
    // deno-lint-ignore no-explicit-any
    let w: any;
    try {
      w = fs.watch(abs(rel), { persistent: true }, (ev: string, name: string | Buffer | null) => {
        if (name === null) return onEvent(rel || undefined);
        const p = rel ? `${rel}/${name}` : String(name);
        if (ev === "rename" && !String(name).startsWith(".")) follow(p);
        onEvent(p);
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return; // gone before it could be watched
      if (rel === "") throw e;
      return onError(e as Error); // the inotify limit (ENOSPC), permissions: the caller falls back to rescans
    }
    w.on("error", () => drop(rel));
    watchers.set(rel, w);
    let entries: { name: string; isDirectory(): boolean }[] = [];
    try {
      entries = fs.readdirSync(abs(rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith(".")) add(rel ? `${rel}/${e.name}` : e.name);
  };
  // A name that appeared or left: a directory that appeared is watched with its subtree, one that left is dropped.
  const follow = (rel: string) => {
    try {
      if (fs.statSync(abs(rel)).isDirectory()) add(rel);
      else drop(rel);
    } catch {
      drop(rel);
    }
  };
  add("");
  return { close: () => { closed = true; for (const w of watchers.values()) w.close(); watchers.clear(); } };
}

/** True when `dir` is a directory this process can list. */
export async function isReadableDir(dir: string): Promise<boolean> {
  try {
    if (isDeno) {
      for await (const _ of g.Deno.readDir(dir)) break;
    } else {
      const fs = await import("node:fs/promises");
      await (await fs.opendir(dir)).close();
    }
    return true;
  } catch {
    return false;
  }
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
 * of `exts`, with their modification time and size. A directory or file that vanishes during the walk is skipped;
 * `dir` itself missing or unreadable throws.
 */
export async function listFiles(dir: string, exts: string[]): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  const fs = isDeno ? undefined : await import("node:fs/promises");
  const visit = async (d: string, top: boolean): Promise<void> => {
    let entries: { name: string; isDir: boolean }[] = [];
    try {
      if (isDeno) for await (const e of g.Deno.readDir(d)) entries.push({ name: e.name, isDir: e.isDirectory });
      else entries = (await fs!.readdir(d, { withFileTypes: true })).map((e) => ({ name: e.name, isDir: e.isDirectory() }));
    } catch (e) {
      // The root itself unreadable (a typo, an unmounted drive) is an error, never an empty vault whose notes would
      // all look deleted; a folder below it that vanished since its parent was listed is just gone.
      if (top) throw e;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const p = `${d}/${e.name}`;
      if (e.isDir) await visit(p, false);
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
  await visit(dir.replace(/\/$/, ""), true);
  return out;
}
