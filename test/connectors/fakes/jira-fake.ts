/**
 * A loopback Jira Service Management fake speaking the servicedeskapi: Basic `email:api_token` or Bearer, the
 * `{errorMessage, i18nErrorMessage}` error DTO on 401, `GET /rest/servicedeskapi/request` as a `PagedDTO`
 * (`start`, `limit`, `size`, `isLastPage`, `values`; only `requestOwnership=ALL_REQUESTS` shows other people's
 * requests to an agent), `GET /rest/servicedeskapi/request/{key}/comment` (`public` / `internal` filters, same
 * paging), and 429 + `Retry-After`.
 */
import { QUOTED_REPLY, REQUESTER, startFake, vendorClock, type Answer, type Fake } from "./_fake.ts";

export const JIRA_EMAIL = "agent@acme.test";
export const JIRA_TOKEN = "jira-api-token-xyz";
const REPORTER_ID = "5b10ac8d82e05b22cc7d4ef5";
const AGENT_ID = "5b10a2844c20165700ede21g";

interface Request {
  key: string;
  id: number;
  summary: string;
  description: string;
  status: string;
  category: "NEW" | "INDETERMINATE" | "DONE";
  created: number;
  statusDate: number;
  deleted: boolean;
}
interface Comment {
  id: number;
  body: string;
  public: boolean;
  author: string;
  created: number;
}

/** A running Jira Service Management fake. */
export interface JiraFake extends Fake {
  requests: Map<string, Request>;
  edit(key: string, summary: string, comment: string): void;
  remove(key: string): void;
}

const dateDTO = (ms: number) => {
  const iso = new Date(ms).toISOString().replace(".000Z", "+0000");
  return { iso8601: iso, jira: iso.replace("+0000", ".000+0000"), friendly: "Today", epochMillis: ms };
};

/** Starts the fake with `n` requests, at most `perPage` per page; `linkOrigin` (default: its own) goes into `_links`. */
export async function startJiraFake(n: number, perPage = 2, linkOrigin?: string): Promise<JiraFake> {
  const clock = vendorClock();
  let commentId = 30_000;
  const requests = new Map<string, Request>();
  const comments = new Map<string, Comment[]>();
  const now = () => Date.parse(clock.tick());
  for (let i = 1; i <= n; i++) {
    const at = now();
    const key = `HELP-${i}`;
    const done = i % 3 === 0;
    requests.set(key, {
      key, id: 10_000 + i, summary: `VPN drops every hour (site ${i})`, description: `VPN for site ${i} drops hourly. ${REQUESTER.name}, ${REQUESTER.phone}`,
      status: done ? "Resolved" : i === 1 ? "Reopened" : "Waiting for support", category: done ? "DONE" : "NEW", created: at, statusDate: at, deleted: false,
    });
    comments.set(key, [
      { id: ++commentId, body: `Collecting logs for site ${i}.`, public: true, author: AGENT_ID, created: at },
      { id: ++commentId, body: `Internal: site ${i} is on the old firewall.`, public: false, author: AGENT_ID, created: at },
      { id: ++commentId, body: QUOTED_REPLY, public: true, author: REPORTER_ID, created: at },
    ]);
  }
  const user = (id: string) => id === REPORTER_ID
    ? { accountId: REPORTER_ID, emailAddress: REQUESTER.email, displayName: REQUESTER.name, active: true, timeZone: "Europe/London", _links: {} }
    : { accountId: AGENT_ID, emailAddress: "agent@acme.test", displayName: "Agent Smith", active: true, timeZone: "Europe/London", _links: {} };

  let origin = "";
  const paged = (url: URL, values: unknown[]): Answer => {
    const start = Number(url.searchParams.get("start") ?? 0);
    const limit = Math.min(Number(url.searchParams.get("limit") ?? 50), perPage);
    const page = values.slice(start, start + limit);
    const last = start + page.length >= values.length;
    return {
      status: 200,
      body: { _expands: [], size: page.length, start, limit, isLastPage: last, _links: { base: `${origin}/rest/servicedeskapi`, context: "", self: `${origin}${url.pathname}`, ...(last ? {} : { next: `${origin}${url.pathname}?start=${start + page.length}&limit=${limit}` }) }, values: page },
    };
  };

  function list(url: URL): Answer {
    const all = url.searchParams.get("requestOwnership") === "ALL_REQUESTS";
    const rs = [...requests.values()].filter((r) => !r.deleted && all).sort((a, b) => a.id - b.id);
    return paged(url, rs.map((r) => ({
      _expands: ["participant", "status", "sla", "requestType", "serviceDesk", "attachment", "action", "comment"],
      issueId: String(r.id), issueKey: r.key, requestTypeId: "25", serviceDeskId: "10", createdDate: dateDTO(r.created), reporter: user(REPORTER_ID),
      requestFieldValues: [
        { fieldId: "summary", label: "What do you need?", value: r.summary },
        { fieldId: "description", label: "Why do you need this?", value: r.description },
      ],
      currentStatus: { status: r.status, statusCategory: r.category, statusDate: dateDTO(r.statusDate) },
      _links: { jiraRest: `${origin}/rest/api/2/issue/${r.id}`, web: `${origin}/servicedesk/customer/portal/10/${r.key}`, self: `${origin}/rest/servicedeskapi/request/${r.id}` },
    })));
  }

  function commentList(key: string, url: URL): Answer {
    const r = requests.get(key);
    if (!r || r.deleted) return { status: 404, body: { errorMessage: "Request does not exist or you do not have permission to see it.", i18nErrorMessage: { i18nKey: "sd.request.error.not.found", parameters: [] } } };
    const pub = url.searchParams.get("public") !== "false";
    const internal = url.searchParams.get("internal") !== "false";
    const cs = (comments.get(key) ?? []).filter((c) => (c.public ? pub : internal));
    return paged(url, cs.map((c) => ({ _expands: ["attachment", "renderedBody"], id: String(c.id), body: c.body, public: c.public, author: user(c.author), created: dateDTO(c.created), _links: {} })));
  }

  const fake = await startFake({
    authorized: (h) => h.authorization === `Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString("base64")}` || h.authorization === `Bearer ${JIRA_TOKEN}`,
    unauthorized: { status: 401, body: { errorMessage: "Client must be authenticated to access this resource.", i18nErrorMessage: { i18nKey: "sd.unauthorized", parameters: [] } } },
    rateLimited: { status: 429, body: { errorMessage: "Rate limit exceeded.", i18nErrorMessage: { i18nKey: "sd.rate.limit", parameters: [] } }, headers: { "retry-after": "1" } },
    route(url) {
      if (url.pathname === "/rest/servicedeskapi/request") return list(url);
      const m = /^\/rest\/servicedeskapi\/request\/([A-Z]+-\d+)\/comment$/.exec(url.pathname);
      if (m) return commentList(m[1]!, url);
      return { status: 404, body: { errorMessage: "Not found", i18nErrorMessage: { i18nKey: "not.found", parameters: [] } } };
    },
  });
  origin = linkOrigin ?? fake.origin;
  return {
    ...fake,
    requests,
    edit(key, summary, comment) {
      const r = requests.get(key)!;
      r.summary = summary;
      comments.get(key)!.push({ id: ++commentId, body: comment, public: true, author: AGENT_ID, created: now() });
    },
    remove(key) {
      requests.get(key)!.deleted = true;
    },
  };
}
