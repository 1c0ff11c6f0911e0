/**
 * `AppType` for `hc<AppType>(url)` from `hono/client` (issue 21): the route
 * schemas of every feature router whose registering function returns its
 * router. A router added later joins the client's types by returning its
 * router and being listed here.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { auditRoutes } from "./routes/audit.ts";
import type { coreRoutes } from "./routes/core.ts";

// deno-lint-ignore no-explicit-any
type SchemaOf<F> = F extends (...args: any[]) => OpenAPIHono<any, infer S, any> ? S : never;

type Schemas =
  & SchemaOf<typeof coreRoutes>
  & SchemaOf<typeof auditRoutes>;

/** The Cairn app as the typed client sees it. */
// deno-lint-ignore ban-types
export type AppType = OpenAPIHono<{}, Schemas, "/">;
