import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { fromF32Blob, toF32Blob } from "../../src/vector/f32-blob.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("F32_BLOB helpers", () => {
  it("encode little-endian float32 with no header", () => {
    expect([...toF32Blob([1, -2])]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
  });

  it("round-trip float32 values bit for bit, from bytes or an ArrayBuffer", () => {
    const v = Float32Array.from([0, -0, 1.5, -3.25e-8, 3.4e38, Number.MIN_VALUE, 0.1]);
    const blob = toF32Blob(v);
    expect(blob.length).toBe(v.length * 4);
    expect(fromF32Blob(blob)).toEqual(v);
    expect(fromF32Blob(blob.slice().buffer)).toEqual(v);
    const offset = new Uint8Array(blob.length + 3);
    offset.set(blob, 3);
    expect(fromF32Blob(offset.subarray(3))).toEqual(v);
  });

  it("refuses a blob whose length is not a multiple of 4", () => {
    expect(() => fromF32Blob(new Uint8Array(5))).toThrow(expect.objectContaining({ code: "internal_error" }));
  });

  it("matches libSQL's own F32_BLOB layout in both directions", async () => {
    dir = mkdtempSync(join(tmpdir(), "cairn-f32-"));
    const db = createClient({ url: `file:${join(dir, "v.db")}` });
    try {
      await db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, e F32_BLOB(3))");
      await db.execute("INSERT INTO v VALUES (1, vector32('[0.5,-2,3.25]'))");
      await db.execute({ sql: "INSERT INTO v VALUES (2, ?)", args: [toF32Blob([1, 0.25, -8])] });
      const rows = (await db.execute("SELECT id, e, vector_extract(e) AS text FROM v ORDER BY id")).rows;
      expect([...fromF32Blob(rows[0].e as ArrayBuffer)]).toEqual([0.5, -2, 3.25]);
      expect(rows[1].text).toBe("[1,0.25,-8]");
      const dist = await db.execute({ sql: "SELECT vector_distance_cos(e, ?) AS d FROM v WHERE id = 2", args: [toF32Blob([1, 0.25, -8])] });
      expect(dist.rows[0].d).toBeCloseTo(0, 6);
    } finally {
      db.close();
    }
  });
});
