// ONNX Runtime is bound once per process, so the wasm backend gets its own test file (vitest forks per file).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadModel2VecDir } from "../../src/embed/model2vec-dir.ts";
import { loadOnnxEmbedder } from "../../src/embed/onnx-embedder.ts";
import { loadOnnxCrossEncoder } from "../../src/rerank/onnx-cross-encoder.ts";
import { cosine, dirReader, norm, writeModel2VecDir } from "../_helpers/tiny-models.ts";
import { writeOnnxModelDir } from "../_helpers/tiny-models-onnx.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-wasm-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("ONNX loaders on the onnxruntime-web (wasm) backend, local wasm files", () => {
  it("embeds with the same result as the model2vec reading of the same table", async () => {
    writeOnnxModelDir(join(dir, "onnx"), "embedder");
    writeModel2VecDir(join(dir, "m2v"));
    const e = await loadOnnxEmbedder(join(dir, "onnx"), { backend: "wasm" });
    expect(e.backend).toBe("wasm");
    const m2v = await loadModel2VecDir(dirReader(join(dir, "m2v")));
    const texts = ["Kittens, barking!", "bread and cheese in the oven"];
    const a = await e.embed(texts);
    const b = await m2v.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      expect(norm(a[i]!)).toBeCloseTo(1, 5);
      expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.99999);
    }
  });

  it("reranks on wasm, and refuses to switch the process to the native backend afterwards", async () => {
    writeOnnxModelDir(join(dir, "x"), "cross-encoder");
    const ce = await loadOnnxCrossEncoder(join(dir, "x"), { backend: "wasm" });
    const s = await ce.score("my cat and dog", ["the car engine", "a kitten and a puppy", "bread and soup"]);
    expect(s.indexOf(Math.max(...s))).toBe(1);
    await expect(loadOnnxCrossEncoder(join(dir, "x"), { backend: "node" })).rejects.toMatchObject({
      code: "embed_model_invalid",
      message: expect.stringMatching(/already bound to the wasm backend/),
    });
    const auto = await loadOnnxCrossEncoder(join(dir, "x"));
    expect(auto.backend).toBe("wasm");
  });
});
