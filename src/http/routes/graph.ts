/**
 * Graph routes (SPEC §4.6): entity, relations between two entities, bounded
 * traversal, relationship history; declared as schemas in code (issue 21).
 * Query values stay strings: the graph service checks them (name_invalid,
 * relation_invalid, invalid_request), shared with MCP and the CLI.
 */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { AnyObject, Edge, json, NodeRef, pathParam, q } from "../shapes.ts";

const choice = { "x-cairn-choice": true };
const EntityView = z.object({ id: z.number().int(), name: z.string(), domain: z.string(), type: z.string().optional() }).openapi("EntityView");

const entity = createRoute({
  method: "get", path: "/graph/entity/{name}", operationId: "getEntity", tags: ["graph"], security: BEARER,
  summary: "An entity with its current one-hop relations (SPEC §4.6)",
  "x-cairn-choice": "Reply {entity: {id, name, domain, type?}, relations: [Edge]} where Edge is {id, from: {id, name}, relation, to: {id, name}, created_at, valid_at?, " +
    "invalid_at?, edge_source (structured | annotation | frontmatter | heading | linker), chunk_id?}. Names are returned in display form and matched " +
    "case-insensitively. Optional `domain`; without it the name is looked up in every domain, global first, then by domain name. Only current (not " +
    "superseded) edges are listed. Unknown name → 404 not_found.",
  request: {
    params: z.object({ name: pathParam("name", { minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9 _-]+$" }) }),
    query: z.object({ domain: q(undefined, choice) }),
  },
  responses: { 200: json(z.object({ entity: EntityView, relations: z.array(Edge) }), "{entity, relations}"), ...errorResponses(400, 401, 403, 404) },
});

const relations = createRoute({
  method: "get", path: "/graph/relations", operationId: "getRelations", tags: ["graph"], security: BEARER,
  summary: "Current edges from one entity to another; superseded edges are hidden (SPEC §4.6)",
  "x-cairn-choice": "Reply {relations: [Edge]} (Edge as on /graph/entity), edges pointing from `from` to `to` only, ordered by relation then id; unknown names " +
    "give an empty list; optional `domain` as on /graph/entity (the first domain holding both names)",
  request: { query: z.object({ from: q("Required (name_invalid)"), to: q("Required (name_invalid)"), domain: q(undefined, choice) }) },
  responses: { 200: json(z.object({ relations: z.array(Edge) }), "{relations}"), ...errorResponses(400, 401, 403) },
});

const traverse = createRoute({
  method: "get", path: "/graph/traverse", operationId: "traverseGraph", tags: ["graph"], security: BEARER,
  summary: "Bounded breadth-first walk (depth at most 4, at most 256 visited nodes) (SPEC §4.6, §8)",
  "x-cairn-choice": "Reply {start: {id, name}, domain, max_depth, nodes: [{id, name, depth}], edges: [{id, from, relation, to, edge_source, chunk_id?}], truncated, at?, " +
    "paths?: [{node: {id, name}, hops: [{from: {id, name}, relation, to: {id, name}}]}]}. max_depth defaults to 2; values above 4 are clamped to 4 (the reply says " +
    "which depth was walked); negative or non-numeric → 400 invalid_request. Edges are walked in both directions unless `direction` is out or in; a hop always " +
    "reports the edge's stored direction. `kind` is an exact relation type or a namespace prefix ending with ':' (malformed → 400 relation_invalid). `at` " +
    "(ISO-8601) is a transaction-time view: the edges the store believed then (created_at ≤ at < superseded_at); without it only current edges are walked. " +
    "`truncated` is true when the 256-node cap stopped the walk. Unknown start → 404.",
  request: {
    query: z.object({
      start: q("Required (name_invalid)"),
      max_depth: q(undefined, { type: "integer", minimum: 0, default: 2 }),
      explain: q(undefined, { type: "boolean", default: false }),
      kind: q(),
      at: q(undefined, { format: "date-time" }),
      domain: q(undefined, choice),
      direction: q(undefined, { enum: ["both", "out", "in"], default: "both", ...choice }),
    }),
  },
  responses: {
    200: json(z.object({
      start: NodeRef, domain: z.string(), max_depth: z.number().int(),
      nodes: z.array(z.object({ id: z.number().int(), name: z.string(), depth: z.number().int() })),
      edges: z.array(AnyObject), truncated: z.boolean(), at: z.string().optional(), paths: z.array(AnyObject).optional(),
    }).openapi("Traversal"), "The walk"),
    ...errorResponses(400, 401, 403, 404),
  },
});

const history = createRoute({
  method: "get", path: "/graph/relationships/{id}/history", operationId: "getRelationshipHistory", tags: ["graph"], security: BEARER,
  summary: "Every version of one relationship, oldest first, from any version's id (SPEC §4.6); audited",
  "x-cairn-choice": "Reply {id, domain, from: {id, name}, relation, to: {id, name}, versions: [{id, current, created_at, valid_at?, invalid_at?, superseded_at?}]}, " +
    "versions ordered by created_at then id; absent timestamps are omitted, never null. Each read appends an audit row (action graph_history_read, target " +
    "relation:<id>). Admin-gated (global admin). Non-numeric id → 400 invalid_id.",
  request: { params: z.object({ id: pathParam("id", { type: "integer" }) }) },
  responses: {
    200: json(z.object({
      id: z.number().int(), domain: z.string(), from: NodeRef, relation: z.string(), to: NodeRef,
      versions: z.array(z.object({ id: z.number().int(), current: z.boolean(), created_at: z.string() })),
    }).openapi("RelationshipHistory"), "{id, from, relation, to, versions}"),
    ...errorResponses(400, 401, 403, 404),
  },
});

/** Registers the graph routes. */
export function graphRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(entity, async (c) => c.json(await memory.graph.entity(c.req.valid("param").name, c.req.query("domain")), 200))
    .openapi(relations, async (c) => c.json(await memory.graph.relations(c.req.query("from"), c.req.query("to"), c.req.query("domain")), 200))
    .openapi(traverse, async (c) =>
      c.json(await memory.graph.traverse({
        start: c.req.query("start"), max_depth: c.req.query("max_depth"), explain: c.req.query("explain"), kind: c.req.query("kind"),
        at: c.req.query("at"), domain: c.req.query("domain"), direction: c.req.query("direction"),
      }) as z.infer<typeof traverse.responses[200]["content"]["application/json"]["schema"]>, 200))
    // SPEC §4.6: admin-gated (gate row in src/http/gates.ts) and audited (the service writes the audit row).
    .openapi(history, async (c) => c.json(await memory.graph.history(c.req.valid("param").id) as z.infer<typeof history.responses[200]["content"]["application/json"]["schema"]>, 200));
  app.route("/", r);
  return r;
}
