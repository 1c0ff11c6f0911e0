import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.ts";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../../src/embed/static-embedder.ts";
import { toF32Blob } from "../../src/vector/f32-blob.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const assetPath = resolve(root, DEFAULT_STATIC_ASSET_PATH);
const manifest = JSON.parse(readFileSync(assetPath.replace(/\.bin$/, ".manifest.json"), "utf8")) as {
  sha256: string;
  probe: { texts: string[]; vectors_sha256: string };
};
let bytes: Uint8Array;
let embedder: Embedder;

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i], 0);
const bytesOf = (v: Float32Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
async function sim(a: string, b: string): Promise<number> {
  const [va, vb] = await embedder.embed([a, b]);
  return dot(va, vb);
}

beforeAll(() => {
  bytes = new Uint8Array(readFileSync(assetPath));
  embedder = createStaticEmbedder(bytes);
});

describe("static embedder on the shipped table", () => {
  it("names itself after the table hash recorded in the manifest", () => {
    expect(embedder.tableHash).toBe(manifest.sha256);
    expect(embedder.tableHash).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(embedder.id).toBe(`cairn-static-glove-100d@${manifest.sha256.slice(0, 8)}`);
    expect(embedder.dim).toBe(100);
  });

  it("reproduces the probe vectors fingerprinted at build time (else: rebuild the table after changing the pipeline)", async () => {
    const hash = createHash("sha256");
    for (const v of await embedder.embed(manifest.probe.texts)) hash.update(toF32Blob(v));
    expect(hash.digest("hex")).toBe(manifest.probe.vectors_sha256);
  });

  it("returns one unit-length vector per text, and the zero vector for text without words", async () => {
    const vecs = await embedder.embed(["Postgres replication lag alert", "fixed the flaky login test", "  ... !!! "]);
    expect(vecs).toHaveLength(3);
    for (const v of vecs.slice(0, 2)) {
      expect(v).toHaveLength(100);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    }
    expect(vecs[2].every((x) => x === 0)).toBe(true);
  });

  it("gives byte-identical vectors for the same text across calls, batches and fresh instances", async () => {
    const text = "The deploy of kubectlFooBar v2.3 failed on node-7 (see INC-4821).";
    const [first] = await embedder.embed([text]);
    const [, again] = await embedder.embed(["warm the unknown-word cache: kubectlfoobar inc", text]);
    const [fresh] = await createStaticEmbedder(bytes.slice()).embed([text]);
    expect(bytesOf(again)).toBe(bytesOf(first));
    expect(bytesOf(fresh)).toBe(bytesOf(first));
  });

  it("gives unknown identifiers a non-zero vector that is close for shared character n-grams", async () => {
    const [oov] = await embedder.embed(["xyzzyframework"]);
    expect(Math.sqrt(dot(oov, oov))).toBeCloseTo(1, 5);
    const near = await sim("xyzzyframework", "xyzzyframeworks");
    const far = await sim("xyzzyframework", "qwrtplugin");
    expect(near).toBeGreaterThan(0.7);
    expect(near).toBeGreaterThan(far + 0.4);
  });

  it("treats camelCase, snake_case and kebab-case spellings of an identifier alike", async () => {
    expect(await sim("getUserById", "get_user_by_id")).toBeGreaterThan(0.99);
    expect(await sim("getUserById", "get-user-by-id")).toBeGreaterThan(0.99);
    expect(await sim("XMLHttpRequest", "xml http request")).toBeGreaterThan(0.99);
    const related = await sim("getUserById", "fetch user record by identifier");
    const unrelated = await sim("getUserById", "rainfall totals for the monsoon season");
    expect(related).toBeGreaterThan(unrelated);
  });

  it("scores semantically related sentences above unrelated ones", async () => {
    const cases: [string, string, string][] = [
      ["The cat sat on the mat.", "A kitten rested on the rug.", "Stock markets fell sharply after the rate decision."],
      ["The database migration failed with a timeout.", "Schema upgrade aborted because the SQL server took too long.", "We planted tomatoes in the garden this spring."],
      ["Heart attack risk rises with high blood pressure.", "Hypertension increases the chance of cardiac disease.", "The football team won the championship final."],
      ["Book a flight to Paris for the conference.", "Reserve airline tickets to France for the meeting.", "The compiler reports a type error in the parser."],
    ];
    for (const [anchor, related, unrelated] of cases) {
      expect(await sim(anchor, related)).toBeGreaterThan(await sim(anchor, unrelated));
    }
  });

  it("ignores case, Unicode compatibility forms and curly apostrophes", async () => {
    expect(await sim("Release NOTES", "release notes")).toBeGreaterThan(0.9999);
    expect(await sim("ｆｕｌｌｗｉｄｔｈ text", "fullwidth text")).toBeGreaterThan(0.9999);
    expect(await sim("don’t panic", "don't panic")).toBeGreaterThan(0.9999);
  });

  it("refuses bytes that are not a table with embed_model_invalid", () => {
    expect(() => createStaticEmbedder(new Uint8Array(64))).toThrow(expect.objectContaining({ code: "embed_model_invalid" }));
    expect(() => createStaticEmbedder(bytes.subarray(0, bytes.length - 1))).toThrow(expect.objectContaining({ code: "embed_model_invalid" }));
  });
});
