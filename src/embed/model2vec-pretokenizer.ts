/**
 * The `pre_tokenizer` section of a HuggingFace `tokenizer.json`: splits
 * normalized text into words before the vocabulary model runs. Covers
 * BertPreTokenizer, Whitespace, WhitespaceSplit, Punctuation, Digits,
 * Metaspace, CharDelimiterSplit, Split and Sequence, with the tokenizers
 * split behaviours (removed, isolated, merged_with_previous/next, contiguous).
 */
import { modelInvalid } from "./model2vec-invalid.ts";
import { patternRegex } from "./model2vec-normalizer.ts";

/** Splits each piece further; the result is the list of words for the model. */
export type PreTokenize = (pieces: string[]) => string[];

type Behavior = "removed" | "isolated" | "merged_with_previous" | "merged_with_next" | "contiguous";
type Spec = Record<string, unknown> & { type?: unknown };

// BERT's is_punctuation: every ASCII symbol plus Unicode category P.
const BERT_PUNCT = /[\p{P}!-/:-@[-`{-~]/gu;
const BERT_WORD = /[^\s\p{P}!-/:-@[-`{-~]+|[\p{P}!-/:-@[-`{-~]/gu;
const WHITESPACE_RUN = /\s+/gu;
const WORD_OR_SYMBOLS = /[\p{L}\p{N}\p{M}\p{Pc}]+|[^\p{L}\p{N}\p{M}\p{Pc}\s]+/gu;
const DIGIT = /\p{Nd}/gu;

/** Builds the pre-tokenizer described by a tokenizer.json `pre_tokenizer` value (null keeps pieces whole). */
export function buildPreTokenizer(spec: unknown): PreTokenize {
  if (spec === null || spec === undefined) return (p) => p;
  const s = spec as Spec;
  switch (s.type) {
    case "BertPreTokenizer":
      // Same as splitting on whitespace (removed) then punctuation (isolated), in one regex pass.
      return (p) => p.flatMap((x) => x.match(BERT_WORD) ?? []);
    case "Whitespace":
      return (p) => p.flatMap((x) => x.match(WORD_OR_SYMBOLS) ?? []);
    case "WhitespaceSplit":
      return (p) => split(p, WHITESPACE_RUN, "removed");
    case "Punctuation": {
      const behavior = readBehavior(s.behavior, "isolated");
      return (p) => split(p, BERT_PUNCT, behavior);
    }
    case "Digits": {
      const behavior: Behavior = s.individual_digits === true ? "isolated" : "contiguous";
      return (p) => split(p, DIGIT, behavior);
    }
    case "CharDelimiterSplit": {
      const re = patternRegex({ String: typeof s.delimiter === "string" ? s.delimiter : " " }, "CharDelimiterSplit");
      return (p) => split(p, re, "removed");
    }
    case "Split": {
      const re = patternRegex(s.pattern, "pre_tokenizer Split");
      const behavior = readBehavior(s.behavior, "isolated");
      const invert = s.invert === true;
      return (p) => split(p, re, behavior, invert);
    }
    case "Metaspace":
      return metaspace(s);
    case "Sequence": {
      const steps = Array.isArray(s.pretokenizers) ? s.pretokenizers.map(buildPreTokenizer) : [];
      return (p) => steps.reduce((acc, f) => f(acc), p);
    }
    default:
      throw modelInvalid(`tokenizer.json uses an unsupported pre_tokenizer "${String(s.type)}"`);
  }
}

function readBehavior(value: unknown, fallback: Behavior): Behavior {
  if (value === undefined || value === null) return fallback;
  const v = String(value).toLowerCase();
  const known: Behavior[] = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"];
  const hit = known.find((k) => k === v || k.replace(/_/g, "") === v.replace(/_/g, ""));
  if (!hit) throw modelInvalid(`tokenizer.json uses an unknown split behavior "${v}"`);
  return hit;
}

// SentencePiece style: spaces become the replacement char, which then starts each word.
function metaspace(s: Spec): PreTokenize {
  const rep = typeof s.replacement === "string" ? s.replacement : "\u2581";
  const scheme = typeof s.prepend_scheme === "string" ? s.prepend_scheme : s.add_prefix_space === false ? "never" : "always";
  const doSplit = s.split !== false;
  const repRe = patternRegex({ String: rep }, "Metaspace");
  // "first" only differs from "always" after added tokens; here each call sees one segment, so treat them alike.
  return (pieces) => {
    const replaced = pieces.map((p) => {
      const r = p.replace(/ /g, rep);
      return scheme !== "never" && r.length > 0 && !r.startsWith(rep) ? rep + r : r;
    });
    return doSplit ? split(replaced, repRe, "merged_with_next") : replaced;
  };
}

/** Splits every piece on `re` (global) following a tokenizers split behavior; empty parts are dropped. */
function split(pieces: string[], re: RegExp, behavior: Behavior, invert = false): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const parts: Array<{ text: string; match: boolean }> = [];
    let last = 0;
    for (const m of piece.matchAll(re)) {
      if (m[0].length === 0) continue;
      if (m.index! > last) parts.push({ text: piece.slice(last, m.index), match: invert });
      parts.push({ text: m[0], match: !invert });
      last = m.index! + m[0].length;
    }
    if (last < piece.length) parts.push({ text: piece.slice(last), match: invert });
    out.push(...applyBehavior(parts, behavior));
  }
  return out.filter((w) => w.length > 0);
}

function applyBehavior(parts: Array<{ text: string; match: boolean }>, behavior: Behavior): string[] {
  switch (behavior) {
    case "removed":
      return parts.filter((p) => !p.match).map((p) => p.text);
    case "isolated":
      return parts.map((p) => p.text);
    case "contiguous": {
      const out: string[] = [];
      let prevMatch = false;
      for (const p of parts) {
        if (p.match && prevMatch) out[out.length - 1] += p.text;
        else out.push(p.text);
        prevMatch = p.match;
      }
      return out;
    }
    case "merged_with_previous": {
      // tokenizers: a match joins the part before it unless that part was itself a match.
      const out: string[] = [];
      let prevMatch = false;
      for (const p of parts) {
        if (p.match && !prevMatch && out.length > 0) out[out.length - 1] += p.text;
        else out.push(p.text);
        prevMatch = p.match;
      }
      return out;
    }
    case "merged_with_next": {
      // tokenizers: a match joins the part after it unless that part is itself a match.
      const out: string[] = [];
      let carry = "";
      for (const p of parts) {
        if (p.match) {
          if (carry) out.push(carry);
          carry = p.text;
        } else {
          out.push(carry + p.text);
          carry = "";
        }
      }
      if (carry) out.push(carry);
      return out;
    }
  }
}
