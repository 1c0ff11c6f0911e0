/**
 * A loopback Zendesk Support fake speaking the documented wire format: Basic `{email}/token:{api_token}` (or Bearer
 * OAuth), `{"error":"Couldn't authenticate you"}` on 401, the cursor-based incremental ticket export
 * (`start_time` / `cursor`, `after_cursor`, `end_of_stream`, sideload `metric_sets`, deleted tickets exported with
 * status `deleted`), ticket comments with cursor pagination (`page[size]`, `page[after]`, `meta.has_more`), and 429 +
 * `Retry-After`. Tickets can be edited, commented, merged and deleted between syncs.
 */
import { QUOTED_REPLY, REQUESTER, startFake, vendorClock, type Answer, type Fake } from "./_fake.ts";

export const ZD_EMAIL = "agent@acme.test";
export const ZD_TOKEN = "zd-api-token-0123456789";
const REQUESTER_ID = 9001;
const AGENT_ID = 42;

interface Ticket {
  id: number;
  subject: string;
  status: string;
  priority: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  seq: number;
  reopens: number;
}
interface Comment {
  id: number;
  author_id: number;
  body: string;
  public: boolean;
  created_at: string;
  via: Record<string, unknown>;
}

/** A running Zendesk fake. */
export interface ZendeskFake extends Fake {
  tickets: Map<number, Ticket>;
  /** Edits a ticket's subject and adds a public agent comment. */
  edit(id: number, subject: string, comment: string): void;
  /** Zendesk deletes: the export then lists the ticket with status `deleted`. */
  remove(id: number): void;
  /** Merges `source` into `target`: source closed with tag `closed_by_merge` and the merge note. */
  merge(source: number, target: number): void;
  /** When set, a cursor request answers its own cursor again with `end_of_stream: false` (a stuck stream). */
  stuck: boolean;
}

/** Starts the fake with `n` tickets, `perPage` per export page (Zendesk's default is 1,000); `linkOrigin` goes into its URLs. */
export async function startZendeskFake(n: number, perPage = 2, linkOrigin = "https://acme.zendesk.com"): Promise<ZendeskFake> {
  const clock = vendorClock();
  let seq = 0;
  let commentId = 1000;
  const tickets = new Map<number, Ticket>();
  const comments = new Map<number, Comment[]>();
  const fromRequester = { channel: "email", source: { from: { address: REQUESTER.email, name: REQUESTER.name }, to: { address: "support@acme.test" }, rel: null } };
  const web = { channel: "web", source: { from: {}, to: {}, rel: null } };
  for (let i = 1; i <= n; i++) {
    const at = clock.tick();
    tickets.set(i, { id: i, subject: `Export fails on report ${i}`, status: i % 3 === 0 ? "solved" : "open", priority: i % 2 ? "high" : null, tags: ["export", `t${i}`], created_at: at, updated_at: at, seq: ++seq, reopens: i === 1 ? 1 : 0 });
    comments.set(i, [
      { id: ++commentId, author_id: REQUESTER_ID, body: `Export of report ${i} fails with error E42. Call me on ${REQUESTER.phone}.`, public: true, created_at: at, via: fromRequester },
      { id: ++commentId, author_id: AGENT_ID, body: `Agent note on ${i}: check the export queue.`, public: false, created_at: at, via: web },
      { id: ++commentId, author_id: REQUESTER_ID, body: QUOTED_REPLY, public: true, created_at: at, via: fromRequester },
    ]);
  }
  const touch = (t: Ticket) => {
    t.updated_at = clock.tick();
    t.seq = ++seq;
  };
  const wire = (t: Ticket) => ({
    url: `${linkOrigin}/api/v2/tickets/${t.id}.json`, id: t.id, external_id: null, type: "incident",
    subject: t.subject, raw_subject: t.subject, description: comments.get(t.id)?.[0]?.body ?? "", priority: t.priority, status: t.status,
    recipient: "support@acme.test", requester_id: REQUESTER_ID, submitter_id: REQUESTER_ID, assignee_id: AGENT_ID,
    organization_id: null, group_id: 7, collaborator_ids: [], follower_ids: [], has_incidents: false, tags: t.tags,
    via: fromRequester, custom_fields: [], created_at: t.created_at, updated_at: t.updated_at,
    generated_timestamp: Math.floor(Date.parse(t.updated_at) / 1000),
  });
  const cursorOf = (s: number) => Buffer.from(`${s}.0||${s}|`).toString("base64");
  const seqOf = (c: string) => Number(Buffer.from(c, "base64").toString("utf8").split(".")[0]);

  function exportPage(url: URL): Answer {
    const cursor = url.searchParams.get("cursor");
    const start = url.searchParams.get("start_time");
    if (cursor === null && start === null) return { status: 400, body: { error: "InvalidPaginationParameter", description: "start_time or cursor is required" } };
    const sorted = [...tickets.values()].sort((a, b) => a.seq - b.seq);
    const after = cursor !== null ? seqOf(cursor) : 0;
    const from = cursor !== null ? sorted.filter((t) => t.seq > after) : sorted.filter((t) => Date.parse(t.updated_at) / 1000 >= Number(start));
    const page = from.slice(0, perPage);
    const last = cursor !== null && state.stuck ? after : page.at(-1)?.seq ?? after;
    const end = !(cursor !== null && state.stuck) && from.length <= perPage;
    const body: Record<string, unknown> = {
      tickets: page.map(wire), after_url: `${linkOrigin}${EXPORT}?cursor=${cursorOf(last)}`, after_cursor: cursorOf(last),
      before_url: null, before_cursor: null, end_of_stream: end,
    };
    if (url.searchParams.get("include") === "metric_sets") {
      body.metric_sets = page.map((t) => ({ id: t.id + 50_000, ticket_id: t.id, reopens: t.reopens, replies: 1, created_at: t.created_at, updated_at: t.updated_at }));
    }
    return { status: 200, body };
  }

  function commentPage(id: number, url: URL): Answer {
    const t = tickets.get(id);
    if (!t || t.status === "deleted") return { status: 404, body: { error: "RecordNotFound", description: "Not found" } };
    const size = Number(url.searchParams.get("page[size]") ?? 100);
    const after = Number(url.searchParams.get("page[after]") ?? 0);
    const all = comments.get(id) ?? [];
    const page = all.slice(after, after + Math.min(size, 2)); // two a page, so comment pagination is exercised
    const more = after + page.length < all.length;
    return {
      status: 200,
      body: {
        comments: page.map((c) => ({ id: c.id, type: "Comment", author_id: c.author_id, body: c.body, html_body: `<p>${c.body}</p>`, plain_body: c.body, public: c.public, attachments: [], audit_id: c.id + 1, via: c.via, created_at: c.created_at })),
        meta: { has_more: more, after_cursor: more ? String(after + page.length) : null, before_cursor: null },
        links: { prev: null, next: more ? `${linkOrigin}/api/v2/tickets/${id}/comments.json?page[after]=${after + page.length}` : null },
      },
    };
  }

  const EXPORT = "/api/v2/incremental/tickets/cursor.json";
  const state = { stuck: false };
  const fake = await startFake({
    authorized: (h) => h.authorization === `Basic ${Buffer.from(`${ZD_EMAIL}/token:${ZD_TOKEN}`).toString("base64")}` || h.authorization === `Bearer ${ZD_TOKEN}`,
    unauthorized: { status: 401, body: { error: "Couldn't authenticate you" }, headers: { "www-authenticate": 'Basic realm="Web Password"' } },
    rateLimited: { status: 429, body: { error: "APIRateLimitExceeded", description: "Number of allowed incremental export API requests per minute exceeded" }, headers: { "retry-after": "1" } },
    route(url) {
      if (url.pathname === EXPORT) return exportPage(url);
      const m = /^\/api\/v2\/tickets\/(\d+)\/comments\.json$/.exec(url.pathname);
      if (m) return commentPage(Number(m[1]), url);
      return { status: 404, body: { error: "InvalidEndpoint", description: "Not found" } };
    },
  });
  return {
    ...fake,
    tickets,
    get stuck() {
      return state.stuck;
    },
    set stuck(v: boolean) {
      state.stuck = v;
    },
    edit(id, subject, comment) {
      const t = tickets.get(id)!;
      t.subject = subject;
      comments.get(id)!.push({ id: ++commentId, author_id: AGENT_ID, body: comment, public: true, created_at: clock.tick(), via: web });
      touch(t);
    },
    remove(id) {
      const t = tickets.get(id)!;
      t.status = "deleted";
      touch(t);
    },
    merge(source, target) {
      const t = tickets.get(source)!;
      t.status = "closed";
      t.tags.push("closed_by_merge");
      comments.get(source)!.push({ id: ++commentId, author_id: AGENT_ID, body: `This request was closed and merged into request #${target} "Export fails".`, public: false, created_at: clock.tick(), via: { channel: "web", source: { from: {}, to: { ticket_id: target, subject: "Export fails" }, rel: "merge" } } });
      touch(t);
    },
  };
}
