/**
 * Connector routes (SPEC §4.4, §2.12; issue 15), schemas as code: `GET /connectors` lists the registry,
 * `POST /connectors/register` registers one (admin on global, and only a kind whose family is enabled:
 * `CAIRN_CONNECTOR_FAMILIES`, 403 `connector_family_disabled`). Syncs are operator-initiated from the CLI
 * (`cairn sync`): there is deliberately no HTTP route that fetches from a vendor.
 */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { RegisterConnectorBody } from "../../connectors/connector-schema.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";

const Connector = z
  .object({
    id: z.number().int(),
    kind: z.string().openapi({ example: "github" }),
    instance: z.string().openapi({ example: "main" }),
    state: z.enum(["registered", "syncing", "idle", "error"]),
    last_sync_at: z.string().optional().openapi({ description: "Omitted until the first complete sync" }),
    last_error: z.string().optional().openapi({ description: "Omitted unless the last sync failed" }),
    records_total: z.number().int(),
    resumable: z.boolean(),
  })
  .openapi("Connector", {
    "x-cairn-choice": "SPEC §2.12 fields (id, kind, instance, state, last_sync_at) plus last_error (safe text), records_total and resumable (a committed cursor is kept)",
  });

// The schema the connector service parses with too (shared with `cairn connect`).
const Register = RegisterConnectorBody;

const Registered = z.object({ created: z.boolean(), connector: Connector, config_path: z.string() }).openapi("ConnectorRegistered");

const list = createRoute({
  method: "get", path: "/connectors", operationId: "listConnectors", summary: "List registered connectors and their sync state", tags: ["connectors"], security: BEARER,
  responses: { 200: { description: "The registry", content: { "application/json": { schema: z.object({ connectors: z.array(Connector) }) } } }, ...errorResponses(401, 403) },
});
const register = createRoute({
  method: "post", path: "/connectors/register", operationId: "registerConnector", summary: "Register a connector instance (gated by family)", tags: ["connectors"], security: BEARER,
  request: { body: { required: true, content: { "application/json": { schema: Register } } } },
  responses: {
    200: { description: "Already registered (config replaced when given)", content: { "application/json": { schema: Registered } } },
    201: { description: "Registered", content: { "application/json": { schema: Registered } } },
    ...errorResponses(400, 401, 403, 404, 415),
  },
});

/** Registers the connector routes. */
export function connectorRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(list, async (c) => c.json({ connectors: await memory.connectors.list() }, 200))
    .openapi(register, async (c) => {
      const out = await memory.connectors.register(c.req.valid("json"));
      return out.created ? c.json(out, 201) : c.json(out, 200);
    });
  app.route("/", r);
  return r;
}
