/**
 * Loading a lexical snapshot in two halves (docs/benchmarks.md "Embedded server": boot): the postings fill ahead of time — on a
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

  // Issue 25: loaded term frequencies take one byte per field; a word repeated 256+ times in one field keeps its
  // exact count (its list is widened), in-thread and through the worker, and after later edits of that document.
  it("keeps term frequencies above 255 exact through a snapshot load and later edits", async () => {
    const make = () => {
      const idx = createBm25Index();
      idx.add({ id: 1, title: "kiln kiln", content: `${"kiln ".repeat(300)} glaze` });
      idx.add({ id: 2, content: `${"kiln ".repeat(255)} glaze glaze` });
      idx.add({ id: 3, content: `${"kiln ".repeat(256)} celadon` });
      idx.add({ id: 4, content: `${"kiln ".repeat(70000)} reduction` });
      for (let i = 5; i < 60; i++) idx.add({ id: i, content: `kiln ${WORDS[i % WORDS.length]} ${"glaze ".repeat(i)}` });
      return idx;
    };
    const idx = make();
    const qs = ["kiln", "glaze", "kiln glaze", "celadon kiln"];
    const file = join(dir, "tf.snap");
    writeFileSync(file, encodeSnapshotFile(idx.toJSON()));
    const inThread = loadLexicalIndex(decodeSnapshotFile(encodeSnapshotFile(idx.toJSON())))!;
    const viaWorker = loadLexicalIndex(await loadSnapshotOffThread(file))!;
    for (const back of [inThread, viaWorker]) {
      for (const q of qs) expect(back.search(q, 60)).toEqual(idx.search(q, 60));
      // Re-adding documents into the loaded lists (counts written past one byte) answers as the same edits do live.
      const live = make();
      for (const x of [back, live]) {
        x.add({ id: 7, content: `${"kiln ".repeat(400)} glaze` });
        x.add({ id: 2, content: `${"glaze ".repeat(900)}` });
        x.remove(4);
        x.add({ id: 61, content: `${"kiln ".repeat(260)}` });
      }
      for (const q of qs) expect(back.search(q, 60)).toEqual(live.search(q, 60));
    }
  });

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
