/**
 * Jira Service Management case connector (issue 15; SPEC §2.11, §9 "Connector and case-governance rules").
 * Pull-only, servicedeskapi: `GET /rest/servicedeskapi/request?requestOwnership=ALL_REQUESTS&requestStatus=ALL_REQUESTS
 * &start=…&limit=…` (paged by `start` / `size` until `isLastPage`) and each request's
 * `GET /rest/servicedeskapi/request/{issueKey}/comment` (same paging). Auth: Basic `email:api_token` (Cloud) or Bearer
 * (a Data Center personal access token). The servicedeskapi request carries no update time or version, so the
 * revision is a digest of what is ingested (summary, description, status, comments) and `updated_at` is the latest
 * vendor timestamp seen (creation, status change, comment), verbatim. Status mapping: `src/connectors/README.md` "Jira".
 */
import type { CaseStatus } from "../workflow/crm-case.ts";
import {
  baseUrlOf, basicAuth, caseBody, caseTitle, configString, crmCaseOf, idOf, mapLimit, objectOf, optionalString, orgOf,
  recordOf, secretOnce, sha256Hex, str, urlOf, type CaseComment,
} from "./_case-common.ts";
import { VendorError, type ConnectorRecord, type VendorDeps, type VendorFactory, type VendorSource } from "./vendor.ts";

const LIST = "/rest/servicedeskapi/request";
const PAGE_SIZE = 50;
const MAX_LOOPS = 1_000_000;

/** Jira `currentStatus.statusCategory` → CrmCase status (src/connectors/README.md table): `DONE` is solved, anything else is open. */
export function jiraStatus(statusCategory: string): CaseStatus {
  return statusCategory.toUpperCase() === "DONE" ? "closed_solved" : "open";
}

/** The Jira Service Management vendor factory. */
export const jira: VendorFactory = (config, deps) => createJira(config, deps);

/** A Jira `DateDTO` (`{iso8601, epochMillis, …}`): the verbatim ISO text and its instant. */
function dateOf(v: unknown): { iso: string; ms: number } | undefined {
  const d = (v ?? {}) as { iso8601?: unknown; epochMillis?: unknown };
  const iso = str(d.iso8601);
  if (iso === undefined) return undefined;
  const ms = typeof d.epochMillis === "number" ? d.epochMillis : Date.parse(iso);
  return Number.isFinite(ms) ? { iso, ms } : undefined;
}

function createJira(config: Record<string, unknown>, deps: VendorDeps): VendorSource {
  const base = baseUrlOf(config);
  const org = orgOf(config, base);
  const authType = optionalString(config, "auth_type") ?? "basic";
  if (authType !== "basic" && authType !== "bearer") throw new VendorError("refused", "Connector config: auth_type must be basic or bearer");
  const email = authType === "basic" ? configString(config, "email") : undefined;
  const secret = secretOnce(deps, configString(config, "token_file"));
  const serviceDeskId = optionalString(config, "service_desk_id");
  const includeInternal = config.include_internal === true;
  const headers = async () => ({
    accept: "application/json",
    authorization: authType === "bearer" ? `Bearer ${await secret()}` : basicAuth(email!, await secret()),
  });

  /** One page of a servicedeskapi `PagedDTO`: its values and the next `start`, or null after `isLastPage`. */
  async function paged(path: string, start: number, query: Record<string, string | number | undefined>, what: string) {
    const body = objectOf((await deps.http.getJson(urlOf(base, path, { ...query, start, limit: PAGE_SIZE }), await headers())).body, what);
    if (!Array.isArray(body.values)) throw new VendorError("malformed", `${what}: values is not an array`);
    const values = body.values.map((v) => objectOf(v, what));
    if (body.isLastPage === true) return { values, next: null };
    const size = typeof body.size === "number" ? body.size : values.length;
    if (size <= 0) throw new VendorError("repeated_cursor", `${what} repeated its page`);
    return { values, next: start + size };
  }

  const listQuery = { requestOwnership: "ALL_REQUESTS", requestStatus: "ALL_REQUESTS", serviceDeskId };

  async function comments(key: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    const q = includeInternal ? {} : { public: "true", internal: "false" };
    let start: number | null = 0;
    for (let i = 0; start !== null && i < MAX_LOOPS; i++) {
      const p: { values: Record<string, unknown>[]; next: number | null } = await paged(`${LIST}/${encodeURIComponent(key)}/comment`, start, q, "Jira comments");
      out.push(...p.values);
      start = p.next;
    }
    return out;
  }

  async function toRecord(r: Record<string, unknown>): Promise<ConnectorRecord> {
    const key = idOf(r.issueKey, "Jira request");
    const fields = new Map<string, unknown>();
    if (Array.isArray(r.requestFieldValues)) for (const f of r.requestFieldValues as Record<string, unknown>[]) if (typeof f?.fieldId === "string") fields.set(f.fieldId, f.value);
    const reporter = (r.reporter ?? {}) as Record<string, unknown>;
    const known = [str(reporter.emailAddress), str(reporter.displayName)];
    const who = str(reporter.accountId) ?? str(reporter.key) ?? str(reporter.name);
    const status = (r.currentStatus ?? {}) as Record<string, unknown>;
    const statusName = str(status.status) ?? "";
    const all = await comments(key);
    const rendered: CaseComment[] = all.map((c) => {
      const author = (c.author ?? {}) as Record<string, unknown>;
      const by = who !== undefined && (str(author.accountId) ?? str(author.key) ?? str(author.name)) === who ? "requester" : "agent";
      return { at: dateOf(c.created)?.iso ?? "", by, internal: c.public === false, text: str(c.body) ?? "" };
    });
    const stamps = [dateOf(r.createdDate), dateOf(status.statusDate), ...all.map((c) => dateOf(c.created))].filter((d) => d !== undefined);
    stamps.sort((a, b) => b.ms - a.ms);
    const summary = typeof fields.get("summary") === "string" ? fields.get("summary") as string : str(r.summary);
    const description = typeof fields.get("description") === "string" ? fields.get("description") as string : "";
    const prio = fields.get("priority") as { name?: unknown } | string | undefined;
    const mapped = jiraStatus(str(status.statusCategory) ?? "");
    const body = caseBody(description, rendered, known);
    const title = caseTitle(summary, known);
    const rev = "sha256:" + (await sha256Hex(JSON.stringify([title, body, statusName, str(status.statusCategory)]))).slice(0, 40);
    const c = crmCaseOf({
      source: "jira", org, id: key, title, status: mapped,
      subjectRef: await deps.subjectRef(who !== undefined ? `jira:${org}:account:${who}` : `jira:${org}:request:${key}`),
      rev, updatedAt: stamps[0]?.iso ?? deps.now().toISOString(), body, priority: typeof prio === "string" ? prio : str(prio?.name),
      // Jira's stock workflows name the status of a reopened request "Reopened".
      reopened: mapped === "open" && /^re-?opened$/i.test(statusName),
    });
    const tags = [str(r.requestTypeId) ? `request-type-${r.requestTypeId}` : undefined, str(r.serviceDeskId) ? `service-desk-${r.serviceDeskId}` : undefined]
      .filter((t): t is string => t !== undefined);
    return recordOf({ kind: "jira", path: `jira/${org}/requests/${key}`, sourceUrl: `${base.origin}/browse/${key}`, tags, vendorStatus: statusName, crmCase: c });
  }

  function startOf(cursor: string | null): number {
    if (cursor === null) return 0;
    const n = Number(cursor);
    if (!/^\d+$/.test(cursor) || !Number.isSafeInteger(n)) throw new VendorError("malformed", "Jira cursor is not one this connector wrote");
    return n;
  }

  return {
    kind: "jira",
    async page(cursor) {
      const p = await paged(LIST, startOf(cursor), listQuery, "Jira requests");
      return { records: await mapLimit(p.values, 4, toRecord), cursor: p.next === null ? null : String(p.next) };
    },
    async livePaths() {
      const keys = new Set<string>();
      let start: number | null = 0;
      for (let i = 0; start !== null && i < MAX_LOOPS; i++) {
        const p: { values: Record<string, unknown>[]; next: number | null } = await paged(LIST, start, listQuery, "Jira requests");
        for (const r of p.values) keys.add(idOf(r.issueKey, "Jira request"));
        start = p.next;
      }
      return [...keys].map((k) => `jira/${org}/requests/${k}`);
    },
  };
}
