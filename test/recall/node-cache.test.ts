/**
 * Issue 20: the `node` section of a server node's boot cache survives the snapshot container (vectors come back
 * exactly, as the container's binary sections) and is refused when it was written with another embedder.
 */
import { describe, expect, it } from "vitest";
import { decodeSnapshotFile, encodeSnapshotFile } from "../../src/lexical/snapshot-file.ts";
import { encodeNodeSection, readNodeSection } from "../../src/recall/node-cache.ts";
import { MatrixIndex } from "../../src/vector/matrix-index.ts";

const key = { storeId: "0123abcd", cursor: 42, cursorChunk: 7, cursorAtMs: 1_790_000_000_000, embedder: { id: "static-test", dim: 4 } };

function matrix(rows: number): MatrixIndex {
  const m = new MatrixIndex(4, 8);
  for (let i = 1; i <= rows; i++) m.add(i * 3, [i, -i, i / 7, 0.25]);
  return m;
}

describe("a server node's cache section", () => {
  it("round-trips the key and every vector through the snapshot file, including a deleted row's absence", () => {
    const m = matrix(2000);
    m.remove(9);
    const bytes = encodeSnapshotFile({ format: "cairn-lexical", node: encodeNodeSection(key, m) });
    const read = readNodeSection(decodeSnapshotFile(bytes), key.embedder);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.key).toEqual(key);
    expect(read.vectors!.ids.length).toBe(1999);
    expect([...read.vectors!.ids]).not.toContain(9);
    const at = [...read.vectors!.ids].indexOf(30);
    expect([...(read.vectors as { data: Float32Array }).data.subarray(at * 4, at * 4 + 4)]).toEqual([...m.get(30)!]);
  });

  it("is refused when written with another embedder, without one, or with a malformed key", () => {
    const saved = JSON.parse(JSON.stringify({ node: encodeNodeSection(key, matrix(3)) }));
    expect(readNodeSection(saved, { id: "other-model", dim: 4 })).toEqual({ ok: false, reason: "cache written with another embedder" });
    expect(readNodeSection(saved, null)).toEqual({ ok: false, reason: "cache written with another embedder" });
    expect(readNodeSection({ node: { ...saved.node, cursor: "42" } }, key.embedder)).toEqual({ ok: false, reason: "malformed node section" });
    expect(readNodeSection({ format: "cairn-lexical" }, key.embedder)).toEqual({ ok: false, reason: "no node section" });
    // A lexical-only node's cache carries no vectors and serves a lexical-only node.
    const lexicalOnly = readNodeSection({ node: encodeNodeSection({ ...key, embedder: null }, undefined) }, null);
    expect(lexicalOnly).toMatchObject({ ok: true, key: { cursor: 42, embedder: null } });
  });
});
