import { describe, expect, it } from "vitest";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";
import { loadLexicalIndex } from "../../src/lexical/load-lexical-index.ts";
import { decodeSnapshotFile, encodeSnapshotFile, repackSections } from "../../src/lexical/snapshot-file.ts";

/** An index big enough that its forward lists and metadata exceed the container's move threshold. */
function sampleIndex() {
  const index = createOramaLexicalIndex();
  const words = ["granite", "basalt", "quartz", "feldspar", "mica", "obsidian", "pumice", "shale", "slate", "marble"];
  for (let id = 1; id <= 1500; id++) {
    const content = Array.from({ length: 12 }, (_, j) => words[(id * 7 + j * 3) % words.length] + (j % 4 === 0 ? String(id % 50) : "")).join(" ");
    index.add({ id, title: `Rock ${id}`, content });
  }
  index.changeCounter = 42;
  return index;
}

describe("lexical snapshot file container", () => {
  it("round-trips an index: large base64 fields become binary sections and the loaded index ranks identically", () => {
    const index = sampleIndex();
    const saved = index.toJSON();
    const file = encodeSnapshotFile(saved);
    const json = JSON.stringify(saved);
    expect(new TextDecoder().decode(file.subarray(0, 8))).toBe("CAIRNSN1");
    expect(file.length).toBeLessThan(json.length);
    const decoded = decodeSnapshotFile(file);
    expect(JSON.stringify(decoded)).not.toEqual(json); // bytes, not base64, came back
    const loaded = loadLexicalIndex(decoded);
    expect(loaded).not.toBeNull();
    expect(loaded!.size).toBe(1500);
    expect(loaded!.changeCounter).toBe(42);
    for (const q of ["granite shale", "obsidian 7", "marble mica pumice"]) expect(loaded!.search(q, 10)).toEqual(index.search(q, 10));
  });

  it("writes toSnapshot()'s bytes as sections without base64 (issue 20): the same file and the same loaded index as toJSON()", () => {
    for (const index of [sampleIndex(), (() => {
      const b = createBm25Index();
      for (let id = 1; id <= 800; id++) b.add({ id, title: `Stone ${id}`, content: `basalt ${id % 9} quartz shale ${id % 31} marble` });
      return b;
    })()]) {
      const snap = index.toSnapshot();
      const data = snap.data as Record<string, unknown>;
      const store = (data.store ?? (data.index as { store?: unknown } | undefined)?.store ?? data) as Record<string, unknown>;
      // The binary fields are bytes, not base64 text.
      expect(Object.values(store).filter((v) => v instanceof Uint8Array).length).toBeGreaterThanOrEqual(3);
      expect(typeof store.tokens).not.toBe("string");
      const viaBytes = encodeSnapshotFile(snap);
      const viaText = encodeSnapshotFile(index.toJSON());
      // Same sections, same header, whether the fields came as base64 or as bytes (small ones too: bytes always move).
      expect(Buffer.from(viaBytes).equals(Buffer.from(viaText))).toBe(
        Object.values(store).every((v) => !(v instanceof Uint8Array) || v.length * 4 / 3 >= 4096));
      const loaded = loadLexicalIndex(decodeSnapshotFile(viaBytes))!;
      expect(loaded.size).toBe(index.size);
      for (const q of ["granite shale", "basalt quartz 7", "marble"]) expect(loaded.search(q, 10)).toEqual(index.search(q, 10));
    }
    // A short byte field moves to a section as well (JSON would write a typed array as an object of numbers).
    const back = decodeSnapshotFile(encodeSnapshotFile({ tiny: Uint8Array.of(1, 2, 3) })) as { tiny: Uint8Array };
    expect(Array.from(back.tiny)).toEqual([1, 2, 3]);
  });

  it("repacks every section but a node cache's vectors into a buffer of its own, so the file's buffer can go (issue 20)", () => {
    const index = sampleIndex();
    const pages = [Float32Array.from({ length: 400 }, (_, i) => i / 7), Float32Array.from({ length: 200 }, (_, i) => -i)];
    const node = { format: "cairn-node-cache", vectors: { ids: Uint8Array.of(1, 0, 0, 0), pages: pages.map((p) => new Uint8Array(p.buffer)) } };
    const file = encodeSnapshotFile({ ...index.toSnapshot(), node });
    const data = decodeSnapshotFile(file) as { node: typeof node };
    const fresh = repackSections(data, "vectors", file.buffer);
    expect(fresh).toBeInstanceOf(ArrayBuffer);
    const views: Uint8Array[] = [];
    const collect = (v: unknown): void => {
      if (v instanceof Uint8Array) views.push(v);
      else if (v && typeof v === "object") Object.values(v).forEach(collect);
    };
    const { node: saved, ...lexical } = data as Record<string, unknown> & { node: typeof node };
    collect(lexical);
    expect(views.length).toBeGreaterThanOrEqual(3);
    expect(views.every((v) => v.buffer === fresh)).toBe(true);
    expect([saved.vectors.ids, ...saved.vectors.pages].every((v) => v.buffer === file.buffer)).toBe(true);
    expect(Array.from(new Float32Array(saved.vectors.pages[0].slice().buffer))).toEqual(Array.from(pages[0]));
    const loaded = loadLexicalIndex(data)!;
    for (const q of ["granite shale", "obsidian 7"]) expect(loaded.search(q, 10)).toEqual(index.search(q, 10));
    // A snapshot without the left-out key keeps its one buffer: nothing to repack.
    expect(repackSections(decodeSnapshotFile(encodeSnapshotFile(index.toSnapshot())), "vectors", file.buffer)).toBeUndefined();
  });

  it("still reads a plain-JSON snapshot, and refuses a truncated container", () => {
    const index = sampleIndex();
    const legacy = new TextEncoder().encode(JSON.stringify(index.toJSON()));
    expect(loadLexicalIndex(decodeSnapshotFile(legacy))!.search("granite", 5)).toEqual(index.search("granite", 5));
    const file = encodeSnapshotFile(index.toJSON());
    expect(() => decodeSnapshotFile(file.subarray(0, file.length - 4096))).toThrow(/truncated/);
  });

  it("moves long base64 strings at any depth, in arrays and objects, and brings each back as its bytes", () => {
    const bytesA = Uint8Array.from({ length: 6000 }, (_, i) => (i * 31) % 256);
    const bytesB = Uint8Array.from({ length: 4500 }, (_, i) => (i * 7 + 3) % 256);
    const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
    const data = { top: b64(bytesA), list: [1, "two", null, { deep: [b64(bytesB), 3] }], n: 5, terms: ["alpha", "beta"] };
    const decoded = decodeSnapshotFile(encodeSnapshotFile(data)) as { top: Uint8Array; list: [number, string, null, { deep: [Uint8Array, number] }]; n: number; terms: string[] };
    expect(decoded.top).toBeInstanceOf(Uint8Array);
    expect(Array.from(decoded.top)).toEqual(Array.from(bytesA));
    expect(Array.from(decoded.list[3].deep[0])).toEqual(Array.from(bytesB));
    expect(decoded.list.slice(0, 3)).toEqual([1, "two", null]);
    expect(decoded.list[3].deep[1]).toBe(3);
    expect(decoded.n).toBe(5);
    expect(decoded.terms).toEqual(["alpha", "beta"]);
    // An object that merely looks like a placeholder (no such section) stays as it is.
    expect(decodeSnapshotFile(encodeSnapshotFile({ x: { $b64: 7 } }))).toEqual({ x: { $b64: 7 } });
  });

  it("keeps short and non-base64 strings in the header", () => {
    const data = { note: "x".repeat(5000) + "!", short: "abcd", list: ["a", "b"] };
    expect(decodeSnapshotFile(encodeSnapshotFile(data))).toEqual(data);
  });
});
