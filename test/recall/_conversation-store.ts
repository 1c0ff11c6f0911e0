/** A store holding one conversation session, ingested once per test file, for the speaker tests. */
import { afterAll, beforeAll, expect } from "vitest";
import type { DoorConversation } from "../_helpers/doors.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

/** The store the hooks fill: the stored id of each turn in order, and `POST /recall` with `body`. */
export interface ConversationStore {
  turnIds: number[];
  recall(body: Record<string, unknown>): Promise<any>;
}

/** Installs beforeAll/afterAll that ingest `conversation` through `POST /ingest/conversation` into a fresh memory. */
export function useConversationStore(conversation: DoorConversation): ConversationStore {
  let t: TestMemory;
  const turnIds: number[] = [];
  beforeAll(async () => {
    t = await openTestMemory();
    const res = await t.req("POST", "/ingest/conversation", conversation);
    expect(res.status).toBe(200);
    turnIds.push(...(await res.json()).turns.map((x: { id: number }) => x.id));
  });
  afterAll(async () => { await t.close(); });
  return { turnIds, recall: async (body) => await (await t.req("POST", "/recall", body)).json() };
}
