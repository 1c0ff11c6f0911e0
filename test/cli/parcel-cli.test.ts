/**
 * `cairn parcel export | import | ledger` as a user runs them (SPEC §4.12): real keys, real database files; the
 * keygen and the export are real processes, the other calls run the same entry in-process (`runCli`, issue 27).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openMemory } from "../../src/memory.ts";
import { tempDir } from "../_helpers/memory.ts";
import { cairn, cairnInProcess, lastLine } from "../_helpers/cli.ts";


describe("cairn parcel", { timeout: 600_000 }, () => {
  it("export, import and ledger between two stores; a refused parcel exits 2 naming the reason in one line", async () => {
    const dir = tempDir();
    const envA = { CAIRN_DB_PATH: join(dir, "a.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys-a") };
    const envB = { CAIRN_DB_PATH: join(dir, "b.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys-b") };
    const didA = lastLine((await cairn(["ump", "keygen"], envA)).stdout);
    const didB = lastLine((await cairnInProcess(["ump", "keygen"], envB)).stdout);
    expect(didA).toMatch(/^did:key:z6Mk/);

    const a = await openMemory(parseConfig(envA), { rssBytes: () => process.memoryUsage().rss });
    await a.domains.create("work");
    await a.ingest({ domain: "work", title: "Failover", content: "Promote the replica in zone b to fail over the primary database." });
    await a.ingest({ domain: "work", title: "Certs", content: "Edge certificates rotate on the first Tuesday of each quarter." });
    await a.close();

    const file = join(dir, "work.parcel.json");
    const exp = await cairn(["parcel", "export", "--domain", "work", "--out", file], envA);
    expect(exp.code).toBe(0);
    expect(exp.stdout).toContain("exported 2 rows of work");
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ signed_by: didA, manifest: { row_count: 2 } });

    for (const [args, code] of [
      [["--expected-signer", didB], "signer_alias"],
      [["--expected-signer", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"], "signer_mismatch"],
      [[], "signer_required"],
    ] as const) {
      const r = await cairnInProcess(["parcel", "import", "--file", file, "--domain", "work", ...args], envB);
      // docs/cli.md: a refused parcel is a usage error, exit 2.
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(code);
    }

    // Not a parcel at all: refused the same way.
    writeFileSync(join(dir, "not-a-parcel.json"), "{ nope");
    const junk = await cairnInProcess(["parcel", "import", "--file", join(dir, "not-a-parcel.json"), "--domain", "work", "--expected-signer", didA], envB);
    expect(junk.code).toBe(2);
    expect(junk.stderr.trim()).toBe("cairn: parcel_invalid: the parcel file is not readable JSON");

    const imp = await cairnInProcess(["parcel", "import", "--file", file, "--domain", "work", "--expected-signer", didA, "--json"], envB);
    expect(imp.code).toBe(0);
    expect(JSON.parse(imp.stdout)).toMatchObject({ received: 2, filed: 2, signer: didA });

    const ledger = await cairnInProcess(["parcel", "ledger", "--domain", "work", "--json"], envB);
    expect(JSON.parse(ledger.stdout).rows).toEqual([expect.objectContaining({ direction: "in", signer: didA, row_count: 2, reviewer: "local-operator" })]);
    const text = await cairnInProcess(["parcel", "ledger"], envA);
    expect(text.stdout).toMatch(/out\s+work\s+2 rows\s+sha256:/);

    const noKey = await cairnInProcess(["parcel", "export", "--domain", "work", "--out", join(dir, "x.json")], { ...envA, CAIRN_UMP_KEY_DIR: join(dir, "none") });
    // A failure, not a refused parcel: exit 1.
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("operator_key_missing");
  });
});
