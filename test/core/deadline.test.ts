/**
 * The deadline of CPU-bound work (src/core/deadline.ts; SPEC §7, §8): checks throw once the time is up without any
 * timer, a commit is the point of no return, a nested budget checks its parent, and slices yield only when used up.
 * The clock is injected: no wall-clock assertion.
 */
import { describe, expect, it } from "vitest";
import { createDeadline, slicer } from "../../src/core/deadline.ts";
import { MemoryError } from "../../src/core/errors.ts";

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}
const err = (code: string) => () => new MemoryError(code, code);

describe("deadline", () => {
  it("lets work run until its time is up, then every check throws the deadline's error", () => {
    const c = clock();
    const d = createDeadline({ ms: 50, error: err("deadline_exceeded"), now: c.now });
    c.advance(49);
    expect(() => d.check()).not.toThrow();
    c.advance(1);
    expect(() => d.check()).toThrow(expect.objectContaining({ code: "deadline_exceeded" }));
    expect(d.expired).toBe(true);
    expect(d.stopped).toBe(true);
  });

  it("a commit before the time is up makes the work unstoppable: later checks pass and expire() refuses", () => {
    const c = clock();
    const d = createDeadline({ ms: 50, error: err("deadline_exceeded"), now: c.now });
    d.commit();
    c.advance(500);
    expect(() => d.check()).not.toThrow();
    expect(d.expire()).toBe(false);
    expect(d.expired).toBe(false);
  });

  it("a commit after the time is up throws instead (the transaction rolls back)", () => {
    const c = clock();
    const d = createDeadline({ ms: 50, error: err("deadline_exceeded"), now: c.now });
    c.advance(60);
    expect(() => d.commit()).toThrow(expect.objectContaining({ code: "deadline_exceeded" }));
  });

  it("expire() with a reason (the client went away) stops the work with that reason and tells listeners once", () => {
    const d = createDeadline({ ms: 10_000, error: err("deadline_exceeded") });
    const heard: string[] = [];
    d.onExpire((e) => heard.push(e.message));
    expect(d.expire(new MemoryError("deadline_exceeded", "gone"))).toBe(true);
    expect(d.expire()).toBe(true);
    expect(() => d.check()).toThrow("gone");
    expect(heard).toEqual(["gone"]);
  });

  it("finish() after a normal answer: work the request left running is not cut later", () => {
    const c = clock();
    const d = createDeadline({ ms: 50, error: err("deadline_exceeded"), now: c.now });
    d.finish();
    c.advance(100);
    expect(() => d.check()).not.toThrow();
    expect(d.expire()).toBe(false);
  });

  it("a nested budget throws its own error first, and its parent's once the parent is past", () => {
    const c = clock();
    const request = createDeadline({ ms: 100, error: err("deadline_exceeded"), now: c.now });
    const budget = request.within(10, err("recall_unavailable"));
    c.advance(10);
    expect(() => budget.check()).toThrow(expect.objectContaining({ code: "recall_unavailable" }));
    const roomy = request.within(1000, err("recall_unavailable"));
    c.advance(90);
    expect(() => roomy.check()).toThrow(expect.objectContaining({ code: "deadline_exceeded" }));
  });

  it("pace() yields only once the slice is used up", async () => {
    const c = clock();
    let yields = 0;
    const d = createDeadline({ ms: 1000, error: err("deadline_exceeded"), now: c.now, sliceMs: 10, yieldNow: async () => void yields++ });
    await d.pace();
    c.advance(9);
    await d.pace();
    expect(yields).toBe(0);
    c.advance(1);
    await d.pace();
    await d.pace();
    expect(yields).toBe(1);
  });

  it("slicer() (background work, no deadline) yields once per used-up slice", async () => {
    const c = clock();
    let yields = 0;
    const pace = slicer(async () => void yields++, 10, c.now);
    await pace();
    c.advance(25);
    await pace();
    await pace();
    expect(yields).toBe(1);
  });
});
