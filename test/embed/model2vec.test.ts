import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModel2Vec } from "../../src/embed/model2vec.ts";
import { loadModel2VecDir } from "../../src/embed/model2vec-dir.ts";
import {
  clusteredTable, cosine, dirReader, encodeSafetensors, norm, tinyVocab, wordPieceTokenizerJson, writeModel2VecDir,
} from "../_helpers/tiny-models.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-m2v-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function expectInvalid(p: Promise<unknown> | (() => unknown), fragment: RegExp) {
  const run = typeof p === "function" ? Promise.resolve().then(p) : p;
  await expect(run).rejects.toMatchObject({ name: "MemoryError", code: "embed_model_invalid", message: expect.stringMatching(fragment) });
}

describe("model2vec loader", () => {
  it("embeds texts into unit vectors of the table's dimension", async () => {
    writeModel2VecDir(dir, { dim: 24 });
    const e = await loadModel2VecDir(dirReader(dir), { name: "tiny" });
    expect(e.dim).toBe(24);
    const vs = await e.embed(["the cat and the dog", "bread with cheese", "a truck on the road!"]);
    expect(vs).toHaveLength(3);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(24);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it("names itself after the model and a content hash, and reports the table's SHA-256", async () => {
    const { safetensors, tokenizerJson, configJson } = writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir), { name: "potion tiny" });
    expect(e.id).toMatch(/^model2vec:potion-tiny@[0-9a-f]{12}$/);
    expect(e.tableHash).toBe(createHash("sha256").update(safetensors).digest("hex"));
    // The pure (synchronous-hash) path names the same files identically.
    const pure = loadModel2Vec({ safetensors, tokenizerJson, configJson }, { name: "potion tiny" });
    expect(pure.tableHash).toBe(e.tableHash);
    expect(pure.id).toBe(e.id);
    const unnamed = await loadModel2VecDir(dirReader(dir));
    expect(unnamed.id).toMatch(/^model2vec:[0-9a-f]{12}$/);
  });

  it("gives a different id when the table changes", async () => {
    const a = writeModel2VecDir(join(dir, "a"));
    const vocab = tinyVocab();
    const other = encodeSafetensors({ embeddings: { dtype: "F32", shape: [vocab.length, 16], data: clusteredTable(vocab, 16, 99) } });
    const ea = loadModel2Vec({ safetensors: a.safetensors, tokenizerJson: a.tokenizerJson }, { name: "m" });
    const eb = loadModel2Vec({ safetensors: other, tokenizerJson: a.tokenizerJson }, { name: "m" });
    expect(ea.id).not.toBe(eb.id);
  });

  it("is deterministic across calls and across loads", async () => {
    writeModel2VecDir(dir);
    const e1 = await loadModel2VecDir(dirReader(dir));
    const e2 = await loadModel2VecDir(dirReader(dir));
    const text = "My kitten barks at the engine";
    const [a] = await e1.embed([text]);
    const [b] = await e1.embed([text]);
    const [c] = await e2.embed([text]);
    expect(Array.from(b!)).toEqual(Array.from(a!));
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(e2.id).toBe(e1.id);
  });

  it("places texts on the same topic closer than texts on different topics", async () => {
    writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir));
    const [pets, pets2, cars, food] = await e.embed([
      "the cat and the dog",
      "a kitten is my pet with fur",
      "the car engine on the road",
      "bake bread in the oven",
    ]);
    expect(cosine(pets!, pets2!)).toBeGreaterThan(cosine(pets!, cars!));
    expect(cosine(pets!, pets2!)).toBeGreaterThan(cosine(pets!, food!));
    expect(cosine(cars!, pets2!)).toBeLessThan(0.6);
  });

  it("skips special and unknown tokens when pooling", async () => {
    writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir));
    const [plain, special, unknown, noise] = await e.embed(["cat dog", "[CLS] cat [SEP] dog [MASK]", "cat zzqx dog", "zzqx qqq"]);
    expect(Array.from(special!)).toEqual(Array.from(plain!));
    expect(Array.from(unknown!)).toEqual(Array.from(plain!));
    expect(norm(noise!)).toBe(0);
    const [empty] = await e.embed([""]);
    expect(norm(empty!)).toBe(0);
  });

  it("applies the tokenizer's normalizer: case and accents do not matter", async () => {
    writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir));
    const [lower, upper, accent] = await e.embed(["cafe cat", "CAFE Cat", "Café cat"]);
    expect(Array.from(upper!)).toEqual(Array.from(lower!));
    expect(Array.from(accent!)).toEqual(Array.from(lower!));
  });

  it("pools WordPiece continuation pieces, so an inflected word differs from its stem but stays close", async () => {
    writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir));
    const [stem, inflected, other] = await e.embed(["bark", "barking", "bread"]);
    expect(Array.from(inflected!)).not.toEqual(Array.from(stem!));
    expect(cosine(stem!, inflected!)).toBeGreaterThan(cosine(stem!, other!));
  });

  it("pools at most maxTokens tokens per text", async () => {
    writeModel2VecDir(dir);
    const e = await loadModel2VecDir(dirReader(dir), { maxTokens: 4 });
    const [capped, head] = await e.embed(["cat dog pet fur bread cheese soup oven", "cat dog pet fur"]);
    expect(Array.from(capped!)).toEqual(Array.from(head!));
  });

  it("reads F16 tables to nearly the same vectors as F32", async () => {
    writeModel2VecDir(join(dir, "f32"));
    writeModel2VecDir(join(dir, "f16"), { dtype: "F16" });
    const a = await loadModel2VecDir(dirReader(join(dir, "f32")));
    const b = await loadModel2VecDir(dirReader(join(dir, "f16")));
    const text = "a puppy drives the truck to the meal";
    const [va] = await a.embed([text]);
    const [vb] = await b.embed([text]);
    expect(cosine(va!, vb!)).toBeGreaterThan(0.9999);
    expect(a.id).not.toBe(b.id);
  });

  it("accepts the sentence-transformers StaticEmbedding layout", async () => {
    const sub = join(dir, "0_StaticEmbedding");
    writeModel2VecDir(sub, { tensorName: "embedding.weight", config: false });
    const e = await loadModel2VecDir(dirReader(dir));
    const [v] = await e.embed(["cat"]);
    expect(norm(v!)).toBeCloseTo(1, 5);
  });

  it("loads without config.json", async () => {
    writeModel2VecDir(dir, { config: false });
    const e = await loadModel2VecDir(dirReader(dir));
    expect(e.dim).toBe(16);
  });
});

describe("model2vec loader refuses bad model directories with embed_model_invalid", () => {
  it("when model.safetensors is missing", async () => {
    writeModel2VecDir(dir);
    rmSync(join(dir, "model.safetensors"));
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /no model\.safetensors/);
  });

  it("when the directory does not exist", async () => {
    await expectInvalid(loadModel2VecDir(dirReader(join(dir, "nope"))), /model\.safetensors/);
  });

  it("when tokenizer.json is missing", async () => {
    writeModel2VecDir(dir);
    rmSync(join(dir, "tokenizer.json"));
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /no tokenizer\.json/);
  });

  it("when model.safetensors is random bytes", async () => {
    writeModel2VecDir(dir);
    writeFileSync(join(dir, "model.safetensors"), Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) & 0xff));
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /model\.safetensors .*header/);
  });

  it("when model.safetensors is truncated", async () => {
    const { safetensors } = writeModel2VecDir(dir);
    writeFileSync(join(dir, "model.safetensors"), safetensors.subarray(0, safetensors.byteLength - 100));
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /truncated/);
  });

  it("when model.safetensors is too short to have a header", async () => {
    const { tokenizerJson } = writeModel2VecDir(dir);
    await expectInvalid(() => loadModel2Vec({ safetensors: new Uint8Array([1, 2, 3]), tokenizerJson }), /too short/);
  });

  it("when the tensor's byte size does not match its shape", async () => {
    const { tokenizerJson } = writeModel2VecDir(dir);
    const vocab = tinyVocab();
    const bytes = encodeSafetensors({ embeddings: { dtype: "F32", shape: [vocab.length, 16], data: clusteredTable(vocab, 16) } });
    const text = new TextDecoder().decode(bytes.subarray(8, 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true))));
    const bad = new TextEncoder().encode(text.replace(`[${vocab.length},16]`, `[${vocab.length},15]`));
    const patched = new Uint8Array(bytes);
    patched.set(bad, 8);
    await expectInvalid(() => loadModel2Vec({ safetensors: patched, tokenizerJson }), /needs/);
  });

  it("when there is no embeddings tensor", async () => {
    const { tokenizerJson } = writeModel2VecDir(dir);
    const bytes = encodeSafetensors({ bias: { dtype: "F32", shape: [4], data: new Float32Array(4) } });
    await expectInvalid(() => loadModel2Vec({ safetensors: bytes, tokenizerJson }), /no "embeddings" tensor \(found: "bias"\)/);
  });

  it("when the table has fewer rows than the vocabulary", async () => {
    const { tokenizerJson } = writeModel2VecDir(dir);
    const bytes = encodeSafetensors({ embeddings: { dtype: "F32", shape: [10, 16], data: new Float32Array(160).fill(0.1) } });
    await expectInvalid(() => loadModel2Vec({ safetensors: bytes, tokenizerJson }), /10 rows .* needs \d+/);
  });

  it("when the table holds NaN", async () => {
    const vocab = tinyVocab();
    const data = clusteredTable(vocab, 16);
    data[100] = NaN;
    const bytes = encodeSafetensors({ embeddings: { dtype: "F32", shape: [vocab.length, 16], data } });
    await expectInvalid(() => loadModel2Vec({ safetensors: bytes, tokenizerJson: wordPieceTokenizerJson(vocab) }), /NaN/);
  });

  it("when tokenizer.json is not JSON", async () => {
    writeModel2VecDir(dir);
    writeFileSync(join(dir, "tokenizer.json"), "{ not json");
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /tokenizer\.json is not valid JSON/);
  });

  it("when tokenizer.json uses an unsupported model type", async () => {
    const { safetensors } = writeModel2VecDir(dir);
    const tok = JSON.stringify({ model: { type: "BPE", vocab: { a: 0 }, merges: [] } });
    await expectInvalid(() => loadModel2Vec({ safetensors, tokenizerJson: tok }), /"BPE" is not supported/);
  });

  it("when config.json is malformed", async () => {
    writeModel2VecDir(dir);
    writeFileSync(join(dir, "config.json"), "[1,");
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /config\.json is not valid JSON/);
  });

  it("when model.safetensors exists but tokenizer.json sits elsewhere", async () => {
    writeModel2VecDir(dir);
    mkdirSync(join(dir, "x"));
    renameSync(join(dir, "tokenizer.json"), join(dir, "x", "tokenizer.json"));
    await expectInvalid(loadModel2VecDir(dirReader(dir)), /tokenizer\.json/);
  });
});
