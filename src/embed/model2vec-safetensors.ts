/**
 * A pure reader for the safetensors format: 8-byte little-endian header
 * length, a UTF-8 JSON header mapping tensor names to `{dtype, shape,
 * data_offsets}`, then the raw little-endian tensor bytes. Floating tensors
 * are decoded to Float32Array; anything inconsistent throws
 * `embed_model_invalid` naming what is wrong.
 */
import { modelInvalid } from "./model2vec-invalid.ts";

/** One decoded tensor. */
export interface SafeTensor {
  readonly dtype: string;
  readonly shape: readonly number[];
  /** Values as float32, row-major (integer tensors are converted too). */
  readonly data: Float32Array;
}

/** A parsed safetensors file: tensors by name plus the optional `__metadata__` strings. */
export interface SafeTensors {
  readonly tensors: ReadonlyMap<string, SafeTensor>;
  readonly metadata: Readonly<Record<string, string>>;
}

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1 };
// A header larger than this is not a real safetensors file (the reference reader caps it at 100 MB).
const MAX_HEADER_BYTES = 100_000_000;
const FILE = "model.safetensors";

/** Parses safetensors bytes; throws `embed_model_invalid` on any structural problem. */
export function parseSafetensors(bytes: Uint8Array): SafeTensors {
  if (bytes.byteLength < 8) throw modelInvalid(`${FILE} is too short to hold a safetensors header (${bytes.byteLength} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen < 2 || headerLen > MAX_HEADER_BYTES || 8 + headerLen > bytes.byteLength) {
    throw modelInvalid(`${FILE} has an invalid header length (${headerLen}); the file is not safetensors or is truncated`);
  }
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + headerLen)));
  } catch {
    throw modelInvalid(`${FILE} header is not valid JSON; the file is corrupt or not safetensors`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    throw modelInvalid(`${FILE} header is not a JSON object`);
  }
  const dataStart = 8 + headerLen;
  const dataLen = bytes.byteLength - dataStart;
  const tensors = new Map<string, SafeTensor>();
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") {
      metadata = readMetadata(entry);
      continue;
    }
    tensors.set(name, readTensor(name, entry, bytes.subarray(dataStart), dataLen));
  }
  return { tensors, metadata };
}

function readMetadata(entry: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof entry !== "object" || entry === null) return out;
  for (const [k, v] of Object.entries(entry)) if (typeof v === "string") out[k] = v;
  return out;
}

function readTensor(name: string, entry: unknown, data: Uint8Array, dataLen: number): SafeTensor {
  const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
  const size = typeof e?.dtype === "string" ? DTYPE_BYTES[e.dtype] : undefined;
  if (size === undefined) throw modelInvalid(`${FILE} tensor "${name}" has an unsupported dtype "${String(e?.dtype)}"`);
  const dtype = e.dtype as string;
  if (!Array.isArray(e.shape) || !e.shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw modelInvalid(`${FILE} tensor "${name}" has an invalid shape`);
  }
  const shape = e.shape as number[];
  const offsets = e.data_offsets;
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0)) {
    throw modelInvalid(`${FILE} tensor "${name}" has invalid data_offsets`);
  }
  const [begin, end] = offsets as [number, number];
  const count = shape.reduce((a, b) => a * b, 1);
  if (end < begin || end > dataLen) {
    throw modelInvalid(`${FILE} tensor "${name}" points past the end of the file; the file is truncated`);
  }
  if (end - begin !== count * size) {
    throw modelInvalid(`${FILE} tensor "${name}" holds ${end - begin} bytes but shape ${JSON.stringify(shape)} of ${dtype} needs ${count * size}`);
  }
  return { dtype, shape, data: decode(dtype, data.subarray(begin, end), count) };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
let halfTable: Float32Array | undefined;

/** Float32 value of every IEEE half-precision bit pattern (built once, 256 KiB). */
function halfToFloatTable(): Float32Array {
  if (halfTable) return halfTable;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    if (exp === 0) t[h] = sign * frac * 2 ** -24;
    else if (exp === 31) t[h] = frac ? NaN : sign * Infinity;
    else t[h] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  halfTable = t;
  return t;
}

function decode(dtype: string, raw: Uint8Array, count: number): Float32Array {
  const out = new Float32Array(count);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  switch (dtype) {
    case "F32":
      if (LITTLE_ENDIAN) out.set(new Float32Array(raw.slice().buffer));
      else for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
      return out;
    case "F16": {
      const t = halfToFloatTable();
      for (let i = 0; i < count; i++) out[i] = t[view.getUint16(i * 2, true)]!;
      return out;
    }
    case "BF16": {
      const bits = new Uint32Array(out.buffer);
      for (let i = 0; i < count; i++) bits[i] = view.getUint16(i * 2, true) << 16;
      return out;
    }
    case "F64":
      for (let i = 0; i < count; i++) out[i] = view.getFloat64(i * 8, true);
      return out;
    case "I64":
      for (let i = 0; i < count; i++) out[i] = Number(view.getBigInt64(i * 8, true));
      return out;
    case "I32":
      for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true);
      return out;
    case "I16":
      for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
      return out;
    case "I8":
      for (let i = 0; i < count; i++) out[i] = view.getInt8(i);
      return out;
    default:
      for (let i = 0; i < count; i++) out[i] = raw[i]!;
      return out;
  }
}
