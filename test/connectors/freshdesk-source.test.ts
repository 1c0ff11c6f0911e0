/** The Freshdesk vendor module against the loopback Freshdesk fake, over the real VendorHttp (issue 15). */
import { afterEach, describe, expect, it } from "vitest";
import { freshdesk, nextPageOf } from "../../src/connectors/freshdesk.ts";
import { parseCrmCase } from "../../src/workflow/crm-case.ts";
import { backfill, drive, secretFile } from "./_case-harness.ts";
import { REQUESTER } from "./fakes/_fake.ts";
import { FD_KEY, startFreshdeskFake, type FreshdeskFake } from "./fakes/freshdesk-fake.ts";

const fakes: FreshdeskFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(n = 5, key = FD_KEY) {
  const fake = await startFreshdeskFake(n);
  fakes.push(fake);
  const d = drive(freshdesk, (dir) => ({ base_url: fake.origin, org: "acme", api_key_file: secretFile(dir, "fd.key", key) }), [fake.origin]);
  return { fake, ...d };
}

describe("freshdesk source", () => {
  it("backfills every ticket through link-header pages as valid CrmCases, waiting out one 429", async () => {
    const { fake, source, waits } = await setup(5);
    fake.arm429();
    const { records, pages } = await backfill(source);
    expect(records.map((r) => r.path)).toEqual([1, 2, 3, 4, 5].map((i) => `freshdesk/acme/tickets/${i}`));
    expect(pages).toBe(3);
    expect(waits).toEqual([1000]);
    const c = parseCrmCase(records[0]!.crmCase);
    expect(c).toMatchObject({ source: "freshdesk", case_ref: "crm:freshdesk:acme:1", status: "open", priority: "Urgent", reopened: true });
    expect(records[1]!.crmCase!.priority).toBe("Medium");
    expect(records[2]!.crmCase!.status).toBe("closed_solved");
    expect(records[0]!.markdown).toContain("We are looking into account 1.");
    expect(records[0]!.markdown).toContain("Still broken after the restart"); // the third conversation: second page
    expect(records[0]!.markdown).not.toContain("legacy renderer"); // private notes stay out unless include_internal
    expect(records[0]!.markdown).toMatch(/vendor_status: "open"/);
  });

  it("keeps the requester's email, name and phone out of everything it returns", async () => {
    const { source } = await setup(3);
    const text = JSON.stringify((await backfill(source)).records);
    for (const s of [REQUESTER.email, REQUESTER.name, REQUESTER.phone]) expect(text).not.toContain(s);
    expect(text).toContain("Reach me at [requester] or [requester].");
  });

  it("sees an edit as a new revision, a merge as merged_away, and resumes from the latest update", async () => {
    const { fake, source } = await setup(3);
    const first = await backfill(source);
    const resume = (source as unknown as { resumeCursor(): string | null }).resumeCursor();
    fake.edit(2, "Invoice PDF blank (Safari only)", "Fixed in release 4.2.");
    fake.merge(3, 1);
    const second = await backfill(source, resume);
    expect(second.records.map((r) => r.path).sort()).toEqual(["freshdesk/acme/tickets/2", "freshdesk/acme/tickets/3"]);
    const two = second.records.find((r) => r.path.endsWith("/2"))!;
    expect(two.rev).not.toBe(first.records[1]!.rev);
    expect(two.markdown).toContain("Fixed in release 4.2.");
    expect(parseCrmCase(second.records.find((r) => r.path.endsWith("/3"))!.crmCase)).toMatchObject({ status: "merged_away", merged_into: "1" });
  });

  it("a resumed sync that finds nothing new resumes from the same point next time", async () => {
    const { fake, source } = await setup(3);
    await backfill(source);
    const resume = (source as unknown as { resumeCursor(): string | null }).resumeCursor()!;
    fake.remove(3); // the boundary ticket: the resumed listing is now empty
    // The core builds a fresh source per sync: this one starts from the stored cursor and sees nothing.
    const next = drive(freshdesk, (dir) => ({ base_url: fake.origin, org: "acme", api_key_file: secretFile(dir, "k", FD_KEY) }), [fake.origin]).source;
    await backfill(next, resume);
    expect((next as unknown as { resumeCursor(): string | null }).resumeCursor()).toBe(resume);
  });

  it("lists live paths without deleted tickets, sending only GETs with Basic {api_key}:X", async () => {
    const { fake, source } = await setup(4);
    fake.remove(3);
    expect((await source.livePaths()).sort()).toEqual([1, 2, 4].map((i) => `freshdesk/acme/tickets/${i}`));
    expect(new Set(fake.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
    expect(fake.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${FD_KEY}:X`).toString("base64")}`);
  });

  it("fails with auth on a wrong key and refused on a redirect", async () => {
    const bad = await setup(1, "nope");
    await expect(bad.source.page(null)).rejects.toMatchObject({ reason: "auth", status: 401 });
    const { fake, source } = await setup(1);
    fake.armRedirect("http://127.0.0.1:9/elsewhere");
    await expect(source.page(null)).rejects.toMatchObject({ reason: "refused" });
  });

  it("reads the next page from a link header whose target holds commas", () => {
    expect(nextPageOf('<https://acme.freshdesk.com/api/v2/tickets?include=requester,stats&page=3&per_page=100>; rel="next"')).toBe(3);
    expect(nextPageOf('<https://a/x?page=1>; rel="prev", <https://a/x?page=4>; rel="next"')).toBe(4);
    expect(nextPageOf(null)).toBeUndefined();
    expect(nextPageOf('<https://a/x?page=1>; rel="prev"')).toBeUndefined();
  });
});
