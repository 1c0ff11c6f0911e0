/**
 * An owner DID's generic identifier is no person's name (issue 36). UMP records written without an identity are
 * owned by `did:cairn:local`; the speaker feature once took its last segment, `local`, as the owner's name, so any
 * query holding the word "local" lifted every UMP record of the store and the speaker guard kept such a query from
 * abstaining. A named owner (`user:alice`) still counts as a person a query can name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorLabelOf } from "../../src/recall/actor-labels.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeAll(async () => {
  t = await openTestMemory();
  for (const text of [
    "The bread order for the office goes out every Monday morning.",
    "Fresh coffee beans arrive from the roaster each week.",
    "The shop floor team meets on Tuesdays.",
    "Parking permits are renewed in January.",
  ]) {
    const r = await t.req("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text } });
    expect(r.status).toBe(200);
  }
  const m = await t.req("POST", "/ingest/memory", { entries: [
    { content: "The local bakery on Mill Street sells fresh sourdough bread until noon." },
    { content: "The swimming pool opens at 7 am on weekdays." },
    { content: "The dentist appointment is on the third of May." },
    { content: "Car insurance renews in September." },
  ] });
  expect(m.status).toBe(200);
}, 60_000);
afterAll(async () => { await t.close(); });

const recall = async (query: string) => (await t.req("POST", "/recall", { query, limit: 5, provenance: true })).json();

describe("owner labels of UMP records (issue 36)", () => {
  it("takes no name from a DID whose identifier is one generic segment", () => {
    expect(actorLabelOf({ owner: "did:cairn:local" })).toBeUndefined();
    expect(actorLabelOf({ owner: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK" })).toBeUndefined();
    expect(actorLabelOf({ owner: "user:alice" })?.actor).toBe("alice");
    expect(actorLabelOf({ owner: "did:web:example.com:users:alice" })?.actor).toBe("alice");
  });

  it("does not take the word 'local' in a question for the name of the records' owner", async () => {
    const r = await recall("Which local shop has fresh bread?");
    expect(r.hits[0].content).toMatch(/local bakery/);
    expect(r.hits[0].provenance.quality_assessment.answer_guard).not.toBe("names_store_speaker");
  });

  it("abstains on an off-topic question holding the word 'local' instead of serving a UMP record first", async () => {
    const r = await recall("local weather this week");
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
  });
});
