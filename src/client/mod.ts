/**
 * `cairn/client`: a thin typed client over Cairn's HTTP API (issue 21). One
 * method per operation of the generated OpenAPI document; results are typed
 * from the route declarations (`AppType`, the same zod shapes the server
 * validates with), and every refusal is thrown as a `MemoryError` carrying
 * the SPEC §7 code, message, details and HTTP status. Runs wherever `fetch`
 * does (Node ≥ 20, Deno, browsers); it imports no server code at run time.
 *
 *   const cairn = createClient({ baseUrl: "http://127.0.0.1:8765", token });
 *   const { hits } = await cairn.recall({ query: "deploy windows" });
 *
 * Request types are the server's own request schemas (`IngestInput`,
 * `RecallInput`, …): a misspelt or wrong-typed field fails to compile.
 */
import { hc } from "hono/client";
import type { ClientResponse } from "hono/client";
import type { AppType } from "../http/app-type.ts";
import type { IngestBatchInput, IngestInput, IngestResult, MarkdownInput } from "../ingest/ingest-schema.ts";
import type { RecallInput, RecallReply } from "../recall/recall-schema.ts";
import type { ProposalBodyInput } from "../review/parse-proposal.ts";
import type { ConsolidateInput, ConsolidateProposeInput } from "../review/consolidate-schema.ts";
import type { DsarInput, PurgeInput } from "../erasure/erasure-schema.ts";
import type { UmpAuditInput, UmpRecallInput, UmpRecordInput } from "../ump/ump-schema.ts";
import type { EntryResult, MemoryBatchResult } from "../ingest/ingest-memory.ts";
import type { MemoryDoorInput, MemoryEntryInput } from "../ingest/memory-door-schema.ts";
import { throwFor } from "./errors.ts";

export { MemoryError, isMemoryError } from "../core/errors.ts";
export type { AppType } from "../http/app-type.ts";
export type { IngestBatchInput, IngestInput, IngestResult, MarkdownInput } from "../ingest/ingest-schema.ts";
export type { RecallHit, RecallInput, RecallReply } from "../recall/recall-schema.ts";
export type { UmpRecallInput, UmpRecordInput } from "../ump/ump-schema.ts";

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8765`. */
  baseUrl: string;
  /** Bearer credential: the operator token, a JWT, or a UMP capability token (`umpcap.…`). */
  token?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** The body of a route's success answer (2xx), as `hc<AppType>` types it. */
// deno-lint-ignore no-explicit-any
export type Success<R> = R extends ClientResponse<infer T, infer S, any> ? (S extends 200 | 201 ? T : never) : never;

/** Resolves to the success body, or throws the refusal as a MemoryError. */
async function ok<R>(p: Promise<R>): Promise<Success<R>> {
  const res = await p as unknown as Response;
  if (!res.ok) return throwFor(res);
  return await res.json() as Success<R>;
}

/** Like `ok`, for a route whose body is read by hand on the server: `T` is the route's declared success shape. */
async function okAs<T>(p: Promise<Response>): Promise<T> {
  const res = await p;
  if (!res.ok) return throwFor(res);
  return await res.json() as T;
}

async function text(p: Promise<unknown>): Promise<string> {
  const res = await p as Response;
  if (!res.ok) return throwFor(res);
  return await res.text();
}

/** Builds a client. */
export function createClient(o: ClientOptions) {
  const headers: Record<string, string> = o.token ? { authorization: `Bearer ${o.token}` } : {};
  const api = hc<AppType>(o.baseUrl.replace(/\/+$/, ""), { headers, ...(o.fetch ? { fetch: o.fetch } : {}) });
  const raw = (method: string, path: string, init: { body?: string; type?: string; query?: Record<string, string | undefined> } = {}) => {
    const url = new URL(o.baseUrl.replace(/\/+$/, "") + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return (o.fetch ?? fetch)(url, { method, headers: { ...headers, ...(init.type ? { "content-type": init.type } : {}) }, body: init.body });
  };
  const post = (path: string, body: unknown, query?: Record<string, string | undefined>) => raw("POST", path, { body: body === undefined ? undefined : JSON.stringify(body), type: body === undefined ? undefined : "application/json", query });
  type UmpImport = Success<Awaited<ReturnType<typeof api.ingest.$post>>>;
  return {
    /** The underlying `hc<AppType>` client, for anything not wrapped here. */
    hc: api,
    // --- core (SPEC §4.8) ---
    index: () => ok(api.index.$get()),
    health: () => ok(api.health.$get()),
    version: () => ok(api.version.$get()),
    ready: () => ok(api.ready.$get()),
    stats: () => ok(api.stats.$get()),
    healthDb: () => ok(api.health.db.$get()),
    openapi: () => text(api["openapi.yaml"].$get()),
    metrics: () => text(api.metrics.$get()),
    // --- ingest (SPEC §4.2) ---
    /** The structured write: `{id, status: created | duplicate, domain, entitiesAdded, relationsAdded}`. */
    ingest: (body: IngestInput) => okAs<IngestResult>(post("/ingest", body)),
    ingestBatch: (items: IngestBatchInput["items"]) => ok(api.ingest.batch.$post({ json: { items } })),
    ingestMarkdown: (body: MarkdownInput) => ok(api.ingest.markdown.$post({ json: body })),
    /** One raw entry `{content, title?, domain?, origin?}`, or a batch `{entries: [string | entry], domain?, origin?}`. */
    ingestMemory: (body: MemoryDoorInput) => okAs<EntryResult | MemoryBatchResult>(post("/ingest/memory", body)),
    /** Deprecated door (SPEC §4.2); use `ingestMemory`. */
    add: (body: MemoryEntryInput) => okAs<EntryResult>(post("/add", body)),
    importUmp: (records: UmpRecordInput[] | { ump?: string; records: UmpRecordInput[] }) => okAs<UmpImport>(post("/ingest", records, { format: "ump" })),
    importUmpMarkdown: (markdown: string) => okAs<UmpImport>(raw("POST", "/ingest", { body: markdown, type: "text/markdown", query: { format: "ump-md" } })),
    exportUmp: () => ok(api.export.$get({ query: { format: "ump" } })),
    exportUmpMarkdown: () => text(api.export.$get({ query: { format: "ump-md" } })),
    // --- recall (SPEC §4.1, §4.7) ---
    /** `{hits, domain, domainsSearched, included_global, telemetry?, trace_id?, decision?}`; `opts.source` is `?source=`. */
    recall: (body: RecallInput, opts: { source?: string } = {}) => okAs<RecallReply>(post("/recall", body, { source: opts.source })),
    /** Deprecated (SPEC §4.7); use `recall`. */
    search: (q: string, opts: { k?: number; lex?: string; graph?: boolean; source?: string } = {}) =>
      ok(api.search.$get({ query: { q, k: opts.k?.toString(), lex: opts.lex, graph: opts.graph?.toString(), source: opts.source } })),
    // --- domains (SPEC §4.5) ---
    listDomains: () => ok(api.domains.$get()),
    createDomain: (name: string) => ok(api.domains.$post({ json: { name } })),
    dropDomain: (name: string, confirm: string) => ok(api.domains[":name"].$delete({ param: { name }, query: { confirm } })),
    vacuumDomain: (name: string) => ok(api.domains[":name"].vacuum.$post({ param: { name } })),
    // --- graph (SPEC §4.6) ---
    entity: (name: string, domain?: string) => ok(api.graph.entity[":name"].$get({ param: { name }, query: { domain } })),
    relations: (from: string, to: string, domain?: string) => ok(api.graph.relations.$get({ query: { from, to, domain } })),
    traverse: (q: { start: string; max_depth?: string; explain?: string; kind?: string; at?: string; domain?: string; direction?: string }) => ok(api.graph.traverse.$get({ query: q })),
    relationshipHistory: (id: number | string) => ok(api.graph.relationships[":id"].history.$get({ param: { id: String(id) } })),
    // --- review, consolidation, quarantine, purge, erasure (SPEC §4.3, §4.4) ---
    fileProposal: (body: ProposalBodyInput) => ok(api.ingest.proposal.$post({ json: body })),
    listProposals: (q: { status?: string; after?: number; limit?: number } = {}) => ok(api.proposals.$get({ query: { status: q.status, after: q.after?.toString(), limit: q.limit?.toString() } })),
    getProposal: (id: number) => ok(api.proposals[":id"].$get({ param: { id: String(id) } })),
    approveProposal: (id: number, digest: string, supersedes?: number) => ok(api.proposals[":id"].approve.$post({ param: { id: String(id) }, query: { digest, supersedes: supersedes?.toString() } })),
    rejectProposal: (id: number, reason?: string) => ok(api.proposals[":id"].reject.$post({ param: { id: String(id) }, query: { reason } })),
    proposeLinks: (body: ConsolidateProposeInput = {}) => okAs<Success<Awaited<ReturnType<typeof api.consolidate.propose.$post>>>>(post("/consolidate/propose", body)),
    listLinks: (q: { status?: string; after?: number; limit?: number } = {}) => ok(api.consolidate.links.$get({ query: { status: q.status, after: q.after?.toString(), limit: q.limit?.toString() } })),
    approveLink: (body: ConsolidateInput) => okAs<Success<Awaited<ReturnType<typeof api.consolidate.$post>>>>(post("/consolidate", body)),
    undoLink: (id: number) => okAs<Success<Awaited<ReturnType<typeof api.consolidate.undo.$post>>>>(post("/consolidate/undo", { id })),
    deleteMemory: (id: number | string) => ok(api.memory[":id"].$delete({ param: { id: String(id) } })),
    listQuarantine: (q: { after?: number; limit?: number } = {}) => ok(api.quarantine.$get({ query: { after: q.after?.toString(), limit: q.limit?.toString() } })),
    releaseQuarantined: (id: number) => ok(api.quarantine[":id"].release.$post({ param: { id: String(id) } })),
    deleteQuarantined: (id: number) => ok(api.quarantine[":id"].$delete({ param: { id: String(id) } })),
    purge: (body: PurgeInput) => ok(api.purge.$post({ json: body })),
    dsar: (body: DsarInput) => ok(api.dsar.$post({ json: body })),
    certificate: (id: string) => ok(api.dsar.certificates[":id"].$get({ param: { id } })),
    verifyCertificate: (certificate: unknown, subject?: { owner?: string; email?: string; match?: string }) =>
      okAs<Success<Awaited<ReturnType<typeof api.dsar.verify.$post>>>>(post("/dsar/verify", subject ? { certificate, subject } : { certificate })),
    reconcileSources: () => ok(api.sources.reconcile.$post()),
    // --- audit and operations (SPEC §4.8) ---
    audit: (q: { after?: number; limit?: number; action?: string } = {}) => ok(api.audit.$get({ query: { after: q.after?.toString(), limit: q.limit?.toString(), action: q.action } })),
    verifyAudit: () => ok(api.audit.verify.$get()),
    explainAuthz: (route: string, method = "GET", domain?: string) => ok(api.ops.authz.explain.$get({ query: { route, method, domain } })),
    // --- UMP (SPEC §4.9) ---
    ump: {
      capabilities: () => ok(api.ump.capabilities.$get()),
      /** A partial record (`kind` and `body.text` at least); the server completes, hashes and (with a key) signs it. */
      remember: (record: UmpRecordInput) => okAs<Success<Awaited<ReturnType<typeof api.ump.remember.$post>>>>(post("/ump/remember", record)),
      get: (id: string) => ok(api.ump.memory[":id"].$get({ param: { id } })),
      recall: (body: UmpRecallInput) => ok(api.ump.recall.$post({ json: body })),
      revise: (id: string, patch: Record<string, unknown>) => ok(api.ump.revise.$post({ json: { id, patch } })),
      forget: (id: string, o: { reason?: string; hard?: boolean } = {}) => ok(api.ump.forget.$post({ json: { id, ...o } })),
      feedback: (id: string, outcome: "followed" | "overridden" | "ignored" | "contradicted", session?: string) => ok(api.ump.feedback.$post({ json: { id, outcome, session } })),
      audit: (body: UmpAuditInput = {}) => okAs<Success<Awaited<ReturnType<typeof api.ump.audit.$post>>>>(post("/ump/audit", body)),
      auditVerify: () => ok(api.ump.audit.verify.$get()),
      /** The SSE change stream (SPEC §6) as a raw Response; read `res.body`. */
      subscribe: async (): Promise<Response> => {
        const res = await raw("GET", "/ump/subscribe");
        return res.ok ? res : throwFor(res);
      },
    },
  };
}

/** A Cairn client. */
export type CairnClient = ReturnType<typeof createClient>;
