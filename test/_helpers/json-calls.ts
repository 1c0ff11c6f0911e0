import type { TestMemory } from "./memory.ts";

/** A parsed JSON reply body. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** POSTs JSON to the store under test; the status and the parsed body, as a caller reads them. */
export async function postJson(t: TestMemory, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await t.req("POST", path, body);
  return { status: res.status, body: (await res.json()) as Json };
}

/** Ingests one entry through `POST /ingest` and returns its id. */
export const ingestId = async (t: TestMemory, body: Json): Promise<number> => (await postJson(t, "/ingest", body)).body.id as number;
