/**
 * The request guard (SPEC §5, §7, §8), applied to every request in this
 * order: metrics and the connection watchdog's slot; the per-IP budget
 * (before authentication, on every path); the request deadline; the body
 * limit (1 MiB, 1 GiB on the domain import sub-route only); then, for a
 * matched non-public route, authentication (401 `unauthorized`) and the
 * deny-by-default gate (403 `route_ungated` / `forbidden`, each refusal one
 * hash-chained audit row). Unmatched paths fall through to the probe-blind 404.
 * Issue 23 §1: in the credential-less posture the Host must be loopback and a
 * present Origin this server's own (403 `origin_refused`, before the body is
 * read); a matched route's body must be of a type its row accepts (415
 * `unsupported_media_type`, `src/http/media-types.ts`), checked after
 * authentication so an unauthenticated caller still sees 401 first.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { describeGate } from "../authz/gate.ts";
import { decide } from "../authz/oracle.ts";
import { MemoryError } from "../core/errors.ts";
import { clientIdentity } from "../limits/client-identity.ts";
import type { Memory } from "../memory.ts";
import { verifyWebhook } from "../outbound/webhook-signature.ts";
import { endpointOf, paramsOf } from "./endpoint.ts";
import { GATES, gateKey, isPublicKey } from "./gates.ts";
import { checkBodyType, checkHostAndOrigin, hasBody } from "./browser-posture.ts";
import { limitBody } from "../limits/body-limit.ts";
import { mediaTypeOf } from "./media-types.ts";
import { requireCleanJson, requireCleanParams, requireShallowJson } from "./well-formed.ts";
import "./principal.ts";

/** SPEC §8: request body limit. */
export const MAX_REQUEST_SIZE = 1024 * 1024;
/** SPEC §8: the domain import sub-route alone takes up to 1 GiB. */
export const MAX_IMPORT_SIZE = 1024 * 1024 * 1024;
const IMPORT_ROUTE = "POST /domains/:name/import";

/** What the runtime adapter passes as `c.env` (see `serveFetch`); `app.request` callers pass it explicitly. */
export interface CairnBindings {
  /** Socket peer address; never taken from a header. */
  remoteAddr?: string;
}

/** The socket peer address of the request, when the adapter knows it. */
export function peerOf(c: Context): string | undefined {
  const env = c.env as CairnBindings | undefined;
  return typeof env?.remoteAddr === "string" ? env.remoteAddr : undefined;
}

/** Installs the guard middleware, outermost first, before any route. */
export function installGuard(app: Hono, memory: Memory): void {
  const s = memory.security;
  app.use("*", observe(memory));
  app.use("*", async (c, next) => {
    const key = clientIdentity(peerOf(c), c.req.header("x-forwarded-for"), s.rateLimit.trustProxy);
    const d = s.rateLimiter.hit(key, Date.now());
    if (!d.allowed) {
      s.metrics.rateLimited();
      // SPEC §7: the 429 body is exactly {error, code}, not the nested envelope.
      return c.json({ error: "rate_limited", code: "rate_limited" }, 429, { "Retry-After": String(Math.max(1, Math.ceil(d.resetMs / 1000))) });
    }
    await next();
  });
  app.use("*", deadline(memory));
  if (!s.authenticator.required) {
    app.use("*", (c, next) => {
      checkHostAndOrigin(c.req.header("host") ?? new URL(c.req.url).host, c.req.header("origin"));
      return next();
    });
  }
  // SPEC §7: a body over the limit is a bare 413 with no envelope (drained first, issue 23 §3).
  const small = limitBody(() => MAX_REQUEST_SIZE);
  // The import sub-route streams its body (SPEC §8: up to 1 GiB): counted as it is read, never buffered here.
  const large = streamLimit(MAX_IMPORT_SIZE);
  app.use("*", (c, next) => {
    const ep = endpointOf(c);
    return (ep && gateKey(ep.method, ep.pattern) === IMPORT_ROUTE ? large : small)(c, next);
  });
  app.use("*", authorize(memory));
  app.use("*", async (c, next) => {
    const ep = endpointOf(c);
    if (ep) requireCleanParams(c.req.queries(), paramsOf(ep.pattern, c.req.path));
    if (ep && c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "OPTIONS") {
      const key = gateKey(ep.method, ep.pattern);
      const type = c.req.header("content-type");
      checkBodyType(key, type, hasBody(c.req.header("content-length"), c.req.header("transfer-encoding")));
      // The text-field rule (src/core/text-rule.ts): NUL and lone surrogates are refused with 400 naming the field,
      // never stored altered (c.req caches the text for the route).
      if (type !== undefined && mediaTypeOf(type) === "application/json") {
        const text = await c.req.text();
        requireShallowJson(text);
        requireCleanJson(text, key);
      }
    }
    await next();
  });
}

/** A body limit that counts bytes as the route reads them; past `max` the read fails with `payload_too_large` (a bare 413). */
function streamLimit(max: number): MiddlewareHandler {
  return async (c, next) => {
    if (Number(c.req.header("content-length") ?? 0) > max) return c.body(null, 413);
    const body = c.req.raw.body;
    if (body) {
      let seen = 0;
      const counted = body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctrl) {
          seen += chunk.byteLength;
          if (seen > max) ctrl.error(new MemoryError("payload_too_large", "request body too large", undefined, 413));
          else ctrl.enqueue(chunk);
        },
      }));
      c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers: c.req.raw.headers, body: counted, duplex: "half" } as RequestInit);
    }
    await next();
  };
}

function observe(memory: Memory): MiddlewareHandler {
  const s = memory.security;
  return async (c, next) => {
    const ep = endpointOf(c);
    const route = ep ? ep.pattern : "unmatched";
    const t0 = performance.now();
    const release = s.slots.open(`${c.req.method} ${route}`, Date.now());
    try {
      await next();
    } finally {
      release();
      s.metrics.request(c.req.method, route, c.res.status, (performance.now() - t0) / 1000);
    }
  };
}

function deadline(memory: Memory): MiddlewareHandler {
  const ms = memory.config.requestDeadlineMs;
  return async (c, next) => {
    // The 1 GiB import sub-route is bounded by its body limit instead: a deadline cut mid-import could not stop the
    // commit it had started (the import is one transaction either way).
    const ep = endpointOf(c);
    if (ep && gateKey(ep.method, ep.pattern) === IMPORT_ROUTE) return next();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        memory.security.metrics.poolTimeout();
        reject(new MemoryError("deadline_exceeded", `request exceeded the ${ms / 1000} s deadline`));
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}

function authorize(memory: Memory): MiddlewareHandler {
  const s = memory.security;
  return async (c, next) => {
    const ep = endpointOf(c);
    if (!ep) return next(); // SPEC §5: unmatched paths keep probe-blind 404s
    const key = gateKey(ep.method, ep.pattern);
    if (isPublicKey(key)) return next();
    const gate = GATES[key];

    // A `workflow` gate with `signed` takes the signed path when the request carries a signature (the gateway's mount).
    if (gate?.level === "signed-webhook" || (gate?.level === "workflow" && gate.signed && c.req.header("webhook-signature") !== undefined)) {
      // SPEC §5 item 10: the channel edge authenticates by a Standard-Webhooks signature, not a bearer.
      if (gate.level === "signed-webhook" && c.req.header("authorization") !== undefined && c.req.header("webhook-signature") === undefined) {
        // A bearer is no channel credential: a valid one is refused with 403 (the agent role by name, SPEC §5 item 3).
        const bearer = await s.authenticator.authenticate({ authorization: c.req.header("authorization"), peer: peerOf(c), acceptsCapability: false });
        if (!bearer.ok) return unauthorized(memory, c, bearer.reason);
        const verdict = decide(bearer.principal, gate, { params: paramsOf(ep.pattern, c.req.path), rolelessPosture: s.rolelessPosture });
        const refused = { reason: verdict.verdict === "Deny" ? verdict.reason : "role_missing" as const };
        await s.recordRefusal({ reason: refused.reason, method: ep.method, route: ep.pattern, principal: bearer.principal })
          .catch(() => memory.security.metrics.authzRefusal("audit_write_failed"));
        throw new MemoryError("forbidden", "Not permitted", { reason: refused.reason, gate: describeGate(gate) });
      }
      const secret = s.channelWebhookSecret;
      const body = await c.req.text();
      const v = secret === undefined ? undefined : await verifyWebhook(secret, c.req.raw.headers, body, { now: new Date() });
      if (!v?.ok) return unauthorized(memory, c, v ? v.reason : "webhook_secret_unset");
      c.set("principal", { subject: "channel-webhook", roles: [], kind: "signed-webhook" });
      c.set("webhookId", v.id);
      return next();
    }

    const outcome = await s.authenticator.authenticate({
      authorization: c.req.header("authorization"),
      peer: peerOf(c),
      acceptsCapability: gate !== undefined && (gate.level === "read" || gate.level === "write") && gate.capability !== undefined,
    });
    if (!outcome.ok) return unauthorized(memory, c, outcome.reason);
    const principal = outcome.principal;
    const verdict = decide(principal, gate, { params: paramsOf(ep.pattern, c.req.path), rolelessPosture: s.rolelessPosture });
    if (verdict.verdict === "Deny") {
      // Refused whatever happens to the audit write (fail closed); the row is the record, not the gate.
      await s.recordRefusal({ reason: verdict.reason, method: gateKey(ep.method, ep.pattern).split(" ")[0]!, route: ep.pattern, principal })
        .catch(() => memory.security.metrics.authzRefusal("audit_write_failed"));
      if (verdict.reason === "route_ungated") throw new MemoryError("route_ungated", "This route has no gate and is refused");
      throw new MemoryError("forbidden", "Not permitted", { reason: verdict.reason, gate: gate ? describeGate(gate) : undefined });
    }
    // SPEC §5 item 3: `pass` admits a roleless principal everywhere; on an admin route that is a sharp default, so it
    // is named on /health/db (and logged once) with the safer setting.
    if (verdict.reason === "roleless_pass" && gate?.level === "admin") {
      const message = `A token with no roles was admitted to ${ep.method} ${ep.pattern} (an admin route) because CAIRN_RBAC_ROLELESS_POSTURE=pass; set CAIRN_RBAC_ROLELESS_POSTURE=deny to refuse roleless tokens`;
      if (memory.warnings.add("roleless_admin_access", message)) memory.log("warn", message, { code: "roleless_admin_access" });
    }
    c.set("principal", principal);
    await next();
  };
}

function unauthorized(memory: Memory, c: Context, reason: string): Response {
  memory.security.metrics.authFailure(reason);
  // SPEC §7: 401 is never swallowed; the envelope names no secret and no route detail.
  return c.json({ error: { code: "unauthorized", message: "Missing, invalid or expired credential" } }, 401, { "WWW-Authenticate": 'Bearer realm="cairn"' });
}
