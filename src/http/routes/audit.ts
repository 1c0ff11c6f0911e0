/** Audit routes (SPEC §4.8): paged listing and chain verification, declared as schemas in code (issue 21). */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { AuditPage, AuditRow, AuditVerify, json, q } from "../shapes.ts";

function intParam(v: string | undefined, name: string, dflt: number, max: number): number {
  if (v === undefined || v === "") return dflt;
  if (!/^[0-9]{1,15}$/.test(v) || Number(v) > max) throw new MemoryError("invalid_request", `${name} must be an integer from 0 to ${max}`, { field: name });
  return Number(v);
}

const list = createRoute({
  method: "get", path: "/audit", operationId: "listAudit", tags: ["audit"], security: BEARER,
  summary: "Page the hash-chained audit log (this project's shape; deprecated-set header per SPEC §9.4)", "x-cairn-choice": true,
  request: {
    query: z.object({
      after: q("return rows with id > after", { type: "integer", minimum: 0 }),
      limit: q("page size, 1 to 1000 (default 100)", { type: "integer", minimum: 1, maximum: 1000 }),
      action: q("only rows with this action"),
    }),
  },
  responses: { 200: json(AuditPage, "{rows: [{id, ts, action, actor?, target?, detail, prev_hash, hash}], next_after?}"), ...errorResponses(400, 401, 403) },
});

const verify = createRoute({
  method: "get", path: "/audit/verify", operationId: "verifyAudit", tags: ["audit"], security: BEARER,
  summary: "Verify the chain end to end (this project's shape)", "x-cairn-choice": true,
  description: "hash = SHA-256(prev_hash hex UTF-8 ‖ JCS({id, ts, action, actor, target, detail})); the first row links to 64 zeros.\n" +
    "Reply {ok, rows, head?, first_broken?: {id, reason: hash_mismatch | link_mismatch | unreadable}}.",
  responses: { 200: json(AuditVerify, "Verification result"), ...errorResponses(401, 403) },
});

/** Registers `GET /audit` and `GET /audit/verify`. */
export function auditRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(list, async (c) => {
    const after = intParam(c.req.query("after"), "after", 0, Number.MAX_SAFE_INTEGER);
    const limit = Math.max(1, intParam(c.req.query("limit"), "limit", 100, 1000));
    const action = c.req.query("action") || undefined;
    const page = await memory.audit.list({ after, limit, action });
    const rows = page.rows.map((row) => {
      // Key order as before: actor and target only when set, then detail and the chain hashes.
      const o: Record<string, unknown> = { id: row.id, ts: row.ts, action: row.action };
      if (row.actor !== undefined) o.actor = row.actor;
      if (row.target !== undefined) o.target = row.target;
      o.detail = row.detail;
      o.prev_hash = row.prevHash;
      o.hash = row.hash;
      return o as z.infer<typeof AuditRow>;
    });
    return c.json(page.next_after !== undefined ? { rows, next_after: page.next_after } : { rows }, 200);
    })
    .openapi(verify, async (c) => c.json(await memory.audit.verify() as z.infer<typeof AuditVerify>, 200));
  app.route("/", r);
  return r;
}
