/**
 * The ten UMP routes under `/ump/` plus `/.well-known/ump.json` (SPEC §4.9,
 * §5 items 4–6, §6), a thin binding over `memory.ump`. The gate middleware
 * resolves the caller on every route but the capabilities document: with an
 * operator key configured it demands a capability token or the operator
 * bearer, on loopback too (401 `unauthorized`); verbs and scope are checked
 * per operation by the service.
 */
import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { Memory } from "../../memory.ts";
import type { UmpActor } from "../../ump/actor.ts";
import { canRead } from "../../ump/actor.ts";
import type { UmpChange } from "../../ump/events.ts";
import { piiReadOf, principalOf } from "../principal.ts";
import { readJson } from "../read-json.ts";

/** SSE heartbeat comment interval (keeps proxies from closing an idle stream). */
const HEARTBEAT_MS = 25_000;

/** The bearer value of a request, if any. */
export function bearerOf(c: Context): string | undefined {
  const h = c.req.header("authorization");
  const m = h ? /^Bearer[ \t]+(.+)$/i.exec(h.trim()) : null;
  return m ? m[1].trim() : undefined;
}

/** Resolves the UMP caller of a request; `strict` (UMP routes) refuses the anonymous caller of a keyed store with 401. */
export function umpActor(c: Context, memory: Memory, strict = true): Promise<UmpActor> {
  return memory.ump.authenticate({ bearer: bearerOf(c), principal: principalOf(c), piiRead: piiReadOf(c), strict });
}

/** Registers the UMP routes. */
export function umpRoutes(app: Hono, memory: Memory): void {
  const caps = async (c: Context) => c.json(await memory.ump.capabilities());
  app.get("/ump/capabilities", caps);
  app.get("/.well-known/ump.json", caps);

  // Every other /ump/ route resolves its caller first (SPEC §5 item 6: signature and expiry in middleware).
  app.use("/ump/*", async (c, next) => {
    if (c.req.path === "/ump/capabilities") return await next();
    (c.set as (k: string, v: unknown) => void)("umpActor", await umpActor(c, memory));
    await next();
  });
  const actor = (c: Context) => (c.get as (k: string) => unknown)("umpActor") as UmpActor;

  app.post("/ump/remember", async (c) => c.json(await memory.ump.remember(actor(c), await readJson(c))));
  app.get("/ump/memory/:id", async (c) => c.json(await memory.ump.get(actor(c), c.req.param("id"))));
  app.post("/ump/recall", async (c) => c.json(await memory.ump.recall(actor(c), await readJson(c))));
  app.post("/ump/revise", async (c) => c.json(await memory.ump.revise(actor(c), await readJson(c))));
  app.post("/ump/forget", async (c) => c.json(await memory.ump.forget(actor(c), await readJson(c))));
  app.post("/ump/feedback", async (c) => c.json(await memory.ump.feedback(actor(c), await readJson(c))));
  // An empty body reads the log from the start.
  app.post("/ump/audit", async (c) => c.json(await memory.ump.audit(actor(c), (await c.req.text()).trim() === "" ? undefined : await readJson(c))));
  app.get("/ump/audit/verify", async (c) => c.json(await memory.ump.auditVerify(actor(c))));

  // SPEC §6: a change signal only, `{kind, id}`, never a body; only changes the caller may read.
  app.get("/ump/subscribe", (c) => {
    const who = actor(c);
    return streamSSE(c, async (stream) => {
      const queue: UmpChange[] = [];
      let wake: (() => void) | undefined;
      const off = memory.ump.events.subscribe((ch) => {
        if (!canRead(who, ch.scope)) return;
        queue.push(ch);
        wake?.();
      });
      stream.onAbort(() => {
        off();
        wake?.();
      });
      try {
        await stream.write(": connected\n\n");
        while (!stream.aborted && !stream.closed) {
          while (queue.length) {
            const ch = queue.shift()!;
            await stream.writeSSE({ event: "change", data: JSON.stringify({ kind: ch.kind, id: ch.id }) });
          }
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, HEARTBEAT_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = undefined;
          if (!queue.length && !stream.aborted) await stream.write(": ping\n\n");
        }
      } finally {
        off();
      }
    });
  });
}
