/**
 * Loading a lexical snapshot in two halves (README "Recall": boot): the postings fill ahead of time — on a
 * worker thread in the compiled build — then the light assembly. Either way the index answers exactly as the
 * one that was saved.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadLexicalIndex } from "../../src/lexical/load-lexical-index.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";
import type { LexicalIndex } from "../../src/lexical/lexical-index.ts";
import { prebuildLexicalIndex } from "../../src/lexical/prebuild.ts";
import { decodeSnapshotFile, encodeSnapshotFile } from "../../src/lexical/snapshot-file.ts";
import { loadSnapshotOffThread } from "../../src/runtime/platform.ts";

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon".split(" ");
const QUERIES = ["alpha beta", "gamma note", "sigma tau upsilon", "kappa lambda mu", "getValue1 id_2"];

function built(idx: LexicalIndex): LexicalIndex {
  for (let i = 1; i <= 400; i++) {
    const words = Array.from({ length: 5 + (i % 13) }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]);
    idx.add({ id: i * 3, title: i % 4 === 0 ? undefined : `${WORDS[i % WORDS.length]} note ${i}`, content: `${words.join(" ")} id_${i % 5} getValue${i % 3}` });
  }
  for (let i = 1; i <= 400; i += 9) idx.remove(i * 3);
  return idx;
}

const dir = mkdtempSync(join(tmpdir(), "cairn-prebuild-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lexical snapshot prebuild", () => {
  it.each([["orama", () => createOramaLexicalIndex()], ["bm25", () => createBm25Index()]] as [string, () => LexicalIndex][])(
    "%s: a prebuilt snapshot loads to the same answers; mismatched prebuilt postings are refused",
    (_kind, make) => {
      const idx = built(make());
      const data = decodeSnapshotFile(encodeSnapshotFile(idx.toJSON()));
      const transfer = prebuildLexicalIndex(data);
      expect(transfer.length).toBe(4);
      const back = loadLexicalIndex(data)!;
      expect(back).not.toBeNull();
      for (const q of QUERIES) expect(back.search(q, 10)).toEqual(idx.search(q, 10));
      // Postings from another snapshot do not fit this one's shape: refused, so boot would re-index.
      const other = decodeSnapshotFile(encodeSnapshotFile(built(make()).toJSON())) as { data: Record<string, unknown> };
      const small = make();
      small.add({ id: 1, content: "alpha" });
      const smallData = decodeSnapshotFile(encodeSnapshotFile(small.toJSON()));
      prebuildLexicalIndex(smallData);
      const store = (d: unknown) => ((d as { kind: string }).kind === "bm25" ? (d as { data: Record<string, unknown> }).data : ((d as { data: { index: { store: Record<string, unknown> } } }).data.index.store));
      store(other).prebuilt = store(smallData).prebuilt;
      expect(loadLexicalIndex(other)).toBeNull();
    },
  );

  // The Node server decodes on a worker thread (from the compiled build, or from the sources through tsx).
  it("the runtime's worker loads a snapshot file to the same answers", async () => {
    const idx = built(createOramaLexicalIndex());
    const file = join(dir, "w.snap");
    writeFileSync(file, encodeSnapshotFile(idx.toJSON()));
    const data = await loadSnapshotOffThread(file);
    expect((data as { data: { index: { store: { prebuilt?: unknown } } } }).data.index.store.prebuilt).toBeDefined();
    const back = loadLexicalIndex(data)!;
    for (const q of QUERIES) expect(back.search(q, 10)).toEqual(idx.search(q, 10));
    expect(await loadSnapshotOffThread(join(dir, "missing.snap"))).toBeUndefined();
  });
});
