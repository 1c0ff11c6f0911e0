/**
 * The WordPiece and WordLevel vocabulary models of a HuggingFace
 * `tokenizer.json`: greedy longest-match-first with a `##` continuation
 * prefix (BERT style), or whole-word lookup. A word that cannot be covered
 * becomes the unknown token, exactly as the tokenizers library does.
 */
import { modelInvalid } from "./model2vec-invalid.ts";

/** A vocabulary model: one pre-tokenized word in, token ids out. */
export interface VocabModel {
  /** Token ids for one word (may contain `unkId`). */
  tokenize(word: string): number[];
  /** Id of the unknown token, when the model has one. */
  readonly unkId?: number;
  /** Largest token id + 1. */
  readonly size: number;
}

type Spec = Record<string, unknown>;

/** Reads a `{token: id}` vocab object, validating ids. */
export function readVocabMap(vocab: unknown, kind: string): Map<string, number> {
  if (typeof vocab !== "object" || vocab === null || Array.isArray(vocab)) {
    throw modelInvalid(`tokenizer.json ${kind} model has no vocab object`);
  }
  const map = new Map<string, number>();
  for (const [tok, id] of Object.entries(vocab)) {
    if (!Number.isSafeInteger(id) || (id as number) < 0) throw modelInvalid(`tokenizer.json ${kind} vocab has a bad id for "${tok}"`);
    map.set(tok, id as number);
  }
  if (map.size === 0) throw modelInvalid(`tokenizer.json ${kind} vocab is empty`);
  return map;
}

function maxId(vocab: Map<string, number>): number {
  let m = -1;
  for (const id of vocab.values()) if (id > m) m = id;
  return m;
}

function unkOf(vocab: Map<string, number>, spec: Spec, kind: string): number | undefined {
  if (spec.unk_token === undefined || spec.unk_token === null) return undefined;
  const id = vocab.get(String(spec.unk_token));
  if (id === undefined) throw modelInvalid(`tokenizer.json ${kind} unk_token "${String(spec.unk_token)}" is not in the vocab`);
  return id;
}

/** Builds a WordPiece model from its tokenizer.json `model` object. */
export function buildWordPiece(spec: Spec): VocabModel {
  const vocab = readVocabMap(spec.vocab, "WordPiece");
  const unkId = unkOf(vocab, spec, "WordPiece");
  const prefix = typeof spec.continuing_subword_prefix === "string" ? spec.continuing_subword_prefix : "##";
  const maxChars = Number.isSafeInteger(spec.max_input_chars_per_word) ? (spec.max_input_chars_per_word as number) : 100;
  const unk = (): number[] => (unkId === undefined ? [] : [unkId]);
  let longest = 0; // longest vocab entry, in UTF-16 units: no longer candidate can match
  for (const tok of vocab.keys()) longest = Math.max(longest, tok.length);
  return {
    unkId,
    size: maxId(vocab) + 1,
    tokenize(word) {
      // Code-point boundaries as UTF-16 offsets, so candidates never split a surrogate pair.
      const bounds: number[] = [];
      for (let i = 0; i < word.length; i += word.codePointAt(i)! > 0xffff ? 2 : 1) bounds.push(i);
      const n = bounds.length;
      bounds.push(word.length);
      if (n > maxChars) return unk();
      const ids: number[] = [];
      let start = 0;
      while (start < n) {
        const lead = start > 0 ? prefix : "";
        let end = n;
        while (end > start && lead.length + bounds[end]! - bounds[start]! > longest) end--;
        let found: number | undefined;
        while (start < end) {
          found = vocab.get(lead + word.slice(bounds[start], bounds[end]));
          if (found !== undefined) break;
          end--;
        }
        // tokenizers: one uncoverable position turns the whole word into [UNK].
        if (found === undefined) return unk();
        ids.push(found);
        start = end;
      }
      return ids;
    },
  };
}

/** Builds a WordLevel model (whole-word lookup) from its tokenizer.json `model` object. */
export function buildWordLevel(spec: Spec): VocabModel {
  const vocab = readVocabMap(spec.vocab, "WordLevel");
  const unkId = unkOf(vocab, spec, "WordLevel");
  return {
    unkId,
    size: maxId(vocab) + 1,
    tokenize(word) {
      const id = vocab.get(word) ?? unkId;
      return id === undefined ? [] : [id];
    },
  };
}
