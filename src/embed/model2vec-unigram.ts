/**
 * The Unigram (SentencePiece) vocabulary model of a HuggingFace
 * `tokenizer.json`: Viterbi search for the segmentation with the highest
 * summed piece log-probability. Uncovered characters become the unknown
 * token (score = lowest piece score - 10, consecutive ones fused, as in
 * tokenizers) or, with `byte_fallback`, `<0xNN>` byte pieces.
 */
import { modelInvalid } from "./model2vec-invalid.ts";
import type { VocabModel } from "./model2vec-wordpiece.ts";

// tokenizers' K_UNK_PENALTY.
const UNK_PENALTY = 10;

/** Builds a Unigram model from its tokenizer.json `model` object. */
export function buildUnigram(spec: Record<string, unknown>): VocabModel {
  if (!Array.isArray(spec.vocab) || spec.vocab.length === 0) throw modelInvalid("tokenizer.json Unigram model has no vocab list");
  const pieces = new Map<string, { id: number; score: number }>();
  let minScore = Infinity;
  let maxLen = 1;
  spec.vocab.forEach((entry, id) => {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "number") {
      throw modelInvalid(`tokenizer.json Unigram vocab entry ${id} is not [piece, score]`);
    }
    const [piece, score] = entry as [string, number];
    if (!pieces.has(piece)) pieces.set(piece, { id, score });
    minScore = Math.min(minScore, score);
    maxLen = Math.max(maxLen, Array.from(piece).length);
  });
  const unkId = Number.isSafeInteger(spec.unk_id) ? (spec.unk_id as number) : undefined;
  if (unkId !== undefined && (unkId < 0 || unkId >= spec.vocab.length)) throw modelInvalid("tokenizer.json Unigram unk_id is outside the vocab");
  const byteFallback = spec.byte_fallback === true;
  const unkScore = minScore - UNK_PENALTY;
  const encoder = new TextEncoder();

  function fallback(text: string): number[] {
    if (byteFallback) {
      const ids = Array.from(encoder.encode(text), (b) => pieces.get(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`)?.id);
      if (ids.every((id) => id !== undefined)) return ids as number[];
    }
    return unkId === undefined ? [] : [unkId];
  }

  return {
    unkId,
    size: spec.vocab.length,
    tokenize(word) {
      const chars = Array.from(word);
      const n = chars.length;
      const best = new Float64Array(n + 1).fill(-Infinity);
      const from = new Int32Array(n + 1).fill(-1);
      const piece = new Array<number>(n + 1).fill(-1); // -1 marks an unknown-char edge
      best[0] = 0;
      for (let i = 0; i < n; i++) {
        if (best[i] === -Infinity) continue;
        let sub = "";
        let singleFound = false;
        for (let len = 1; len <= maxLen && i + len <= n; len++) {
          sub += chars[i + len - 1];
          const hit = pieces.get(sub);
          if (!hit) continue;
          if (len === 1) singleFound = true;
          const s = best[i]! + hit.score;
          if (s > best[i + len]!) {
            best[i + len] = s;
            from[i + len] = i;
            piece[i + len] = hit.id;
          }
        }
        if (!singleFound && best[i]! + unkScore > best[i + 1]!) {
          best[i + 1] = best[i]! + unkScore;
          from[i + 1] = i;
          piece[i + 1] = -1;
        }
      }
      const spans: Array<{ id: number; text: string }> = [];
      for (let end = n; end > 0; end = from[end]!) spans.push({ id: piece[end]!, text: chars.slice(from[end]!, end).join("") });
      spans.reverse();
      const ids: number[] = [];
      let unknown = "";
      for (const s of spans) {
        if (s.id === -1) {
          unknown += s.text; // fuse consecutive unknown characters
          continue;
        }
        if (unknown) ids.push(...fallback(unknown));
        unknown = "";
        ids.push(s.id);
      }
      if (unknown) ids.push(...fallback(unknown));
      return ids;
    },
  };
}
