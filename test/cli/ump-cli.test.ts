/**
 * `cairn ump …`, `cairn reconcile` and `cairn mcp --help` as a user runs
 * them (SPEC §4.12, §5 items 5–7): real processes, a real key directory, a
 * real database file.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyToken } from "../../src/ump/capability-token.ts";
import { parseUmpMarkdown } from "../../src/ump/file-projection.ts";
import { tempDir } from "../_helpers/memory.ts";
import { cairn, cairnInProcess, lastLine } from "../_helpers/cli.ts";


describe("cairn ump", { timeout: 300_000 }, () => {
  it("keygen, token, revoke, import and export work end to end", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys") };

    const keygen = await cairn(["ump", "keygen"], env);
    expect(keygen.code).toBe(0);
    const did = lastLine(keygen.stdout);
    expect(did).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$/);
    expect(statSync(join(dir, "keys", "operator.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "keys")).mode & 0o777).toBe(0o700);

    const token = await cairnInProcess(["ump", "token", "--verbs", "read,write", "--scope", "project=x", "--ttl", "24h"], env);
    expect(token.code).toBe(0);
    const tok = lastLine(token.stdout);
    const v = verifyToken(tok, { now: new Date(), trustedIssuers: [did] });
    expect(v.ok && v.claims).toMatchObject({ verbs: ["read", "write"], scope: { project: "x" }, iss: did });
    const jti = v.ok ? v.claims.jti : "";
    expect(token.stdout).toContain(`jti: ${jti}`);

    const refuse = await cairnInProcess(["ump", "revoke", did], env);
    expect(refuse.code).not.toBe(0);
    expect(refuse.stderr).toMatch(/rotate the key/);
    const revoke = await cairnInProcess(["ump", "revoke", jti], env);
    expect(revoke.stdout.trim()).toBe(`Revoked ${jti}`);

    const input = join(dir, "in.ump.md");
    writeFileSync(input, "---\nkind: \"procedural\"\ntitle: \"Deploy\"\n---\nDeploy with [[Runbook]] #ops\n---\nkind: \"semantic\"\n---\nPrefer small PRs\n");
    const imported = await cairnInProcess(["ump", "import", input], env);
    expect(imported.stdout.trim()).toBe("Imported 2 records: 2 created, 0 merged, 0 rejected");
    const out = join(dir, "out.ump.md");
    const exported = await cairnInProcess(["ump", "export", "--format", "md", "--out", out], env);
    expect(exported.stdout.trim()).toBe(`Exported 2 records to ${out}`);
    const records = parseUmpMarkdown(readFileSync(out, "utf8"));
    expect(records.map((r) => (r.body as { text: string }).text)).toEqual(["Deploy with [[Runbook]] #ops", "Prefer small PRs"]);
    expect(records.every((r) => (r.integrity as { signer: string }).signer === did)).toBe(true);
  });

  it("reconcile twice: the second run changes nothing", async () => {
    const dir = tempDir();
    const vault = join(dir, "vault");
    mkdirSync(join(vault, "sub"), { recursive: true });
    writeFileSync(join(vault, "a.md"), "---\ntags: [x]\n---\n# A\nSee [[b]].\n");
    writeFileSync(join(vault, "sub", "b.md"), "# B\nBody of b.\n");
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys") };
    const first = await cairn(["reconcile", vault, "--kind", "vault"], env);
    expect(first.code).toBe(0);
    expect(lastLine(first.stdout)).toBe("reconcile: 2 new, 0 modified, 0 moved, 0 deleted, 0 unchanged, 0 written, 0 swept, 0 conflicts, 0 failed");
    const second = await cairnInProcess(["reconcile", vault, "--kind", "vault"], env);
    expect(lastLine(second.stdout)).toBe("reconcile: 0 new, 0 modified, 0 moved, 0 deleted, 2 unchanged, 0 written, 0 swept, 0 conflicts, 0 failed");
    const bad = await cairnInProcess(["reconcile", vault, "--kind", "drive"], env);
    expect(bad.code).not.toBe(0);
  });
});
