/** SPEC §3 shutdown stamp: one live owner; a second server beside it never changes it (real libSQL file, injected pids). */
import { describe, expect, it } from "vitest";
import { openTestMemory, tempDir } from "../_helpers/memory.ts";

const env = { CAIRN_EMBED_KIND: "none" }; // lexical-only: the stamp is about the store file, not recall

describe("the shutdown stamp has one owner", () => {
  it("a second server beside a live owner neither claims nor cleans the stamp; the owner's own close does", async () => {
    const dir = tempDir();
    const live = new Set([111, 222]);
    const pidAlive = (p: number) => live.has(p);
    const a = await openTestMemory(env, { pid: 111, pidAlive }, dir);
    expect(await a.memory.markServing()).toMatchObject({ server_running: true, pid: 111 });
    const b = await openTestMemory(env, { pid: 222, pidAlive }, dir);
    expect(await b.memory.markServing()).toMatchObject({ server_running: true, pid: 111 });
    await b.memory.close();
    expect(await a.memory.shutdownReport()).toMatchObject({ server_running: true, pid: 111 });

    // The owner dies without a close: every reader, the bystander's process included, sees an unclean shutdown.
    live.delete(111);
    const c = await openTestMemory(env, { pid: 333, pidAlive }, dir);
    expect(await c.memory.shutdownReport()).toMatchObject({ last_shutdown: "unclean", server_running: false, pid: 111 });
    const check = (await c.memory.checkConsistency()).checks.find((x) => x.name === "clean_shutdown");
    expect(check).toMatchObject({ ok: false });
    // The next server to listen takes over and remembers how the last run ended.
    expect(await c.memory.markServing()).toMatchObject({ last_shutdown: "unclean", server_running: true, pid: 333 });
    await c.memory.close();
    const d = await openTestMemory(env, { pid: 444, pidAlive }, dir);
    expect(await d.memory.shutdownReport()).toMatchObject({ last_shutdown: "clean", server_running: false, pid: 333 });
    await d.memory.close();
    await a.memory.close().catch(() => undefined);
  });

  it("a process that never listened reports a stamp with its own (reused) pid as not running", async () => {
    const dir = tempDir();
    const a = await openTestMemory(env, { pid: 500, pidAlive: () => false }, dir);
    await a.memory.markServing();
    // Killed: no close. A later `status` process happens to get the same pid.
    const b = await openTestMemory(env, { pid: 500, pidAlive: () => true }, dir);
    expect(await b.memory.shutdownReport()).toMatchObject({ last_shutdown: "unclean", server_running: false });
    await b.memory.close();
  });
});
