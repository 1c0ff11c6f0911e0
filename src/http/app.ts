/**
 * The Hono app over Web-standard Request/Response (SPEC §4, §7, §9): a thin
 * binding over the composition root. Every response carries
 * `X-Api-Version`; every non-2xx has the SPEC §7 envelope except the bare
 * 413; unknown paths are probe-blind 404s.
 */
import type { Context } from "hono";
import { OpenAPIHono } from "@hono/zod-openapi";
import { endpointOf } from "./endpoint.ts";
import { HTTPException } from "hono/http-exception";
import { VERSION } from "../core/version.ts";
import type { Memory } from "../memory.ts";
import { DEPRECATED_ROUTES, DEPRECATION_VALUE } from "./deprecation.ts";
import { auditRoutes } from "./routes/audit.ts";
import { coreRoutes } from "./routes/core.ts";
import { domainRoutes } from "./routes/domains.ts";
import { ingestRoutes } from "./routes/ingest.ts";
import { memoryRoutes } from "./routes/memory.ts";
import type { AppOptions } from "./options.ts";
import { openApiYaml } from "./openapi-doc.ts";
import { toErrorResponse } from "./status.ts";
import { writeDoorRoutes } from "./routes/write-doors.ts";
import { conversationRoutes } from "./routes/conversation.ts";
import { governanceRoutes } from "./routes/governance.ts";
import { erasureRoutes } from "./routes/erasure.ts";
import { recallRoutes } from "./routes/recall.ts";
import { graphRoutes } from "./routes/graph.ts";
import { installGuard } from "./guard.ts";
import { gateKey } from "./gates.ts";
import { opsRoutes } from "./routes/ops.ts";
import { umpRoutes } from "./routes/ump.ts";
import { umpFileRoutes } from "./routes/ump-files.ts";
import { parcelRoutes } from "./routes/parcels.ts";
import { domainSnapshotRoutes } from "./routes/domain-snapshots.ts";
import { webRoutes } from "../web/routes.tsx";
import { declareWebPages } from "./routes/web-pages.ts";
import { workflowRoutes } from "./routes/workflow.ts";
import { channelRoutes } from "./routes/channels.ts";
import { claimRoutes } from "./routes/claims.ts";
import { providerRoutes } from "./routes/provider.ts";
import { kcsRoutes } from "./routes/kcs.ts";
import { connectorRoutes } from "./routes/connectors.ts";

export type { AppOptions } from "./options.ts";
export type { AppType } from "./app-type.ts";
import type { AppType } from "./app-type.ts";

/** SPEC §8: request body limit (enforced by the guard). */
export { MAX_REQUEST_SIZE } from "./guard.ts";

/**
 * Builds the app for one Memory. It is an OpenAPIHono: every feature router mounted with `app.route("/", router)`
 * brings its declarations, and `GET /openapi.yaml` serves the document generated from all of them (issue 21).
 */
export function createApp(memory: Memory, _opts: AppOptions = {}): AppType {
  // deno-lint-ignore ban-types
  const app = new OpenAPIHono<{}>();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("X-Api-Version", VERSION);
    // HEAD is answered by the GET route, so it carries the same header (SPEC §9.4).
    if (DEPRECATED_ROUTES.has(gateKey(c.req.method, c.req.path))) c.res.headers.set("Deprecation", DEPRECATION_VALUE);
  });
  // Issue 8: rate limit, deadline, body limit, authentication and the deny-by-default gate (rows in src/http/gates.ts).
  installGuard(app, memory);

  let yaml: string | undefined;
  // Rendered on first request, once every router has been mounted.
  coreRoutes(app, memory, () => (yaml ??= openApiYaml(app)));
  ingestRoutes(app, memory);
  domainRoutes(app, memory);
  memoryRoutes(app, memory);
  auditRoutes(app, memory);
  recallRoutes(app, memory);
  // recall routes (issue 3) register here
  writeDoorRoutes(app, memory);
  conversationRoutes(app, memory);
  // hygiene routes (issue 4) register here
  // graph routes (issue 5) register here
  graphRoutes(app, memory);
  // governance routes (issue 6) register here
  governanceRoutes(app, memory);
  erasureRoutes(app, memory);
  // ump routes (issue 7) register here
  umpRoutes(app, memory);
  umpFileRoutes(app, memory);
  // auth and ops routes (issue 8) register here
  opsRoutes(app, memory);
  // parcel and domain-snapshot routes (issue 14)
  parcelRoutes(app, memory);
  domainSnapshotRoutes(app, memory);
  // the operator web client at /app (issue 19, src/web/)
  webRoutes(app, memory);
  declareWebPages(app);
  // workflow, case and channel routes (issue 16)
  workflowRoutes(app, memory);
  channelRoutes(app, memory);
  // claims loop and the model-provider lane (issue 17)
  claimRoutes(app, memory);
  providerRoutes(app, memory);
  // KCS knowledge base (issue 17)
  kcsRoutes(app, memory);
  // connectors (issue 15)
  connectorRoutes(app, memory);

  app.notFound((c) => c.json({ error: { code: "not_found", message: "not found" } }, 404));
  app.onError((err, c) => renderError(err, c, memory));
  return app as unknown as AppType;
}

/**
 * Renders a thrown value as the SPEC §7 envelope. A 500 (issue 23 §2) also
 * writes one log line with a fresh request id, which the client receives as
 * `details.request_id` and `X-Request-Id`, so a report can be matched to it.
 */
export function renderError(err: unknown, c: Context, memory: Memory): Response {
  // A route's validator (src/http/api-router.ts) refuses unparsable JSON with Hono's HTTPException: same envelope as readJson.
  if (err instanceof HTTPException && err.status === 400) {
    return c.json({ error: { code: "invalid_json", message: "request body is not valid JSON" } }, 400);
  }
  // A body route's media-type gate (a declared JSON body sent as something else): an envelope, never a 500.
  if (err instanceof HTTPException && err.status === 415) {
    return c.json({ error: { code: "unsupported_media_type", message: "request body must be application/json" } }, 415);
  }
  const { status, body } = toErrorResponse(err);
  if (status !== 500) return c.json(body, status as 400);
  const requestId = crypto.randomUUID();
  const ep = endpointOf(c);
  memory.log("error", "internal_error", {
    request_id: requestId, method: c.req.method, route: ep ? ep.pattern : "unmatched",
    error: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 1000) : String(err).slice(0, 1000),
  });
  body.error.details = { ...body.error.details, request_id: requestId };
  return c.json(body, 500, { "X-Request-Id": requestId });
}
