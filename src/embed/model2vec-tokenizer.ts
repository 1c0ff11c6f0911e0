/**
 * Enough of the HuggingFace tokenizers pipeline to reproduce model2vec's
 * `tokenizer.encode(text, add_special_tokens=False)`: added tokens are cut
 * out of the raw text first, then each remaining span is normalized,
 * pre-tokenized and handed to the vocabulary model (WordPiece, Unigram or
 * WordLevel). Special tokens never reach the output; BPE is not supported
 * and is refused with a clear `embed_model_invalid`.
 */
import { modelInvalid } from "./model2vec-invalid.ts";
import { buildNormalizer } from "./model2vec-normalizer.ts";
import { buildPreTokenizer } from "./model2vec-pretokenizer.ts";
import { buildUnigram } from "./model2vec-unigram.ts";
import { buildWordLevel, buildWordPiece, type VocabModel } from "./model2vec-wordpiece.ts";

/** A text-to-ids tokenizer built from a tokenizer.json. */
export interface Model2VecTokenizer {
  /** Token ids of `text`, special tokens removed, unknown tokens kept. */
  encode(text: string): number[];
  /** Id of the unknown token, if the vocabulary has one. */
  readonly unkId?: number;
  /** Largest id of the vocabulary model + 1 (the embedding table must cover it). */
  readonly modelSize: number;
  /** The vocabulary model type, e.g. "WordPiece". */
  readonly kind: string;
}

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}

/** Parses a tokenizer.json text; throws `embed_model_invalid` naming what is missing or unsupported. */
export function parseTokenizerJson(json: string): Model2VecTokenizer {
  let root: Record<string, unknown>;
  try {
    root = JSON.parse(json);
  } catch {
    throw modelInvalid("tokenizer.json is not valid JSON");
  }
  if (typeof root !== "object" || root === null || Array.isArray(root)) throw modelInvalid("tokenizer.json is not a JSON object");
  const modelSpec = root.model as Record<string, unknown> | undefined;
  if (typeof modelSpec !== "object" || modelSpec === null) throw modelInvalid('tokenizer.json has no "model" section');
  const kind = modelKind(modelSpec);
  const model = buildModel(kind, modelSpec);
  const normalize = buildNormalizer(root.normalizer);
  const preTokenize = buildPreTokenizer(root.pre_tokenizer);
  const added = readAddedTokens(root.added_tokens);
  const splitter = added.length === 0 ? undefined : addedTokenRegex(added);
  const byContent = new Map(added.map((t) => [t.content, t]));

  const encodeSpan = (span: string, out: number[]): void => {
    const normalized = normalize(span);
    if (normalized.length === 0) return;
    for (const word of preTokenize([normalized])) out.push(...model.tokenize(word));
  };

  return {
    unkId: model.unkId,
    modelSize: model.size,
    kind,
    encode(text) {
      const out: number[] = [];
      if (!splitter) {
        encodeSpan(text, out);
        return out;
      }
      let last = 0;
      for (const m of text.matchAll(splitter)) {
        encodeSpan(text.slice(last, m.index), out);
        const tok = byContent.get(m[0])!;
        if (!tok.special) out.push(tok.id);
        last = m.index! + m[0].length;
      }
      encodeSpan(text.slice(last), out);
      return out;
    },
  };
}

function modelKind(spec: Record<string, unknown>): string {
  if (typeof spec.type === "string") return spec.type;
  // Older files omit the type; infer it the way tokenizers' untagged deserializer does.
  if (Array.isArray(spec.vocab)) return "Unigram";
  if (spec.merges !== undefined) return "BPE";
  if (spec.continuing_subword_prefix !== undefined || spec.max_input_chars_per_word !== undefined) return "WordPiece";
  return "WordLevel";
}

function buildModel(kind: string, spec: Record<string, unknown>): VocabModel {
  switch (kind) {
    case "WordPiece":
      return buildWordPiece(spec);
    case "Unigram":
      return buildUnigram(spec);
    case "WordLevel":
      return buildWordLevel(spec);
    default:
      throw modelInvalid(`tokenizer.json model type "${kind}" is not supported (model2vec loader supports WordPiece, Unigram and WordLevel)`);
  }
}

function readAddedTokens(value: unknown): AddedToken[] {
  if (!Array.isArray(value)) return [];
  const out: AddedToken[] = [];
  for (const t of value) {
    if (typeof t?.content !== "string" || t.content.length === 0 || !Number.isSafeInteger(t.id)) continue;
    out.push({ id: t.id, content: t.content, special: t.special === true });
  }
  return out;
}

/** One alternation of every added token, longest first so `[MASK]x` never matches a shorter prefix token. */
function addedTokenRegex(tokens: AddedToken[]): RegExp {
  const alts = [...new Set(tokens.map((t) => t.content))]
    .sort((a, b) => b.length - a.length)
    .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(alts.join("|"), "gu");
}
