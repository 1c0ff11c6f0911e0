import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashSubject } from "../../src/authz/subject-hash.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { nowS, signJwt } from "../auth/_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function open(): Promise<(roles: string[]) => Record<string, string>> {
  const dir = tempDir();
  const p = join(dir, "hs");
  writeFileSync(p, HS);
  chmodSync(p, 0o600);
  t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: p }, {}, dir);
  return (roles) => ({ authorization: `Bearer ${signJwt("HS256", { sub: "carol", tenant: "t1", roles, exp: nowS() + 600 }, HS)}` });
}

const explain = (q: string, headers: Record<string, string>) => t!.req("GET", `/ops/authz/explain?${q}`, undefined, headers);

describe("GET /ops/authz/explain (SPEC §4.8)", () => {
  it("returns the caller's own verdict and reason for a route", async () => {
    const as = await open();
    const res = await explain("route=/ingest&method=POST", as(["admin"]));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      route: "/ingest", method: "POST", verdict: "Allow", reason: "role_grants", gate: "write",
      principal: { kind: "jwt", subject_hash: hashSubject("carol"), roles: ["admin"], tenant: "t1" },
    });
    // A global admin without write: the caller's own Deny, explained.
    const own = await (await explain("route=/ingest&method=POST", as(["admin:global"]))).json();
    expect([own.verdict, own.reason]).toEqual(["Deny", "role_missing"]);
    // OpenAPI-style patterns and a domain for domain gates.
    const dom = await (await explain("route=/domains/{name}&method=DELETE&domain=work", as(["admin:global", "admin:work"]))).json();
    expect([dom.route, dom.verdict, dom.gate]).toEqual(["/domains/:name", "Allow", "admin on domain :name"]);
    const other = await (await explain("route=/domains/:name&method=DELETE&domain=home", as(["admin:global", "admin:work"]))).json();
    expect(other.verdict).toBe("Deny");
    // Any spelling a client holds: the OpenAPI names, other parameter names, a concrete path (its parameters taken
    // from it), encoded braces, without the leading slash or with a trailing one.
    for (const route of ["/domains/{name}", "/domains/{domain}", "/domains/%7Bname%7D", "domains/{name}", "/domains/{name}/"]) {
      const r = await explain(`route=${encodeURIComponent(route)}&method=DELETE&domain=work`, as(["admin:global", "admin:work"]));
      expect(r.status, route).toBe(200);
      expect((await r.json()).route).toBe("/domains/:name");
    }
    const concrete = await (await explain("route=/domains/work&method=DELETE", as(["admin:global", "admin:work"]))).json();
    expect([concrete.route, concrete.verdict]).toEqual(["/domains/:name", "Allow"]);
    const concreteOther = await (await explain("route=/domains/home&method=DELETE", as(["admin:global", "admin:work"]))).json();
    expect(concreteOther.verdict).toBe("Deny");
    const numeric = await (await explain("route=/memory/42&method=DELETE", as(["admin"]))).json();
    expect(numeric.route).toBe("/memory/:id");
    const pub = await (await explain("route=/health", as(["admin"]))).json();
    expect([pub.verdict, pub.reason]).toEqual(["Allow", "public_route"]);
  });

  it("refuses a roles parameter with 400 authz_explain_role_set_refused", async () => {
    const as = await open();
    for (const q of ["route=/ingest&method=POST&roles=admin", "route=/ingest&roles=", "roles=reader"]) {
      const res = await explain(q, as(["admin"]));
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("authz_explain_role_set_refused");
    }
  });

  it("answers an ungated or unknown route with a probe-blind 404", async () => {
    const as = await open();
    t!.app.get("/experimental", (c) => c.json({}));
    const probe = await explain("route=/nowhere&method=GET", as(["admin"]));
    expect(probe.status).toBe(404);
    const ungated = await explain("route=/experimental&method=GET", as(["admin"]));
    expect(ungated.status).toBe(404);
    const body = await ungated.json();
    expect(body).toEqual(await probe.json());
    expect(body).toEqual({ error: { code: "not_found", message: "not found" } });
  });

  it("is itself gated Admin on global", async () => {
    const as = await open();
    const res = await explain("route=/ingest&method=POST", as(["reader"]));
    expect(res.status).toBe(403);
    expect((await t!.req("GET", "/ops/authz/explain?route=/ingest")).status).toBe(401);
  });
});
