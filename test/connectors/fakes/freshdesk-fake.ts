/**
 * A loopback Freshdesk fake speaking API v2: Basic `{api_key}:X`, `{"code":"invalid_credentials",…}` on 401, the
 * ticket list (`updated_since`, `order_by=updated_at`, `order_type`, `per_page`, `page`, `include=requester,stats,
 * description`) as a JSON array with an RFC 8288 `link: <…>; rel="next"` header while more pages exist, ticket
 * conversations with the same pagination, and 429 + `Retry-After`. Deleted tickets leave the list.
 */
import { QUOTED_REPLY, REQUESTER, startFake, vendorClock, type Answer, type Fake } from "./_fake.ts";

export const FD_KEY = "fd-api-key-abcdef";
const REQUESTER_ID = 770001;
const AGENT_ID = 55;

interface Ticket {
  id: number;
  subject: string;
  description: string;
  status: number;
  priority: number;
  tags: string[];
  created_at: string;
  updated_at: string;
  deleted: boolean;
  reopened_at: string | null;
}
interface Conversation {
  id: number;
  body_text: string;
  incoming: boolean;
  private: boolean;
  user_id: number;
  created_at: string;
}

/** A running Freshdesk fake. */
export interface FreshdeskFake extends Fake {
  tickets: Map<number, Ticket>;
  edit(id: number, subject: string, reply: string): void;
  remove(id: number): void;
  merge(secondary: number, primary: number): void;
}

/** Starts the fake with `n` tickets, `perPage` at most per list page; `linkOrigin` (default: its own) goes into `link`. */
export async function startFreshdeskFake(n: number, perPage = 2, linkOrigin?: string): Promise<FreshdeskFake> {
  const clock = vendorClock();
  let convId = 5000;
  const tickets = new Map<number, Ticket>();
  const convs = new Map<number, Conversation[]>();
  for (let i = 1; i <= n; i++) {
    const at = clock.tick();
    tickets.set(i, {
      id: i, subject: `Invoice PDF blank for account ${i}`, description: `The invoice PDF for account ${i} is blank. Reach me at ${REQUESTER.email} or ${REQUESTER.phone}.`,
      status: i % 3 === 0 ? 4 : 2, priority: i % 2 ? 4 : 2, tags: ["billing"], created_at: at, updated_at: at, deleted: false, reopened_at: i === 1 ? at : null,
    });
    convs.set(i, [
      { id: ++convId, body_text: `We are looking into account ${i}.`, incoming: false, private: false, user_id: AGENT_ID, created_at: at },
      { id: ++convId, body_text: `Internal: account ${i} uses the legacy renderer.`, incoming: false, private: true, user_id: AGENT_ID, created_at: at },
      { id: ++convId, body_text: QUOTED_REPLY, incoming: true, private: false, user_id: REQUESTER_ID, created_at: at },
    ]);
  }
  const touch = (t: Ticket) => void (t.updated_at = clock.tick());

  const wire = (t: Ticket, include: string[]) => ({
    cc_emails: [], fwd_emails: [], reply_cc_emails: [], ticket_cc_emails: [], fr_escalated: false, spam: false, email_config_id: null,
    group_id: null, priority: t.priority, requester_id: REQUESTER_ID, responder_id: AGENT_ID, source: 1, company_id: null, status: t.status,
    subject: t.subject, support_email: "support@acme.test", to_emails: null, product_id: null, id: t.id, type: "Problem",
    due_by: t.created_at, fr_due_by: t.created_at, is_escalated: false, custom_fields: {}, created_at: t.created_at, updated_at: t.updated_at,
    tags: t.tags, attachments: [],
    ...(include.includes("description") ? { description: `<div>${t.description}</div>`, description_text: t.description } : {}),
    ...(include.includes("requester") ? { requester: { email: REQUESTER.email, id: REQUESTER_ID, mobile: null, name: REQUESTER.name, phone: REQUESTER.phone } } : {}),
    ...(include.includes("stats") ? { stats: { agent_responded_at: t.created_at, requester_responded_at: null, first_responded_at: t.created_at, status_updated_at: t.updated_at, reopened_at: t.reopened_at, resolved_at: null, closed_at: null, pending_since: null } } : {}),
  });

  const linkNext = (origin: string, url: URL, page: number) => {
    const next = new URL(url.pathname + url.search, origin);
    next.searchParams.set("page", String(page + 1));
    return { link: `<${next.toString().replace(/%2C/g, ",")}>; rel="next"` };
  };

  let origin = "";
  function list(url: URL): Answer {
    const since = url.searchParams.get("updated_since");
    const page = Number(url.searchParams.get("page") ?? 1);
    const size = Math.min(Number(url.searchParams.get("per_page") ?? 30), 100, perPage);
    if (!Number.isSafeInteger(page) || page < 1) return { status: 400, body: { description: "Validation failed", errors: [{ field: "page", message: "It should be a Positive Integer", code: "invalid_value" }] } };
    const include = (url.searchParams.get("include") ?? "").split(",").filter(Boolean);
    const all = [...tickets.values()].filter((t) => !t.deleted && (since === null || Date.parse(t.updated_at) >= Date.parse(since)))
      .sort((a, b) => a.updated_at.localeCompare(b.updated_at) || a.id - b.id);
    const slice = all.slice((page - 1) * size, page * size);
    return { status: 200, body: slice.map((t) => wire(t, include)), headers: page * size < all.length ? linkNext(origin, url, page) : {} };
  }

  function conversations(id: number, url: URL): Answer {
    const t = tickets.get(id);
    if (!t || t.deleted) return { status: 404, body: "" };
    const page = Number(url.searchParams.get("page") ?? 1);
    const size = 2; // two a page, so conversation pagination is exercised
    const all = convs.get(id) ?? [];
    const slice = all.slice((page - 1) * size, page * size);
    return {
      status: 200,
      body: slice.map((c) => ({
        body: `<div>${c.body_text}</div>`, body_text: c.body_text, id: c.id, incoming: c.incoming, private: c.private, user_id: c.user_id,
        support_email: null, source: c.private ? 2 : 0, category: 2, ticket_id: id, to_emails: ["support@acme.test"],
        from_email: c.incoming ? REQUESTER.email : "support@acme.test", cc_emails: [], bcc_emails: null, attachments: [],
        created_at: c.created_at, updated_at: c.created_at,
      })),
      headers: page * size < all.length ? linkNext(origin, url, page) : {},
    };
  }

  const fake = await startFake({
    authorized: (h) => h.authorization === `Basic ${Buffer.from(`${FD_KEY}:X`).toString("base64")}`,
    unauthorized: { status: 401, body: { code: "invalid_credentials", message: "You have to be logged in to perform this action." } },
    rateLimited: { status: 429, body: { message: "You have exceeded the limit of requests per minute" }, headers: { "retry-after": "1", "x-ratelimit-total": "200", "x-ratelimit-remaining": "0" } },
    route(url) {
      if (url.pathname === "/api/v2/tickets") return list(url);
      const m = /^\/api\/v2\/tickets\/(\d+)\/conversations$/.exec(url.pathname);
      if (m) return conversations(Number(m[1]), url);
      return { status: 404, body: "" };
    },
  });
  origin = linkOrigin ?? fake.origin;
  return {
    ...fake,
    tickets,
    edit(id, subject, reply) {
      const t = tickets.get(id)!;
      t.subject = subject;
      convs.get(id)!.push({ id: ++convId, body_text: reply, incoming: false, private: false, user_id: AGENT_ID, created_at: clock.tick() });
      touch(t);
    },
    remove(id) {
      const t = tickets.get(id)!;
      t.deleted = true;
      touch(t);
    },
    merge(secondary, primary) {
      const t = tickets.get(secondary)!;
      t.status = 5;
      convs.get(secondary)!.push({ id: ++convId, body_text: `This ticket is closed and merged into ticket ${primary}`, incoming: false, private: true, user_id: AGENT_ID, created_at: clock.tick() });
      touch(t);
    },
  };
}
