import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadOnnxCrossEncoder } from "../../src/rerank/onnx-cross-encoder.ts";
import { writeOnnxModelDir } from "../_helpers/tiny-models-onnx.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cairn-xenc-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DOCS = ["the car engine and the road", "a kitten and a puppy with fur", "bake bread and cheese in the oven"];

describe("ONNX cross-encoder", () => {
  // The tiny graph scores <Σ query-segment rows, Σ document-segment rows>: if the pair template's
  // token_type_ids did not reach the model, every document would score 0 and no order would emerge.
  it("scores each document against the query, the on-topic one highest", async () => {
    const m = join(dir, "tiny-xenc");
    writeOnnxModelDir(m, "cross-encoder");
    const ce = await loadOnnxCrossEncoder(m);
    expect(ce.id).toMatch(/^onnx-rerank:tiny-xenc@[0-9a-f]{12}$/);
    const scores = await ce.score("my cat and dog", DOCS);
    expect(scores).toHaveLength(3);
    for (const s of scores) expect(Number.isFinite(s)).toBe(true);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    const food = await ce.score("soup meal", DOCS);
    expect(food.indexOf(Math.max(...food))).toBe(2);
  });

  it("is deterministic and independent of batch size and order", async () => {
    const m = join(dir, "m");
    writeOnnxModelDir(m, "cross-encoder");
    const ce = await loadOnnxCrossEncoder(m, { batchSize: 2 });
    const a = await ce.score("cat", DOCS);
    const b = await ce.score("cat", [...DOCS].reverse());
    const [single] = await ce.score("cat", [DOCS[2]!]);
    expect(b.reverse().map((x) => x.toFixed(4))).toEqual(a.map((x) => x.toFixed(4)));
    expect(single).toBeCloseTo(a[2]!, 4);
    expect(await ce.score("cat", [])).toEqual([]);
  });

  it("refuses a missing or corrupt model with embed_model_invalid", async () => {
    await expect(loadOnnxCrossEncoder(join(dir, "nope"))).rejects.toMatchObject({ code: "embed_model_invalid", message: expect.stringMatching(/does not exist/) });
    const m = join(dir, "m");
    writeOnnxModelDir(m, "cross-encoder");
    writeFileSync(join(m, "onnx", "model.onnx"), new Uint8Array([8, 1, 9, 9, 9]));
    await expect(loadOnnxCrossEncoder(m)).rejects.toMatchObject({
      code: "embed_model_invalid",
      message: expect.stringMatching(/^ONNX cross-encoder model could not be loaded/),
    });
  });
});
