/**
 * The default embedder: SIF-weighted GloVe word vectors (SPEC §1: local static
 * embeddings, no language model in the retrieval path). A text's vector is the
 * sum of its words' vectors, each weighted a/(a+p(w)); words the table lacks
 * get a character n-gram fallback; the table's common component is projected
 * out and the result L2-normalised. Pure: the caller reads the asset bytes
 * (see `DEFAULT_STATIC_ASSET_PATH`) and passes them in. Deterministic: the
 * same text gives a byte-identical vector on every run and runtime.
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Embedder } from "./embedder.ts";
import { createBucketVectors, type OovSettings, oovVector } from "./static-oov.ts";
import { decodeStaticTable, type StaticTable } from "./static-table.ts";
import { splitIdentifier, wordTokens } from "./static-tokenize.ts";

/** Where the default table lives, relative to the repository root (read it at the edge, e.g. `src/runtime/`). */
export const DEFAULT_STATIC_ASSET_PATH = "assets/embed/cairn-static-glove-100d.bin";
/** The default table's model id (the prefix of its `Embedder.id`); recall's confidence model is calibrated on it. */
export const STATIC_MODEL_ID = "cairn-static-glove-100d";

/**
 * Builds an Embedder from static table bytes; throws when the bytes are not a valid table. `tableHash`
 * (hex SHA-256 of `bytes`) may be passed by a caller that hashed them natively; otherwise it is computed.
 * `owned`: the caller hands the bytes over and never changes them (the table then reads them in place).
 */
export function createStaticEmbedder(bytes: Uint8Array, tableHash: string = bytesToHex(sha256(bytes)), owned = false): Embedder {
  const table = decodeStaticTable(bytes, owned);
  const rows = new Map<string, number>();
  for (let i = 0; i < table.words.length; i++) rows.set(table.words[i], i);
  const { embedOne, embedPaced } = createTextEmbedder(table, rows);
  return {
    id: `${table.modelId}@${tableHash.slice(0, 8)}`,
    dim: table.dim,
    tableHash,
    embed: async (texts, opts) => {
      const pace = opts?.pace;
      if (pace === undefined) return texts.map(embedOne);
      const out: Float32Array[] = [];
      for (const text of texts) {
        out.push(text.length > PACED_TEXT ? await embedPaced(text, pace) : embedOne(text));
        await pace();
      }
      return out;
    },
  };
}

/** Texts longer than this (chars) are embedded a slice of tokens at a time when the caller paces (SPEC §8). */
const PACED_TEXT = 32_768;
/** Tokens between two slice boundaries of a paced text (each boundary yields only when the slice is used up). */
const PACED_TOKENS = 256;

/** Unknown words whose fallback vectors are kept; the cache is emptied when full (values never depend on it). */
const OOV_CACHE_MAX = 30_000;
/** Distinct raw tokens whose resolution is kept (emptied when full). */
const TOKEN_CACHE_MAX = 120_000;

/** The per-text pipeline over a decoded table; bucket vectors are made on the first OOV word. */
function createTextEmbedder(t: StaticTable, rows: Map<string, number>): {
  embedOne: (text: string) => Float32Array; embedPaced: (text: string, pace: () => Promise<void>) => Promise<Float32Array>;
} {
  const { dim, weights, scales, vectors, component } = t;
  const oov: OovSettings = { dim, buckets: t.oovBuckets, ngramMin: t.ngramMin, ngramMax: t.ngramMax, norm: t.oovNorm };
  let buckets: Float32Array | undefined;
  const oovCache = new Map<string, Float32Array | null>();
  const hasComponent = component.some((x) => x !== 0);

  const addRow = (acc: Float64Array, row: number): void => {
    const k = weights[row] * scales[row];
    const base = row * dim;
    for (let d = 0; d < dim; d++) acc[d] += k * vectors[base + d];
  };

  const addOov = (acc: Float64Array, word: string): void => {
    let v = oovCache.get(word);
    if (v === undefined) {
      v = oovVector(word, (buckets ??= createBucketVectors(dim, t.oovBuckets, t.oovSeed)), oov) ?? null;
      if (oovCache.size >= OOV_CACHE_MAX) oovCache.clear();
      oovCache.set(word, v);
    }
    if (v === null) return;
    for (let d = 0; d < dim; d++) acc[d] += t.oovWeight * v[d];
  };

  // Raw token → its table row, or its identifier parts (rows, or OOV words). Tokens repeat across texts, so
  // this skips the lowercasing, the identifier split and the big-table lookup; the vector never depends on it.
  const tokenCache = new Map<string, number | (number | string)[]>();
  const resolve = (token: string): number | (number | string)[] => {
    let r = tokenCache.get(token);
    if (r !== undefined) return r;
    const whole = rows.get(token.toLowerCase());
    r = whole !== undefined ? whole : splitIdentifier(token).map((part) => rows.get(part) ?? part);
    if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.clear();
    tokenCache.set(token, r);
    return r;
  };

  const addToken = (acc: Float64Array, token: string): void => {
    const r = resolve(token);
    if (typeof r === "number") {
      addRow(acc, r);
      return;
    }
    for (const part of r) {
      if (typeof part === "number") addRow(acc, part);
      else addOov(acc, part);
    }
  };

  const finish = (acc: Float64Array): Float32Array => {
    if (hasComponent) {
      // SIF common-component removal: v ← v − (v·u)u, u the table's unit first principal component.
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += acc[d] * component[d];
      for (let d = 0; d < dim; d++) acc[d] -= dot * component[d];
    }
    let sq = 0;
    for (let d = 0; d < dim; d++) sq += acc[d] * acc[d];
    const out = new Float32Array(dim);
    if (sq === 0) return out;
    const inv = 1 / Math.sqrt(sq);
    for (let d = 0; d < dim; d++) out[d] = acc[d] * inv;
    return out;
  };

  return {
    embedOne: (text: string): Float32Array => {
      const acc = new Float64Array(dim);
      for (const token of wordTokens(text)) addToken(acc, token);
      return finish(acc);
    },
    // The same sum in the same order, with a slice boundary every PACED_TOKENS tokens.
    embedPaced: async (text: string, pace: () => Promise<void>): Promise<Float32Array> => {
      const acc = new Float64Array(dim);
      const tokens = wordTokens(text);
      for (let i = 0; i < tokens.length; i++) {
        addToken(acc, tokens[i]);
        if (i % PACED_TOKENS === PACED_TOKENS - 1) await pace();
      }
      return finish(acc);
    },
  };
}
