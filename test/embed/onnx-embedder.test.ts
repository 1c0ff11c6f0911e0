import { createHash } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadOnnxEmbedder } from "../../src/embed/onnx-embedder.ts";
import { loadModel2VecDir } from "../../src/embed/model2vec-dir.ts";
import { cosine, dirReader, norm, writeModel2VecDir } from "../_helpers/tiny-models.ts";
import { writeOnnxModelDir } from "../_helpers/tiny-models-onnx.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-onnx-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function expectInvalid(p: Promise<unknown>, fragment: RegExp) {
  await expect(p).rejects.toMatchObject({ name: "MemoryError", code: "embed_model_invalid", message: expect.stringMatching(fragment) });
}

describe("ONNX embedder (transformers.js + onnxruntime-node, local files only)", () => {
  it("embeds texts into unit vectors whose width is the model's hidden size", async () => {
    const m = join(dir, "tiny-bert");
    writeOnnxModelDir(m, "embedder", { dim: 24 });
    const e = await loadOnnxEmbedder(m);
    expect(e.dim).toBe(24);
    expect(e.backend).toBe("node");
    const vs = await e.embed(["the cat and the dog", "bread with cheese", "a truck on the road!"]);
    expect(vs).toHaveLength(3);
    for (const v of vs) {
      expect(v.length).toBe(24);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(await e.embed([])).toEqual([]);
  });

  it("names itself after the directory and the model's hash", async () => {
    const m = join(dir, "tiny bert");
    const { onnx } = writeOnnxModelDir(m, "embedder");
    const e = await loadOnnxEmbedder(m);
    expect(e.id).toMatch(/^onnx:tiny-bert@[0-9a-f]{12}$/);
    expect(e.tableHash).toBe(createHash("sha256").update(onnx).digest("hex"));
  });

  it("is deterministic and independent of batch composition", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    const e = await loadOnnxEmbedder(m, { batchSize: 2 });
    const texts = ["my kitten barks", "the engine of the car", "a long text about bread, cheese and soup in the oven", "dog"];
    const all = await e.embed(texts);
    const again = await e.embed(texts);
    const single = await e.embed([texts[2]!]);
    expect(again.map((v) => Array.from(v))).toEqual(all.map((v) => Array.from(v)));
    // Padding in a mixed batch must not move a vector (attention-mask mean pooling).
    for (let j = 0; j < single[0]!.length; j++) expect(single[0]![j]).toBeCloseTo(all[2]![j]!, 5);
  });

  it("places texts on the same topic closer than texts on different topics", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    const e = await loadOnnxEmbedder(m);
    const [pets, pets2, cars, food] = await e.embed([
      "the cat and the dog", "a kitten is my pet with fur", "the car engine on the road", "bake bread in the oven",
    ]);
    expect(cosine(pets!, pets2!)).toBeGreaterThan(cosine(pets!, cars!));
    expect(cosine(pets!, pets2!)).toBeGreaterThan(cosine(pets!, food!));
  });

  it("agrees with the model2vec loader on the same token table (special rows are zero, so both pool the same tokens)", async () => {
    writeOnnxModelDir(join(dir, "onnx"), "embedder");
    writeModel2VecDir(join(dir, "m2v"));
    const onnx = await loadOnnxEmbedder(join(dir, "onnx"));
    const m2v = await loadModel2VecDir(dirReader(join(dir, "m2v")));
    const texts = ["Kittens, barking!", "the car engine on the road", "Café bread and cheese"];
    const a = await onnx.embed(texts);
    const b = await m2v.embed(texts);
    for (let i = 0; i < texts.length; i++) expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.99999);
  });

  it("truncates texts longer than the tokenizer's model_max_length instead of failing", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    const e = await loadOnnxEmbedder(m);
    const [long, head] = await e.embed(["cat ".repeat(600) + "bread ".repeat(600), "cat"]);
    expect(cosine(long!, head!)).toBeGreaterThan(0.99999);
  });

  it("uses a quantized file when that is the only variant present", async () => {
    const m = join(dir, "q");
    writeOnnxModelDir(m, "embedder", { file: "model_quantized.onnx" });
    const e = await loadOnnxEmbedder(m);
    const [v] = await e.embed(["cat"]);
    expect(norm(v!)).toBeCloseTo(1, 5);
  });

  it("accepts the ONNX file at the directory root", async () => {
    const m = join(dir, "root");
    writeOnnxModelDir(m, "embedder");
    renameSync(join(m, "onnx", "model.onnx"), join(m, "model.onnx"));
    const e = await loadOnnxEmbedder(m);
    expect(e.dim).toBe(16);
  });
});

describe("ONNX embedder refuses bad model directories with embed_model_invalid", () => {
  it("when the directory does not exist", async () => {
    await expectInvalid(loadOnnxEmbedder(join(dir, "missing")), /does not exist/);
  });

  it("when the ONNX file is missing", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    rmSync(join(m, "onnx", "model.onnx"));
    await expectInvalid(loadOnnxEmbedder(m), /no ONNX weights \(looked for onnx\/model\.onnx/);
  });

  it("when tokenizer.json, tokenizer_config.json or config.json is missing", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    rmSync(join(m, "tokenizer.json"));
    await expectInvalid(loadOnnxEmbedder(m), /no tokenizer\.json/);
    writeOnnxModelDir(m, "embedder");
    rmSync(join(m, "config.json"));
    await expectInvalid(loadOnnxEmbedder(m), /no config\.json/);
    writeOnnxModelDir(m, "embedder");
    rmSync(join(m, "tokenizer_config.json"));
    await expectInvalid(loadOnnxEmbedder(m), /no tokenizer_config\.json/);
  });

  it("when config.json is not JSON", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    writeFileSync(join(m, "config.json"), "{oops");
    await expectInvalid(loadOnnxEmbedder(m), /config\.json is not valid JSON/);
  });

  it("when the ONNX file is corrupt, without leaking the path", async () => {
    const m = join(dir, "m");
    const { onnx } = writeOnnxModelDir(m, "embedder");
    writeFileSync(join(m, "onnx", "model.onnx"), onnx.subarray(0, Math.floor(onnx.byteLength / 3)));
    const err = await loadOnnxEmbedder(m).catch((e) => e);
    expect(err).toMatchObject({ name: "MemoryError", code: "embed_model_invalid" });
    expect(err.message).toMatch(/^ONNX embedding model could not be loaded: /);
    expect(err.message).not.toContain(dir);
  });

  it("when the ONNX file is random bytes", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    writeFileSync(join(m, "onnx", "model.onnx"), Uint8Array.from({ length: 2048 }, (_, i) => (i * 97 + 13) & 0xff));
    await expectInvalid(loadOnnxEmbedder(m), /could not be loaded/);
  });

  it("when the requested dtype is unknown or absent", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "embedder");
    await expectInvalid(loadOnnxEmbedder(m, { dtype: "fp8" }), /dtype "fp8" is not one of/);
    await expectInvalid(loadOnnxEmbedder(m, { dtype: "q8" }), /looked for onnx\/model_quantized\.onnx/);
  });
});
