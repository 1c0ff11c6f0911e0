/**
 * Random-access reads of a local file (the chat-history importer reads
 * exports of hundreds of megabytes in bounded slices, and a zip's central
 * directory from its end). Node's `FileHandle` or Deno's `FsFile`.
 */
import { isDeno } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;

/** An open file. */
export interface RandomAccessFile {
  size: number;
  /** Up to `length` bytes at `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Opens `path` for reading. */
export async function openRandomAccess(path: string): Promise<RandomAccessFile> {
  if (isDeno) {
    const f = await g.Deno.open(path, { read: true });
    const size = (await f.stat()).size as number;
    return {
      size,
      async read(offset, length) {
        await f.seek(offset, g.Deno.SeekMode.Start);
        const buf = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
        let got = 0;
        while (got < buf.length) {
          const n = await f.read(buf.subarray(got));
          if (n === null) break;
          got += n;
        }
        return buf.subarray(0, got);
      },
      close: async () => f.close(),
    };
  }
  const fs = await import("node:fs/promises");
  const h = await fs.open(path, "r");
  const size = (await h.stat()).size;
  return {
    size,
    async read(offset, length) {
      const buf = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await h.read(buf, got, buf.length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
    close: () => h.close(),
  };
}

/** What a path is: a file (with its size), a directory, or nothing. */
export async function pathKind(path: string): Promise<{ kind: "file"; size: number } | { kind: "dir" } | { kind: "none" }> {
  try {
    const s = isDeno ? await g.Deno.stat(path) : await (await import("node:fs/promises")).stat(path);
    const dir = isDeno ? s.isDirectory : s.isDirectory();
    return dir ? { kind: "dir" } : { kind: "file", size: Number(s.size) };
  } catch {
    return { kind: "none" };
  }
}

/** The names in a directory, sorted. */
export async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  if (isDeno) for await (const e of g.Deno.readDir(path)) names.push(e.name);
  else names.push(...(await (await import("node:fs/promises")).readdir(path)));
  return names.sort();
}
