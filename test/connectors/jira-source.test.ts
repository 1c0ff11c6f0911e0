/** The Jira Service Management vendor module against the loopback JSM fake, over the real VendorHttp (issue 15). */
import { afterEach, describe, expect, it } from "vitest";
import { jira } from "../../src/connectors/jira.ts";
import { parseCrmCase } from "../../src/workflow/crm-case.ts";
import { backfill, drive, secretFile } from "./_case-harness.ts";
import { REQUESTER } from "./fakes/_fake.ts";
import { JIRA_EMAIL, JIRA_TOKEN, startJiraFake, type JiraFake } from "./fakes/jira-fake.ts";

const fakes: JiraFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(n = 5, extra: Record<string, unknown> = {}) {
  const fake = await startJiraFake(n);
  fakes.push(fake);
  const d = drive(jira, (dir) => ({ base_url: fake.origin, org: "acme", email: JIRA_EMAIL, token_file: secretFile(dir, "jira.token", JIRA_TOKEN), ...extra }), [fake.origin]);
  return { fake, ...d };
}

describe("jira service management source", () => {
  it("backfills every request through start/limit pages until isLastPage, waiting out one 429", async () => {
    const { fake, source, waits } = await setup(5);
    fake.arm429();
    const { records, pages } = await backfill(source);
    expect(records.map((r) => r.path)).toEqual([1, 2, 3, 4, 5].map((i) => `jira/acme/requests/HELP-${i}`));
    expect(pages).toBe(3);
    expect(waits).toEqual([1000]);
    const c = parseCrmCase(records[0]!.crmCase);
    expect(c).toMatchObject({ source: "jira", case_ref: "crm:jira:acme:HELP-1", status: "open", reopened: true, title: "VPN drops every hour (site 1)" });
    expect(c.updated_rev).toMatch(/^sha256:[0-9a-f]{40}$/);
    expect(c.updated_at).toMatch(/^2026-11-01T09:00:\d\d\+0000$/);
    expect(records[2]!.crmCase!.status).toBe("closed_solved");
    expect(records[0]!.markdown).toContain("Collecting logs for site 1.");
    expect(records[0]!.markdown).toContain("Still broken after the restart");
    expect(records[0]!.markdown).not.toContain("old firewall");
    expect(fake.seen.some((r) => /\/comment\?public=true&internal=false&start=0&limit=50$/.test(r.path))).toBe(true);
  });

  it("keeps the reporter's email, name and phone out of everything it returns", async () => {
    const { source } = await setup(3);
    const text = JSON.stringify((await backfill(source)).records);
    for (const s of [REQUESTER.email, REQUESTER.name, REQUESTER.phone]) expect(text).not.toContain(s);
  });

  it("gives the same revision twice when nothing changed and a new one after an edit", async () => {
    const { fake, source } = await setup(3);
    const a = await backfill(source);
    const b = await backfill(source);
    expect(b.records.map((r) => r.rev)).toEqual(a.records.map((r) => r.rev));
    fake.edit("HELP-2", "VPN drops every hour (site 2, Wi-Fi only)", "Replaced the access point.");
    const c = await backfill(source);
    expect(c.records[1]!.rev).not.toBe(a.records[1]!.rev);
    expect(c.records[0]!.rev).toBe(a.records[0]!.rev);
    expect(c.records[1]!.markdown).toContain("Replaced the access point.");
    expect(c.records[1]!.crmCase!.updated_at > a.records[1]!.crmCase!.updated_at).toBe(true);
  });

  it("lists live paths without deleted requests, sending only GETs with Basic email:token", async () => {
    const { fake, source } = await setup(4);
    fake.remove("HELP-4");
    expect(await source.livePaths()).toEqual([1, 2, 3].map((i) => `jira/acme/requests/HELP-${i}`));
    expect(new Set(fake.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
    expect(fake.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString("base64")}`);
  });

  it("speaks Bearer for a Data Center token and fails with auth when refused", async () => {
    const { source, fake } = await setup(1, { auth_type: "bearer" });
    expect((await backfill(source)).records).toHaveLength(1);
    expect(fake.seen[0]!.headers.authorization).toBe(`Bearer ${JIRA_TOKEN}`);
    const bad = await setup(1, { email: "someone@else.test" });
    await expect(bad.source.page(null)).rejects.toMatchObject({ reason: "auth", status: 401 });
  });
});
