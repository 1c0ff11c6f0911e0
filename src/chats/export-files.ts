/**
 * Where a chat export's conversations are: a `conversations.json`, the
 * shards `conversations-000.json`, `conversations-001.json`, … of a large
 * export, a directory holding them, or the zip as downloaded (its
 * `conversations*.json` entries, at any depth). Each part is a stream of
 * bytes read in bounded slices; nothing holds a whole file.
 */
import { MemoryError } from "../core/errors.ts";
import { listDir, openRandomAccess, pathKind } from "../runtime/file-reader.ts";
import { type ByteSource, looksLikeZip, readZipDirectory, readZipEntry, type ZipLimits, ZIP_LIMITS } from "./zip-reader.ts";

/** One part of an export: a name for messages, its size in bytes (compressed size inside a zip), and its bytes. */
export interface ExportPart {
  name: string;
  /** Bytes of JSON the part holds (a zip entry: uncompressed), for progress. */
  bytes: number;
  open(): AsyncGenerator<Uint8Array>;
}

const PART = /(^|\/)conversations(-\d+)?\.json$/i;
const SLICE = 1024 * 1024;

/** True for a file name that holds conversations (`conversations.json`, `conversations-003.json`). */
export const isConversationsFile = (name: string) => PART.test(name);

async function* slices(src: ByteSource): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < src.size; at += SLICE) yield await src.read(at, Math.min(SLICE, src.size - at));
}

/**
 * The parts of every path given, in order (a directory's and a zip's parts sorted by name). `close()` closes the
 * files opened. A path that is neither a JSON file, a directory of them nor a zip is refused before anything is read.
 */
export async function exportParts(paths: readonly string[], limits: ZipLimits = ZIP_LIMITS): Promise<{ parts: ExportPart[]; close(): Promise<void> }> {
  const files: { close(): Promise<void> }[] = [];
  const parts: ExportPart[] = [];
  const openFile = async (path: string, name: string) => {
    const f = await openRandomAccess(path);
    files.push(f);
    const head = await f.read(0, 4);
    if (looksLikeZip(head)) {
      const entries = (await readZipDirectory(f, limits)).filter((e) => isConversationsFile(e.name) && !e.name.endsWith("/"));
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (!entries.length) throw new MemoryError("not_chat_export", `${name} holds no conversations.json`);
      for (const e of entries) parts.push({ name: `${name}:${e.name}`, bytes: e.size, open: () => readZipEntry(f, e, limits) });
    } else parts.push({ name, bytes: f.size, open: () => slices(f) });
  };
  try {
    for (const path of paths) {
      const kind = await pathKind(path);
      if (kind.kind === "none") throw new MemoryError("invalid_request", `${path} does not exist`);
      if (kind.kind === "file") {
        await openFile(path, path);
        continue;
      }
      const names = (await listDir(path)).filter((n) => isConversationsFile(n));
      if (!names.length) throw new MemoryError("not_chat_export", `${path} holds no conversations.json or conversations-NNN.json`);
      for (const n of names) await openFile(`${path}/${n}`, `${path}/${n}`);
    }
  } catch (e) {
    for (const f of files) await f.close().catch(() => {});
    throw e;
  }
  return { parts, close: async () => { for (const f of files) await f.close().catch(() => {}); } };
}
