/** Raw-memory write doors and quarantine review (SPEC §4.2, §4.4), declared as schemas in code (issue 21). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { MarkdownBody } from "../../ingest/ingest-schema.ts";
import { parseChunkId } from "../../lifecycle/delete-memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { piiReadOf } from "../principal.ts";
import { readJson } from "../read-json.ts";
import { MemoryDoorBody, MemoryEntry, type MemoryDoorInput, type MemoryEntryInput } from "../../ingest/memory-door-schema.ts";
import { AnyObject, docBody, json, jsonBody, pathParam, q, ref } from "../shapes.ts";

const EntryResult = z
  .object({
    id: z.number().int().optional(),
    status: z.enum(["created", "duplicate", "skipped", "rejected", "proposed"]),
    proposal_id: z.number().int().optional(), domain: z.string().optional(), flagged: z.boolean().optional(), reason: z.string().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .openapi("EntryResult");

const IdParam = z.object({ id: pathParam("id", { type: "integer" }) });

const markdown = createRoute({
  method: "post", path: "/ingest/markdown", operationId: "ingestMarkdown", tags: ["ingest"], security: BEARER,
  summary: "Titled markdown document; heading-aware chunks stamped markdown (SPEC §4.2); not filtered by the memory hygiene",
  "x-cairn-choice": "Body {title, content, domain?, source?}. A document that fits one chunk (2,000 characters) is stored whole and verbatim; a longer one " +
    "is split at headings, then paragraph, line and word boundaries (docs/write-doors.md, \"Markdown chunking\"). Reply {id (first chunk), status: created if any chunk " +
    "was created else duplicate, domain, chunks: [{id, status, heading_path, line_start, line_end, flagged?}], entitiesAdded, relationsAdded}. All chunks commit in one transaction. " +
    "400 frontmatter_too_large (front matter past its budget: aliases, values, characters, nesting or source size; details {limit, max}), " +
    "400 markdown_too_complex (block quotes or list items nested past 32 levels; details {limit, max, line}); unparseable YAML front matter is kept as text.",
  request: { body: jsonBody(MarkdownBody) },
  responses: {
    200: json(z.object({
      id: z.number().int(), status: z.enum(["created", "duplicate"]), domain: z.string(),
      chunks: z.array(z.object({ id: z.number().int(), status: z.string(), heading_path: z.array(z.string()), line_start: z.number().int(), line_end: z.number().int(), flagged: z.boolean().optional() })),
      entitiesAdded: z.number().int(), relationsAdded: z.number().int(),
    }).openapi("MarkdownIngestResult"), "Markdown ingest result"),
    ...errorResponses(400, 401, 403, 507),
  },
});

const memoryDoor = createRoute({
  method: "post", path: "/ingest/memory", operationId: "ingestMemory", tags: ["ingest"], security: BEARER,
  summary: "Raw memory entries; reasoning-tag strip then the skip rule per entry (SPEC §1 Input hygiene)",
  "x-cairn-choice": "Body: one entry {content, title?, domain?, origin?} or a batch {entries: [string | {content, title?, domain?, origin?}], domain?, origin?} (1–1000). " +
    "Reply for one entry: {id, status: created|duplicate, domain, flagged?} or {status: skipped, reason: skip_pattern|empty}. Reply for a batch: {results: [EntryResult], " +
    "created, duplicate, skipped, rejected, proposed}; a bad entry is {status: rejected, error{code,message}} and never aborts the rest. Stored with source memory, " +
    "origin agent unless given. A Quarantine verdict stores the entry flagged (flagged: true). Under CAIRN_WRITE_POSTURE=review (a posture-carrying door) each kept " +
    "entry is filed as a proposal instead: {status: proposed, proposal_id, domain}.",
  // One entry or a batch: read by the handler, so the domain answers every form (a bad entry of a batch is its result).
  request: { body: docBody({ "application/json": ref("MemoryDoorRequest") }) },
  responses: {
    200: json(z.union([EntryResult, z.object({ results: z.array(EntryResult), created: z.number().int(), duplicate: z.number().int(), skipped: z.number().int(), rejected: z.number().int(), proposed: z.number().int() })]), "Entry result or batch reply"),
    ...errorResponses(400, 401, 403, 507),
  },
});

const add = createRoute({
  method: "post", path: "/add", operationId: "addMemory", tags: ["ingest"], security: BEARER, deprecated: true,
  summary: "Deprecated raw text ingest (reasoning blocks stripped); use /ingest/memory",
  "x-cairn-choice": "Body {content, title?, domain?, origin?}; reply as one /ingest/memory entry",
  request: { body: docBody({ "application/json": ref("MemoryEntry") }) },
  responses: { 200: json(EntryResult, "Entry result"), ...errorResponses(400, 401, 403, 507) },
});

const QuarantineItem = z.object({
  id: z.number().int(), title: z.string().optional(), content: z.string(), domain: z.string(), source: z.string(), created_at: z.string(),
  screen: AnyObject.optional(), untrusted: z.boolean(),
}).openapi("QuarantineItem");

const quarantine = createRoute({
  method: "get", path: "/quarantine", operationId: "listQuarantine", tags: ["governance"], security: BEARER,
  summary: "Flagged entries awaiting human review, served through the read seam",
  "x-cairn-choice": "query after, limit (1–500); reply {items: [{id, title?, content, domain, source, created_at, screen?{verdict,reasons,score}, untrusted}], next_after?}; content and title redacted unless the caller holds pii:read",
  request: { query: z.object({ after: q(undefined, { type: "integer", minimum: 0 }), limit: q(undefined, { type: "integer", minimum: 1, maximum: 500 }) }) },
  responses: { 200: json(z.object({ items: z.array(QuarantineItem), next_after: z.number().int().optional() }), "Page of quarantined entries"), ...errorResponses(401, 403) },
});

const release = createRoute({
  method: "post", path: "/quarantine/{id}/release", operationId: "releaseQuarantined", tags: ["governance"], security: BEARER,
  summary: "Release a quarantined entry back into retrieval (audited)",
  "x-cairn-choice": "reply {id, released: true}; 404 not_found unless the entry exists and is flagged",
  request: { params: IdParam },
  responses: { 200: json(z.object({ id: z.number().int(), released: z.literal(true) }), "Released"), ...errorResponses(400, 401, 403, 404) },
});

const remove = createRoute({
  method: "delete", path: "/quarantine/{id}", operationId: "deleteQuarantined", tags: ["governance"], security: BEARER,
  summary: "Delete a quarantined entry (tombstone + audit)",
  "x-cairn-choice": "reply {id, deleted: true}; 404 not_found unless the entry exists and is flagged",
  request: { params: IdParam },
  responses: { 200: json(z.object({ id: z.number().int(), deleted: z.literal(true) }), "Deleted"), ...errorResponses(400, 401, 403, 404) },
});

/** Registers `/ingest/markdown`, `/ingest/memory`, `/add` and the quarantine routes. */
export function writeDoorRoutes(app: Hono, memory: Memory) {
  const r0 = apiRouter();
  r0.openAPIRegistry.register("MemoryEntry", MemoryEntry);
  r0.openAPIRegistry.register("MemoryDoorRequest", MemoryDoorBody);
  const r = r0
    .openapi(markdown, async (c) => c.json(await memory.ingestMarkdown(c.req.valid("json")), 200))
    .openapi(memoryDoor, async (c) => c.json(await memory.ingestMemory(await readJson(c) as MemoryDoorInput), 200))
    .openapi(add, async (c) => c.json(await memory.add(await readJson(c) as MemoryEntryInput), 200))
    .openapi(quarantine, async (c) => {
      const after = Number(c.req.query("after") ?? 0);
      const limit = Number(c.req.query("limit") ?? 100);
      const page = await memory.quarantine.list({
        after: Number.isSafeInteger(after) && after >= 0 ? after : 0,
        limit: Number.isSafeInteger(limit) ? limit : 100,
        piiRead: piiReadOf(c),
      });
      return c.json(page as z.infer<typeof quarantine.responses[200]["content"]["application/json"]["schema"]>, 200);
    })
    .openapi(release, async (c) => c.json(await memory.quarantine.release(parseChunkId(c.req.valid("param").id)), 200))
    .openapi(remove, async (c) => c.json(await memory.quarantine.remove(parseChunkId(c.req.valid("param").id)), 200));
  app.route("/", r);
  return r;
}
