/**
 * The vault binding (SPEC §4.12 `reconcile <path> --kind vault`, §4.4
 * `/sources/reconcile`): the pure planner, then the executor over a real
 * directory and a real store: idempotence, moves, deletions swept with
 * tombstones, two-way record files guarded against overwriting edits, and
 * Obsidian notes that export unchanged.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planVault } from "../../src/files/vault-plan.ts";
import { reconcileVault } from "../../src/files/vault-reconcile.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { parseUmpMarkdown } from "../../src/ump/file-projection.ts";
import { aliasBomb, noteWith } from "../hardening/corpus/alias-bombs.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

describe("planVault (pure)", () => {
  const src = (id: number, path: string, hash: string, recordId?: string) => ({ id, path, hash, ...(recordId ? { recordId } : {}) });

  it("classifies new, modified, moved, deleted and unchanged files", () => {
    const plan = planVault({
      disk: [{ path: "a.md", hash: "1" }, { path: "b.md", hash: "2b" }, { path: "moved/c.md", hash: "3" }, { path: "n.md", hash: "9" }],
      sources: [src(1, "a.md", "1"), src(2, "b.md", "2"), src(3, "c.md", "3"), src(4, "gone.md", "4")],
      heads: new Map(), outbound: [],
    });
    expect({ n: plan.new, m: plan.modified, mv: plan.moved, d: plan.deleted, u: plan.unchanged }).toEqual({ n: 1, m: 1, mv: 1, d: 1, u: 1 });
    expect(plan.actions.map((a) => a.op).sort()).toEqual(["delete", "ingest", "ingest", "move"]);
  });

  it("plans record files both ways and flags edits on both sides as a conflict", () => {
    const plan = planVault({
      disk: [{ path: "r1.ump.md", hash: "same" }, { path: "r2.ump.md", hash: "edited" }, { path: "r3.ump.md", hash: "edited" }, { path: "r4.ump.md", hash: "x" }],
      sources: [src(1, "r1.ump.md", "same", "urn:ump:a"), src(2, "r2.ump.md", "old", "urn:ump:b"), src(3, "r3.ump.md", "old", "urn:ump:c"),
        src(4, "r4.ump.md", "x", "urn:ump:d"), src(5, "r5.ump.md", "y", "urn:ump:e")],
      heads: new Map([["urn:ump:a", { current: "urn:ump:a2" }], ["urn:ump:b", { current: "urn:ump:b" }], ["urn:ump:c", { current: "urn:ump:c2" }],
        ["urn:ump:d", {}], ["urn:ump:e", { current: "urn:ump:e" }]]),
      outbound: [{ id: "urn:ump:f", path: "cairn/f.ump.md" }],
    });
    const ops = Object.fromEntries(plan.actions.map((a) => ["path" in a ? a.path : a.source.path, a.op]));
    expect(ops).toEqual({
      "r1.ump.md": "write", "r2.ump.md": "revise", "r3.ump.md": "conflict", "r4.ump.md": "remove", "r5.ump.md": "forget", "cairn/f.ump.md": "write",
    });
  });
});

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NOTE = `---
title: Welcome
tags: [onboarding, "infra/db"]
aliases: ["Start here"]
---
# Welcome

See [[Runbook]] and [[Ops Guide|the guide]] before paging. #oncall #infra/db

- [[nested/deep/Runbook#Restore|restore steps]]
`;

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = readFileSync(p, "utf8");
    }
  };
  walk(dir, "");
  return out;
}

async function setup() {
  t = await openTestMemory();
  const vault = join(tempDir("vault-"), "notes");
  mkdirSync(join(vault, "nested", "deep"), { recursive: true });
  writeFileSync(join(vault, "Welcome.md"), NOTE);
  writeFileSync(join(vault, "nested", "deep", "Runbook.md"), "# Runbook\n\n## Restore\nRestore from the nightly snapshot.\n");
  writeFileSync(join(vault, "Other.md"), "Other note about the staging cluster.\n");
  mkdirSync(join(vault, ".obsidian"));
  writeFileSync(join(vault, ".obsidian", "app.md"), "ignored config");
  const actor = operatorActor(undefined);
  const run = () => reconcileVault(t!.memory, vault, { actor, project: "notes" });
  const count = async (sql: string) => Number((await t!.memory.db.execute(sql)).rows[0].n);
  return { m: t, vault, run, count, actor };
}

describe("reconcileVault", () => {
  it("ingests a vault once; running it twice in a row changes nothing the second time", async () => {
    const { m, vault, run, count } = await setup();
    const first = await run();
    expect(first.plan).toMatchObject({ new: 3, modified: 0, deleted: 0 });
    expect(first.failed).toEqual([]);
    expect(await count("SELECT COUNT(*) AS n FROM chunks WHERE source = 'vault'")).toBe(3);
    const audit = await count("SELECT COUNT(*) AS n FROM audit_log");
    const files = snapshot(vault);
    const second = await run();
    expect(second.plan).toEqual({ new: 0, modified: 0, moved: 0, deleted: 0, unchanged: 3, written: 0, conflicts: 0 });
    expect(second.applied).toBe(0);
    expect(second.swept).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log")).toBe(audit);
    expect(snapshot(vault)).toEqual(files);
    // Obsidian: the note's body (wikilinks, aliases, tags) exports unchanged as the record's text, its front matter
    // block verbatim beside it (`x-cairn.meta.frontmatter`), never as text.
    const [fm, body] = [NOTE.split("\n").slice(1, 4).join("\n"), NOTE.split("\n").slice(5).join("\n")];
    const exported = (await (await m.req("GET", "/export?format=ump")).json()).records;
    expect(exported.map((r: { body: { text: string } }) => r.body.text)).toContain(body);
    const welcome = exported.find((r: { body: { text: string } }) => r.body.text === body);
    expect(welcome.title).toBe("Welcome");
    expect(welcome["x-cairn"].chunk.meta).toMatchObject({ frontmatter: fm, tags: ["onboarding", "infra/db"], aliases: ["Start here"], line_start: 6 });
    const md = await (await m.req("GET", "/export?format=ump-md")).text();
    expect(parseUmpMarkdown(md).map((r) => (r.body as { text: string }).text)).toContain(body);
  });

  it("refuses a vault folder that is missing (a typo, an unmounted drive) and tombstones none of its notes", async () => {
    const { vault, run, count } = await setup();
    await run();
    const live = "SELECT COUNT(*) AS n FROM chunks WHERE source = 'vault'";
    expect(await count(live)).toBe(3);
    renameSync(vault, `${vault}-unmounted`);
    await expect(run()).rejects.toMatchObject({ code: "invalid_request", message: expect.stringContaining("is not a readable directory") });
    expect(await count(live)).toBe(3);
    expect(await count("SELECT COUNT(*) AS n FROM tombstones")).toBe(0);
    renameSync(`${vault}-unmounted`, vault);
    expect((await run()).plan).toMatchObject({ new: 0, deleted: 0, unchanged: 3 });
  });

  it("reads front matter with the bounded reader and applies the text rule: an alias bomb and a NUL note fail by name, the rest go in", async () => {
    const { vault, run, count } = await setup();
    writeFileSync(join(vault, "bomb.md"), noteWith(aliasBomb(8)));
    writeFileSync(join(vault, "nul.md"), "# Nul\n\nA note with a \u0000 inside.\n");
    const rss0 = process.memoryUsage().rss;
    const r = await run();
    expect(r.failed.map((f) => f.path).sort()).toEqual(["bomb.md", "nul.md"]);
    expect(r.failed.find((f) => f.path === "bomb.md")!.error).toMatch(/aliases/);
    expect(r.failed.find((f) => f.path === "nul.md")!.error).toMatch(/U\+0000/);
    expect(await count("SELECT COUNT(*) AS n FROM chunks WHERE source = 'vault'")).toBe(3);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(128 * 1024 * 1024);
  });

  it("re-points a moved file, re-ingests a modified one and tombstones the chunks of a deleted one", async () => {
    const { m, vault, run, count } = await setup();
    await run();
    const chunks = await count("SELECT COUNT(*) AS n FROM chunks");
    renameSync(join(vault, "nested", "deep", "Runbook.md"), join(vault, "nested", "Runbook.md"));
    const moved = await run();
    expect(moved.plan).toMatchObject({ moved: 1, new: 0, deleted: 0 });
    expect(await count("SELECT COUNT(*) AS n FROM chunks")).toBe(chunks);
    writeFileSync(join(vault, "Other.md"), "Other note about the production cluster.\n");
    rmSync(join(vault, "Welcome.md"));
    const changed = await run();
    expect(changed.plan).toMatchObject({ modified: 1, deleted: 1 });
    expect(changed.swept).toBe(2);
    const texts = (await m.memory.db.execute("SELECT content FROM chunks ORDER BY id")).rows.map((r) => r.content);
    expect(texts).toEqual(["# Runbook\n\n## Restore\nRestore from the nightly snapshot.\n", "Other note about the production cluster.\n"]);
    expect(await count("SELECT COUNT(*) AS n FROM tombstones WHERE reason = 'source_deleted'")).toBe(2);
    const actions = (await m.memory.db.execute("SELECT action FROM audit_log ORDER BY id")).rows.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["source_move", "source_delete", "source_ingest", "sources_reconcile", "delete"]));
    expect((await (await m.req("POST", "/recall", { query: "staging" })).json()).hits).toEqual([]);
    expect((await run()).plan).toMatchObject({ new: 0, modified: 0, moved: 0, deleted: 0, unchanged: 2 });
  });

  it("writes the project's UMP records into the vault and keeps both sides in step", async () => {
    const { m, vault, run } = await setup();
    await run();
    const r = await (await m.req("POST", "/ump/remember", { kind: "procedural", title: "Failover drill", body: { text: "Run the failover drill monthly" }, scope: { project: "notes" } })).json();
    await m.req("POST", "/ump/remember", { kind: "semantic", body: { text: "Another project's memory" }, scope: { project: "elsewhere" } });
    const wrote = await run();
    expect(wrote.plan.written).toBe(1);
    const files = Object.keys(snapshot(vault)).filter((p) => p.endsWith(".ump.md"));
    expect(files).toEqual([`cairn/failover-drill-${r.id.slice(-8)}.ump.md`]);
    const file = join(vault, files[0]);
    expect(parseUmpMarkdown(readFileSync(file, "utf8"))[0].id).toBe(r.id);
    expect((await run()).plan).toMatchObject({ written: 0, unchanged: 4, new: 0 });

    // Store side changes: the file follows, because it is unchanged on disk.
    const v2 = await (await m.req("POST", "/ump/revise", { id: r.id, patch: { body: { text: "Run the failover drill weekly" } } })).json();
    expect((await run()).plan.written).toBe(1);
    const disk = parseUmpMarkdown(readFileSync(file, "utf8"))[0];
    expect(disk.id).toBe(v2.id);
    expect((disk.body as { text: string }).text).toBe("Run the failover drill weekly");

    // Vault side edits revise the record, and the file's front matter names the new version.
    writeFileSync(file, readFileSync(file, "utf8").replace("weekly", "every sprint"));
    const edited = await run();
    expect(edited.plan.modified).toBe(1);
    const v3 = parseUmpMarkdown(readFileSync(file, "utf8"))[0];
    expect(v3.supersedes).toEqual([v2.id]);
    const current = await (await m.req("GET", `/ump/memory/${v3.id}`)).json();
    expect(current.record.body.text).toBe("Run the failover drill every sprint");
    expect((await run()).plan).toMatchObject({ modified: 0, written: 0, new: 0 });

    // Both sides changed: a conflict, and the file on disk is not overwritten.
    await m.req("POST", "/ump/revise", { id: v3.id, patch: { body: { text: "Store-side wording" } } });
    const mine = readFileSync(file, "utf8").replace("every sprint", "on Fridays");
    writeFileSync(file, mine);
    const clash = await run();
    expect(clash.conflicts.map((c) => c.path)).toEqual([files[0]]);
    expect(readFileSync(file, "utf8")).toBe(mine);

    // Deleting the record file forgets the record.
    rmSync(file);
    const gone = await run();
    expect(gone.plan.deleted).toBe(1);
    expect((await m.req("GET", `/ump/memory/${v3.id}`)).status).toBe(404);
    expect(existsSync(file)).toBe(false);
    expect((await run()).plan).toMatchObject({ written: 0, deleted: 0, new: 0 });
  });

  it("never overwrites a record file that changed on disk after the plan read it", async () => {
    const { m, vault, actor } = await setup();
    const r = await (await m!.req("POST", "/ump/remember", { kind: "semantic", title: "Guarded", body: { text: "guarded body" }, scope: { project: "notes" } })).json();
    await reconcileVault(m!.memory, vault, { actor, project: "notes" });
    const file = join(vault, "cairn", `guarded-${r.id.slice(-8)}.ump.md`);
    await m!.req("POST", "/ump/revise", { id: r.id, patch: { body: { text: "guarded body, revised in the store" } } });
    writeFileSync(join(vault, "Other.md"), "Other note, edited so that an ingest runs before the write.\n");
    let edited = false;
    const out = await reconcileVault(m!.memory, vault, {
      actor, project: "notes",
      onStep: () => {
        if (edited) return;
        edited = true;
        writeFileSync(file, "edited by hand while reconcile was running");
      },
    });
    expect(out.plan).toMatchObject({ modified: 1, written: 1 });
    expect(out.conflicts.map((c) => c.path)).toEqual([`cairn/guarded-${r.id.slice(-8)}.ump.md`]);
    expect(readFileSync(file, "utf8")).toBe("edited by hand while reconcile was running");
  });
});

describe("POST /sources/reconcile", () => {
  it("sweeps orphans of deleted sources and is a no-op the second time", async () => {
    const { m, vault, run } = await setup();
    await run();
    await reconcileVault(m!.memory, vault, { actor: operatorActor(undefined), project: "notes", dryRun: true });
    rmSync(join(vault, "Other.md"));
    // Plan and mark the deletion without the executor's own sweep, then sweep over HTTP.
    const sources = await m!.memory.sources.list("vault", vault);
    await m!.memory.sources.deleteFile(sources.find((s) => s.path === "Other.md")!);
    const first = await (await m!.req("POST", "/sources/reconcile")).json();
    expect(first.swept).toHaveLength(1);
    expect(first.sources_removed).toBe(1);
    expect(await (await m!.req("POST", "/sources/reconcile")).json()).toEqual({ swept: [], unlinked: [], sources_removed: 0 });
  });

  it("unlinks a chunk the vault shared with another door, keeps it, and audits the unlink in its transaction", async () => {
    const { m, vault, run } = await setup();
    // Same bytes through /ingest/markdown first: the vault note dedups onto this chunk instead of owning one.
    const shared = (await (await m!.req("POST", "/ingest/markdown", { title: "Other", content: "Other note about the staging cluster.\n" })).json()).id;
    await run();
    const sources = await m!.memory.sources.list("vault", vault);
    await m!.memory.sources.deleteFile(sources.find((s) => s.path === "Other.md")!);
    const out = await (await m!.req("POST", "/sources/reconcile")).json();
    expect(out).toMatchObject({ swept: [], unlinked: [shared] });
    expect(Number((await m!.memory.db.execute(`SELECT COUNT(*) AS n FROM chunks WHERE id = ${shared}`)).rows[0].n)).toBe(1);
    const rows = (await (await m!.req("GET", "/audit?action=sources_unlink")).json()).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].detail).toEqual({ chunks: [shared] });
    expect(await (await m!.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true });
  });
});
