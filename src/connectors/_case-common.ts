/**
 * What the case vendor modules (`zendesk.ts`, `freshdesk.ts`, `jira.ts`, `custom.ts`) share: config reading, auth
 * header encoding, URL building pinned to the configured origin, and turning a normalised case into a
 * `ConnectorRecord` (issue 15; SPEC §2.11, §9 "Connector and case-governance rules"). Requester personal data never
 * leaves this layer: the identity goes through `deps.subjectRef` (salted SHA-256), and case text is scrubbed of email
 * addresses, phone and card numbers and the requester's known name or address before it is returned.
 */
import { redactPii } from "../hygiene/redact-pii.ts";
import type { CaseStatus, CrmCase } from "../workflow/crm-case.ts";
import { VendorError, type ConnectorRecord, type VendorDeps } from "./vendor.ts";

/** SPEC §2.11 / crm-case.ts: title 1–500, body at most 1,000,000 characters. */
const MAX_TITLE = 500;
const MAX_BODY = 1_000_000;
/** Org labels end up in source paths and case refs: keep them to a safe alphabet. */
const ORG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A required non-empty string field of a connector config. */
export function configString(config: Record<string, unknown>, field: string): string {
  const v = config[field];
  if (typeof v !== "string" || v.trim() === "") throw new VendorError("refused", `Connector config: ${field} must be a non-empty string`);
  return v.trim();
}

/** An optional string field of a connector config. */
export function optionalString(config: Record<string, unknown>, field: string): string | undefined {
  const v = config[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw new VendorError("refused", `Connector config: ${field} must be a non-empty string`);
  return v.trim();
}

/** The configured API base as a URL (http or https, no credentials, no query). */
export function baseUrlOf(config: Record<string, unknown>): URL {
  const raw = configString(config, "base_url");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new VendorError("refused", "Connector config: base_url is not a valid URL");
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password || u.search || u.hash) {
    throw new VendorError("refused", "Connector config: base_url must be an http(s) URL without credentials, query or fragment");
  }
  return u;
}

/** The tenant label: `org`, else the config's instance name, else the first label of the host (`acme.zendesk.com`). */
export function orgOf(config: Record<string, unknown>, base: URL): string {
  const org = optionalString(config, "org") ?? optionalString(config, "instance") ?? base.hostname.split(".")[0] ?? "";
  if (!ORG.test(org)) throw new VendorError("refused", `Connector config: org "${org.slice(0, 64)}" must match ${ORG.source}`);
  return org;
}

/**
 * `base` + `path` (a path below the base path, with an optional query), refused if the result left the configured
 * origin: a config path like `//evil.example/x` or `https://…` must not redirect the connector elsewhere.
 */
export function urlOf(base: URL, path: string, query: Record<string, string | number | undefined> = {}): string {
  if (!path.startsWith("/") || path.startsWith("//")) throw new VendorError("refused", "Connector path must start with a single /");
  const prefix = base.pathname.replace(/\/+$/, "");
  const u = new URL(base.origin + prefix + path);
  if (u.origin !== base.origin) throw new VendorError("refused", "Connector path leaves the configured origin");
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

/** `Basic base64(user:pass)` over UTF-8. */
export function basicAuth(user: string, pass: string): string {
  const bytes = new TextEncoder().encode(`${user}:${pass}`);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return `Basic ${btoa(bin)}`;
}

/** Reads a secret file once per source (the core refuses a file looser than 0600). */
export function secretOnce(deps: VendorDeps, path: string): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => (cached ??= deps.readSecret(path).then((s) => {
    const t = s.trim();
    if (t === "") throw new VendorError("auth", "Connector secret file is empty");
    return t;
  }));
}

/** A JSON object or a `malformed` failure naming what was expected. */
export function objectOf(body: unknown, what: string): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new VendorError("malformed", `${what}: expected a JSON object`);
  return body as Record<string, unknown>;
}

/** A JSON array or a `malformed` failure. */
export function arrayOf(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) throw new VendorError("malformed", `${what}: expected a JSON array`);
  return body;
}

/** A vendor id (number or string) as a path-safe case id, or `malformed`. */
export function idOf(v: unknown, what: string): string {
  const s = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : typeof v === "string" ? v : "";
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(s)) throw new VendorError("malformed", `${what}: missing or unusable id`);
  return s;
}

/** A string field or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** One comment of a case, as rendered into its markdown (no author names: only the role). */
export interface CaseComment {
  at: string;
  by: "requester" | "agent";
  internal: boolean;
  text: string;
}

/**
 * Scrubs case text (SPEC §2.11 "raw personal data is never stored"): emails, phone and card numbers become the SPEC §1
 * placeholders, and the requester's known strings (name, address) become `[requester]`.
 */
export function scrub(text: string, known: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const k of known) {
    if (k === undefined || k.trim().length < 3) continue;
    out = out.split(k.trim()).join("[requester]");
  }
  return redactPii(out);
}

/** The case body: description, then comments oldest first, each headed by time and role; capped at 1,000,000 characters. */
export function caseBody(description: string, comments: readonly CaseComment[], known: readonly (string | undefined)[]): string {
  const parts = [scrub(description.trim() === "" ? "(no description)" : description.trim(), known)];
  const sorted = [...comments].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (sorted.length > 0) parts.push("## Comments");
  for (const c of sorted) {
    parts.push(`### ${c.at} · ${c.by}${c.internal ? " · internal" : ""}\n\n${scrub(c.text.trim(), known)}`);
  }
  const body = parts.join("\n\n") + "\n";
  return body.length > MAX_BODY ? body.slice(0, MAX_BODY - 20) + "\n\n(truncated)\n" : body;
}

/** A title fit for the envelope: trimmed, scrubbed, 1–500 characters. */
export function caseTitle(raw: string | undefined, known: readonly (string | undefined)[] = []): string {
  const t = scrub((raw ?? "").replace(/\s+/g, " ").trim(), known);
  return t === "" ? "(no subject)" : t.slice(0, MAX_TITLE);
}

/** What a vendor module knows of one case before it becomes a record. */
export interface CaseDraft {
  kind: "zendesk" | "freshdesk" | "jira" | "custom";
  /** Source path, e.g. `zendesk/acme/tickets/42`. */
  path: string;
  sourceUrl: string;
  tags: string[];
  /** The vendor's own status word, kept in frontmatter as `vendor_status`. */
  vendorStatus: string;
  crmCase: CrmCase;
}

/** YAML frontmatter + body (as `/ingest/markdown` takes it), and the record. Frontmatter values are JSON strings. */
export function recordOf(d: CaseDraft): ConnectorRecord {
  const c = d.crmCase;
  const q = (s: string) => JSON.stringify(s);
  const fm = [
    "---",
    `title: ${q(c.title)}`,
    `tags: [${d.tags.map(q).join(", ")}]`,
    `state: ${q(c.status)}`,
    `vendor_status: ${q(d.vendorStatus)}`,
    `source_url: ${q(d.sourceUrl)}`,
    `case_ref: ${q(c.case_ref)}`,
    `updated_at: ${q(c.updated_at)}`,
    ...(c.merged_into !== undefined ? [`merged_into: ${q(c.merged_into)}`] : []),
    "---",
  ].join("\n");
  return { path: d.path, rev: c.updated_rev, markdown: `${fm}\n\n# ${c.title}\n\n${c.body_markdown ?? ""}`, crmCase: c };
}

/** Builds the CrmCase (SPEC §2.11) with the derived `case_ref`; optional fields only when set. */
export function crmCaseOf(f: {
  source: string; org: string; id: string; title: string; status: CaseStatus; subjectRef: string; rev: string;
  updatedAt: string; body: string; priority?: string; mergedInto?: string; reopened?: boolean;
}): CrmCase {
  const c: CrmCase = {
    source: f.source, org_id: f.org, case_id: f.id, case_ref: `crm:${f.source}:${f.org}:${f.id}`, title: f.title,
    status: f.status, subject_ref: f.subjectRef, updated_rev: f.rev.slice(0, 128), updated_at: f.updatedAt, body_markdown: f.body,
  };
  if (f.priority !== undefined) c.priority = f.priority.slice(0, 64);
  if (f.status === "merged_away" && f.mergedInto !== undefined) c.merged_into = f.mergedInto;
  if (f.reopened === true) c.reopened = true;
  return c;
}

/** Hex SHA-256 of a string (Web Crypto), for vendors without a revision marker. */
export async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping order (comment fetches per page). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
