/**
 * The audit rows of purges and erasures bind long id lists by one digest (`ids_sha256`): SHA-256 of the ids in
 * ascending numeric order, comma-joined. An auditor recomputes it from the ids the reply listed, in whatever order
 * they were written down, so the digest names the set, not the sequence.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { idsDigest } from "../../src/erasure/ids-digest.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("ids_sha256 (erasure audit detail)", () => {
  it("is the SHA-256 of the ids ascending, comma-joined, whatever order they come in", () => {
    expect(idsDigest([1, 2, 3])).toBe(sha("1,2,3"));
    expect(idsDigest([3, 1, 2])).toBe(sha("1,2,3"));
    // Numeric order, not text order: 9 before 10 before 100.
    expect(idsDigest([100, 10, 9])).toBe(sha("9,10,100"));
    expect(idsDigest([21, 3, 1000, 7, 65])).toBe(sha("3,7,21,65,1000"));
  });

  it("leaves the caller's list as it was", () => {
    const ids = [5, 4, 12];
    idsDigest(ids);
    expect(ids).toEqual([5, 4, 12]);
  });
});
