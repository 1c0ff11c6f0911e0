/**
 * The bounded readers under `cairn import`: the streaming JSON array reader
 * (every split of the bytes gives the same elements; an element over its
 * budget is skipped and named, never buffered; a truncated export says so
 * after the conversations it could read) and the zip reader (stored and
 * deflated entries; a bomb that expands past its declared size, a claimed
 * ratio no deflate reaches, encryption, an unknown method, a damaged CRC and
 * too many entries are refused before or while reading, with `zip_invalid`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importChats } from "../../src/chats/import-chats.ts";
import { type ArrayElement, streamJsonArray } from "../../src/chats/json-array-stream.ts";
import { readZipDirectory, readZipEntry, ZIP_LIMITS } from "../../src/chats/zip-reader.ts";
import { tempDir } from "../_helpers/memory.ts";
import { makeZip } from "./_zip.ts";

async function elements(text: string | Uint8Array, size: number, limits = {}): Promise<unknown[]> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  async function* chunks() { for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size); }
  const out: unknown[] = [];
  for await (const e of streamJsonArray(chunks(), limits)) out.push(e.ok ? e.value : { skipped: (e as Extract<ArrayElement, { ok: false }>).reason });
  return out;
}
const source = (b: Buffer) => ({ size: b.length, read: async (o: number, n: number) => new Uint8Array(b.subarray(o, o + n)) });
async function drain(b: Buffer, name: string, limits = ZIP_LIMITS): Promise<string> {
  const e = (await readZipDirectory(source(b), limits)).find((x) => x.name === name)!;
  const parts: Buffer[] = [];
  for await (const c of readZipEntry(source(b), e, limits)) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString("utf8");
}

describe("streamJsonArray", () => {
  const doc = `\uFEFF[{"a":"x\\"y]","b":[1,2,{"c":"}\\\\"}]}, {"d":"\\\\"} ,3, "s,]", null, {"é":"naïve ✓"}]`;
  it("yields the same elements whatever the read sizes (strings, escapes, brackets in strings, bare values, UTF-8)", async () => {
    const want = JSON.parse(doc.slice(1));
    for (const size of [1, 2, 3, 5, 8, 13, 64, 4096]) expect(await elements(doc, size)).toEqual(want);
  });

  it("reads the array under a top-level `conversations` key", async () => {
    expect(await elements(`{"user":{"conversations":1},"conversations":[{"x":1},{"y":"[\\"]"}],"z":[1]}`, 3)).toEqual([{ x: 1 }, { y: '["]' }]);
  });

  it("skips an element over its byte budget, and one nested too deep, and reads on", async () => {
    const big = JSON.stringify({ text: "x".repeat(5000) });
    const deep = "[".repeat(40) + "]".repeat(40);
    expect(await elements(`[{"a":1},${big},${deep},{"b":2},{bad json}]`, 100, { maxElementBytes: 1000, maxDepth: 32 }))
      .toEqual([{ a: 1 }, { skipped: "too_large" }, { skipped: "too_deep" }, { b: 2 }, { skipped: "invalid_json" }]);
  });

  it("refuses what is not a list of conversations, and says when the export is cut short", async () => {
    await expect(elements(`"hello"`, 4)).rejects.toMatchObject({ code: "not_chat_export" });
    await expect(elements(`{"users":[1,2]}`, 4)).rejects.toMatchObject({ code: "not_chat_export" });
    const got: unknown[] = [];
    const bytes = new TextEncoder().encode(`[{"a":1},{"b":2},{"c":`);
    await expect((async () => { for await (const e of streamJsonArray((async function* () { yield bytes; })())) got.push(e); })())
      .rejects.toMatchObject({ code: "export_truncated" });
    expect(got).toHaveLength(2);
  });
});

describe("zip reader", () => {
  const json = JSON.stringify([{ uuid: "u1", name: "n", chat_messages: [] }]);
  it("reads stored and deflated entries with their CRC", async () => {
    const z = makeZip([{ name: "a/conversations.json", data: json, deflate: true }, { name: "b.txt", data: "plain" }]);
    expect(await drain(z, "a/conversations.json")).toBe(json);
    expect(await drain(z, "b.txt")).toBe("plain");
  });

  it("stops a bomb at its declared size, and refuses ratios, encryption, unknown methods, bad CRCs and too many entries", async () => {
    const zeros = new Uint8Array(2_000_000);
    await expect(drain(makeZip([{ name: "c.json", data: zeros, deflate: true, declaredSize: 1000 }]), "c.json")).rejects.toMatchObject({ code: "zip_invalid", message: expect.stringContaining("past its declared size") });
    await expect(drain(makeZip([{ name: "c.json", data: zeros, deflate: true, declaredSize: 3_000_000_000 }]), "c.json")).rejects.toMatchObject({ code: "zip_invalid", message: expect.stringContaining("ratio") });
    await expect(drain(makeZip([{ name: "c.json", data: "x", flags: 1 }]), "c.json")).rejects.toMatchObject({ message: expect.stringContaining("encrypted") });
    await expect(drain(makeZip([{ name: "c.json", data: "x", method: 12 }]), "c.json")).rejects.toMatchObject({ message: expect.stringContaining("method 12") });
    await expect(drain(makeZip([{ name: "c.json", data: "hello", crc: 1 }]), "c.json")).rejects.toMatchObject({ message: expect.stringContaining("CRC-32") });
    const many = makeZip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: "x" })));
    await expect(readZipDirectory(source(many), { ...ZIP_LIMITS, maxEntries: 20 })).rejects.toMatchObject({ message: expect.stringContaining("30 entries") });
    await expect(readZipDirectory(source(Buffer.from("PK\x03\x04 not really a zip")))).rejects.toMatchObject({ code: "zip_invalid" });
  });

  it("an import of a zip bomb fails with zip_invalid and stores nothing", async () => {
    const dir = tempDir();
    const path = join(dir, "export.zip");
    writeFileSync(path, makeZip([{ name: "conversations.json", data: new Uint8Array(5_000_000).fill(0x20), deflate: true, declaredSize: 100 }]));
    let stored = 0;
    await expect(importChats(async () => { stored++; throw new Error("unreachable"); }, [path], { format: "claude" })).rejects.toMatchObject({ code: "zip_invalid" });
    expect(stored).toBe(0);
  });
});
