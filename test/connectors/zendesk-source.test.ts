/** The Zendesk vendor module against the loopback Zendesk fake, over the real VendorHttp (issue 15). */
import { afterEach, describe, expect, it } from "vitest";
import { parseCrmCase } from "../../src/workflow/crm-case.ts";
import { VendorError } from "../../src/connectors/vendor.ts";
import { zendesk } from "../../src/connectors/zendesk.ts";
import { backfill, drive, secretFile } from "./_case-harness.ts";
import { REQUESTER } from "./fakes/_fake.ts";
import { startZendeskFake, ZD_EMAIL, ZD_TOKEN, type ZendeskFake } from "./fakes/zendesk-fake.ts";

const fakes: ZendeskFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(n = 5, token = ZD_TOKEN) {
  const fake = await startZendeskFake(n);
  fakes.push(fake);
  const d = drive(zendesk, (dir) => ({ base_url: fake.origin, org: "acme", email: ZD_EMAIL, token_file: secretFile(dir, "zd.token", token) }), [fake.origin]);
  return { fake, ...d };
}

describe("zendesk source", () => {
  it("backfills every ticket through the paged incremental export as valid CrmCases, waiting out one 429", async () => {
    const { fake, source, waits } = await setup(5);
    fake.arm429();
    const { records, pages } = await backfill(source);
    expect(records.map((r) => r.path)).toEqual([1, 2, 3, 4, 5].map((i) => `zendesk/acme/tickets/${i}`));
    expect(pages).toBe(3);
    expect(waits).toEqual([1000]);
    const c = parseCrmCase(records[0]!.crmCase);
    expect(c).toMatchObject({ source: "zendesk", org_id: "acme", case_id: "1", case_ref: "crm:zendesk:acme:1", status: "open", priority: "high", reopened: true });
    expect(c.subject_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(c.updated_rev).toBe(c.updated_at);
    expect(records[2]!.crmCase!.status).toBe("closed_solved");
    // Every ticket of one requester carries the same subject_ref.
    expect(new Set(records.map((r) => r.crmCase!.subject_ref)).size).toBe(1);
    expect(records[0]!.markdown).toMatch(/^---\ntitle: "Export fails on report 1"\ntags: \["export", "t1"\]\nstate: "open"/);
    expect(records[0]!.markdown).toContain("Export of report 1 fails with error E42");
    expect(records[0]!.markdown).toContain("Still broken after the restart");
    expect(records[0]!.markdown).not.toContain("Agent note on 1"); // internal notes stay out unless include_internal
  });

  it("keeps the requester's email, name and phone out of everything it returns", async () => {
    const { source } = await setup(3);
    const text = JSON.stringify((await backfill(source)).records);
    expect(text).not.toContain(REQUESTER.email);
    expect(text).not.toContain(REQUESTER.name);
    expect(text).not.toContain(REQUESTER.phone);
    expect(text).toContain("<[requester]> wrote:");
    expect(text).toContain("Call me on [redacted:phone]");
  });

  it("sees an edit as a new revision and a merge as merged_away with the surviving ticket", async () => {
    const { fake, source } = await setup(3);
    const first = await backfill(source);
    fake.edit(2, "Export fails on report 2 (CSV only)", "Fixed by clearing the export queue.");
    fake.merge(3, 1);
    const second = await backfill(source);
    const two = second.records.find((r) => r.path.endsWith("/2"))!;
    expect(two.rev).not.toBe(first.records[1]!.rev);
    expect(two.markdown).toContain("Fixed by clearing the export queue.");
    expect(two.crmCase!.title).toBe("Export fails on report 2 (CSV only)");
    const three = second.records.find((r) => r.path.endsWith("/3"))!;
    expect(parseCrmCase(three.crmCase)).toMatchObject({ status: "merged_away", merged_into: "1" });
  });

  it("resumes from the export's last cursor, fetching only what changed", async () => {
    const { fake, source } = await setup(4);
    await backfill(source);
    const resume = (source as unknown as { resumeCursor(): string | null }).resumeCursor();
    expect(resume).not.toBeNull();
    expect((await backfill(source, resume)).records).toEqual([]);
    fake.edit(4, "Export fails on report 4", "More detail.");
    expect((await backfill(source, resume)).records.map((r) => r.path)).toEqual(["zendesk/acme/tickets/4"]);
  });

  it("lists live paths without deleted tickets", async () => {
    const { fake, source } = await setup(4);
    fake.remove(2);
    expect((await source.livePaths()).sort()).toEqual(["zendesk/acme/tickets/1", "zendesk/acme/tickets/3", "zendesk/acme/tickets/4"]);
    expect((await backfill(source)).records.map((r) => r.path)).not.toContain("zendesk/acme/tickets/2");
  });

  it("sends only GETs with the documented Basic {email}/token:{token} header", async () => {
    const { fake, source } = await setup(2);
    await backfill(source);
    await source.livePaths();
    expect(new Set(fake.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
    expect(fake.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${ZD_EMAIL}/token:${ZD_TOKEN}`).toString("base64")}`);
    expect(fake.seen[0]!.path).toMatch(/^\/api\/v2\/incremental\/tickets\/cursor\.json\?start_time=0&include=metric_sets$/);
  });

  it("fails with auth on a wrong token and refused on a redirect, without following it", async () => {
    const bad = await setup(2, "wrong");
    await expect(bad.source.page(null)).rejects.toMatchObject({ reason: "auth", status: 401 });
    const { fake, source } = await setup(2);
    const other = await startZendeskFake(1);
    fakes.push(other);
    fake.armRedirect(`${other.origin}/api/v2/incremental/tickets/cursor.json?start_time=0`);
    const e = await source.page(null).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VendorError);
    expect(e).toMatchObject({ reason: "refused" });
    expect(other.seen).toHaveLength(0);
  });

  it("fails with repeated_cursor when the export answers the cursor it was given", async () => {
    const { fake, source } = await setup(5);
    const first = await source.page(null);
    fake.stuck = true;
    await expect(source.page(first.cursor)).rejects.toMatchObject({ reason: "repeated_cursor" });
  });

  it("never contacts a host that is not the configured one", async () => {
    const fake = await startZendeskFake(1);
    const elsewhere = await startZendeskFake(1);
    fakes.push(fake, elsewhere);
    // The config names `elsewhere`, but only `fake`'s origin is allowed: nothing is sent anywhere.
    const d = drive(zendesk, (dir) => ({ base_url: elsewhere.origin, org: "acme", email: ZD_EMAIL, token_file: secretFile(dir, "t", ZD_TOKEN) }), [fake.origin]);
    await expect(d.source.page(null)).rejects.toMatchObject({ reason: "refused" });
    expect(elsewhere.seen).toHaveLength(0);
    expect(fake.seen).toHaveLength(0);
  });
});
