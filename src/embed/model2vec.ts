/**
 * The opt-in model2vec embedder (SPEC §1: local static embeddings, no model
 * in the retrieval path). A model2vec model is a static table: one vector per
 * vocabulary token in `model.safetensors` plus the `tokenizer.json` of the
 * model it was distilled from. A text's vector is the mean of its token rows
 * (special and unknown tokens skipped, first 512 tokens, as model2vec does),
 * L2-normalised. Pure: the caller hands in the file bytes, so this runs the
 * same under Node and Deno; `loadModel2VecDir` adds file reading through a port.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Embedder } from "./embedder.ts";
import { modelInvalid } from "./model2vec-invalid.ts";
import { parseSafetensors, type SafeTensor } from "./model2vec-safetensors.ts";
import { parseTokenizerJson } from "./model2vec-tokenizer.ts";

/** The three files of a model2vec model directory, already read. */
export interface Model2VecFiles {
  /** Bytes of `model.safetensors` (tensor `embeddings`, F32/F16/BF16/I8; optional `weights`, `mapping`). */
  safetensors: Uint8Array;
  /** Text of `tokenizer.json` (HuggingFace tokenizers format). */
  tokenizerJson: string;
  /** Text of `config.json`, if present (only checked to be a JSON object). */
  configJson?: string;
}

/** Options for `loadModel2Vec`. */
export interface Model2VecOptions {
  /** Human name put in the id (`model2vec:<name>@<hash>`), e.g. the directory name. */
  name?: string;
  /** Tokens pooled per text; model2vec's `encode` default is 512. */
  maxTokens?: number;
  /** SHA-256 (hex) of `safetensors`, when the caller already has it (saves a synchronous hash of the whole file). */
  tableHash?: string;
}

const DEFAULT_MAX_TOKENS = 512;
// Text beyond this many characters per allowed token cannot contribute a token inside the window.
const CHARS_PER_TOKEN_CAP = 32;

/** Builds an Embedder from model2vec files; throws `embed_model_invalid` when a file is missing or malformed. */
export function loadModel2Vec(files: Model2VecFiles, options: Model2VecOptions = {}): Embedder {
  if (!(files?.safetensors instanceof Uint8Array) || files.safetensors.byteLength === 0) {
    throw modelInvalid("model2vec model is missing model.safetensors");
  }
  if (typeof files.tokenizerJson !== "string" || files.tokenizerJson.trim() === "") {
    throw modelInvalid("model2vec model is missing tokenizer.json");
  }
  if (files.configJson !== undefined) checkConfig(files.configJson);
  const tokenizer = parseTokenizerJson(files.tokenizerJson);
  const st = parseSafetensors(files.safetensors);
  const table = pickEmbeddings(st.tensors);
  const [rows, dim] = table.shape as [number, number];
  const mapping = optionalVector(st.tensors.get("mapping"), "mapping", tokenizer.modelSize);
  const weights = optionalVector(st.tensors.get("weights"), "weights", tokenizer.modelSize);
  if (mapping) {
    for (const r of mapping) if (!Number.isInteger(r) || r < 0 || r >= rows) throw modelInvalid("model.safetensors mapping points outside the embeddings table");
  } else if (rows < tokenizer.modelSize) {
    throw modelInvalid(`model.safetensors embeddings have ${rows} rows but the tokenizer.json vocabulary needs ${tokenizer.modelSize}`);
  }
  const data = table.data;
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) throw modelInvalid("model.safetensors embeddings contain NaN or infinite values");

  const tableHash = options.tableHash ?? bytesToHex(sha256(files.safetensors));
  const idHash = bytesToHex(sha256(new TextEncoder().encode(tableHash + "\n" + files.tokenizerJson))).slice(0, 12);
  const name = options.name?.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const usable = mapping ? mapping.length : rows;

  const embedOne = (text: string): Float32Array => {
    const out = new Float32Array(dim);
    const ids = tokenizer.encode(text.slice(0, maxTokens * CHARS_PER_TOKEN_CAP));
    let used = 0;
    for (const id of ids) {
      if (used >= maxTokens) break;
      // model2vec drops the unknown token; ids past the table are non-special added tokens without a row.
      if (id === tokenizer.unkId || id >= usable) continue;
      const row = mapping ? mapping[id]! : id;
      const w = weights ? weights[id]! : 1;
      const base = row * dim;
      for (let j = 0; j < dim; j++) out[j]! += w * data[base + j]!;
      used++;
    }
    // Mean then L2-normalise equals L2-normalising the sum.
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += out[j]! * out[j]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let j = 0; j < dim; j++) out[j]! /= norm;
    return out;
  };

  return {
    id: name ? `model2vec:${name}@${idHash}` : `model2vec:${idHash}`,
    dim,
    tableHash,
    embed: async (texts, opts) => {
      if (opts?.pace === undefined) return texts.map(embedOne);
      const out: Float32Array[] = [];
      // A slice boundary between texts (SPEC §8); each text is bounded by the content limit.
      for (const text of texts) {
        out.push(embedOne(text));
        await opts.pace();
      }
      return out;
    },
  };
}

function checkConfig(json: string): void {
  let cfg: unknown;
  try {
    cfg = JSON.parse(json);
  } catch {
    throw modelInvalid("config.json is not valid JSON");
  }
  if (typeof cfg !== "object" || cfg === null || Array.isArray(cfg)) throw modelInvalid("config.json is not a JSON object");
}

/** model2vec names the table `embeddings`; sentence-transformers' StaticEmbedding names it `embedding.weight`. */
function pickEmbeddings(tensors: ReadonlyMap<string, SafeTensor>): SafeTensor {
  let t = tensors.get("embeddings") ?? tensors.get("embedding.weight");
  if (!t) {
    const matrices = [...tensors.values()].filter((x) => x.shape.length === 2);
    if (matrices.length === 1) t = matrices[0];
  }
  if (!t) {
    const names = [...tensors.keys()].map((n) => `"${n}"`).join(", ") || "none";
    throw modelInvalid(`model.safetensors has no "embeddings" tensor (found: ${names})`);
  }
  if (t.shape.length !== 2 || t.shape[0] === 0 || t.shape[1] === 0) {
    throw modelInvalid(`model.safetensors embeddings must be a non-empty 2-D matrix, got shape ${JSON.stringify(t.shape)}`);
  }
  return t;
}

function optionalVector(t: SafeTensor | undefined, name: string, needed: number): Float32Array | undefined {
  if (!t) return undefined;
  if (t.shape.length !== 1 || t.shape[0]! < needed) {
    throw modelInvalid(`model.safetensors ${name} must be a vector of at least ${needed} entries, got shape ${JSON.stringify(t.shape)}`);
  }
  return t.data;
}
