/** The custom-shim vendor module against a loopback shim, over the real VendorHttp (issue 15; SPEC §9). */
import { afterEach, describe, expect, it } from "vitest";
import { custom } from "../../src/connectors/custom.ts";
import { parseCrmCase } from "../../src/workflow/crm-case.ts";
import { backfill, drive, secretFile } from "./_case-harness.ts";
import { REQUESTER } from "./fakes/_fake.ts";
import { SHIM_TOKEN, startShimFake, type ShimFake } from "./fakes/custom-shim-fake.ts";

const fakes: ShimFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(n = 5, extra: Record<string, unknown> = {}) {
  const fake = await startShimFake(n);
  fakes.push(fake);
  const config = (dir: string) => ({
    base_url: fake.origin, auth_type: "bearer", case_list_path: "/v1/cases", case_detail_path: "/v1/cases/{id}",
    token_file: secretFile(dir, "shim.token", SHIM_TOKEN), source: "helpdesk", ...extra,
  });
  return { fake, ...drive(custom, config, [fake.origin]) };
}

describe("custom shim source", () => {
  it("takes the shim's CrmCase JSON as is, but pins source, org and case_ref and hashes the subject", async () => {
    const { fake, source, waits } = await setup(5);
    fake.arm429();
    const { records, pages } = await backfill(source);
    expect(pages).toBe(3);
    expect(waits).toEqual([1000]);
    expect(records.map((r) => r.path)).toEqual([1, 2, 3, 4, 5].map((i) => `custom/helpdesk/cases/c-${i}`));
    const c = parseCrmCase(records[0]!.crmCase);
    expect(c).toMatchObject({ source: "helpdesk", org_id: "helpdesk", case_ref: "crm:helpdesk:helpdesk:c-1", updated_rev: "r1", priority: "P2", status: "open" });
    expect(c.subject_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(records[2]!.crmCase!.status).toBe("closed_solved");
    const text = JSON.stringify(records);
    expect(text).not.toContain(REQUESTER.email);
    expect(text).toContain("Contact [redacted:email].");
  });

  it("follows the shim's revisions and lists live cases for the sweep, with GETs only", async () => {
    const { fake, source } = await setup(3);
    const a = await backfill(source);
    fake.edit("c-2", "Router reboots nightly (firmware 1.2)", "Fixed by firmware 1.3.");
    fake.remove("c-3");
    const b = await backfill(source);
    expect(b.records.map((r) => r.path)).toEqual(["custom/helpdesk/cases/c-1", "custom/helpdesk/cases/c-2"]);
    expect(b.records[1]!.rev).toBe("r2");
    expect(b.records[0]!.rev).toBe(a.records[0]!.rev);
    expect(b.records[1]!.markdown).toContain("Fixed by firmware 1.3.");
    expect(await source.livePaths()).toEqual(["custom/helpdesk/cases/c-1", "custom/helpdesk/cases/c-2"]);
    expect(new Set(fake.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  it("refuses configs that would leave the base URL or pose as a built-in vendor", async () => {
    await expect(setup(1, { case_list_path: "//evil.example/cases" }).then((s) => s.source.page(null))).rejects.toMatchObject({ reason: "refused" });
    await expect(setup(1, { source: "zendesk" })).rejects.toMatchObject({ reason: "refused" });
    await expect(setup(1, { case_detail_path: "/v1/cases" })).rejects.toMatchObject({ reason: "refused" });
    await expect(setup(1, { auth_type: "cookie" })).rejects.toMatchObject({ reason: "refused" });
  });

  it("fails with auth on a wrong token", async () => {
    const { source } = await setup(1, { auth_type: "header", header_name: "X-Api-Key" });
    await expect(source.page(null)).rejects.toMatchObject({ reason: "auth", status: 401 });
  });
});
