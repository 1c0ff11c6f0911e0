import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { DEFAULT_STATIC_ASSET_PATH, createStaticEmbedder } from "../../src/embed/static-embedder.ts";
import { loadEmbedder } from "../../src/runtime/model-loader.ts";

describe("static embedder loading", () => {
  it("hashes the table natively at boot to the same id and table hash as the pure-JS hash", async () => {
    const loaded = (await loadEmbedder(parseConfig({})))!;
    const pure = createStaticEmbedder(new Uint8Array(readFileSync(resolve(import.meta.dirname, "../..", DEFAULT_STATIC_ASSET_PATH))));
    expect(loaded.id).toBe(pure.id);
    expect((loaded as { tableHash?: string }).tableHash).toMatch(/^[0-9a-f]{64}$/);
    expect((loaded as { tableHash?: string }).tableHash).toBe((pure as { tableHash?: string }).tableHash);
    expect(await loaded.embed(["granite kiln"])).toEqual(await pure.embed(["granite kiln"]));
  });
});
