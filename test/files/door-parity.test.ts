/**
 * Front matter is never chunk text, through any file door: `cairn
 * ingest-dir`, `cairn reconcile`, `cairn reconcile --watch` (notes copied
 * into a watched folder) and the UMP markdown binding store the
 * same chunks (text, title, heading path, line span, front matter), entity
 * links, entities and edges as `POST /ingest/markdown` does for the same
 * files, and a recall hit of a note with front matter starts with its body.
 */
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ingestDir } from "../../src/cli/ingest-dir.ts";
import { umpExport, umpImport } from "../../src/cli/ump-commands.ts";
import { reconcileVault } from "../../src/files/vault-reconcile.ts";
import { type WatchBatch, watchVault } from "../../src/files/vault-watch.ts";
import { watchDir } from "../../src/runtime/dir-watch.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { tempDir } from "../_helpers/memory.ts";
import { useTestMemories } from "../_helpers/memories.ts";
import { copyVault, ingestReference, storedRows } from "./_door-rows.ts";

const FIXTURES = ["vault", "bm-vault"].map((f) => [f, resolve(new URL(`../../fixtures/${f}`, import.meta.url).pathname)] as const);
const quiet = { out: () => {}, err: () => {}, errIsTTY: false };

const fresh = useTestMemories({ CAIRN_EMBED_KIND: "none" }); // lexical only: the rows compared do not depend on vectors

describe("every file door stores what /ingest/markdown stores", () => {
  for (const [name, fixture] of FIXTURES) {
    it(`fixtures/${name}: ingest-dir, reconcile, the watch and the UMP markdown binding match /ingest/markdown row for row`, async () => {
      const dir = copyVault(fixture);
      const ref = await fresh();
      await ingestReference(ref, dir);
      const want = await storedRows(ref.memory);
      expect(want.chunks.length).toBeGreaterThan(2);

      const viaIngestDir = await fresh();
      expect((await ingestDir(viaIngestDir.memory, dir, {}, quiet)).failed).toBe(0);
      expect(await storedRows(viaIngestDir.memory)).toEqual(want);

      const viaReconcile = await fresh();
      const r = await reconcileVault(viaReconcile.memory, dir, { actor: operatorActor(undefined), writeBack: false });
      expect(r.failed).toEqual([]);
      expect(await storedRows(viaReconcile.memory)).toEqual(want);

      // The watch: an empty watched folder, then the vault copied into it; the notes arrive through file events.
      const viaWatch = await fresh();
      const watched = join(tempDir("vault-"), "notes");
      mkdirSync(watched);
      const batches: WatchBatch[] = [];
      const stop = new AbortController();
      const watching = watchVault(viaWatch.memory, watched, {
        actor: operatorActor(undefined), writeBack: false, watch: watchDir, signal: stop.signal, rescanMs: 0, onBatch: (b) => batches.push(b),
      });
      while (batches.length === 0) await new Promise((r) => setTimeout(r, 20));
      cpSync(dir, watched, { recursive: true });
      for (let i = 0; i < 600 && (await storedRows(viaWatch.memory)).chunks.length < want.chunks.length; i++) await new Promise((r) => setTimeout(r, 50));
      stop.abort();
      await watching;
      expect(batches.slice(1).reduce((n, b) => n + b.events, 0)).toBeGreaterThan(0);
      expect(batches.flatMap((b) => b.report.failed)).toEqual([]);
      expect(await storedRows(viaWatch.memory)).toEqual(want);

      // The UMP markdown binding: the vault store exported as `*.ump.md` and imported into a fresh store.
      const file = join(tempDir(), "vault.ump.md");
      await umpExport(viaReconcile.memory, { format: "md", out: file });
      const viaUmpMd = await fresh();
      expect((await umpImport(viaUmpMd.memory, file)).rejected).toBe(0);
      expect(await storedRows(viaUmpMd.memory)).toEqual(want);
    }, 120_000);
  }

  it("a recall hit of a vault note with front matter starts with the body, and front matter words are not body text", async () => {
    const dir = copyVault(FIXTURES[1][1]);
    const m = await fresh();
    await reconcileVault(m.memory, dir, { actor: operatorActor(undefined), writeBack: false });
    const r = await (await m.req("POST", "/recall", { query: "firmware probe sleep AA cells", limit: 3, provenance: true })).json();
    const hit = r.hits[0];
    expect(hit.content).toMatch(/^# Amara Okafor\n/);
    expect(hit.content).not.toContain("permalink:");
    expect(hit.evidence?.snippet ?? "").not.toContain("permalink:");
    // `permalink` is a front matter key of every fixture note: it is metadata, not text recall can match.
    const p = await (await m.req("POST", "/recall", { query: "permalink", limit: 5 })).json();
    expect(p.hits).toEqual([]);
    expect(readFileSync(join(dir, "notes", "amara-okafor.md"), "utf8")).toMatch(/^---\ntitle: Amara Okafor\n/);
  }, 60_000);
});
