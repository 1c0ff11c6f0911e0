/**
 * Builders for tiny, deterministic models made at test time (no downloads):
 * a WordPiece vocabulary whose words fall into topic clusters, an embedding
 * table where words of a topic share a direction, safetensors bytes, and
 * model2vec directories. ONNX graphs live in `tiny-models-onnx.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Special tokens at ids 0..4, BERT order. */
export const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;
/** Topic clusters: words of one topic get nearby vectors. */
export const TOPICS: Record<string, string[]> = {
  pets: ["cat", "kitten", "dog", "puppy", "pet", "fur", "paw", "bark", "meow", "cafe"],
  vehicles: ["car", "truck", "engine", "wheel", "road", "drive", "motor", "fuel"],
  food: ["bread", "cheese", "soup", "bake", "cook", "meal", "flour", "oven"],
};
const FILLER = ["the", "a", "an", "is", "on", "and", "of", "to", "in", "my", "with", "!", ".", ",", "?", "##s", "##es", "##ing", "##ed", "##er", "##y"];

/** The tiny vocabulary, index = token id. */
export function tinyVocab(): string[] {
  return [...SPECIALS, ...FILLER, ...Object.values(TOPICS).flat()];
}

/** Deterministic PRNG (mulberry32) returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Row-major [vocab.length, dim] table: topic words = topic centre + small noise, fillers small, specials zero except [UNK]. */
export function clusteredTable(vocab: string[], dim: number, seed = 7): Float32Array {
  const rnd = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const centres = new Map(Object.keys(TOPICS).map((t) => [t, Array.from({ length: dim }, gauss)]));
  const topicOf = new Map(Object.entries(TOPICS).flatMap(([t, ws]) => ws.map((w) => [w, t] as const)));
  const out = new Float32Array(vocab.length * dim);
  vocab.forEach((tok, i) => {
    const centre = topicOf.has(tok) ? centres.get(topicOf.get(tok)!)! : undefined;
    const special = (SPECIALS as readonly string[]).includes(tok);
    for (let j = 0; j < dim; j++) {
      const noise = gauss();
      if (special) out[i * dim + j] = tok === "[UNK]" ? 3 * noise : 0;
      else out[i * dim + j] = centre ? centre[j]! + 0.35 * noise : 0.3 * noise;
    }
  });
  return out;
}

/** A BERT-style WordPiece tokenizer.json (BertNormalizer lowercase + accents, BertPreTokenizer, [CLS]/[SEP] template). */
export function wordPieceTokenizerJson(vocab: string[]): string {
  return JSON.stringify({
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({
      id: vocab.indexOf(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [vocab.indexOf(t)], tokens: [t] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  });
}

/** A safetensors tensor to write. */
export interface TensorSpec {
  dtype: "F32" | "F16";
  shape: number[];
  data: Float32Array;
}

/** Encodes tensors as safetensors bytes (header padded to 8 bytes, data in insertion order). */
export function encodeSafetensors(tensors: Record<string, TensorSpec>, metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  const blobs: Uint8Array[] = [];
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    const blob = t.dtype === "F32" ? new Uint8Array(Float32Array.from(t.data).buffer) : f16Bytes(t.data);
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + blob.byteLength] };
    blobs.push(blob);
    offset += blob.byteLength;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8 !== 0) json += " ";
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.byteLength;
  for (const b of blobs) {
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

/** IEEE half-precision bytes (little-endian), round-to-nearest; enough for test tables. */
function f16Bytes(data: Float32Array): Uint8Array {
  const out = new Uint8Array(data.length * 2);
  const view = new DataView(out.buffer);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  data.forEach((v, i) => {
    f[0] = v;
    const x = u[0]!;
    const sign = (x >>> 16) & 0x8000;
    const exp = ((x >>> 23) & 0xff) - 127 + 15;
    let h: number;
    if (exp <= 0) h = sign; // flush tiny values to zero
    else if (exp >= 31) h = sign | 0x7c00;
    else h = sign | Math.min((exp << 10) + ((x >>> 13) & 0x3ff) + ((x >>> 12) & 1), 0x7bff);
    view.setUint16(i * 2, h, true);
  });
  return out;
}

/** Options for `writeModel2VecDir`. */
export interface Model2VecDirOptions {
  dim?: number;
  dtype?: "F32" | "F16";
  tensorName?: string;
  config?: boolean;
}

/** Writes a model2vec directory (model.safetensors, tokenizer.json, config.json) and returns its file bytes. */
export function writeModel2VecDir(dir: string, opts: Model2VecDirOptions = {}) {
  const dim = opts.dim ?? 16;
  const vocab = tinyVocab();
  const safetensors = encodeSafetensors({ [opts.tensorName ?? "embeddings"]: { dtype: opts.dtype ?? "F32", shape: [vocab.length, dim], data: clusteredTable(vocab, dim) } });
  const tokenizerJson = wordPieceTokenizerJson(vocab);
  const configJson = JSON.stringify({ model_type: "model2vec", architectures: ["StaticModel"], hidden_dim: dim, normalize: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "model.safetensors"), safetensors);
  writeFileSync(join(dir, "tokenizer.json"), tokenizerJson);
  if (opts.config !== false) writeFileSync(join(dir, "config.json"), configJson);
  return { safetensors, tokenizerJson, configJson, vocab, dim };
}

/** A `ModelFileReader` over a real directory (what `src/runtime/` would pass in production). */
export function dirReader(dir: string): (rel: string) => Promise<Uint8Array | undefined> {
  return async (rel) => {
    try {
      return new Uint8Array(await readFile(join(dir, rel)));
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return undefined;
      throw e;
    }
  };
}

/** Cosine similarity of two vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** Euclidean norm of a vector. */
export function norm(a: Float32Array): number {
  return Math.sqrt(a.reduce((s, x) => s + x * x, 0));
}
