/** `cairn workflow note` (SPEC §4.12) as a real process, and the workflow configuration (re-ask window, bridge configs) refusing bad boots. */
import { execFile } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { bridgeKindOf } from "../../src/config/workflow-config.ts";
import { openTestMemory, tempDir } from "../_helpers/memory.ts";
import { crmCase, workflowEnv } from "./_setup.ts";

const run = promisify(execFile);
const root = resolve(new URL("../..", import.meta.url).pathname);

async function cairn(args: string[], env: Record<string, string>) {
  try {
    const r = await run("node", [join(root, "bin", "cairn.mjs"), ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe("cairn workflow note", { timeout: 300_000 }, () => {
  it("adds an audited note, records a re-ask with --reask, and refuses an unknown run", async () => {
    const dir = tempDir();
    const env = workflowEnv(dir);
    const m = await openTestMemory(env, {}, dir);
    const runId = (await m.memory.workflow.applyCase(crmCase("1"), { origin: "connector:zendesk" })).run.id;
    await m.memory.close();
    const a = await cairn(["workflow", "note", String(runId), "Customer called back; escalated to depot"], env);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/run 1: run\/note \(event \d+, audit row \d+\)/);
    const b = await cairn(["workflow", "note", String(runId), "Asked the same question again", "--reask", "--json"], env);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).events.map((e: { type: string }) => e.type)).toEqual(["run/note", "case/reask"]);
    const missing = await cairn(["workflow", "note", "99", "x"], env);
    // docs/cli.md "Exit codes": an unknown run is a failure (1), not a usage error (2).
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("not_found");
    const m2 = await openTestMemory(env, {}, dir);
    const view = await m2.memory.workflow.getRun(runId);
    expect(view.signals).toMatchObject({ reasks: 1, effort: 2 });
    expect(view.events.find((e) => e.type === "run/note")?.payload).toMatchObject({ text: "Customer called back; escalated to depot" });
    expect((await m2.memory.audit.verify()).ok).toBe(true);
    await m2.close();
  });
});

describe("workflow configuration", () => {
  it("selects the channel kind from the bridge config file name segment and refuses ambiguous names and bad windows", () => {
    expect(bridgeKindOf("/etc/cairn/bridge.signal.json")).toBe("signal");
    expect(bridgeKindOf("telegram-bridge.toml")).toBe("telegram");
    expect(bridgeKindOf("/srv/whatsapp/bridge.json")).toBeUndefined();
    expect(bridgeKindOf("signal-to-telegram.json")).toBeUndefined();
    expect(parseConfig({}).workflow).toEqual({ reaskWindowDays: 14, bridgeConfigFiles: {} });
    expect(parseConfig({ CAIRN_CHANNEL_BRIDGE_CONFIG: "/a/bridge.signal.json, /b/whatsapp.json" }).workflow.bridgeConfigFiles)
      .toEqual({ signal: "/a/bridge.signal.json", whatsapp: "/b/whatsapp.json" });
    expect(() => parseConfig({ CAIRN_CHANNEL_BRIDGE_CONFIG: "/a/bridge.json" })).toThrow(/kind segment/);
    expect(() => parseConfig({ CAIRN_CHANNEL_BRIDGE_CONFIG: "/a/signal.json,/b/bridge.signal.json" })).toThrow(/two files/);
    expect(() => parseConfig({ CAIRN_REASK_WINDOW_DAYS: "soon" })).toThrow(/CAIRN_REASK_WINDOW_DAYS/);
  });

  it("refuses to boot on a bridge config with group or world bits, or one that cannot be read", async () => {
    const dir = tempDir();
    const p = join(dir, "bridge.signal.json");
    writeFileSync(p, "{}");
    chmodSync(p, 0o644);
    await expect(openTestMemory({ CAIRN_CHANNEL_BRIDGE_CONFIG: p }, {}, dir)).rejects.toThrow(/owner-only/);
    await expect(openTestMemory({ CAIRN_CHANNEL_BRIDGE_CONFIG: join(dir, "missing.signal.json") }, {}, tempDir())).rejects.toThrow(/cannot be read/);
  });
});
