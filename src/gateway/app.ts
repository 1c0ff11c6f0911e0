/**
 * The gateway's local API (SPEC §4.13, §5 item 10, §7 "over budget", §8).
 * Each request is first admitted, then draws from the one global budget
 * (100 / 60 s; bare 429 with `RETRY-AFTER: 60`), then meets the route:
 * - With `server.auth_token` set (an empty token was already turned into
 *   none) admission is the bearer; without one, the service's browser posture
 *   (src/auth/browser-posture.ts): a loopback `Host`, no foreign or `null`
 *   `Origin`. A refused request (401, 403) draws from a separate refusal
 *   budget of the same size, so a page or process without the credential can
 *   neither starve the clients' budget nor guess tokens quickly.
 * - Bodies are JSON only (415 otherwise, in every posture) and at most
 *   `GATEWAY_MAX_BODY_BYTES` (a bare 413, like the service's, src/limits/body-limit.ts).
 * `closing` ends the event streams when the process stops.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { bodyTypeAccepted, hasBody, hostOriginRefusal } from "../auth/browser-posture.ts";
import { limitBody } from "../limits/body-limit.ts";
import { type RecipientCache, RequestBudget, type SendGate } from "./limits.ts";
import type { StreamState } from "./reconnect.ts";
import type { SignalBackend } from "./signal-cli.ts";
import { FieldError, maskAccount, messageText, recipient, recipients, requireCleanBody } from "./validate.ts";
import { sha256Hex } from "./config.ts";
import { resolveRecipients } from "./resolve.ts";

/** Logger the gateway writes to (the runtime entry prints JSON lines). */
export type GatewayLog = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => void;

export interface GatewayAppDeps {
  version: string;
  authToken: string | null;
  signal: SignalBackend;
  /** The global budget of admitted requests (SPEC §8). */
  budget: RequestBudget;
  /** The budget refused requests draw from; default its own 100 / 60 s. */
  refusals?: RequestBudget;
  cache: RecipientCache;
  sends: SendGate;
  log: GatewayLog;
  /** The inbound follower's stream state, reported by `/v1/health` when signal-cli is unreachable. */
  stream?: StreamState;
  /** Aborted when the gateway stops: open event streams end. */
  closing?: AbortSignal;
}

/** The request-body bound (x-cairn-choice): 256 KiB, about four times the largest legitimate body (a 1,000-entry seed). */
export const GATEWAY_MAX_BODY_BYTES = 256 * 1024;
/** How long `/v1/health` waits for signal-cli. */
export const HEALTH_PROBE_MS = 2000;
const JSON_ONLY = ["application/json"] as const;

/** Builds the gateway app. */
export function gatewayApp(d: GatewayAppDeps): Hono {
  const app = new Hono();
  const refusals = d.refusals ?? new RequestBudget();
  // SPEC §7: over budget is a bare 429, empty body.
  const overBudget = () => new Response(null, { status: 429, headers: { "RETRY-AFTER": String(RequestBudget.WINDOW_MS / 1000) } });
  app.use("*", async (c, next) => {
    const refuse = (status: 401 | 403, body: Record<string, string>) => (refusals.take() ? c.json(body, status) : overBudget());
    if (d.authToken !== null) {
      if (!bearerMatches(c.req.header("authorization"), d.authToken)) return refuse(401, { error: "unauthorized" });
    } else {
      // Token-less, a web page is a loopback caller too: DNS rebinding and cross-site requests are refused.
      const reason = hostOriginRefusal(c.req.header("host") ?? new URL(c.req.url).host, c.req.header("origin"));
      if (reason) return refuse(403, { error: "origin_refused", reason });
    }
    if (!d.budget.take()) return overBudget();
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && !bodyTypeAccepted(JSON_ONLY, c.req.header("content-type"), hasBody(c.req.header("content-length"), c.req.header("transfer-encoding")))) {
      return c.json({ error: "unsupported_media_type", accepted: [...JSON_ONLY] }, 415);
    }
    await next();
  });
  app.use("*", limitBody(() => GATEWAY_MAX_BODY_BYTES));
  app.onError((err, c) => {
    if (err instanceof FieldError) return c.json({ error: err.message, field: err.field }, 400);
    d.log("error", "gateway request failed", { error: err instanceof Error ? err.message : String(err) });
    return c.json({ error: "signal backend unavailable" }, 502);
  });

  // Recipients are resolved (seeded phone → service id, username → service id) before a send slot is taken.
  const resolve = (recips: string[], body: Record<string, unknown>) => resolveRecipients(recips, (i) => body.recipients !== undefined ? `recipients[${i}]` : "recipient", d);
  const send = async (recips: string[], text: string) => d.sends.run(() => d.signal.call("send", { recipient: recips, message: text }));

  app.get("/v1/health", async (c) => {
    // SPEC §4.13 `{status: ok, version}` only while signal-cli answers; otherwise say so (the API would answer 502).
    // The bound covers opening a connection too (a stream backend connects before its call timer starts).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), HEALTH_PROBE_MS)));
    const reachable = await Promise.race([d.signal.call("listAccounts", {}, HEALTH_PROBE_MS).then(() => true, () => false), late]);
    clearTimeout(timer);
    if (reachable) return c.json({ status: "ok", version: d.version });
    const s = d.stream;
    const eventStream = s && s.failures > 0
      ? { event_stream: { failed_attempts: s.failures, next_attempt_in_s: s.retryAt === null ? 0 : Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000)) } }
      : {};
    return c.json({ status: "unavailable", version: d.version, signal_cli: { reachable: false, ...eventStream } }, 503);
  });
  const about = async () => {
    const acct = await d.signal.linkedAccount();
    return { linked: acct !== null, account: acct === null ? null : maskAccount(acct) };
  };
  app.get("/v1/about", async (c) => c.json({ versions: ["v1", "v2"], build: d.version, mode: "json-rpc", ...await about() }));
  app.get("/api/v1/accounts", async (c) => {
    const a = await about();
    return c.json(a.account === null ? [] : [{ number: a.account }]);
  });
  app.post("/v2/send", async (c) => {
    const body = await jsonBody(c.req.raw);
    const recips = recipients(body);
    const text = messageText(body.message, "message");
    const r = await send(await resolve(recips, body), text) as { timestamp?: number } | null;
    return c.json({ timestamp: String(r?.timestamp ?? "") }, 201);
  });
  app.post("/api/v1/rpc", async (c) => {
    let req: { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown };
    try {
      req = JSON.parse(await c.req.text());
    } catch {
      return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    }
    const id = req?.id ?? null;
    if (typeof req !== "object" || req === null || req.jsonrpc !== "2.0" || typeof req.method !== "string") return c.json({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" }, id });
    const p = (typeof req.params === "object" && req.params !== null ? req.params : {}) as Record<string, unknown>;
    try {
      requireCleanBody(p);
      return c.json({ jsonrpc: "2.0", result: await rpc(req.method, p), id });
    } catch (e) {
      if (e instanceof FieldError) return c.json({ jsonrpc: "2.0", error: { code: -32602, message: e.message, data: { field: e.field } }, id });
      if (e instanceof MethodNotFound) return c.json({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id });
      throw e;
    }
  });
  const rpc = async (method: string, p: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case "sendMessage":
      case "send":
      {
        const recips = recipients(p);
        const text = messageText(p.message, "message");
        return await send(await resolve(recips, p), text);
      }
      case "sendReaction": {
        const emoji = p.emoji;
        if (typeof emoji !== "string" || emoji === "" || [...emoji].length > 8) throw new FieldError("emoji", "emoji must be a short non-empty string");
        const ts = p.targetTimestamp;
        if (typeof ts !== "number" || !Number.isSafeInteger(ts) || ts <= 0) throw new FieldError("targetTimestamp", "targetTimestamp must be a positive integer");
        const recips = await resolve(recipients(p), p);
        const [author] = await resolveRecipients([recipient(p.targetAuthor, "targetAuthor")], () => "targetAuthor", d);
        return await d.sends.run(() => d.signal.call("sendReaction", { recipient: recips, emoji, targetAuthor: author, targetTimestamp: ts, remove: p.remove === true }));
      }
      case "sendTyping":
        return await d.signal.call("sendTyping", { recipient: await resolve(recipients(p), p), stop: p.stop === true });
      case "listGroups":
      case "getGroups":
        return []; // SPEC §4.13: groups are out of scope; an empty list
      case "sendReadReceipt":
      case "markRead":
        return null; // SPEC §4.13: a no-op
      default:
        throw new MethodNotFound();
    }
  };
  app.post("/v1/cache/seed", async (c) => {
    const body = await jsonBody(c.req.raw);
    if (!Array.isArray(body.entries) || body.entries.length === 0 || body.entries.length > RecipientCacheMaxSeed) throw new FieldError("entries", `entries must be a list of 1 to ${RecipientCacheMaxSeed} {number, uuid}`);
    const digests: string[] = [];
    for (const [i, e] of (body.entries as unknown[]).entries()) {
      const o = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
      const num = recipient(o.number, `entries[${i}].number`);
      if (!num.startsWith("+")) throw new FieldError(`entries[${i}].number`, `entries[${i}].number must be an E.164 number`);
      const uuid = recipient(o.uuid, `entries[${i}].uuid`);
      if (uuid.startsWith("+") || uuid.startsWith("u:")) throw new FieldError(`entries[${i}].uuid`, `entries[${i}].uuid must be a UUID`);
      d.cache.set(num, uuid);
      digests.push((await sha256Hex(num)).slice(0, 16));
    }
    // SPEC §4.13: seeding is logged at warning level, digests only.
    d.log("warn", "recipient cache seeded", { count: digests.length, number_sha256_16: digests });
    return c.json({ seeded: digests.length });
  });
  app.get("/api/v1/events", async (c) => {
    if (await d.signal.linkedAccount() === null) return c.json({ error: "Not linked" }, 503);
    return streamSSE(c, async (stream) => {
      const ac = new AbortController();
      stream.onAbort(() => ac.abort());
      // A stopping gateway ends the stream even when the subscriber stopped reading (a blocked write is released).
      const end = () => stream.abort();
      if (d.closing?.aborted) return;
      d.closing?.addEventListener("abort", end, { once: true });
      try {
        for await (const ev of d.signal.events(ac.signal)) await stream.writeSSE({ event: "receive", data: JSON.stringify(ev) });
      } catch (e) {
        if (!ac.signal.aborted) d.log("warn", "signal-cli event stream ended", { error: e instanceof Error ? e.message : String(e) });
      } finally {
        d.closing?.removeEventListener("abort", end);
      }
    });
  });
  app.get("/v1/receive/:number", (c) => c.json({ error: "Polling receive is not offered; subscribe to GET /api/v1/events (server-sent events)", events: "/api/v1/events" }, 410));
  app.notFound((c) => c.json({ error: "not found" }, 404));
  return app;
}

const RecipientCacheMaxSeed = 1000;

class MethodNotFound extends Error {}

async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await req.text());
  } catch {
    throw new FieldError("body", "body must be a JSON object");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new FieldError("body", "body must be a JSON object");
  requireCleanBody(v);
  return v as Record<string, unknown>;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? "");
  if (!m) return false;
  const a = new TextEncoder().encode(m[1]!);
  const b = new TextEncoder().encode(token);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
