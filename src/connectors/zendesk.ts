/**
 * Zendesk Support case connector (issue 15; SPEC §2.11, §9 "Connector and case-governance rules"). Pull-only: the
 * cursor-based incremental ticket export (`GET /api/v2/incremental/tickets/cursor.json`, `start_time` then
 * `cursor`, `after_cursor` / `end_of_stream`, sideload `metric_sets` for the reopen count) and each ticket's comments
 * (`GET /api/v2/tickets/{id}/comments.json`, cursor pagination `page[size]` / `page[after]`, `meta.has_more`).
 * Auth: Basic `{email}/token:{api_token}` or Bearer OAuth. Status mapping: `src/connectors/README.md` "Zendesk".
 */
import type { CaseStatus } from "../workflow/crm-case.ts";
import {
  baseUrlOf, basicAuth, caseBody, caseTitle, configString, crmCaseOf, idOf, mapLimit, objectOf, optionalString, orgOf,
  recordOf, secretOnce, str, urlOf, type CaseComment,
} from "./_case-common.ts";
import type { ResumableSource } from "./resumable.ts";
import { VendorError, type ConnectorRecord, type VendorDeps, type VendorFactory } from "./vendor.ts";

const EXPORT = "/api/v2/incremental/tickets/cursor.json";
/** Zendesk's tag on a ticket closed by a merge (the source side). */
const MERGE_TAG = "closed_by_merge";
/** The default merge note on the source ticket: "This request was closed and merged into request #123". */
const MERGE_NOTE = /merged into (?:request|ticket) #(\d+)/i;
/** Upper bound of export pages one `livePaths` walk may read (1,000 tickets a page). */
const MAX_PAGES = 100_000;

/** Zendesk status → CrmCase status (src/connectors/README.md table). */
export function zendeskStatus(status: string): CaseStatus {
  return status === "solved" || status === "closed" ? "closed_solved" : "open";
}

/** The Zendesk vendor factory. */
export const zendesk: VendorFactory = (config, deps) => createZendesk(config, deps);

function createZendesk(config: Record<string, unknown>, deps: VendorDeps): ResumableSource {
  const base = baseUrlOf(config);
  const org = orgOf(config, base);
  const authType = optionalString(config, "auth_type") ?? "api_token";
  if (authType !== "api_token" && authType !== "oauth") throw new VendorError("refused", "Connector config: auth_type must be api_token or oauth");
  const email = authType === "api_token" ? configString(config, "email") : undefined;
  const secret = secretOnce(deps, configString(config, "token_file"));
  const startTime = typeof config.start_time === "number" && Number.isSafeInteger(config.start_time) && config.start_time >= 0 ? config.start_time : 0;
  const includeInternal = config.include_internal === true;

  const headers = async (): Promise<Record<string, string>> => ({
    accept: "application/json",
    authorization: authType === "oauth" ? `Bearer ${await secret()}` : basicAuth(`${email}/token`, await secret()),
  });
  const get = async (url: string, what: string) => objectOf((await deps.http.getJson(url, await headers())).body, what);

  async function exportPage(cursor: string | null, sideload: boolean) {
    const q = cursor === null ? { start_time: startTime } : { cursor };
    const body = await get(urlOf(base, EXPORT, { ...q, ...(sideload ? { include: "metric_sets" } : {}) }), "Zendesk ticket export");
    if (!Array.isArray(body.tickets)) throw new VendorError("malformed", "Zendesk ticket export: tickets is not an array");
    const end = body.end_of_stream === true;
    const after = str(body.after_cursor);
    if (!end && (after === undefined || after === cursor)) throw new VendorError("repeated_cursor", "Zendesk ticket export repeated its cursor");
    return {
      tickets: body.tickets.map((t) => objectOf(t, "Zendesk ticket")), metricSets: Array.isArray(body.metric_sets) ? body.metric_sets : [],
      next: end ? null : after!, after,
    };
  }

  async function comments(id: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    let after: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const body = await get(urlOf(base, `/api/v2/tickets/${id}/comments.json`, { "page[size]": 100, "page[after]": after }), "Zendesk comments");
      if (!Array.isArray(body.comments)) throw new VendorError("malformed", "Zendesk comments: comments is not an array");
      out.push(...body.comments.map((c) => objectOf(c, "Zendesk comment")));
      const meta = body.meta !== null && typeof body.meta === "object" ? body.meta as Record<string, unknown> : {};
      const next = str(meta.after_cursor);
      if (meta.has_more !== true) return out;
      if (next === undefined || next === after) throw new VendorError("repeated_cursor", "Zendesk comments repeated their cursor");
      after = next;
    }
    return out;
  }

  async function toRecord(t: Record<string, unknown>, reopens: Map<string, number>): Promise<ConnectorRecord> {
    const id = idOf(t.id, "Zendesk ticket");
    const status = str(t.status) ?? "open";
    const tags = Array.isArray(t.tags) ? t.tags.filter((x): x is string => typeof x === "string") : [];
    const all = await comments(id);
    const requester = t.requester_id === null || t.requester_id === undefined ? undefined : String(t.requester_id);
    // The requester's address and name as Zendesk saw them (email channel, on the ticket and on the requester's own
    // comments): scrubbed from the text, never stored.
    const known = [t, ...all.filter((c) => requester !== undefined && String(c.author_id) === requester)].flatMap((x) => {
      const from = ((x.via ?? {}) as { source?: { from?: { address?: unknown; name?: unknown } } }).source?.from;
      return [str(from?.address), str(from?.name)];
    });
    const rendered: CaseComment[] = all.filter((c) => includeInternal || c.public !== false).map((c) => ({
      at: str(c.created_at) ?? "", by: requester !== undefined && String(c.author_id) === requester ? "requester" : "agent",
      internal: c.public === false, text: str(c.plain_body) ?? str(c.body) ?? "",
    }));
    // Zendesk's first comment is the description: render it once, as the description.
    const [first, ...rest] = rendered;
    const description = first?.text ?? str(t.description) ?? "";
    let mapped = zendeskStatus(status);
    let mergedInto: string | undefined;
    if (status === "closed" && tags.includes(MERGE_TAG)) {
      mergedInto = mergeTarget(all);
      if (mergedInto !== undefined) mapped = "merged_away";
    }
    const updatedAt = str(t.updated_at) ?? str(t.created_at) ?? deps.now().toISOString();
    const c = crmCaseOf({
      source: "zendesk", org, id, title: caseTitle(str(t.subject) ?? str(t.raw_subject), known), status: mapped,
      subjectRef: await deps.subjectRef(requester !== undefined ? `zendesk:${org}:user:${requester}` : `zendesk:${org}:ticket:${id}`),
      rev: updatedAt, updatedAt, body: caseBody(description, rest, known), priority: str(t.priority), mergedInto,
      reopened: mapped === "open" && (reopens.get(id) ?? 0) > 0,
    });
    return recordOf({ kind: "zendesk", path: `zendesk/${org}/tickets/${id}`, sourceUrl: `${base.origin}/agent/tickets/${id}`, tags, vendorStatus: status, crmCase: c });
  }

  // The export's last `after_cursor` (at `end_of_stream`): where the next sync resumes (resumable.ts).
  let resume: string | null = null;

  return {
    kind: "zendesk",
    resumeCursor: () => resume,
    async page(cursor) {
      const p = await exportPage(cursor, true);
      if (p.next === null) resume = p.after ?? cursor;
      const reopens = new Map<string, number>();
      for (const m of p.metricSets) {
        const o = m as Record<string, unknown>;
        if (typeof o?.reopens === "number") reopens.set(String(o.ticket_id), o.reopens);
      }
      // SPEC §9: deleted tickets are not ingested; the reconcile sweep (livePaths) removes what was.
      const live = p.tickets.filter((t) => t.status !== "deleted");
      return { records: await mapLimit(live, 4, (t) => toRecord(t, reopens)), cursor: p.next };
    },
    async livePaths() {
      const paths: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < MAX_PAGES; i++) {
        const p = await exportPage(cursor, false);
        for (const t of p.tickets) if (t.status !== "deleted") paths.push(`zendesk/${org}/tickets/${idOf(t.id, "Zendesk ticket")}`);
        if (p.next === null) break;
        cursor = p.next;
      }
      return [...new Set(paths)];
    },
  };
}

/** The surviving ticket of a merge: the merge comment's `via.source` link, else the default merge note's number. */
function mergeTarget(comments: readonly Record<string, unknown>[]): string | undefined {
  for (const c of [...comments].reverse()) {
    const source = ((c.via ?? {}) as { source?: { rel?: string; to?: { ticket_id?: unknown } } }).source;
    if (source?.rel === "merge" && (typeof source.to?.ticket_id === "number" || typeof source.to?.ticket_id === "string")) return String(source.to.ticket_id);
    const m = MERGE_NOTE.exec(str(c.plain_body) ?? str(c.body) ?? "");
    if (m) return m[1];
  }
  return undefined;
}
