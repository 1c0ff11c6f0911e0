/**
 * The Hono app over Web-standard Request/Response (SPEC §4, §7, §9): a thin
 * binding over the composition root. Every response carries
 * `X-Api-Version`; every non-2xx has the SPEC §7 envelope except the bare
 * 413; unknown paths are probe-blind 404s.
 */
import { Hono } from "hono";
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
import { toErrorResponse } from "./status.ts";
import { writeDoorRoutes } from "./routes/write-doors.ts";
import { governanceRoutes } from "./routes/governance.ts";
import { recallRoutes } from "./routes/recall.ts";
import { graphRoutes } from "./routes/graph.ts";
import { installGuard } from "./guard.ts";
import { gateKey } from "./gates.ts";
import { opsRoutes } from "./routes/ops.ts";
import { umpRoutes } from "./routes/ump.ts";
import { umpFileRoutes } from "./routes/ump-files.ts";
import { workflowRoutes } from "./routes/workflow.ts";
import { channelRoutes } from "./routes/channels.ts";

export type { AppOptions } from "./options.ts";

/** SPEC §8: request body limit (enforced by the guard). */
export { MAX_REQUEST_SIZE } from "./guard.ts";

/** Builds the app for one Memory. */
export function createApp(memory: Memory, opts: AppOptions): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("X-Api-Version", VERSION);
    // HEAD is answered by the GET route, so it carries the same header (SPEC §9.4).
    if (DEPRECATED_ROUTES.has(gateKey(c.req.method, c.req.path))) c.res.headers.set("Deprecation", DEPRECATION_VALUE);
  });
  // Issue 8: rate limit, deadline, body limit, authentication and the deny-by-default gate (rows in src/http/gates.ts).
  installGuard(app, memory);

  coreRoutes(app, memory, opts);
  ingestRoutes(app, memory);
  domainRoutes(app, memory);
  memoryRoutes(app, memory);
  auditRoutes(app, memory);
  recallRoutes(app, memory);
  // recall routes (issue 3) register here
  writeDoorRoutes(app, memory);
  // hygiene routes (issue 4) register here
  // graph routes (issue 5) register here
  graphRoutes(app, memory);
  // governance routes (issue 6) register here
  governanceRoutes(app, memory);
  // ump routes (issue 7) register here
  umpRoutes(app, memory);
  umpFileRoutes(app, memory);
  // auth and ops routes (issue 8) register here
  opsRoutes(app, memory);
  // workflow, case and channel routes (issue 16)
  workflowRoutes(app, memory);
  channelRoutes(app, memory);

  app.notFound((c) => c.json({ error: { code: "not_found", message: "not found" } }, 404));
  app.onError((err, c) => {
    // A route's validator (src/http/api-router.ts) refuses unparsable JSON with Hono's HTTPException: same envelope as readJson.
    if (err instanceof HTTPException && err.status === 400) {
      return c.json({ error: { code: "invalid_json", message: "request body is not valid JSON" } }, 400);
    }
    const { status, body } = toErrorResponse(err);
    return c.json(body, status as 400);
  });
  return app;
}
