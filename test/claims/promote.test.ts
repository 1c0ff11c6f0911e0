/**
 * SPEC §3: the claim promotion route always answers `promotion_disabled`, in every configuration and for every
 * actor; a compile-time constant with no switch. Every role preset, every direct permission, the agent role,
 * roleless principals under both roleless postures, both write postures and the credential-less operator.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ROLE_PRESETS } from "../../src/authz/roles.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { as, workflowEnv } from "../workflow/_setup.ts";

const ROLE_SETS: string[][] = [
  ...Object.keys(ROLE_PRESETS).map((r) => [r]),
  ["read"], ["write"], ["workflow"], ["pii:read"], ["admin:global"], ["admin:*"], ["admin:work"],
  ["agent", "admin"], ["agent", "workflow-operator"], ["no-such-role"], [],
];

const opened: TestMemory[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

async function fileOneClaim(t: TestMemory, headers: Record<string, string>): Promise<number> {
  const chunk = await (await t.req("POST", "/ingest", { title: "Fact", content: "The depot opens at eight in the morning on weekdays." }, headers)).json();
  const s = await (await t.req("POST", "/workflow/claim-schemas", { name: "opening", schema: { type: "object" } }, headers)).json();
  const c = await (await t.req("POST", "/workflow/claims", { schema_id: s.schema.id, claim: {}, evidence: [chunk.id] }, headers)).json();
  expect((await (await t.req("POST", `/workflow/claims/${c.id}/verify`, undefined, headers)).json()).outcome).toBe("verified");
  return c.id;
}

function expectDisabled(res: Response, body: { error: { code: string } }, label: string): void {
  expect(res.status, label).toBe(403);
  expect(body.error.code, label).toBe("promotion_disabled");
}

describe("POST /workflow/claims/{id}/promote", () => {
  for (const posture of ["open", "review"]) {
    for (const roleless of ["pass", "deny"]) {
      it(`answers 403 promotion_disabled to every role under write posture ${posture}, roleless posture ${roleless}`, async () => {
        const dir = tempDir();
        const t = await openTestMemory(workflowEnv(dir, { CAIRN_WRITE_POSTURE: posture, CAIRN_RBAC_ROLELESS_POSTURE: roleless }), {}, dir);
        opened.push(t);
        const id = await fileOneClaim(t, as(["admin"]));
        for (const roles of ROLE_SETS) {
          for (const target of [String(id), "424242"]) {
            for (const body of [undefined, { force: true, enabled: true }]) {
              const res = await t.req("POST", `/workflow/claims/${target}/promote`, body, as(roles, `user-${roles.join("+") || "roleless"}`));
              expectDisabled(res, await res.json(), `${roles.join("+") || "(roleless)"} ${target} ${body ? "with body" : ""}`);
            }
          }
        }
        // Nothing moved: the claim is still verified and no memory was written by any attempt.
        const claim = await (await t.req("GET", `/workflow/claims/${id}`, undefined, as(["admin"]))).json();
        expect(claim.status).toBe("verified");
        expect((await t.memory.audit.list({ action: "claim_promoted", limit: 10 })).rows).toHaveLength(0);
        // Without a credential the answer is 401, never swallowed (SPEC §7): authentication precedes the route.
        expect((await t.req("POST", `/workflow/claims/${id}/promote`)).status).toBe(401);
      });
    }
  }

  it("answers promotion_disabled to the credential-less local operator too", async () => {
    const t = await openTestMemory({ CAIRN_EMBED_KIND: "none", CAIRN_WRITE_POSTURE: "review" });
    opened.push(t);
    const id = await fileOneClaim(t, {});
    const res = await t.req("POST", `/workflow/claims/${id}/promote`);
    expectDisabled(res, await res.json(), "operator");
  });

  it("is a constant: the promote module reads no configuration, store or caller", () => {
    const src = readFileSync(new URL("../../src/claims/promote.ts", import.meta.url), "utf8");
    const imports = [...src.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
    expect(imports).toEqual(["../core/errors.ts"]);
    const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    expect(code).not.toMatch(/config|process|env|\bif\s*\(|\?/i);
  });
});
