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
 */
import { hc } from "hono/client";
import type { ClientResponse } from "hono/client";
import type { AppType } from "../http/app-type.ts";
import { throwFor } from "./errors.ts";

export { MemoryError, isMemoryError } from "../core/errors.ts";
export type { AppType } from "../http/app-type.ts";

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8765`. */
  baseUrl: string;
  /** Bearer credential: the operator token, a JWT, or a UMP capability token (`umpcap.…`). */
  token?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

// deno-lint-ignore no-explicit-any
type Success<R> = R extends ClientResponse<infer T, infer S, any> ? (S extends 200 | 201 ? T : never) : never;
type Body = Record<string, unknown>;

async function ok<R>(p: Promise<R>): Promise<Success<R>> {
  const res = await p as unknown as Response;
  if (!res.ok) return throwFor(res);
  return await res.json() as Success<R>;
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
    ingest: (body: Body) => ok(post("/ingest", body) as ReturnType<typeof api.ingest.$post>),
    ingestBatch: (items: Body[]) => ok(api.ingest.batch.$post({ json: { items } })),
    ingestMarkdown: (body: { title: string; content: string; domain?: string; source?: string }) => ok(api.ingest.markdown.$post({ json: body })),
    ingestMemory: (body: Body | string) => ok(post("/ingest/memory", body) as ReturnType<typeof api.ingest.memory.$post>),
    /** Deprecated door (SPEC §4.2); use `ingestMemory`. */
    add: (body: Body) => ok(post("/add", body) as ReturnType<typeof api.add.$post>),
    importUmp: (records: unknown[] | { ump?: string; records: unknown[] }) => ok(post("/ingest", records, { format: "ump" }) as ReturnType<typeof api.ingest.$post>),
    importUmpMarkdown: (markdown: string) => ok(raw("POST", "/ingest", { body: markdown, type: "text/markdown", query: { format: "ump-md" } }) as ReturnType<typeof api.ingest.$post>),
    exportUmp: () => ok(api.export.$get({ query: { format: "ump" } })),
    exportUmpMarkdown: () => text(api.export.$get({ query: { format: "ump-md" } })),
    // --- recall (SPEC §4.1, §4.7) ---
    recall: (body: { query: string } & Body, opts: { source?: string } = {}) => ok(api.recall.$post({ json: body, query: opts })),
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
    fileProposal: (body: { content: string } & Body) => ok(api.ingest.proposal.$post({ json: body })),
    listProposals: (q: { status?: string; after?: number; limit?: number } = {}) => ok(api.proposals.$get({ query: { status: q.status, after: q.after?.toString(), limit: q.limit?.toString() } })),
    getProposal: (id: number) => ok(api.proposals[":id"].$get({ param: { id: String(id) } })),
    approveProposal: (id: number, digest: string, supersedes?: number) => ok(api.proposals[":id"].approve.$post({ param: { id: String(id) }, query: { digest, supersedes: supersedes?.toString() } })),
    rejectProposal: (id: number, reason?: string) => ok(api.proposals[":id"].reject.$post({ param: { id: String(id) }, query: { reason } })),
    proposeLinks: (body: { domain?: string; threshold?: number } = {}) => ok(post("/consolidate/propose", body) as ReturnType<typeof api.consolidate.propose.$post>),
    listLinks: (q: { status?: string; after?: number; limit?: number } = {}) => ok(api.consolidate.links.$get({ query: { status: q.status, after: q.after?.toString(), limit: q.limit?.toString() } })),
    approveLink: (body: { id: number } | { from: number; to: number; kind?: "supersedes" | "contradicts" }) => ok(post("/consolidate", body) as ReturnType<typeof api.consolidate.$post>),
    undoLink: (id: number) => ok(post("/consolidate/undo", { id }) as ReturnType<typeof api.consolidate.undo.$post>),
    deleteMemory: (id: number | string) => ok(api.memory[":id"].$delete({ param: { id: String(id) } })),
    listQuarantine: (q: { after?: number; limit?: number } = {}) => ok(api.quarantine.$get({ query: { after: q.after?.toString(), limit: q.limit?.toString() } })),
    releaseQuarantined: (id: number) => ok(api.quarantine[":id"].release.$post({ param: { id: String(id) } })),
    deleteQuarantined: (id: number) => ok(api.quarantine[":id"].$delete({ param: { id: String(id) } })),
    purge: (body: { ids: number[] } | { owner: string }) => ok(api.purge.$post({ json: body })),
    dsar: (body: { owner?: string; email?: string; match?: string; dry_run?: boolean }) => ok(api.dsar.$post({ json: body })),
    certificate: (id: string) => ok(api.dsar.certificates[":id"].$get({ param: { id } })),
    verifyCertificate: (certificate: unknown, subject?: { owner?: string; email?: string; match?: string }) =>
      ok(post("/dsar/verify", subject ? { certificate, subject } : { certificate }) as ReturnType<typeof api.dsar.verify.$post>),
    reconcileSources: () => ok(api.sources.reconcile.$post()),
    // --- audit and operations (SPEC §4.8) ---
    audit: (q: { after?: number; limit?: number; action?: string } = {}) => ok(api.audit.$get({ query: { after: q.after?.toString(), limit: q.limit?.toString(), action: q.action } })),
    verifyAudit: () => ok(api.audit.verify.$get()),
    explainAuthz: (route: string, method = "GET", domain?: string) => ok(api.ops.authz.explain.$get({ query: { route, method, domain } })),
    // --- UMP (SPEC §4.9) ---
    ump: {
      capabilities: () => ok(api.ump.capabilities.$get()),
      remember: (record: Body) => ok(api.ump.remember.$post({ json: record })),
      get: (id: string) => ok(api.ump.memory[":id"].$get({ param: { id } })),
      recall: (body: { query: string; scope?: Body; filter?: Body; limit?: number }) => ok(api.ump.recall.$post({ json: body })),
      revise: (id: string, patch: Body) => ok(api.ump.revise.$post({ json: { id, patch } })),
      forget: (id: string, o: { reason?: string; hard?: boolean } = {}) => ok(api.ump.forget.$post({ json: { id, ...o } })),
      feedback: (id: string, outcome: "followed" | "overridden" | "ignored" | "contradicted", session?: string) => ok(api.ump.feedback.$post({ json: { id, outcome, session } })),
      audit: (body: { after?: number; limit?: number; action?: string } = {}) => ok(post("/ump/audit", body) as ReturnType<typeof api.ump.audit.$post>),
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
