/** Issue 20: the change planner folds a page of the chunk change sequence into one action per chunk. */
import { describe, expect, it } from "vitest";
import { planChanges } from "../../src/changefeed/apply-changes.ts";
import type { ChunkChange } from "../../src/store/chunk-changes.ts";

const page = (...ops: [number, ChunkChange["op"]][]): ChunkChange[] => ops.map(([chunkId, op], i) => ({ seq: i + 1, chunkId, op, atMs: 0 }));

describe("planChanges", () => {
  it("an insert alone may already be held (this process wrote it); a delete anywhere in the page is final", () => {
    const plan = planChanges(page([1, "I"], [2, "I"], [2, "D"], [3, "D"], [4, "U"], [5, "I"], [5, "U"]));
    expect([...plan]).toEqual([[1, "add-if-missing"], [2, "remove"], [3, "remove"], [4, "relabel"], [5, "refresh"]]);
  });
});
