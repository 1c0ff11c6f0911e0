import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/core/errors.ts";
import { currentEdges, type EdgeVersion, edgesAt, historyOrder, planEdgeUpsert, type ValidWindow } from "../../src/graph/bitemporal.ts";

/** Applies plans to an in-memory row list the way the store executor would. */
function upsert(rows: EdgeVersion[], window: ValidWindow, now: string) {
  const plan = planEdgeUpsert(rows, window, now);
  if (plan.action === "supersede") rows.find((r) => r.id === plan.retireId)!.supersededAt = plan.supersededAt;
  if (plan.action !== "duplicate") rows.push({ id: rows.length + 1, ...plan.newRow });
  return plan;
}

describe("planEdgeUpsert", () => {
  it("inserts a first row, then answers duplicate for the same window however it is written", () => {
    const rows: EdgeVersion[] = [];
    expect(upsert(rows, { valid_at: "2024-01-01" }, "2025-01-01T00:00:00.000Z")).toEqual({
      action: "insert", newRow: { validAt: "2024-01-01T00:00:00.000Z", createdAt: "2025-01-01T00:00:00.000Z" },
    });
    const again = upsert(rows, { valid_at: "2024-01-01T00:00:00Z", invalid_at: null }, "2025-02-01T00:00:00.000Z");
    expect(again).toEqual({ action: "duplicate", id: 1 });
    expect(rows).toHaveLength(1);
  });

  it("retires the current row when the window changes, sharing one instant", () => {
    const rows: EdgeVersion[] = [];
    upsert(rows, {}, "2025-01-01T00:00:00.000Z");
    const plan = upsert(rows, { invalid_at: "2025-06-01" }, "2025-03-01T00:00:00.000Z");
    expect(plan.action).toBe("supersede");
    expect(rows[0].supersededAt).toBe(rows[1].createdAt);
    expect(rows[1]).toMatchObject({ invalidAt: "2025-06-01T00:00:00.000Z", createdAt: "2025-03-01T00:00:00.000Z" });
    expect(currentEdges(rows).map((r) => r.id)).toEqual([2]);
  });

  it("ignores retired rows when looking for a duplicate", () => {
    const rows: EdgeVersion[] = [];
    upsert(rows, {}, "2025-01-01T00:00:00.000Z");
    upsert(rows, { valid_at: "2024-01-01" }, "2025-01-02T00:00:00.000Z");
    const back = upsert(rows, {}, "2025-01-03T00:00:00.000Z");
    expect(back).toMatchObject({ action: "supersede", retireId: 2 });
    expect(rows).toHaveLength(3);
    expect(currentEdges(rows).map((r) => r.id)).toEqual([3]);
  });

  it("never lets transaction time run backwards when the clock has not moved", () => {
    const rows: EdgeVersion[] = [];
    upsert(rows, {}, "2025-01-01T00:00:00.000Z");
    const plan = upsert(rows, { valid_at: "2020-01-01" }, "2024-12-31T00:00:00.000Z");
    expect(plan).toMatchObject({ action: "supersede", supersededAt: "2025-01-01T00:00:00.001Z" });
    expect(rows[1].createdAt).toBe("2025-01-01T00:00:00.001Z");
  });

  it("with several current rows, matches any of them or retires the newest", () => {
    const rows: EdgeVersion[] = [
      { id: 7, createdAt: "2025-01-02T00:00:00.000Z", validAt: "2024-01-01T00:00:00.000Z" },
      { id: 3, createdAt: "2025-01-01T00:00:00.000Z" },
    ];
    expect(planEdgeUpsert(rows, {}, "2025-02-01T00:00:00.000Z")).toEqual({ action: "duplicate", id: 3 });
    expect(planEdgeUpsert(rows, { valid_at: "2023-01-01" }, "2025-02-01T00:00:00.000Z")).toMatchObject({ retireId: 7 });
  });

  it("refuses bad windows with relation_invalid", () => {
    const bad = [{ valid_at: "2025-02-01", invalid_at: "2025-01-01" }, { valid_at: "2025-01-01", invalid_at: "2025-01-01" }, { valid_at: "later" }];
    for (const w of bad) {
      try {
        planEdgeUpsert([], w, "2025-01-01T00:00:00.000Z");
        throw new Error("expected a throw");
      } catch (e) {
        expect(e).toBeInstanceOf(MemoryError);
        expect((e as MemoryError).code).toBe("relation_invalid");
      }
    }
  });
});

describe("edgesAt and historyOrder", () => {
  const rows: EdgeVersion[] = [];
  upsert(rows, { valid_at: "2020-01-01", invalid_at: "2023-01-01" }, "2024-01-01T00:00:00.000Z");
  upsert(rows, { valid_at: "2023-01-01" }, "2024-06-01T00:00:00.000Z");

  it("shows what the store believed at each instant (transaction time)", () => {
    expect(edgesAt(rows, "2023-12-31T00:00:00Z")).toEqual([]);
    expect(edgesAt(rows, "2024-03-01T00:00:00Z").map((r) => r.id)).toEqual([1]);
    expect(edgesAt(rows, "2024-06-01T00:00:00.000Z").map((r) => r.id)).toEqual([2]); // half-open: the retired row ends there
    expect(edgesAt(rows, "2030-01-01T00:00:00Z").map((r) => r.id)).toEqual([2]);
  });

  it("also applies valid time when asked", () => {
    expect(edgesAt(rows, "2024-03-01T00:00:00Z", { validTime: true })).toEqual([]); // row 1 stopped holding in 2023
    expect(edgesAt(rows, "2025-01-01T00:00:00Z", { validTime: true }).map((r) => r.id)).toEqual([2]);
    expect(() => edgesAt(rows, "yesterday")).toThrow(MemoryError);
  });

  it("lists versions oldest first with the four timestamps and a current flag", () => {
    const h = historyOrder([...rows].reverse());
    expect(h.map((v) => [v.id, v.current])).toEqual([[1, false], [2, true]]);
    expect(h[0]).toEqual({
      id: 1, valid_at: "2020-01-01T00:00:00.000Z", invalid_at: "2023-01-01T00:00:00.000Z",
      created_at: "2024-01-01T00:00:00.000Z", superseded_at: "2024-06-01T00:00:00.000Z", current: false,
    });
    expect(h[1].superseded_at).toBeNull();
    expect(h[1].invalid_at).toBeNull();
  });
});
