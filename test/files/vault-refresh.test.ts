/**
 * A vault note is stored as a fresh ingest of the file as it is now, whatever
 * its history: a note whose front matter alone changed (title, tags, one more
 * line) or that was renamed gets the title, tags, line spans and path a first
 * ingest would give it, while a note shared with another file keeps its chunk.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reconcileVault } from "../../src/files/vault-reconcile.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { tempDir } from "../_helpers/memory.ts";
import { useTestMemories } from "../_helpers/memories.ts";
import { ingestReference, storedRows } from "./_door-rows.ts";

const fresh = useTestMemories({ CAIRN_EMBED_KIND: "none" });

const V1 = "---\ntitle: Kiln Log\ntags: [pottery]\n---\n\n# Firing\n\nThe bisque firing reached cone 04 after nine hours.\n";
const V2 = "---\ntitle: Kiln Journal\ntags: [pottery, glaze]\nstatus: draft\n---\n\n# Firing\n\nThe bisque firing reached cone 04 after nine hours.\n";

function vault(): string {
  const dir = join(tempDir("vault-"), "notes");
  mkdirSync(join(dir, "studio"), { recursive: true });
  writeFileSync(join(dir, "studio", "kiln.md"), V1);
  writeFileSync(join(dir, "glaze.md"), "# Glaze\n\nCeladon needs a reduction atmosphere.\n");
  return dir;
}

describe("a changed vault note equals a fresh ingest of the file", () => {
  it("a front matter edit (title, tags, one more line) gives the note its new title, tag edge and line span", async () => {
    const dir = vault();
    const m = await fresh();
    const run = () => reconcileVault(m.memory, dir, { actor: operatorActor(undefined), writeBack: false });
    await run();
    writeFileSync(join(dir, "studio", "kiln.md"), V2);
    const r = await run();
    expect(r.plan).toMatchObject({ modified: 1 });
    expect(r.failed).toEqual([]);
    const hit = (await (await m.req("POST", "/recall", { query: "bisque firing cone", limit: 1, provenance: true })).json()).hits[0];
    expect(hit.title).toBe("Kiln Journal");
    expect(hit.evidence).toMatchObject({ line_start: 7 });
    const edges = (await (await m.req("GET", "/graph/entity/Kiln%20Journal")).json());
    expect(JSON.stringify(edges)).toMatch(/"relation":"tagged_with","to":\{"id":\d+,"name":"Glaze"\}/);

    const ref = await fresh();
    await ingestReference(ref, dir);
    expect((await storedRows(m.memory)).chunks).toEqual((await storedRows(ref.memory)).chunks);
    expect((await reconcileVault(m.memory, dir, { actor: operatorActor(undefined), writeBack: false })).applied).toBe(0);
  }, 60_000);

  it("a renamed note's evidence names its new path, and a title taken from the file name follows it", async () => {
    const dir = vault();
    writeFileSync(join(dir, "untitled.md"), "Stoneware shrinks about twelve percent in the glaze firing.\n");
    const m = await fresh();
    const run = () => reconcileVault(m.memory, dir, { actor: operatorActor(undefined), writeBack: false });
    await run();
    renameSync(join(dir, "untitled.md"), join(dir, "studio", "shrinkage.md"));
    renameSync(join(dir, "studio", "kiln.md"), join(dir, "kiln.md"));
    const r = await run();
    expect(r.plan).toMatchObject({ moved: 2, new: 0, deleted: 0 });
    const hit = (await (await m.req("POST", "/recall", { query: "stoneware shrinks percent", limit: 1, provenance: true })).json()).hits[0];
    expect(hit.title).toBe("shrinkage");
    expect(hit.evidence.source_link).toBe("studio/shrinkage.md");
    const kiln = (await (await m.req("POST", "/recall", { query: "bisque firing cone", limit: 1, provenance: true })).json()).hits[0];
    expect(kiln.evidence.source_link).toBe("kiln.md");
    expect((await m.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n).toBe(3);
  }, 60_000);

  it("a chunk two files share keeps the labels it was first written with when one of them changes", async () => {
    const dir = vault();
    writeFileSync(join(dir, "copy.md"), "---\ntitle: Copy\n---\n\n# Glaze\n\nCeladon needs a reduction atmosphere.\n");
    const m = await fresh();
    const run = () => reconcileVault(m.memory, dir, { actor: operatorActor(undefined), writeBack: false });
    await run();
    const before = await storedRows(m.memory);
    writeFileSync(join(dir, "copy.md"), readFileSync(join(dir, "copy.md"), "utf8").replace("title: Copy", "title: Second copy"));
    expect((await run()).failed).toEqual([]);
    expect((await storedRows(m.memory)).chunks).toEqual(before.chunks);
  }, 60_000);
});
