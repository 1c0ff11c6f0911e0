/** Audit routes (SPEC §4.8): paged listing and chain verification. */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";

function intParam(v: string | undefined, name: string, dflt: number, max: number): number {
  if (v === undefined || v === "") return dflt;
  if (!/^[0-9]{1,15}$/.test(v) || Number(v) > max) throw new MemoryError("invalid_request", `${name} must be an integer from 0 to ${max}`, { field: name });
  return Number(v);
}

/** Registers `GET /audit` and `GET /audit/verify`. */
export function auditRoutes(app: Hono, memory: Memory): void {
  app.get("/audit", async (c) => {
    const after = intParam(c.req.query("after"), "after", 0, Number.MAX_SAFE_INTEGER);
    const limit = Math.max(1, intParam(c.req.query("limit"), "limit", 100, 1000));
    const action = c.req.query("action") || undefined;
    const page = await memory.audit.list({ after, limit, action });
    const rows = page.rows.map((r) => {
      const o: Record<string, unknown> = { id: r.id, ts: r.ts, action: r.action };
      if (r.actor !== undefined) o.actor = r.actor;
      if (r.target !== undefined) o.target = r.target;
      o.detail = r.detail;
      o.prev_hash = r.prevHash;
      o.hash = r.hash;
      return o;
    });
    return c.json(page.next_after !== undefined ? { rows, next_after: page.next_after } : { rows });
  });
  app.get("/audit/verify", async (c) => c.json(await memory.audit.verify()));
}
