/**
 * A bounded reader of the zip a chat export downloads as (APPNOTE 6.3:
 * end-of-central-directory record, zip64 locator and record, central
 * directory, local headers). Entries are streamed: stored ones as they are,
 * deflated ones through the runtime's `DecompressionStream("deflate-raw")`,
 * with a CRC-32 check. The archive is client input, so every size is
 * checked before the work it costs: the central directory's size and entry
 * count, each entry's declared size and compression ratio, and the bytes it
 * really expands to (never past its declared size). Encrypted entries and
 * methods other than stored and deflate are refused.
 */
import { MemoryError } from "../core/errors.ts";

/** Random-access bytes (the runtime's open file). */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** One entry of the central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Budgets. */
export interface ZipLimits {
  maxEntries: number;
  maxDirectoryBytes: number;
  /** Largest uncompressed entry read. */
  maxEntryBytes: number;
  /** Largest uncompressed / compressed ratio of an entry read (deflate cannot exceed ~1,032). */
  maxRatio: number;
}

/** Default budgets: an export's zip holds images beside the JSON, so entries are many and large, but bounded. */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 200_000, maxDirectoryBytes: 64 * 1024 * 1024, maxEntryBytes: 16 * 1024 ** 3, maxRatio: 1100 };

const READ = 1024 * 1024;

const bad = (message: string) => new MemoryError("zip_invalid", message);
const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, o: number) => u32(b, o) + u32(b, o + 4) * 2 ** 32;

/** True when the bytes start like a zip (a local file header or an empty archive). */
export function looksLikeZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6);
}

/** Reads the central directory. */
export async function readZipDirectory(src: ByteSource, limits: ZipLimits = ZIP_LIMITS): Promise<ZipEntry[]> {
  // The end record is the last 22 bytes plus a comment of at most 65,535.
  const tailLen = Math.min(src.size, 22 + 65_535);
  const tail = await src.read(src.size - tailLen, tailLen);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) if (u32(tail, i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) throw bad("Not a zip archive (no end of central directory)");
  let count = u16(tail, eocd + 10);
  let dirSize = u32(tail, eocd + 12);
  let dirOffset = u32(tail, eocd + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    // Zip64: the locator sits right before the end record and names the zip64 end record.
    const at = src.size - tailLen + eocd - 20;
    const loc = at >= 0 ? await src.read(at, 20) : new Uint8Array(0);
    if (loc.length < 20 || u32(loc, 0) !== 0x07064b50) throw bad("Zip64 archive without its locator");
    const recAt = u64(loc, 8);
    const rec = await src.read(recAt, 56);
    if (rec.length < 56 || u32(rec, 0) !== 0x06064b50) throw bad("Zip64 end record missing");
    count = u64(rec, 32);
    dirSize = u64(rec, 40);
    dirOffset = u64(rec, 48);
  }
  if (count > limits.maxEntries) throw bad(`The archive has ${count} entries; at most ${limits.maxEntries} are read`);
  if (dirSize > limits.maxDirectoryBytes || dirOffset + dirSize > src.size) throw bad("The archive's central directory is out of bounds");
  const dir = await src.read(dirOffset, dirSize);
  const out: ZipEntry[] = [];
  const names = new TextDecoder();
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > dir.length || u32(dir, p) !== 0x02014b50) throw bad("The archive's central directory is damaged");
    const flags = u16(dir, p + 8);
    const method = u16(dir, p + 10);
    const crc = u32(dir, p + 16);
    let compressedSize = u32(dir, p + 20);
    let size = u32(dir, p + 24);
    const nameLen = u16(dir, p + 28), extraLen = u16(dir, p + 30), commentLen = u16(dir, p + 32);
    let localOffset = u32(dir, p + 42);
    if (p + 46 + nameLen + extraLen + commentLen > dir.length) throw bad("The archive's central directory is damaged");
    const name = names.decode(dir.subarray(p + 46, p + 46 + nameLen));
    // Zip64 extra field: the 64-bit values, in this order, for each 32-bit field that is saturated.
    for (let e = p + 46 + nameLen; e + 4 <= p + 46 + nameLen + extraLen;) {
      const id = u16(dir, e), len = u16(dir, e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) { size = u64(dir, q); q += 8; }
        if (compressedSize === 0xffffffff) { compressedSize = u64(dir, q); q += 8; }
        if (localOffset === 0xffffffff) localOffset = u64(dir, q);
      }
      e += 4 + len;
    }
    out.push({ name, method, flags, crc, compressedSize, size, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Streams one entry's uncompressed bytes, checked against its declared size and CRC-32. */
export async function* readZipEntry(src: ByteSource, e: ZipEntry, limits: ZipLimits = ZIP_LIMITS): AsyncGenerator<Uint8Array> {
  if (e.flags & 1) throw bad(`${e.name} is encrypted`);
  if (e.method !== 0 && e.method !== 8) throw bad(`${e.name} uses compression method ${e.method}; only stored and deflate are read`);
  if (e.size > limits.maxEntryBytes) throw bad(`${e.name} expands to ${e.size} bytes; at most ${limits.maxEntryBytes} are read`);
  if (e.method === 8 && e.size > Math.max(e.compressedSize, 1) * limits.maxRatio) throw bad(`${e.name} claims a compression ratio no deflate stream reaches`);
  const head = await src.read(e.localOffset, 30);
  if (head.length < 30 || u32(head, 0) !== 0x04034b50) throw bad(`${e.name}: local header missing`);
  const start = e.localOffset + 30 + u16(head, 26) + u16(head, 28);
  if (start + e.compressedSize > src.size) throw bad(`${e.name} runs past the end of the archive`);
  async function* raw(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < e.compressedSize; at += READ) yield await src.read(start + at, Math.min(READ, e.compressedSize - at));
  }
  let crc = 0xffffffff;
  let total = 0;
  const emit = (c: Uint8Array) => {
    total += c.length;
    if (total > e.size) throw bad(`${e.name} expands past its declared size`);
    crc = crc32(crc, c);
    return c;
  };
  if (e.method === 0) {
    for await (const c of raw()) yield emit(c);
  } else {
    const inflate = new DecompressionStream("deflate-raw");
    const writer = inflate.writable.getWriter();
    const feeding = (async () => {
      try {
        for await (const c of raw()) {
          await writer.ready;
          await writer.write(c as Uint8Array<ArrayBuffer>);
        }
        await writer.close();
      } catch (err) {
        await writer.abort(err).catch(() => {});
      }
    })();
    const reader = inflate.readable.getReader();
    try {
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch {
          throw bad(`${e.name} is not valid deflate data`);
        }
        if (r.done) break;
        yield emit(r.value);
      }
    } finally {
      await reader.cancel().catch(() => {});
      await feeding;
    }
  }
  if (total !== e.size) throw bad(`${e.name} is shorter than its declared size`);
  if (((crc ^ 0xffffffff) >>> 0) !== e.crc) throw bad(`${e.name} fails its CRC-32 check (a damaged download?)`);
}

let TABLE: Uint32Array | undefined;
function crc32(crc: number, bytes: Uint8Array): number {
  if (!TABLE) {
    TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      TABLE[n] = c >>> 0;
    }
  }
  const t = TABLE;
  for (let i = 0; i < bytes.length; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return crc >>> 0;
}
