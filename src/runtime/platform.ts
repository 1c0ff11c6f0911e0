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

/** Creates the parent directory of a file path (for the default ./data/ database). */
export async function ensureParentDir(path: string): Promise<void> {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (i <= 0) return;
  const dir = path.slice(0, i);
  if (isDeno) await g.Deno.mkdir(dir, { recursive: true });
  else await (await import("node:fs/promises")).mkdir(dir, { recursive: true });
}

/** The directory holding package.json, openapi.yaml and assets/ (the repo root). */
export function packageRoot(): string {
  const here = new URL("../../", import.meta.url);
  return decodeURIComponent(here.pathname).replace(/\/$/, "");
}

/** A running HTTP server. */
export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** Serves a fetch handler on hostname:port (port 0 only in tests: the CLI refuses it at config). */
export async function serveFetch(
  fetch: (req: Request, info?: unknown) => Response | Promise<Response>,
  opts: { hostname: string; port: number },
): Promise<RunningServer> {
  if (isDeno) {
    let resolvePort: (p: number) => void;
    const ready = new Promise<number>((r) => (resolvePort = r));
    const server = g.Deno.serve({ hostname: opts.hostname, port: opts.port, onListen: (a: { port: number }) => resolvePort(a.port) }, fetch);
    const port = await ready;
    return { port, close: () => server.shutdown() };
  }
  const { serve } = await import("@hono/node-server");
  return await new Promise<RunningServer>((resolve, reject) => {
    const server = serve({ fetch, hostname: opts.hostname, port: opts.port }, (info: { port: number }) => {
      resolve({
        port: info.port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
    server.on("error", reject);
  });
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
