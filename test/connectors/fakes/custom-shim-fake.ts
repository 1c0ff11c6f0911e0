/**
 * A loopback custom ticketing shim (SPEC §9; src/connectors/README.md "Custom shims"): Bearer auth, a case list
 * `GET /v1/cases[?cursor=…]` → `{cases: [{case_id, updated_rev}], next_cursor}` and a detail
 * `GET /v1/cases/{id}` → `{case: CrmCase-shaped}`. Its `subject_ref` is the customer's raw email, as a careless
 * shim would send it: Cairn must hash it, never store it.
 */
import { REQUESTER, startFake, vendorClock, type Answer, type Fake } from "./_fake.ts";

export const SHIM_TOKEN = "shim-bearer-token";

interface ShimCase {
  case_id: string;
  title: string;
  status: "open" | "closed_solved" | "merged_away";
  merged_into?: string;
  updated_rev: string;
  updated_at: string;
  body_markdown: string;
  deleted: boolean;
}

/** A running shim fake. */
export interface ShimFake extends Fake {
  cases: Map<string, ShimCase>;
  edit(id: string, title: string, body: string): void;
  remove(id: string): void;
}

/** Starts the shim with `n` cases, two per list page; `linkOrigin` goes into the list's `url` fields (not part of the protocol). */
export async function startShimFake(n: number, perPage = 2, linkOrigin?: string): Promise<ShimFake> {
  const clock = vendorClock();
  const cases = new Map<string, ShimCase>();
  for (let i = 1; i <= n; i++) {
    const id = `c-${i}`;
    cases.set(id, { case_id: id, title: `Router reboots nightly (${i})`, status: i % 3 === 0 ? "closed_solved" : "open", updated_rev: "r1", updated_at: clock.tick(), body_markdown: `Router ${i} reboots at 02:00. Contact ${REQUESTER.email}.`, deleted: false });
  }
  const live = () => [...cases.values()].filter((c) => !c.deleted);
  function list(url: URL): Answer {
    const from = Number(url.searchParams.get("cursor") ?? 0);
    const all = live();
    const page = all.slice(from, from + perPage);
    const next = from + perPage < all.length ? String(from + perPage) : null;
    return { status: 200, body: { cases: page.map((c) => ({ case_id: c.case_id, updated_rev: c.updated_rev, url: `${linkOrigin ?? "https://shim.example"}/v1/cases/${c.case_id}` })), next_cursor: next } };
  }
  function detail(id: string): Answer {
    const c = cases.get(id);
    if (!c || c.deleted) return { status: 404, body: { error: "not_found" } };
    const { deleted: _d, ...rest } = c;
    return { status: 200, body: { case: { source: "zendesk", org_id: "spoofed", ...rest, subject_ref: REQUESTER.email, priority: "P2" } } };
  }
  const fake = await startFake({
    authorized: (h) => h.authorization === `Bearer ${SHIM_TOKEN}`,
    unauthorized: { status: 401, body: { error: "unauthorized" } },
    rateLimited: { status: 429, body: { error: "rate_limited" }, headers: { "retry-after": "1" } },
    route(url) {
      if (url.pathname === "/v1/cases") return list(url);
      const m = /^\/v1\/cases\/([^/]+)$/.exec(url.pathname);
      if (m) return detail(decodeURIComponent(m[1]!));
      return { status: 404, body: { error: "not_found" } };
    },
  });
  return {
    ...fake,
    cases,
    edit(id, title, body) {
      const c = cases.get(id)!;
      c.title = title;
      c.body_markdown = body;
      c.updated_rev = `r${Number(c.updated_rev.slice(1)) + 1}`;
      c.updated_at = clock.tick();
    },
    remove(id) {
      cases.get(id)!.deleted = true;
    },
  };
}
