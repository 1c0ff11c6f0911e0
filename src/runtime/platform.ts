/**
 * The runtime adapter (STYLE rule 5): the only place besides cli.ts that
 * touches `process`, `Deno` or `node:*`. Node and Deno get the same small
 * surface: environment, files, RSS, and an HTTP server for a fetch handler.
 */
// deno-lint-ignore no-explicit-any
const g = globalThis as any;

/** True under Deno. */
export const isDeno: boolean = typeof g.Deno?.version?.deno === "string";

/** The process environment as a plain object. */
export function readEnv(): Record<string, string | undefined> {
  return isDeno ? g.Deno.env.toObject() : { ...g.process.env };
}

/** Resident set size in bytes. */
export function rssBytes(): number {
  return isDeno ? g.Deno.memoryUsage().rss : g.process.memoryUsage().rss;
}

/** Reads a UTF-8 text file. */
export async function readTextFile(path: string): Promise<string> {
  if (isDeno) return await g.Deno.readTextFile(path);
  const fs = await import("node:fs/promises");
  return await fs.readFile(path, "utf8");
}

/** Reads a file's bytes. */
export async function readBytes(path: string): Promise<Uint8Array> {
  if (isDeno) return await g.Deno.readFile(path);
  const fs = await import("node:fs/promises");
  return new Uint8Array(await fs.readFile(path));
}

/**
 * After boot (Node): one full collection, so the memory the boot's loading left behind is released before
 * serving — at 50k chunks the process then holds ~310 MB after 1,000 queries instead of ~385 MB. `percent` > 0
 * also caps how far V8 grows the old generation past the live heap after each full GC (factor 1 + percent/100;
 * `CAIRN_HEAP_GROWING_PERCENT`): ~20 MB less again, at the cost of more collections while ingesting, so it is
 * off by default. Set after boot, since before it would slow the boot's allocation burst.
 */
export async function settleHeapAfterBoot(percent: number): Promise<void> {
  if (isDeno) return;
  const v8 = await import("node:v8");
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
  // One full collection now, so the limit applies to the heap the boot left (its garbage is released).
  v8.setFlagsFromString("--expose-gc");
  const gc = (await import("node:vm")).runInNewContext("gc") as (() => void) | undefined;
  gc?.();
}

/** Whether a file exists (false on any error). */
export async function fileExists(path: string): Promise<boolean> {
  try {
    if (isDeno) await g.Deno.stat(path);
    else await (await import("node:fs/promises")).stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts reading and decoding a lexical snapshot file on a worker thread (Node): the postings fill, the
 * heaviest part of a boot, then runs beside the main thread's label and vector reads. Resolves to the decoded
 * snapshot (postings attached, see `prebuildStore`), or undefined when there is no file or the worker failed —
 * the caller then loads in-thread. Undefined at once under Deno.
 */
export function loadSnapshotOffThread(path: string): Promise<unknown> | undefined {
  if (isDeno) return undefined;
  return (async () => {
    const { Worker } = await import("node:worker_threads");
    const fromSource = import.meta.url.endsWith(".ts");
    const url = new URL(`./snapshot-worker${fromSource ? ".ts" : ".js"}`, import.meta.url);
    // From the TypeScript sources (tsx, vitest) the worker registers tsx itself: Node 20 does not apply the
    // parent's loader to a worker's entry module.
    // (The loader is named in the worker's source text, not imported here: Deno never takes this branch.)
    const loader = JSON.stringify(["tsx", "esm", "api"].join("/"));
    const w = fromSource
      ? new Worker(`import(${loader}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, workerData: { path } })
      : new Worker(url, { workerData: { path } });
    return await new Promise<unknown>((resolve) => {
      w.once("message", (m: { data?: unknown; error?: string }) => {
        resolve(m.error === undefined ? m.data : undefined);
        void w.terminate();
      });
      w.once("error", () => resolve(undefined));
      w.once("exit", () => resolve(undefined));
    });
  })().catch(() => undefined);
}

/** Creates the parent directory of a file path (for the default ./data/ database); directories it creates are owner-only (0700). */
export async function ensureParentDir(path: string): Promise<void> {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (i <= 0) return;
  const dir = path.slice(0, i);
  if (isDeno) await g.Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  else await (await import("node:fs/promises")).mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * Issue 23 §4: the store's files hold personal data, so everything this process creates from now on is
 * owner-only (umask 077: files 0600, directories 0700), and the given existing files are narrowed to 0600.
 */
export async function ownerOnlyFiles(existing: string[]): Promise<void> {
  if (isDeno) {
    try { g.Deno.umask?.(0o077); } catch { /* umask is unstable on some Deno builds */ }
    for (const p of existing) await g.Deno.chmod(p, 0o600).catch(() => undefined);
    return;
  }
  g.process.umask(0o077);
  const fs = await import("node:fs/promises");
  for (const p of existing) await fs.chmod(p, 0o600).catch(() => undefined);
}

/** This machine's host name (the default node id, issue 20). */
export async function hostName(): Promise<string> {
  try {
    return isDeno ? g.Deno.hostname() : (await import("node:os")).hostname();
  } catch {
    return "localhost";
  }
}

/** This process's id. */
export function processId(): number {
  return isDeno ? g.Deno.pid : g.process.pid;
}

/** Whether a process with this id runs (a signal-0 probe; EPERM means it exists under another user). */
export function processAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    if (isDeno) g.Deno.kill(pid, "SIGCONT");
    else g.process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string })?.code === "EPERM";
  }
}

/** The directory holding package.json, openapi.yaml and assets/ (the repo root). */
export function packageRoot(): string {
  // Compiled to dist/src/runtime/ by `npm run build` (bin/cairn.mjs prefers it), else run from src/runtime/.
  const here = new URL(/\/dist\/src\/runtime\/[^/]*$/.test(import.meta.url) ? "../../../" : "../../", import.meta.url);
  return decodeURIComponent(here.pathname).replace(/\/$/, "");
}

export { serveFetch, type RunningServer, type PeerBindings, type RawRefusal } from "./serve-fetch.ts";

/** Reads a secret file's text and permission bits (for the owner-only check, SPEC §5 item 1). */
export async function readSecretFile(path: string): Promise<{ text: string; mode: number }> {
  if (isDeno) {
    const st = await g.Deno.stat(path);
    return { text: await g.Deno.readTextFile(path), mode: (st.mode ?? 0) & 0o777 };
  }
  const fs = await import("node:fs/promises");
  const st = await fs.stat(path);
  return { text: await fs.readFile(path, "utf8"), mode: st.mode & 0o777 };
}

/** Every IPv4 and IPv6 address of a host name (the outbound client's DNS port). */
export async function resolveHost(host: string): Promise<string[]> {
  if (isDeno) {
    const out: string[] = [];
    for (const t of ["A", "AAAA"]) out.push(...await g.Deno.resolveDns(host, t).catch(() => []));
    return out;
  }
  const dns = await import("node:dns/promises");
  return (await dns.lookup(host, { all: true })).map((a: { address: string }) => a.address);
}

/** The runtime as `cairn --version` names it (cac's format): `linux-x64 node-v22.1.0`. */
export function runtimeLabel(): string {
  return isDeno ? `${g.Deno.build.os}-${g.Deno.build.arch} deno-${g.Deno.version.deno}` : `${g.process.platform}-${g.process.arch} node-${g.process.version}`;
}

/** Ends the process (the RSS watchdog under CAIRN_RSS_RESTART=1). */
export function exitProcess(code: number): void {
  if (isDeno) g.Deno.exit(code);
  else g.process.exit(code);
}

/** Calls `fn` on SIGINT/SIGTERM. */
export function onShutdown(fn: () => void): void {
  if (isDeno) {
    g.Deno.addSignalListener("SIGINT", fn);
    g.Deno.addSignalListener("SIGTERM", fn);
  } else {
    g.process.once("SIGINT", fn);
    g.process.once("SIGTERM", fn);
  }
}

/** Lists files under `dir` (recursively, sorted) whose names end with one of `exts`. */
export async function walkFiles(dir: string, exts: string[]): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    let entries: { name: string; isDir: boolean }[];
    if (isDeno) {
      entries = [];
      for await (const e of g.Deno.readDir(d)) entries.push({ name: e.name, isDir: e.isDirectory });
    } else {
      const fs = await import("node:fs/promises");
      entries = (await fs.readdir(d, { withFileTypes: true })).map((e) => ({ name: e.name, isDir: e.isDirectory() }));
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const p = `${d}/${e.name}`;
      if (e.isDir) await visit(p);
      else if (exts.some((x) => e.name.toLowerCase().endsWith(x))) out.push(p);
    }
  };
  await visit(dir.replace(/\/$/, ""));
  return out;
}

/** True when stderr is a terminal (progress bars only then). */
export function stderrIsTTY(): boolean {
  return isDeno ? g.Deno.stderr.isTerminal() : Boolean(g.process.stderr.isTTY);
}

/** Writes to stderr without a newline. */
export function writeStderr(s: string): void {
  if (isDeno) g.Deno.stderr.writeSync(new TextEncoder().encode(s));
  else g.process.stderr.write(s);
}

/** Writes a file atomically (temp file, then rename). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${Math.random().toString(36).slice(2)}`;
  if (isDeno) {
    if (typeof data === "string") await g.Deno.writeTextFile(tmp, data);
    else await g.Deno.writeFile(tmp, data);
    await g.Deno.rename(tmp, path);
    return;
  }
  const fs = await import("node:fs/promises");
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path);
}

/** Removes a file; false when it did not exist. */
export async function removeFile(path: string): Promise<boolean> {
  try {
    if (isDeno) await g.Deno.remove(path);
    else await (await import("node:fs/promises")).unlink(path);
    return true;
  } catch {
    return false;
  }
}

/** A file's text, or undefined when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readTextFile(path);
  } catch {
    return undefined;
  }
}

/** The absolute form of a path (relative to the working directory), without a trailing slash. */
export async function absolutePath(path: string): Promise<string> {
  if (isDeno) {
    const p = path.startsWith("/") ? path : `${g.Deno.cwd()}/${path}`;
    return normalizeSlashes(p);
  }
  const { resolve } = await import("node:path");
  return resolve(path).replaceAll("\\", "/");
}

function normalizeSlashes(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

/** Calls `fn` once stdin reaches its end (an MCP client closed the pipe). */
export function onStdinEnd(fn: () => void): void {
  // The MCP SDK reads `process.stdin` on both runtimes (Deno through its Node compatibility layer).
  const stdin = isDeno ? (g.process ?? g.Deno?.process)?.stdin : g.process.stdin;
  if (!stdin?.once) return;
  stdin.once("end", fn);
  stdin.once("close", fn);
}

/** Creates a fresh temporary directory and returns its path. */
export async function makeTempDir(prefix: string): Promise<string> {
  if (isDeno) return await g.Deno.makeTempDir({ prefix });
  const [{ mkdtemp }, { tmpdir }, { join }] = await Promise.all([import("node:fs/promises"), import("node:os"), import("node:path")]);
  return await mkdtemp(join(tmpdir(), prefix));
}

/** Removes a directory tree (missing is fine). */
export async function removeDir(path: string): Promise<void> {
  if (isDeno) await g.Deno.remove(path, { recursive: true }).catch(() => undefined);
  else await (await import("node:fs/promises")).rm(path, { recursive: true, force: true });
}

/** The process's working directory (Node or Deno): relative CLI paths resolve against it. */
export function currentDir(): string {
  // deno-lint-ignore no-explicit-any
  const g = globalThis as any;
  return isDeno ? g.Deno.cwd() : g.process.cwd();
}
