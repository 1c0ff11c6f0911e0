import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { ConfigError } from "../../src/config/read-var.ts";
import { openTestMemory, tempDir } from "../_helpers/memory.ts";

function secretFile(dir: string, name: string, text: string, mode: number): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

describe("boot refusals (SPEC §1 Runtime rules, §5 item 1)", () => {
  it("refuses BIND_PUBLIC=1 and a non-loopback bind without a credential, and accepts them with one", () => {
    expect(() => parseConfig({ BIND_PUBLIC: "1" })).toThrow(/requires a credential/);
    expect(() => parseConfig({ BIND_ADDR: "0.0.0.0", BIND_PUBLIC: "1" })).toThrow(ConfigError);
    expect(() => parseConfig({ BIND_ADDR: "192.168.1.10", BIND_PUBLIC: "1" })).toThrow(/unauthenticated router is only built on loopback/);
    expect(parseConfig({ BIND_ADDR: "0.0.0.0", BIND_PUBLIC: "1", AUTH_TOKEN_FILE: "/x" }).auth.credentialConfigured).toBe(true);
    expect(parseConfig({ BIND_ADDR: "0.0.0.0", BIND_PUBLIC: "1", CAIRN_JWT_PUBLIC_KEY_FILE: "/k.pem" }).auth.credentialConfigured).toBe(true);
    // Loopback may run without a token.
    expect(parseConfig({}).auth.credentialConfigured).toBe(false);
  });

  it("refuses an unknown CAIRN_RBAC_ROLELESS_POSTURE and defaults to pass", () => {
    expect(() => parseConfig({ CAIRN_RBAC_ROLELESS_POSTURE: "allow" })).toThrow(/CAIRN_RBAC_ROLELESS_POSTURE must be one of pass, deny/);
    expect(parseConfig({}).auth.rolelessPosture).toBe("pass");
    expect(parseConfig({ CAIRN_RBAC_ROLELESS_POSTURE: "deny" }).auth.rolelessPosture).toBe("deny");
  });

  it("refuses AUTH_TOKEN and AUTH_TOKEN_FILE together", () => {
    expect(() => parseConfig({ AUTH_TOKEN: "a", AUTH_TOKEN_FILE: "/b" })).toThrow(/both set/);
  });

  it.each([0o644, 0o640, 0o604, 0o660, 0o666])("refuses to boot when AUTH_TOKEN_FILE has mode %s", async (mode) => {
    const dir = tempDir();
    const p = secretFile(dir, "token", "s3cret-token-value", mode);
    await expect(openTestMemory({ AUTH_TOKEN_FILE: p }, {}, dir)).rejects.toThrow(/AUTH_TOKEN_FILE must be owner-only \(chmod 600\)/);
  });

  it("boots with an owner-only token file and requires that token", async () => {
    const dir = tempDir();
    const p = secretFile(dir, "token", "s3cret-token-value\n", 0o600);
    const t = await openTestMemory({ AUTH_TOKEN_FILE: p }, {}, dir);
    try {
      expect((await t.req("GET", "/stats")).status).toBe(401);
      expect((await t.req("GET", "/stats", undefined, { authorization: "Bearer s3cret-token-value" })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("refuses an empty token file (an empty credential counts as none) and an unreadable one without naming its path", async () => {
    const dir = tempDir();
    const empty = secretFile(dir, "empty", "  \n", 0o600);
    await expect(openTestMemory({ AUTH_TOKEN_FILE: empty }, {}, dir)).rejects.toThrow(/is empty/);
    const missing = join(dir, "nope");
    const err = await openTestMemory({ AUTH_TOKEN_FILE: missing }, {}, dir).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).not.toContain(missing);
  });

  it("refuses a group-readable JWT secret file and a too-short HS256 secret", async () => {
    const dir = tempDir();
    const loose = secretFile(dir, "jwt", "x".repeat(40), 0o640);
    await expect(openTestMemory({ CAIRN_JWT_SECRET_FILE: loose }, {}, dir)).rejects.toThrow(/CAIRN_JWT_SECRET_FILE must be owner-only/);
    const short = secretFile(dir, "short", "too-short", 0o600);
    await expect(openTestMemory({ CAIRN_JWT_SECRET_FILE: short }, {}, dir)).rejects.toThrow(/at least 32 bytes/);
  });

  it("refuses a public key file that is not an Ed25519 or P-256 SPKI", async () => {
    const dir = tempDir();
    const bad = secretFile(dir, "k.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", 0o644);
    await expect(openTestMemory({ CAIRN_JWT_PUBLIC_KEY_FILE: bad }, {}, dir)).rejects.toThrow(/CAIRN_JWT_PUBLIC_KEY_FILE/);
  });
});
