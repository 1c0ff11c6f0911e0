// Secret files at boot (SPEC §5 items 1, 2, 8, 11): what loadSecrets makes of real files on disk, and the ConfigError an
// operator reads when one is wrong (owner-only mode, empty, unreadable, a bad key), naming the variable, never the path.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSecrets, readOwnerOnly } from "../../src/auth/load-credentials.ts";
import { verifyJwt } from "../../src/auth/verify-jwt.ts";
import { parseConfig } from "../../src/config/parse-config.ts";
import { ConfigError } from "../../src/config/read-var.ts";
import { readSecretFile } from "../../src/runtime/platform.ts";
import { tempDir } from "../_helpers/memory.ts";
import { keyPair, nowS, signJwt } from "./_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";

function file(dir: string, name: string, text: string, mode = 0o600): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}
const load = (env: Record<string, string>) => loadSecrets(parseConfig(env), readSecretFile);
const refusal = async (p: Promise<unknown>): Promise<string> => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  if (!(e instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(e)}`);
  return e.message;
};

describe("loadSecrets", () => {
  it("with nothing configured: no credential, no keys, no webhook secrets (and no file reader needed)", async () => {
    expect(await loadSecrets(parseConfig({}), undefined)).toEqual({
      credentials: { jwtKeys: {}, required: false },
      webhooks: { alert: undefined, erasure: undefined, channel: undefined },
    });
  });

  it("takes the inline token as is and the token file trimmed; either makes a credential required", async () => {
    const inline = await loadSecrets(parseConfig({ AUTH_TOKEN: "inline-token-123" }), undefined);
    expect(inline.credentials).toEqual({ bearerToken: "inline-token-123", jwtKeys: {}, required: true });
    const dir = tempDir();
    const fromFile = await load({ AUTH_TOKEN_FILE: file(dir, "tok", "  file-token-456 \n") });
    expect(fromFile.credentials).toEqual({ bearerToken: "file-token-456", jwtKeys: {}, required: true });
  });

  it("refuses to boot when any secret file is configured but the runtime cannot read files", async () => {
    for (const v of ["AUTH_TOKEN_FILE", "CAIRN_JWT_SECRET_FILE", "CAIRN_JWT_PUBLIC_KEY_FILE", "CAIRN_ALERT_WEBHOOK_SECRET_FILE",
      "CAIRN_ERASURE_WEBHOOK_SECRET_FILE", "CAIRN_CHANNEL_WEBHOOK_SECRET_FILE"]) {
      expect({ v, m: await refusal(loadSecrets(parseConfig({ [v]: "/run/secrets/x" }), undefined)) })
        .toEqual({ v, m: "Secret files are configured but this runtime cannot read files" });
    }
  });

  it("imports the HS256 secret and the public key into keys that verify tokens, and marks the credential required", async () => {
    const dir = tempDir();
    const ed = keyPair("ed25519");
    const s = await load({ CAIRN_JWT_SECRET_FILE: file(dir, "hs", `${HS}\n`), CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "k.pem", ed.pem, 0o644) });
    expect(s.credentials.required).toBe(true);
    expect(s.credentials.bearerToken).toBeUndefined();
    expect(Object.keys(s.credentials.jwtKeys).sort()).toEqual(["EdDSA", "HS256"]);
    const claims = { sub: "alice", exp: nowS() + 600 };
    expect((await verifyJwt(signJwt("HS256", claims, HS), s.credentials.jwtKeys, { now: new Date() })).ok).toBe(true);
    expect((await verifyJwt(signJwt("EdDSA", claims, ed.privateKey), s.credentials.jwtKeys, { now: new Date() })).ok).toBe(true);
    const ec = keyPair("p256");
    const p = await load({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "ec.pem", ec.pem, 0o444) });
    expect(Object.keys(p.credentials.jwtKeys)).toEqual(["ES256"]);
    expect((await verifyJwt(signJwt("ES256", claims, ec.privateKey), p.credentials.jwtKeys, { now: new Date() })).ok).toBe(true);
  });

  it("names the variable in a bad key's refusal", async () => {
    const dir = tempDir();
    expect(await refusal(load({ CAIRN_JWT_SECRET_FILE: file(dir, "hs", "short-secret") })))
      .toBe("CAIRN_JWT_SECRET_FILE: The HS256 secret must be at least 32 bytes");
    expect(await refusal(load({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "k.pem", "not a key", 0o644) })))
      .toBe("CAIRN_JWT_PUBLIC_KEY_FILE: The JWT public key file must hold one PEM PUBLIC KEY (SPKI) block");
  });

  it("refuses an empty or unreadable public key file without naming its path; its mode is not checked", async () => {
    const dir = tempDir();
    expect(await refusal(load({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "k.pem", " \n\t", 0o644) })))
      .toBe("CAIRN_JWT_PUBLIC_KEY_FILE is empty: an empty credential counts as none");
    const missing = join(dir, "absent.pem");
    expect(await refusal(load({ CAIRN_JWT_PUBLIC_KEY_FILE: missing }))).toBe("CAIRN_JWT_PUBLIC_KEY_FILE names a file that cannot be read");
    expect((await load({ CAIRN_JWT_PUBLIC_KEY_FILE: file(dir, "w.pem", keyPair("ed25519").pem, 0o666) })).credentials.required).toBe(true);
  });

  it("reads the three webhook secrets trimmed, each owner-only and non-empty, naming the variable on refusal", async () => {
    const dir = tempDir();
    const s = await load({
      CAIRN_ALERT_WEBHOOK_SECRET_FILE: file(dir, "a", "whsec_alert\n"),
      CAIRN_ERASURE_WEBHOOK_SECRET_FILE: file(dir, "e", " erasure-secret "),
      CAIRN_CHANNEL_WEBHOOK_SECRET_FILE: file(dir, "c", "channel-secret"),
    });
    expect(s.webhooks).toEqual({ alert: "whsec_alert", erasure: "erasure-secret", channel: "channel-secret" });
    expect(s.credentials.required).toBe(false);
    for (const v of ["CAIRN_ALERT_WEBHOOK_SECRET_FILE", "CAIRN_ERASURE_WEBHOOK_SECRET_FILE", "CAIRN_CHANNEL_WEBHOOK_SECRET_FILE"]) {
      expect(await refusal(load({ [v]: file(dir, `${v}-loose`, "s", 0o640) }))).toBe(`${v} must be owner-only (chmod 600), got mode 0640`);
      expect(await refusal(load({ [v]: file(dir, `${v}-empty`, "\n") }))).toBe(`${v} is empty: an empty credential counts as none`);
    }
  });
});

describe("readOwnerOnly (SPEC §5 item 1: mode 0600 or stricter)", () => {
  it("accepts owner-only modes and refuses any group or world bit, quoting the mode", async () => {
    const dir = tempDir();
    for (const mode of [0o600, 0o400, 0o700]) {
      expect({ mode, text: await readOwnerOnly(readSecretFile, "X_FILE", file(dir, `ok${mode}`, " s3cret \n", mode)) }).toEqual({ mode, text: "s3cret" });
    }
    for (const mode of [0o601, 0o602, 0o604, 0o610, 0o620, 0o640, 0o644, 0o660, 0o666, 0o707, 0o770]) {
      expect(await refusal(readOwnerOnly(readSecretFile, "X_FILE", file(dir, `bad${mode}`, "s", mode))))
        .toBe(`X_FILE must be owner-only (chmod 600), got mode 0${mode.toString(8)}`);
    }
  });

  it("refuses an empty and an unreadable file without naming the path", async () => {
    const dir = tempDir();
    expect(await refusal(readOwnerOnly(readSecretFile, "X_FILE", file(dir, "e", "")))).toBe("X_FILE is empty: an empty credential counts as none");
    const missing = join(dir, "nope");
    const m = await refusal(readOwnerOnly(readSecretFile, "X_FILE", missing));
    expect(m).toBe("X_FILE names a file that cannot be read");
    expect(m).not.toContain(dir);
  });
});
