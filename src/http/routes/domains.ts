/** Domain routes (SPEC §4.5), declared as schemas in code (issue 21: `src/http/api-router.ts`). */
import type { Hono } from "hono";
import { domainNameField } from "../../domains/domain-name.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { body } from "../../core/schema.ts";

const DomainEntry = z
  .object({
    name: z.string(),
    entries: z.number().int(),
    entities: z.number().int(),
    relations: z.number().int(),
    multi_db: z.boolean(),
  })
  .openapi("DomainEntry");

const NameParam = z.object({ name: z.string().openapi({ param: { name: "name", in: "path" }, example: "work" }) });

// The SPEC §2.5 rule the domain service applies too (`domain_invalid`, shared with MCP and the CLI).
const CreateDomain = body({ name: domainNameField("name") }, { meta: { id: "CreateDomain" } });

const list = createRoute({
  method: "get", path: "/domains", operationId: "listDomains", summary: "List domains with entry, entity and relation counts", tags: ["domains"], security: BEARER,
  responses: { 200: { description: "The domains", content: { "application/json": { schema: z.object({ domains: z.array(DomainEntry) }) } } }, ...errorResponses(401, 403) },
});
const create = createRoute({
  method: "post", path: "/domains", operationId: "createDomain", summary: "Create a domain (idempotent)", tags: ["domains"], security: BEARER,
  request: { body: { required: true, content: { "application/json": { schema: CreateDomain } } } },
  responses: {
    200: { description: "Already existed", content: { "application/json": { schema: DomainEntry } } },
    201: { description: "Created", content: { "application/json": { schema: DomainEntry } } },
    ...errorResponses(400, 401, 403, 415),
  },
});
const drop = createRoute({
  method: "delete", path: "/domains/{name}", operationId: "dropDomain", summary: "Drop a domain and erase its entries (needs ?confirm=<name>)", tags: ["domains"], security: BEARER,
  request: { params: NameParam, query: z.object({ confirm: z.string().optional() }) },
  responses: {
    200: { description: "Dropped", content: { "application/json": { schema: z.object({ deleted: z.literal(true), name: z.string(), entries_removed: z.number().int() }) } } },
    ...errorResponses(400, 401, 403, 404),
  },
});
const vacuum = createRoute({
  method: "post", path: "/domains/{name}/vacuum", operationId: "vacuumDomain", summary: "Vacuum a domain", tags: ["domains"], security: BEARER,
  request: { params: NameParam },
  responses: {
    200: { description: "Vacuumed", content: { "application/json": { schema: z.object({ name: z.string(), vacuumed: z.literal(true) }) } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

/** Registers the domain routes; returns the router (its schema joins `AppType`). */
export function domainRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(list, async (c) => c.json({ domains: await memory.domains.list() }, 200))
    .openapi(create, async (c) => {
      const { created, domain } = await memory.domains.create(c.req.valid("json").name);
      return created ? c.json(domain, 201) : c.json(domain, 200);
    })
    .openapi(drop, async (c) => c.json(await memory.domains.drop(c.req.valid("param").name, c.req.valid("query").confirm), 200))
    .openapi(vacuum, async (c) => c.json(await memory.domains.vacuum(c.req.valid("param").name), 200));
  app.route("/", r);
  return r;
}
