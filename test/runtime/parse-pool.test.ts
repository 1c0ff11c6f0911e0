/**
 * The markdown parse worker (src/runtime/parse-pool.ts; SPEC §8): the parse of a long document off the event loop
 * gives the in-thread result, an aborted job stops its worker, and the next job starts a fresh one.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/parse-markdown.ts";
import { createParsePool } from "../../src/runtime/parse-pool.ts";

const pool = (await createParsePool())!;
afterAll(async () => { await pool.close(); });

const doc = (n: number) => `---\ntags: [ops, ledger]\naliases: [Runbook]\n---\n# Runbook\n\n` +
  Array.from({ length: n }, (_, i) => `## Step ${i}\n\nRun [[Ledger]] check ${i} [owns::Payments] #ops\n\n- item ${i}\n`).join("\n");

describe("parse pool", () => {
  it("parses on the worker exactly as in-thread", async () => {
    const text = doc(400);
    expect(await pool.parseMarkdown(text)).toEqual(parseMarkdown(text));
  }, 60_000);

  it("an aborted job rejects and stops its worker; the next job is parsed by a fresh one", async () => {
    const stop = new AbortController();
    const job = pool.parseMarkdown(doc(20_000), stop.signal);
    stop.abort();
    await expect(job).rejects.toThrow(/aborted/);
    const text = doc(50);
    expect(await pool.parseMarkdown(text)).toEqual(parseMarkdown(text));
  }, 60_000);

  it("a document the parser refuses is refused by the worker with the parser's code and details", async () => {
    const text = `${">".repeat(40_000)} deep`;
    let inThread: unknown;
    try { parseMarkdown(text); } catch (e) { inThread = e; }
    const onWorker = await pool.parseMarkdown(text).then(() => undefined, (e: unknown) => e);
    expect(onWorker).toMatchObject({ code: "markdown_too_complex", details: (inThread as { details: unknown }).details });
    expect((onWorker as Error).message).toBe((inThread as Error).message);
  }, 60_000);
});
