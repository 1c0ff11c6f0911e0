import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import type { SnapshotStore } from "../../src/recall/load-index.ts";

// The two guards that keep erased text off the disk after /purge or /dsar answers (SPEC §1 item 6; issue 23 §4):
// the WAL is checkpointed to zero bytes, and the persisted lexical snapshot is replaced by an empty marker — with a
// warning, not a failed erasure, when the disk refuses, and a retry on the next removal.

const open: TestMemory[] = [];
afterEach(async () => {
  for (const m of open.splice(0).reverse()) await m.close().catch(() => undefined);
});

type Logged = { level: string; msg: string; fields?: Record<string, unknown> };
const EMAIL = "odile.brun@example.fr";

/** A lexical snapshot in a real file; `refuse` makes the next `n` saves fail as a full disk would. */
function fileSnapshots(dir: string) {
  const path = join(dir, "lexical.json");
  const state = { refuse: 0, saves: 0 };
  const store: SnapshotStore = {
    load: async () => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined),
    save: async (data) => {
      state.saves++;
      if (state.refuse > 0) {
        state.refuse--;
        throw new Error("ENOSPC: no space left on device");
      }
      writeFileSync(path, JSON.stringify(data));
    },
  };
  return { store, state, text: () => readFileSync(path, "utf8") };
}

async function openAt(dir: string, snapshots?: SnapshotStore, log?: Logged[]): Promise<TestMemory> {
  const m = await openTestMemory({}, {
    ...(snapshots ? { snapshots } : {}),
    ...(log ? { log: (level: string, msg: string, fields?: Record<string, unknown>) => void log.push({ level, msg, fields }) } : {}),
  } as never, dir);
  open.push(m);
  return m;
}

describe("the WAL after an erasure", () => {
  it("is checkpointed to zero bytes before /dsar and /purge answer, and the erased text is in neither file", async () => {
    const dir = tempDir();
    const m = await openAt(dir);
    const wal = `${m.dbPath}-wal`;
    await m.req("POST", "/ingest", { title: "Mooring", content: `Mooring 12 is rented to ${EMAIL} until March.` });
    const keep = (await (await m.req("POST", "/ingest", { title: "Fees", content: "Mooring fees are paid quarterly." })).json()).id;
    expect(statSync(wal).size).toBeGreaterThan(0);
    expect(readFileSync(wal).includes(EMAIL)).toBe(true);
    expect((await m.req("POST", "/dsar", { email: EMAIL })).status).toBe(200);
    expect(statSync(wal).size).toBe(0);
    expect(readFileSync(m.dbPath).includes(EMAIL)).toBe(false);

    await m.req("POST", "/ingest", { title: "Later", content: "Mooring 14 is free." });
    expect(statSync(wal).size).toBeGreaterThan(0);
    expect((await m.req("POST", "/purge", { ids: [keep] })).status).toBe(200);
    expect(statSync(wal).size).toBe(0);
  });

  it("logs a warning, and still answers, when a reader keeps the checkpoint busy", async () => {
    const dir = tempDir();
    const log: Logged[] = [];
    const m = await openAt(dir, undefined, log);
    const id = (await (await m.req("POST", "/ingest", { title: "Crane", content: "Crane hire booked by odile for Friday." })).json()).id;
    const reader = createClient({ url: `file:${m.dbPath}` });
    const tx = await reader.transaction("read");
    await tx.execute("SELECT COUNT(*) FROM chunks"); // holds a read snapshot: TRUNCATE cannot finish
    try {
      const res = await m.req("POST", "/purge", { ids: [id] });
      expect(res.status, await res.clone().text()).toBe(200);
    } finally {
      tx.close();
      reader.close();
    }
    expect(log).toContainEqual({ level: "warn", msg: "WAL checkpoint after erasure failed", fields: { error: "Error: checkpoint stayed busy" } });
    // The next removal checkpoints again, now that the reader is gone.
    const other = (await (await m.req("POST", "/ingest", { title: "Dock", content: "Dock 3 closes at dusk." })).json()).id;
    expect((await m.req("POST", "/purge", { ids: [other] })).status).toBe(200);
    expect(statSync(`${m.dbPath}-wal`).size).toBe(0);
  });
});

describe("the lexical snapshot after an erasure", () => {
  async function seeded() {
    const dir = tempDir();
    const snap = fileSnapshots(dir);
    const first = await openTestMemory({}, { snapshots: snap.store }, dir);
    await first.req("POST", "/ingest", { title: "Ticket 31", content: `Customer ${EMAIL} disputed the ferry surcharge.` });
    await first.req("POST", "/ingest", { title: "Ticket 32", content: "The ferry timetable changes in May." });
    await first.memory.close();
    expect(snap.text()).toMatch(/brun/);
    return { dir, snap };
  }

  it("warns and still erases when the disk refuses the empty marker, then retries on the next removal", async () => {
    const { dir, snap } = await seeded();
    const log: Logged[] = [];
    const m = await openAt(dir, snap.store, log);
    expect(m.memory.recallEngine.lexicalSource).toBe("snapshot");
    snap.state.refuse = 1;
    const out = await (await m.req("POST", "/dsar", { email: EMAIL })).json();
    expect(out.certificate.erased.chunk_ids).toHaveLength(1);
    expect(log).toContainEqual({ level: "warn", msg: "lexical snapshot invalidation failed", fields: { error: "Error: ENOSPC: no space left on device" } });
    expect(snap.text()).toMatch(/brun/); // the refused write left the old file
    const ferry = (await (await m.req("POST", "/recall", { query: "ferry timetable", limit: 5 })).json()).hits[0].id;
    expect((await m.req("DELETE", `/memory/${ferry}`)).status).toBe(200);
    expect(snap.text()).toBe("null");
  });

  it("writes the empty marker once per process, not once per removal", async () => {
    const { dir, snap } = await seeded();
    const m = await openAt(dir, snap.store);
    const saves = snap.state.saves;
    for (const id of [1, 2]) expect((await m.req("DELETE", `/memory/${id}`)).status).toBe(200);
    expect(snap.text()).toBe("null");
    expect(snap.state.saves).toBe(saves + 1);
  });
});
