/** Salted identifier hashes in audit details (issue 35): the connectors' subject salt, one file, never the identifier. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createIdentifierRef } from "../../src/audit/identifier-ref.ts";
import { createSubjectRef } from "../../src/connectors/subject-salt.ts";
import { privateSaltFile } from "../../src/runtime/private-file.ts";
import { tempDir } from "../_helpers/memory.ts";

describe("createIdentifierRef", () => {
  it("hashes under the subject salt file: stable across processes sharing the file, different under another salt", async () => {
    const dir = tempDir();
    const salt = join(dir, "connectors", "subject-salt");
    const a = createIdentifierRef(privateSaltFile(salt));
    const h = await a("session", "standup-2026-05-08");
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(salt)).toBe(true);
    // A second reader of the same file (another process, or the connectors' own hasher) agrees.
    expect(await createIdentifierRef(privateSaltFile(salt))("session", "standup-2026-05-08")).toBe(h);
    expect(await createSubjectRef(privateSaltFile(salt))("audit:session:standup-2026-05-08")).toBe(h);
    // The kind is part of the input: a path and a session with the same text do not collide.
    expect(await a("path", "standup-2026-05-08")).not.toBe(h);
    const other = join(tempDir(), "subject-salt");
    expect(await createIdentifierRef(privateSaltFile(other))("session", "standup-2026-05-08")).not.toBe(h);
    expect(readFileSync(salt, "utf8")).not.toContain("standup");
  });

  it("falls back to a per-process salt, and says so once, when the salt file is readable by others", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "connectors"));
    const salt = join(dir, "connectors", "subject-salt");
    writeFileSync(salt, "ab".repeat(32));
    chmodSync(salt, 0o644);
    const told: unknown[] = [];
    const ref = createIdentifierRef(privateSaltFile(salt), (e) => told.push(e));
    const h1 = await ref("session", "s1");
    const h2 = await ref("session", "s1");
    expect(h1).toMatch(/^[0-9a-f]{64}$/);
    expect(h2).toBe(h1);
    expect(told).toHaveLength(1);
    expect(await createSubjectRef({ read: async () => "ab".repeat(32), createNew: async () => {} })("audit:session:s1")).not.toBe(h1);
  });
});
