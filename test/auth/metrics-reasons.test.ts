// The 401 reasons an operator scrapes (SPEC §5 items 1, 2; SPEC §8 /metrics): every refused request is counted under the
// authenticator's closed reason, over the real app with a real HS256 secret file.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { nowS, signJwt } from "./_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
const jwtClaims = (extra: Record<string, unknown> = {}) => ({ sub: "alice", roles: ["reader"], exp: nowS() + 600, ...extra });

describe("401 reasons on /metrics", () => {
  let t: TestMemory | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("counts each refused request under its closed reason", async () => {
    const dir = tempDir();
    const p = join(dir, "hs");
    writeFileSync(p, HS);
    chmodSync(p, 0o600);
    t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: p, CAIRN_EMBED_KIND: "none" }, {}, dir); // lexical-only: no recall here
    const send = (authorization?: string) => t!.req("GET", "/stats", undefined, authorization === undefined ? {} : { authorization });
    for (const a of [undefined, "Basic YTpi", `Bearer ${signJwt("HS256", jwtClaims({ exp: nowS() - 120 }), HS)}`, `Bearer ${signJwt("HS256", jwtClaims({ exp: nowS() - 120 }), HS)}`, "Bearer nope"]) {
      expect((await send(a)).status).toBe(401);
    }
    const metrics = await (await t.req("GET", "/metrics", undefined, { authorization: `Bearer ${signJwt("HS256", jwtClaims(), HS)}` })).text();
    const count = (reason: string) => Number(new RegExp(`^cairn_auth_failures_total\\{reason="${reason}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
    expect({ missing: count("missing"), malformed: count("malformed"), expired: count("expired"), invalid: count("invalid") })
      .toEqual({ missing: 1, malformed: 1, expired: 2, invalid: 1 });
  });
});
