/**
 * The contract between the connector core (registry, config, sync runner, CLI, routes: `src/connectors/`) and each
 * vendor module (`github.ts`, `zendesk.ts`, `freshdesk.ts`, `jira.ts`, `custom.ts`). SPEC §2.11, §2.12, §9
 * "Connector and case-governance rules"; issue 15.
 *
 * A vendor module knows its vendor's wire format (auth header, pagination, record shape, status mapping) and nothing
 * else: it never writes to the store and never calls `fetch` itself. The core hands it a `VendorHttp` (the outbound
 * client: config-only hosts, deny table, no redirects, 15 s timeout, bounded retries on 429 `Retry-After` / 5xx /
 * timeouts, malformed JSON refused) and stores what it returns, page by page, with the cursor.
 */
import type { CrmCase } from "../workflow/crm-case.ts";

/** The GET-only HTTP port a vendor module uses (POST only for GitHub's installation-token exchange). */
export interface VendorHttp {
  /** GET `url` with `headers`; resolves with the parsed JSON body and the response headers of a 2xx answer. Throws
   *  `VendorError` on anything else, after the core's bounded retries. */
  getJson(url: string, headers: Record<string, string>): Promise<{ body: unknown; headers: Headers }>;
  /** POST a JSON body (GitHub App token exchange only; case connectors never write back). */
  postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ body: unknown; headers: Headers }>;
}

/** One vendor item at one revision. */
export interface ConnectorRecord {
  /** Stable source path (the sources row key), e.g. `github/owner/repo/issues/12`, `zendesk/acme/tickets/42`. */
  path: string;
  /** Vendor revision (`updated_rev`): the same path + rev twice is a no-op. */
  rev: string;
  /** Markdown with YAML frontmatter (`title`, `tags`, `state`, `source_url`, …) as `/ingest/markdown` takes it. */
  markdown: string;
  /** Case connectors only: the normalized case (SPEC §2.11); its `body_markdown` is the untrusted case text. */
  crmCase?: CrmCase;
}

/** One page of records and the cursor to resume after it (`null`: the backfill is complete). */
export interface ConnectorPage {
  records: ConnectorRecord[];
  cursor: string | null;
}

export type VendorKind = "github" | "zendesk" | "freshdesk" | "jira" | "custom";

/** What a vendor module exports (one per kind, listed in the core's kind table). */
export interface VendorSource {
  kind: VendorKind;
  /** Fetch the page after `cursor` (`null` = from the start). */
  page(cursor: string | null): Promise<ConnectorPage>;
  /** Every path that still exists upstream, for the reconcile sweep of deleted or transferred items. */
  livePaths(): Promise<string[]>;
}

/** What the core gives a vendor factory besides the parsed config. */
export interface VendorDeps {
  http: VendorHttp;
  /** Read a 0600 secret file named by the config (the core refuses a looser mode). */
  readSecret(path: string): Promise<string>;
  /** Salted SHA-256 (64 lower-case hex) of a requester identity; the salt lives in a 0600 file made on first use. */
  subjectRef(identity: string): Promise<string>;
  now(): Date;
}

/** A vendor failure the core records as `state: error` with this safe message (no secrets, no bodies). */
export class VendorError extends Error {
  constructor(
    readonly reason: "rate_limited" | "server_error" | "timeout" | "malformed" | "repeated_cursor" | "auth" | "refused" | "http",
    message: string,
    readonly status?: number,
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}

export type VendorFactory = (config: Record<string, unknown>, deps: VendorDeps) => VendorSource;
