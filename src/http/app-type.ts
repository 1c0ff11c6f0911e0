/**
 * `AppType` for `hc<AppType>(url)` from `hono/client` (issue 21): the route
 * schemas of every feature router whose registering function returns its
 * router. A router added later joins the client's types by returning its
 * router and being listed here.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { auditRoutes } from "./routes/audit.ts";
import type { coreRoutes } from "./routes/core.ts";
import type { domainRoutes } from "./routes/domains.ts";
import type { erasureRoutes } from "./routes/erasure.ts";
import type { governanceRoutes } from "./routes/governance.ts";
import type { graphRoutes } from "./routes/graph.ts";
import type { ingestRoutes } from "./routes/ingest.ts";
import type { memoryRoutes } from "./routes/memory.ts";
import type { opsRoutes } from "./routes/ops.ts";
import type { recallRoutes } from "./routes/recall.ts";
import type { umpFileRoutes } from "./routes/ump-files.ts";
import type { umpRoutes } from "./routes/ump.ts";
import type { writeDoorRoutes } from "./routes/write-doors.ts";

// deno-lint-ignore no-explicit-any
type SchemaOf<F> = F extends (...args: any[]) => OpenAPIHono<any, infer S, any> ? S : never;

type Schemas =
  & SchemaOf<typeof coreRoutes>
  & SchemaOf<typeof ingestRoutes>
  & SchemaOf<typeof domainRoutes>
  & SchemaOf<typeof memoryRoutes>
  & SchemaOf<typeof auditRoutes>
  & SchemaOf<typeof recallRoutes>
  & SchemaOf<typeof writeDoorRoutes>
  & SchemaOf<typeof graphRoutes>
  & SchemaOf<typeof governanceRoutes>
  & SchemaOf<typeof erasureRoutes>
  & SchemaOf<typeof umpRoutes>
  & SchemaOf<typeof umpFileRoutes>
  & SchemaOf<typeof opsRoutes>;

/** The Cairn app as the typed client sees it. */
// deno-lint-ignore ban-types
export type AppType = OpenAPIHono<{}, Schemas, "/">;
