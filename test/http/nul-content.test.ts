import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

// Defect found by the issue 27 review mutation run: text holding U+0000 was accepted and stored whole, but read back cut
// at the NUL, so a reviewer approved a shortened text while hidden bytes sat in the row. Every door now refuses it
// before anything is written (400 invalid_request naming the field).
let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

const NUL_TEXT = "visible part\u0000hidden part";

async function expectRefused(res: Response, field: string): Promise<void> {
  expect(res.status).toBe(400);
  const body = await res.json() as { error: { code: string; details?: { field?: string } } };
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.details?.field).toBe(field);
}

async function stored(): Promise<number> {
  const res = await t.req("GET", "/stats");
  return Number((await res.json() as { docs: number }).docs);
}

describe("text holding U+0000 is refused at every write door", () => {
  it("POST /ingest: content and title", async () => {
    await expectRefused(await t.req("POST", "/ingest", { title: "T", content: NUL_TEXT }), "content");
    await expectRefused(await t.req("POST", "/ingest", { title: "T\u0000x", content: "fine" }), "title");
    expect(await stored()).toBe(0);
  });

  it("POST /ingest/proposal: the reviewer never sees a shortened text", async () => {
    await expectRefused(await t.req("POST", "/ingest/proposal", { content: NUL_TEXT }), "content");
    const q = await t.req("GET", "/proposals");
    expect(q.status).toBe(200);
    expect(await q.json()).toEqual([]);
  });

  it("POST /ingest/markdown and /ingest/memory", async () => {
    await expectRefused(await t.req("POST", "/ingest/markdown", { title: "T", content: `# H\n\n${NUL_TEXT}` }), "content");
    // The memory door answers per entry (SPEC §4.2): the entry is rejected with the same code, the batch reply is 200.
    const mem = await t.req("POST", "/ingest/memory", { entries: [{ content: NUL_TEXT }, NUL_TEXT] });
    expect(mem.status).toBe(200);
    const body = await mem.json() as { rejected: number; created: number; results: { status: string; error?: { code: string } }[] };
    expect(body.rejected).toBe(2);
    expect(body.created).toBe(0);
    expect(body.results.map((r) => [r.status, r.error?.code])).toEqual([["rejected", "invalid_request"], ["rejected", "invalid_request"]]);
    expect(await stored()).toBe(0);
  });

  it("text without a NUL is stored whole and read back whole", async () => {
    const res = await t.req("POST", "/ingest", { title: "T", content: "visible part hidden part" });
    expect(res.status).toBe(200);
    expect(await stored()).toBe(1);
  });
});
