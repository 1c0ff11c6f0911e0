/**
 * Governance routes (SPEC §4.2 `/ingest/proposal`, §4.3 review, §4.4
 * purge, erasure and consolidation): thin bindings over `memory.review`,
 * `memory.consolidate` and `memory.erasure`.
 */
import type { Context, Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { piiReadOf } from "../principal.ts";
import { readJson } from "../read-json.ts";

function idParam(raw: string | undefined, field = "id"): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new MemoryError("invalid_id", `${field} must be a positive integer`, { field }, 400);
  }
  return Number(raw);
}

function intQuery(c: Context, name: string, dflt: number, max: number): number {
  const v = c.req.query(name);
  if (v === undefined || v === "") return dflt;
  if (!/^[0-9]{1,15}$/.test(v) || Number(v) > max) throw new MemoryError("invalid_request", `${name} must be an integer from 0 to ${max}`, { field: name });
  return Number(v);
}

/** An optional JSON body: empty is `{}`. */
async function bodyOrEmpty(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    const v = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v;
  } catch { /* fall through */ }
  throw new MemoryError("invalid_json", "request body must be a JSON object");
}

function optionalId(b: Record<string, unknown>, field: string): number | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (!Number.isSafeInteger(v) || (v as number) < 1) throw new MemoryError("invalid_request", `${field} must be a positive integer`, { field });
  return v as number;
}

/** Registers the review, consolidation, purge and erasure routes. */
export function governanceRoutes(app: Hono, memory: Memory): void {
  app.post("/ingest/proposal", async (c) => c.json(await memory.review.propose(await readJson(c))));
  app.get("/proposals", async (c) => c.json(await memory.review.list({
    status: c.req.query("status") || undefined, after: intQuery(c, "after", 0, Number.MAX_SAFE_INTEGER), limit: Math.max(1, intQuery(c, "limit", 100, 500)),
    piiRead: piiReadOf(c),
  })));
  app.get("/proposals/:id", async (c) => c.json(await memory.review.get(idParam(c.req.param("id")), { piiRead: piiReadOf(c) })));
  app.post("/proposals/:id/approve", async (c) => {
    const id = idParam(c.req.param("id"));
    const s = c.req.query("supersedes");
    return c.json(await memory.review.approve(id, { digest: c.req.query("digest"), supersedes: s === undefined || s === "" ? undefined : idParam(s, "supersedes") }));
  });
  // SPEC §3: a `reason` is accepted (query or body) and not persisted, so the body is never read.
  app.post("/proposals/:id/reject", async (c) => c.json(await memory.review.reject(idParam(c.req.param("id")))));

  app.post("/consolidate/propose", async (c) => {
    const b = await bodyOrEmpty(c);
    return c.json(await memory.consolidate.propose({ domain: b.domain as string | undefined, threshold: b.threshold as number | undefined }));
  });
  app.get("/consolidate/links", async (c) => c.json(await memory.consolidate.list({
    status: c.req.query("status") || undefined, after: intQuery(c, "after", 0, Number.MAX_SAFE_INTEGER), limit: Math.max(1, intQuery(c, "limit", 100, 500)),
  })));
  app.post("/consolidate", async (c) => {
    const b = await bodyOrEmpty(c);
    const kind = b.kind;
    if (kind !== undefined && kind !== "supersedes" && kind !== "contradicts") throw new MemoryError("invalid_request", "kind must be supersedes or contradicts", { field: "kind" });
    return c.json(await memory.consolidate.approve({ id: optionalId(b, "id"), from: optionalId(b, "from"), to: optionalId(b, "to"), kind }));
  });
  app.post("/consolidate/undo", async (c) => {
    const id = optionalId(await bodyOrEmpty(c), "id");
    if (id === undefined) throw new MemoryError("invalid_request", "id is required", { field: "id" });
    return c.json(await memory.consolidate.undo(id));
  });

  app.post("/purge", async (c) => c.json(await memory.erasure.purge(await readJson(c))));
  app.post("/dsar", async (c) => c.json(await memory.erasure.dsar(await readJson(c))));
  app.get("/dsar/certificates/:id", async (c) => c.json(await memory.erasure.certificate(c.req.param("id"))));
  app.post("/dsar/verify", async (c) => {
    const b = await readJson(c);
    // Body: the certificate itself, or {certificate, subject?}.
    const wrapped = typeof b === "object" && b !== null && "certificate" in b;
    const cert = wrapped ? (b as { certificate: unknown }).certificate : b;
    const s = wrapped ? (b as { subject?: unknown }).subject : undefined;
    if (s !== undefined && (typeof s !== "object" || s === null || Object.values(s).some((v) => typeof v !== "string"))) {
      throw new MemoryError("invalid_request", "subject must be an object of strings {owner?, email?, match?}", { field: "subject" });
    }
    return c.json(await memory.erasure.verify(cert, s as Record<string, string> | undefined));
  });
}
