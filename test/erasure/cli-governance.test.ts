import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { openTestMemory, tempDir } from "../_helpers/memory.ts";

const run = promisify(execFile);
const root = resolve(new URL("../..", import.meta.url).pathname);
const bin = join(root, "bin", "cairn.mjs");

async function cairn(args: string[], env: Record<string, string>) {
  try {
    const r = await run("node", [bin, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe("cairn resolve, undo-resolve, check-consistency, verify-certificate", () => {
  it("drives consolidation, checks consistency and verifies a certificate against the local store", async () => {
    const dir = tempDir();
    const t = await openTestMemory({}, {}, dir);
    const env = { CAIRN_DB_PATH: t.dbPath };
    const older = (await (await t.req("POST", "/ingest", { title: "Wifi", content: "The guest wifi password changes every Monday morning." })).json()).id;
    const newer = (await (await t.req("POST", "/ingest", { title: "Wifi", content: "The guest wifi password changes every Monday morning now." })).json()).id;
    await t.req("POST", "/ingest", { title: "x", content: "Contact dana@example.com for badges." });
    const cert = (await (await t.req("POST", "/dsar", { email: "dana@example.com" })).json()).certificate;
    await t.memory.close();

    const listed = await cairn(["resolve", "--json"], env);
    expect(listed.code).toBe(0);
    const { proposed } = JSON.parse(listed.stdout);
    expect(proposed).toEqual([expect.objectContaining({ kind: "supersedes", from: newer, to: older, status: "proposed" })]);
    const approved = await cairn(["resolve", String(proposed[0].id)], env);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved link ${proposed[0].id}  supersedes  ${newer} -> ${older}  approved`);
    const undone = await cairn(["undo-resolve", String(proposed[0].id)], env);
    expect(undone.stdout).toContain(`undone link ${proposed[0].id}`);
    const again = await cairn(["undo-resolve", String(proposed[0].id)], env);
    expect(again.code).toBe(1); // issue 22 item 6: a conflict is a failure (1), not a usage error (2)
    expect(again.stderr).toContain("conflict");

    const certFile = join(dir, "cert.json");
    writeFileSync(certFile, JSON.stringify(cert));
    const valid = await cairn(["verify-certificate", certFile, "--subject-email", "dana@example.com"], env);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain("certificate valid");

    const ok = await cairn(["check-consistency"], env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("consistent");
    // Break two invariants behind the service's back: an orphan-owning relation and a tampered audit row.
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_update");
    await c.execute("UPDATE audit_log SET action = 'forged' WHERE id = 2");
    await c.execute("INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at) VALUES (?, 'global', 'x', 'delete', 'now')", [older]);
    c.close();
    const bad = await cairn(["check-consistency", "--json"], env);
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout);
    expect(report.ok).toBe(false);
    expect(report.checks.find((x: { name: string }) => x.name === "audit_chain")).toMatchObject({ ok: false, sample: [2] });
    expect(report.checks.find((x: { name: string }) => x.name === "tombstoned_present")).toMatchObject({ ok: false, sample: [older] });
    const invalid = await cairn(["verify-certificate", certFile], env);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("FAIL chain");
  }, 180_000);
});
