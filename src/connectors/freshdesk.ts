/**
 * Freshdesk case connector (issue 15; SPEC §2.11, §9 "Connector and case-governance rules"). Pull-only, API v2:
 * `GET /api/v2/tickets?updated_since=…&order_by=updated_at&order_type=asc&per_page=100&page=N&include=…` (a JSON
 * array; more pages while the `link` header carries `rel="next"`) and each ticket's
 * `GET /api/v2/tickets/{id}/conversations` (same pagination). Auth: Basic `{api_key}:X`. The requester sideload is
 * fetched only to scrub the requester's name, email and phones out of the case text; it is never stored. Status
 * mapping: `src/connectors/README.md` "Freshdesk".
 */
import type { CaseStatus } from "../workflow/crm-case.ts";
import {
  arrayOf, baseUrlOf, basicAuth, caseBody, caseTitle, configString, crmCaseOf, idOf, mapLimit, objectOf, optionalString,
  orgOf, recordOf, secretOnce, str, urlOf, type CaseComment,
} from "./_case-common.ts";
import type { ResumableSource } from "./resumable.ts";
import { VendorError, type ConnectorRecord, type VendorDeps, type VendorFactory } from "./vendor.ts";

/** Freshdesk's documented ticket statuses (2 Open, 3 Pending, 4 Resolved, 5 Closed; 6+ are custom). */
const STATUS_WORDS: Record<number, string> = { 2: "open", 3: "pending", 4: "resolved", 5: "closed" };
/** Freshdesk's priorities, kept as the vendor's own words. */
const PRIORITY_WORDS: Record<number, string> = { 1: "Low", 2: "Medium", 3: "High", 4: "Urgent" };
/** The note Freshdesk leaves on a secondary ticket of a merge ("… closed and merged into ticket 123"). */
const MERGE_NOTE = /merged into (?:the )?ticket\s*#?\s*(\d+)/i;
/** Freshdesk serves at most this many pages of one listing; past it the listing restarts from the last `updated_at`. */
const PAGE_CAP = 300;
const MAX_LOOPS = 1_000_000;

/** Freshdesk status number → CrmCase status (src/connectors/README.md table). */
export function freshdeskStatus(status: number): CaseStatus {
  return status === 4 || status === 5 ? "closed_solved" : "open";
}

/** The Freshdesk vendor factory. */
export const freshdesk: VendorFactory = (config, deps) => createFreshdesk(config, deps);

interface Cursor {
  since: string;
  page: number;
}

function createFreshdesk(config: Record<string, unknown>, deps: VendorDeps): ResumableSource {
  const base = baseUrlOf(config);
  const org = orgOf(config, base);
  const secret = secretOnce(deps, configString(config, "api_key_file"));
  const since0 = optionalString(config, "updated_since") ?? "1970-01-01T00:00:00Z";
  const includeInternal = config.include_internal === true;
  const headers = async () => ({ accept: "application/json", authorization: basicAuth(await secret(), "X") });

  async function listPage(cur: Cursor, include: string | undefined) {
    const url = urlOf(base, "/api/v2/tickets", {
      updated_since: cur.since, order_by: "updated_at", order_type: "asc", per_page: 100, page: cur.page, include,
    });
    const res = await deps.http.getJson(url, await headers());
    const tickets = arrayOf(res.body, "Freshdesk tickets").map((t) => objectOf(t, "Freshdesk ticket"));
    const nextPage = nextPageOf(res.headers.get("link"));
    let next: Cursor | null = null;
    if (nextPage !== undefined) {
      if (nextPage <= cur.page) throw new VendorError("repeated_cursor", "Freshdesk tickets repeated their page");
      next = { since: cur.since, page: nextPage };
      if (nextPage > PAGE_CAP) {
        // Past Freshdesk's page cap: continue from the last ticket's update time (ascending order); the overlap is a no-op.
        const last = str(tickets.at(-1)?.updated_at);
        if (last === undefined || last === cur.since) throw new VendorError("repeated_cursor", "Freshdesk tickets cannot advance past the page cap");
        next = { since: last, page: 1 };
      }
    }
    return { tickets, next };
  }

  async function conversations(id: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (let page = 1; page < MAX_LOOPS;) {
      const res = await deps.http.getJson(urlOf(base, `/api/v2/tickets/${id}/conversations`, { per_page: 100, page }), await headers());
      out.push(...arrayOf(res.body, "Freshdesk conversations").map((c) => objectOf(c, "Freshdesk conversation")));
      const next = nextPageOf(res.headers.get("link"));
      if (next === undefined) break;
      if (next <= page) throw new VendorError("repeated_cursor", "Freshdesk conversations repeated their page");
      page = next;
    }
    return out;
  }

  async function toRecord(t: Record<string, unknown>): Promise<ConnectorRecord> {
    const id = idOf(t.id, "Freshdesk ticket");
    const statusNo = typeof t.status === "number" ? t.status : 2;
    const r = (t.requester ?? {}) as Record<string, unknown>;
    const known = [str(r.name), str(r.email), str(r.phone), str(r.mobile)];
    const requester = t.requester_id === null || t.requester_id === undefined ? undefined : String(t.requester_id);
    const convs = await conversations(id);
    const rendered: CaseComment[] = convs.filter((c) => includeInternal || c.private !== true).map((c) => ({
      at: str(c.created_at) ?? "", internal: c.private === true, text: str(c.body_text) ?? "",
      by: c.incoming === true || (requester !== undefined && String(c.user_id) === requester) ? "requester" : "agent",
    }));
    let mapped = freshdeskStatus(statusNo);
    let mergedInto: string | undefined;
    if (statusNo === 5) {
      for (const c of [...convs].reverse()) {
        const m = MERGE_NOTE.exec(str(c.body_text) ?? "");
        if (m && m[1] !== id) {
          mergedInto = m[1];
          mapped = "merged_away";
          break;
        }
      }
    }
    const stats = (t.stats ?? {}) as Record<string, unknown>;
    const updatedAt = str(t.updated_at) ?? str(t.created_at) ?? deps.now().toISOString();
    const tags = Array.isArray(t.tags) ? t.tags.filter((x): x is string => typeof x === "string") : [];
    const c = crmCaseOf({
      source: "freshdesk", org, id, title: caseTitle(str(t.subject), known), status: mapped,
      subjectRef: await deps.subjectRef(requester !== undefined ? `freshdesk:${org}:contact:${requester}` : `freshdesk:${org}:ticket:${id}`),
      rev: updatedAt, updatedAt, body: caseBody(str(t.description_text) ?? "", rendered, known),
      priority: typeof t.priority === "number" ? PRIORITY_WORDS[t.priority] : undefined, mergedInto,
      reopened: mapped === "open" && str(stats.reopened_at) !== undefined,
    });
    return recordOf({
      kind: "freshdesk", path: `freshdesk/${org}/tickets/${id}`, sourceUrl: `${base.origin}/a/tickets/${id}`, tags,
      vendorStatus: STATUS_WORDS[statusNo] ?? `custom:${statusNo}`, crmCase: c,
    });
  }

  // The latest `updated_at` seen: the next sync asks only for tickets updated since (resumable.ts; the boundary
  // ticket comes again and is a no-op).
  let latest: string | undefined;

  return {
    kind: "freshdesk",
    resumeCursor: () => (latest === undefined ? null : JSON.stringify({ since: latest, page: 1 })),
    async page(cursor) {
      const cur = cursor === null ? { since: since0, page: 1 } : parseCursor(cursor);
      // A resumed sync that finds nothing new must resume from the same point next time, not from the start.
      if (latest === undefined || Date.parse(cur.since) > Date.parse(latest)) latest = cur.since;
      const p = await listPage(cur, "requester,stats,description");
      for (const t of p.tickets) {
        const u = str(t.updated_at);
        if (u !== undefined && (latest === undefined || Date.parse(u) > Date.parse(latest))) latest = u;
      }
      return { records: await mapLimit(p.tickets, 4, toRecord), cursor: p.next === null ? null : JSON.stringify(p.next) };
    },
    async livePaths() {
      const ids = new Set<string>();
      let cur: Cursor | null = { since: since0, page: 1 };
      for (let i = 0; cur !== null && i < MAX_LOOPS; i++) {
        const p = await listPage(cur, undefined);
        for (const t of p.tickets) ids.add(idOf(t.id, "Freshdesk ticket"));
        cur = p.next;
      }
      return [...ids].map((id) => `freshdesk/${org}/tickets/${id}`);
    },
  };
}

function parseCursor(cursor: string): Cursor {
  try {
    const c = JSON.parse(cursor) as Cursor;
    if (typeof c.since === "string" && Number.isSafeInteger(c.page) && c.page >= 1) return c;
  } catch { /* refused below */ }
  throw new VendorError("malformed", "Freshdesk cursor is not one this connector wrote");
}

/** The `page` of the `rel="next"` target of an RFC 8288 `link` header, if any. */
export function nextPageOf(link: string | null): number | undefined {
  if (!link) return undefined;
  // Targets may hold commas (`include=requester,stats`), so entries are matched as `<…>; params`, not split on commas.
  for (const m of link.matchAll(/<([^>]*)>\s*((?:;[^<]*)?)/g)) {
    if (!/;\s*rel="?next"?/i.test(m[2]!)) continue;
    try {
      const page = Number(new URL(m[1]!, "http://x").searchParams.get("page"));
      if (Number.isSafeInteger(page) && page >= 1) return page;
    } catch { /* ignored: an unusable next link ends the listing */ }
    throw new VendorError("malformed", "Freshdesk link header names no usable next page");
  }
  return undefined;
}
