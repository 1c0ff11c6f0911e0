import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTokenizerJson } from "../../src/embed/model2vec-tokenizer.ts";
import { tinyVocab, wordPieceTokenizerJson } from "../_helpers/tiny-models.ts";

const vocab = tinyVocab();
const ids = (...toks: string[]) => toks.map((t) => {
  const i = vocab.indexOf(t);
  if (i < 0) throw new Error(`not in vocab: ${t}`);
  return i;
});

describe("WordPiece tokenizer.json", () => {
  const tok = parseTokenizerJson(wordPieceTokenizerJson(vocab));

  it("lowercases, isolates punctuation and splits words greedily with ## continuations", () => {
    expect(tok.encode("Kittens, barking!")).toEqual(ids("kitten", "##s", ",", "bark", "##ing", "!"));
  });

  it("turns a word it cannot cover into a single [UNK]", () => {
    expect(tok.encode("xbark cat")).toEqual(ids("[UNK]", "cat"));
    expect(tok.unkId).toBe(vocab.indexOf("[UNK]"));
  });

  it("drops special tokens written in the text", () => {
    expect(tok.encode("[CLS]cat[SEP] [PAD]")).toEqual(ids("cat"));
  });

  it("strips accents and control characters like BERT", () => {
    expect(tok.encode("Ca\u0301fe\u0000\tdog")).toEqual(ids("cafe", "dog"));
  });
});

function unigram(extra: Record<string, unknown> = {}, pieces: Array<[string, number]> = []) {
  const vocabList: Array<[string, number]> = [
    ["<unk>", 0], ["\u2581", -2], ["\u2581hello", -3], ["\u2581he", -4], ["llo", -4], ["\u2581world", -3],
    ["\u2581wor", -5], ["ld", -5], ["h", -6], ["e", -6], ["l", -6], ["o", -6], ...pieces,
  ];
  return {
    list: vocabList,
    tok: parseTokenizerJson(JSON.stringify({
      normalizer: { type: "Sequence", normalizers: [{ type: "NFKC" }, { type: "Lowercase" }] },
      pre_tokenizer: { type: "Metaspace", replacement: "\u2581", prepend_scheme: "always", split: true },
      model: { type: "Unigram", unk_id: 0, vocab: vocabList, ...extra },
    })),
  };
}

describe("Unigram tokenizer.json", () => {
  it("picks the most probable segmentation (Viterbi) after Metaspace pre-tokenisation", () => {
    const { tok, list } = unigram();
    const id = (p: string) => list.findIndex(([s]) => s === p);
    expect(tok.encode("Hello world")).toEqual([id("\u2581hello"), id("\u2581world")]);
    expect(tok.encode("hellollo")).toEqual([id("\u2581hello"), id("llo")]);
  });

  it("fuses consecutive unknown characters into one unknown token", () => {
    const { tok, list } = unigram();
    expect(tok.encode("hello zzz")).toEqual([list.findIndex(([s]) => s === "\u2581hello"), list.findIndex(([s]) => s === "\u2581"), 0]);
  });

  it("falls back to byte pieces when byte_fallback is on", () => {
    const { tok, list } = unigram({ byte_fallback: true }, [["<0x7A>", -8]]);
    expect(tok.encode("z")).toEqual([list.findIndex(([s]) => s === "\u2581"), list.findIndex(([s]) => s === "<0x7A>")]);
  });
});

describe("other tokenizer.json pieces", () => {
  it("supports the Whitespace pre-tokenizer with a WordLevel vocabulary", () => {
    const tok = parseTokenizerJson(JSON.stringify({
      pre_tokenizer: { type: "Whitespace" },
      model: { type: "WordLevel", unk_token: "<unk>", vocab: { "<unk>": 0, don: 1, "'": 2, t: 3, stop: 4 } },
    }));
    expect(tok.encode("don't stop now")).toEqual([1, 2, 3, 4, 0]);
  });

  it("applies Replace and Strip normalizers and Split/Digits pre-tokenizers", () => {
    const tok = parseTokenizerJson(JSON.stringify({
      normalizer: { type: "Sequence", normalizers: [{ type: "Strip", strip_left: true, strip_right: true }, { type: "Replace", pattern: { String: "-" }, content: " " }] },
      pre_tokenizer: { type: "Sequence", pretokenizers: [{ type: "Split", pattern: { Regex: "\\s+" }, behavior: "Removed", invert: false }, { type: "Digits", individual_digits: true }] },
      model: { type: "WordLevel", unk_token: "?", vocab: { "?": 0, a: 1, b: 2, "4": 3, "2": 4 } },
    }));
    expect(tok.encode("  a-b 42 ")).toEqual([1, 2, 3, 4]);
  });

  it("refuses an unknown normalizer or pre-tokenizer with embed_model_invalid", () => {
    const base = { model: { type: "WordLevel", unk_token: "?", vocab: { "?": 0 } } };
    expect(() => parseTokenizerJson(JSON.stringify({ ...base, normalizer: { type: "Magic" } }))).toThrow(/unsupported normalizer "Magic"/);
    expect(() => parseTokenizerJson(JSON.stringify({ ...base, pre_tokenizer: { type: "ByteLevel" } }))).toThrow(/unsupported pre_tokenizer "ByteLevel"/);
    expect(() => parseTokenizerJson(JSON.stringify({}))).toThrow(/no "model" section/);
    expect(() => parseTokenizerJson(JSON.stringify({ model: { type: "WordPiece", unk_token: "[UNK]", vocab: { a: 0 } } }))).toThrow(/unk_token "\[UNK\]" is not in the vocab/);
  });
});

describe("parity with the transformers.js tokenizer (reference implementation of tokenizer.json)", () => {
  const texts = [
    "Kittens, barking! The CAR's engine?", "Café au lait, naïve dog", "cat\u0000dog\tbread\nsoup", "猫 cat 狗",
    "xbark un-drive d0g 42 ...", "[CLS] puppy [SEP] [MASK]", "", "   ",
    "don't 🐱 cat ﬁne x² — dog’s", "\u200bcat\ufeffdog\u00a0bread", "ÇAFÉ Ｃａｔ",
  ];

  async function reference(json: string, config: Record<string, unknown>) {
    const { AutoTokenizer } = await import("@huggingface/transformers");
    const dir = mkdtempSync(join(tmpdir(), "cairn-tok-"));
    try {
      writeFileSync(join(dir, "tokenizer.json"), json);
      writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(config));
      return await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("WordPiece: same ids as transformers.js for every sample text", async () => {
    const json = wordPieceTokenizerJson(vocab);
    const ref = await reference(json, { tokenizer_class: "BertTokenizer", do_lower_case: true });
    const mine = parseTokenizerJson(json);
    for (const t of texts) {
      const expected = ref.encode(t, { add_special_tokens: false }).filter((id: number) => id < 2 || id > 4);
      expect(mine.encode(t), t).toEqual(expected);
    }
  });

  it("Unigram + Metaspace: same ids as transformers.js for every sample text", async () => {
    const { tok, list } = unigram();
    const json = JSON.stringify({
      normalizer: { type: "Sequence", normalizers: [{ type: "NFKC" }, { type: "Lowercase" }] },
      pre_tokenizer: { type: "Metaspace", replacement: "\u2581", prepend_scheme: "always", split: true },
      model: { type: "Unigram", unk_id: 0, vocab: list },
      decoder: { type: "Metaspace", replacement: "\u2581", prepend_scheme: "always", split: true },
      post_processor: null,
      added_tokens: [{ id: 0, content: "<unk>", special: true, single_word: false, lstrip: false, rstrip: false, normalized: false }],
    });
    const ref = await reference(json, { tokenizer_class: "XLMRobertaTokenizer" });
    for (const t of ["Hello world", "hellollo  world", "hello zzz", "wor ld hel lo", "HELLO", "hezzllo wo!rld", "ｈｅｌｌｏ"]) {
      expect(tok.encode(t), t).toEqual(ref.encode(t, { add_special_tokens: false }));
    }
  });
});
