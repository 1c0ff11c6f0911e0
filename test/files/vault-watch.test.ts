/**
 * `cairn reconcile <vault> --watch`: file events batched into reconciles
 * through the same planner and executor as one-shot reconcile. After the
 * edits users and tools make (saves through a temporary file and a rename,
 * front matter edits, renames, a folder move, a burst of hundreds of files
 * as a checkout writes them, files that vanish right after they appear)
 * the watched store holds what a one-shot reconcile of the final vault
 * holds, and a one-shot reconcile afterwards has nothing to do. A file that
 * vanishes or changes between the scan and its step is left for the next
 * batch, never reported as a failure.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reconcileVault } from "../../src/files/vault-reconcile.ts";
import { type WatchBatch, watchVault } from "../../src/files/vault-watch.ts";
import { watchDir } from "../../src/runtime/dir-watch.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { tempDir, type TestMemory } from "../_helpers/memory.ts";
import { useTestMemories } from "../_helpers/memories.ts";
import { storedRows } from "./_door-rows.ts";

const fresh = useTestMemories({ CAIRN_EMBED_KIND: "none" });
const actor = operatorActor(undefined);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startVault(): string {
  const dir = join(tempDir("vault-"), "notes");
  mkdirSync(join(dir, "projects", "kiln"), { recursive: true });
  writeFileSync(join(dir, "index.md"), "---\ntitle: Studio Index\ntags: [studio]\n---\n\n# Studio\n\nThe studio runs two kilns and a wheel room.\n");
  writeFileSync(join(dir, "projects", "kiln", "log.md"), "# Kiln log\n\nFired the bisque load to cone 04.\n");
  writeFileSync(join(dir, "projects", "kiln", "glazes.md"), "# Glazes\n\nCeladon and tenmoku are the house glazes.\n");
  return dir;
}

/** The edits, in order; `settle` waits for the watch between them (or is a no-op for the one-shot store). */
async function edit(dir: string, settle: () => Promise<void>): Promise<void> {
  writeFileSync(join(dir, "new-note.md"), "# Clay order\n\nOrder two bags of porcelain from the supplier.\n");
  await settle();
  // An editor's save: write a temporary file beside the note, then rename it over the note.
  writeFileSync(join(dir, "projects", "kiln", ".log.md.swp"), "swap");
  writeFileSync(join(dir, "projects", "kiln", "log.md.tmp"), "# Kiln log\n\nFired the bisque load to cone 04. Glaze firing next week.\n");
  renameSync(join(dir, "projects", "kiln", "log.md.tmp"), join(dir, "projects", "kiln", "log.md"));
  rmSync(join(dir, "projects", "kiln", ".log.md.swp"));
  await settle();
  writeFileSync(join(dir, "index.md"), "---\ntitle: Studio Handbook\ntags: [studio, handbook]\n---\n\n# Studio\n\nThe studio runs two kilns and a wheel room.\n");
  await settle();
  renameSync(join(dir, "new-note.md"), join(dir, "clay-order.md"));
  await settle();
  renameSync(join(dir, "projects", "kiln"), join(dir, "kiln"));
  await settle();
  // A checkout: 300 notes written at once.
  mkdirSync(join(dir, "archive"));
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, "archive", `entry-${String(i).padStart(3, "0")}.md`), `# Entry ${i}\n\nArchive entry number ${i} about glaze batch ${i * 7}.\n`);
  await settle();
  // Files that vanish right after they appear, and a deletion.
  for (let i = 0; i < 20; i++) {
    writeFileSync(join(dir, `flash-${i}.md`), `flash ${i}\n`);
    rmSync(join(dir, `flash-${i}.md`));
  }
  rmSync(join(dir, "kiln", "glazes.md"));
  for (let i = 0; i < 150; i++) rmSync(join(dir, "archive", `entry-${String(i).padStart(3, "0")}.md`));
  await settle();
}

describe("cairn reconcile --watch", () => {
  it("ends where one reconcile of the final vault ends, and leaves a one-shot reconcile nothing to do", async () => {
    const dirA = startVault();
    const dirB = startVault();
    const a = await fresh();
    const b = await fresh();
    const batches: WatchBatch[] = [];
    const notices: string[] = [];
    const stop = new AbortController();
    const watching = watchVault(a.memory, dirA, {
      actor, writeBack: false, watch: watchDir, signal: stop.signal, onBatch: (x) => batches.push(x), onNotice: (m) => notices.push(m),
    });
    // Waits until a batch ran after the last edit and no event is pending (nothing asserted on time).
    const settle = async () => {
      const seen = batches.length;
      const t0 = Date.now();
      while (Date.now() - t0 < 30_000) {
        await sleep(100);
        const last = batches.at(-1);
        if (batches.length > seen && last && Date.now() - t0 > 1500) {
          const before = batches.length;
          await sleep(600);
          if (batches.length === before) return;
        }
      }
      throw new Error("the watch did not settle");
    };
    while (batches.length === 0) await sleep(50);
    await reconcileVault(b.memory, dirB, { actor, writeBack: false });
    await edit(dirA, settle);
    await edit(dirB, async () => {});
    stop.abort();
    const summary = await watching;
    expect(summary.batches).toBeGreaterThan(5);
    expect(notices).toEqual([]);
    expect(batches.flatMap((x) => x.report.failed)).toEqual([]);
    expect(batches.flatMap((x) => x.report.conflicts)).toEqual([]);

    const one = await reconcileVault(b.memory, dirB, { actor, writeBack: false });
    expect(one.failed).toEqual([]);
    const after = await reconcileVault(a.memory, dirA, { actor, writeBack: false });
    expect(after.plan).toMatchObject({ new: 0, modified: 0, moved: 0, deleted: 0, written: 0 });
    expect(after.applied).toBe(0);
    expect(after.swept).toBe(0);

    const rowsA = await storedRows(a.memory);
    const rowsB = await storedRows(b.memory);
    expect(rowsA.chunks).toEqual(rowsB.chunks);
    expect(rowsA.chunks.length).toBe(153); // index, kiln log, clay order, 150 archive entries
    const paths = async (m: TestMemory) => (await m.memory.db.execute("SELECT path, hash FROM file_sources WHERE state = 'active' ORDER BY path")).rows.map((r) => `${r.path} ${r.hash}`);
    expect(await paths(a)).toEqual(await paths(b));
    // Edges are history (an edge whose chunk went stays, unowned): the watch saw every state the one-shot run saw.
    expect(rowsA.edges.map((e) => e.replace(/ @.*$/, ""))).toEqual(expect.arrayContaining(rowsB.edges.map((e) => e.replace(/ @.*$/, ""))));
    const hit = (await (await a.req("POST", "/recall", { query: "porcelain supplier clay", limit: 1, provenance: true })).json()).hits[0];
    expect(hit.evidence.source_link).toBe("clay-order.md");
  }, 240_000);

  it("leaves a file that vanishes or changes between the scan and its step to the next run, not a failure", async () => {
    const dir = startVault();
    const m = await fresh();
    writeFileSync(join(dir, "going.md"), "# Going\n\nThis note is deleted before it is read.\n");
    writeFileSync(join(dir, "moving.md"), "# Moving\n\nThis note changes before it is read.\n");
    const r = await reconcileVault(m.memory, dir, {
      actor, writeBack: false,
      onPlan: () => {
        rmSync(join(dir, "going.md"));
        writeFileSync(join(dir, "moving.md"), "# Moving\n\nThis note changed after the plan read it.\n");
      },
    });
    expect(r.failed).toEqual([]);
    expect(r.retry.map((x) => x.path).sort()).toEqual(["going.md", "moving.md"]);
    const next = await reconcileVault(m.memory, dir, { actor, writeBack: false });
    expect(next.plan).toMatchObject({ new: 1 });
    expect(next.retry).toEqual([]);
    const texts = (await m.memory.db.execute("SELECT content FROM chunks ORDER BY id")).rows.map((x) => String(x.content));
    expect(texts.some((t) => t.includes("changed after the plan"))).toBe(true);
    expect(texts.some((t) => t.includes("deleted before"))).toBe(false);
  }, 60_000);

  it("refuses to start on a folder that is not there (a typo), rather than watching nothing forever", async () => {
    const m = await fresh();
    const stop = new AbortController();
    const giveUp = setTimeout(() => stop.abort(), 3000);
    const notices: string[] = [];
    const missing = join(tempDir("vault-"), "no-such-notes");
    const run = watchVault(m.memory, missing, { actor, writeBack: false, watch: watchDir, signal: stop.signal, onNotice: (n) => notices.push(n) });
    await expect(run).rejects.toMatchObject({ code: "invalid_request", message: expect.stringContaining("is not a readable directory") });
    clearTimeout(giveUp);
    expect(notices).toEqual([]);
  }, 30_000);

  it("keeps every note while the watched folder is gone (an unmounted drive), and carries on when it is back", async () => {
    const dir = startVault();
    const m = await fresh();
    const batches: WatchBatch[] = [];
    const notices: string[] = [];
    const stop = new AbortController();
    const watching = watchVault(m.memory, dir, {
      actor, writeBack: false, watch: watchDir, signal: stop.signal, pollMs: 200, rescanMs: 300, onBatch: (b) => batches.push(b), onNotice: (n) => notices.push(n),
    });
    while (batches.length === 0) await sleep(50);
    const count = async () => Number((await m.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0]!.n);
    expect(await count()).toBe(3);
    renameSync(dir, `${dir}-away`);
    for (let i = 0; i < 100 && !notices.some((n) => n.includes("is not a readable directory")); i++) await sleep(50);
    expect(notices.some((n) => n.includes("is not a readable directory"))).toBe(true);
    expect(await count()).toBe(3);
    expect(batches.flatMap((b) => b.report.plan.deleted ? [b.report.plan.deleted] : [])).toEqual([]);
    renameSync(`${dir}-away`, dir);
    writeFileSync(join(dir, "back.md"), "# Back\n\nThe drive is mounted again.\n");
    for (let i = 0; i < 200 && (await count()) < 4; i++) await sleep(50);
    stop.abort();
    await watching;
    expect(await count()).toBe(4);
  }, 60_000);
});
