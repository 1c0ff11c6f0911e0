/**
 * The short-memories store shared by the small-store abstention tests (issue 36): the first `size` memories of
 * fixtures/short-memories ingested through the memory door once per file, with the fixture id of every stored memory.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

const FIXTURE = new URL("../../fixtures/short-memories/", import.meta.url);

/** One line of a fixture file: a memory (`corpus.jsonl`) or a query (`offtopic.jsonl`). */
export interface ShortMemoryLine {
  _id: string;
  text: string;
  kind?: string;
}

/** The lines of `fixtures/short-memories/<file>`. */
export const shortMemories = (file: string): ShortMemoryLine[] =>
  readFileSync(new URL(file, FIXTURE), "utf8").trim().split("\n").map((l) => JSON.parse(l) as ShortMemoryLine);

/** The store the hooks fill: `recall` asks for the top five with provenance; `idOf` maps a stored id to its fixture id. */
export interface ShortMemoryStore {
  idOf: Map<number, string>;
  recall(query: string): Promise<any>;
}

/** Installs beforeAll/afterAll that ingest the first `size` memories (all when absent) into a fresh memory. */
export function useShortMemoryStore(size: number | undefined, timeoutMs: number): ShortMemoryStore {
  const corpus = shortMemories("corpus.jsonl").slice(0, size);
  let t: TestMemory;
  const idOf = new Map<number, string>();
  beforeAll(async () => {
    t = await openTestMemory();
    const r = await (await t.req("POST", "/ingest/memory", { entries: corpus.map((d) => ({ content: d.text })) })).json();
    r.results.forEach((x: { id: number }, i: number) => idOf.set(x.id, corpus[i]._id));
  }, timeoutMs);
  afterAll(async () => { await t.close(); });
  return { idOf, recall: async (query) => await (await t.req("POST", "/recall", { query, limit: 5, provenance: true })).json() };
}
