/** `cairn review` (issue 19): list, show, digest-bound approve and reject through the review service, and the wired command. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { reviewCommand } from "../../src/cli/review-commands.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("cairn review", () => {
  it("lists pending proposals with their digests, approves with the digest and rejects", async () => {
    t = await openTestMemory();
    const a = (await t.memory.review.propose({ title: "Deploy day", content: "Deploys happen on Tuesdays.", origin: "agent" })).id;
    const b = (await t.memory.review.propose({ content: "The office closes on Fridays." })).id;
    const list = await reviewCommand(t.memory, "list", undefined, {});
    const digestA = (await t.memory.review.get(a)).content_digest;
    expect(list.lines[0]).toMatch(new RegExp(`^#${a}  pending  score [0-9.]+  screen clean  origin agent  door /ingest/proposal  Deploy day$`));
    expect(list.lines[1]).toBe(`    digest ${digestA}`);
    const show = await reviewCommand(t.memory, "show", a, {});
    expect(show.lines).toContain("Deploys happen on Tuesdays.");

    await expect(reviewCommand(t.memory, "approve", a, {})).rejects.toMatchObject({ code: "digest_required" });
    await expect(reviewCommand(t.memory, "approve", a, { digest: "0".repeat(64) })).rejects.toMatchObject({ code: "digest_mismatch" });
    const ok = await reviewCommand(t.memory, "approve", a, { digest: digestA });
    expect(ok.lines[0]).toMatch(new RegExp(`^approved #${a} -> memory #\\d+$`));
    expect((await reviewCommand(t.memory, "reject", b, {})).lines).toEqual([`rejected #${b}`]);
    expect((await reviewCommand(t.memory, "list", undefined, {})).lines).toEqual(["no pending proposals"]);
    expect((await reviewCommand(t.memory, "list", undefined, { status: "rejected", json: true })).lines[0]).toContain(`"id":${b}`);
    await expect(reviewCommand(t.memory, "promote", a, {})).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("is wired into the cairn binary", { timeout: 120_000 }, async () => {
    const root = resolve(new URL("../..", import.meta.url).pathname);
    const dir = tempDir();
    const r = await promisify(execFile)("node", [join(root, "bin", "cairn.mjs"), "review", "list"], {
      cwd: root, env: { ...process.env, CAIRN_DB_PATH: join(dir, "r.db") }, timeout: 100_000,
    });
    expect(r.stdout.trim()).toBe("no pending proposals");
  });
});
