/**
 * The text-field rule at the messaging gateway (docs/limits.md "Text fields"):
 * a send carrying NUL or a lone surrogate is refused with 400 naming the field
 * and nothing reaches signal-cli; an inbound message carrying one is not
 * forwarded to the service (which would refuse it) and is logged without its text.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayApp, type GatewayLog } from "../../src/gateway/app.ts";
import { RecipientCache, RequestBudget, SendGate } from "../../src/gateway/limits.ts";
import { forwardInbound } from "../../src/gateway/service-link.ts";
import { SignalCli } from "../../src/gateway/signal-cli.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

let fake: FakeSignalCli;
let logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
const log: GatewayLog = (level, msg, fields) => logs.push({ level, msg, fields });
beforeEach(async () => {
  fake = await startFakeSignalCli();
  logs = [];
});
afterEach(async () => fake.close());

const app = () => gatewayApp({
  version: "1.0.0", authToken: null, signal: new SignalCli(fake.url, null), log,
  budget: new RequestBudget(), cache: new RecipientCache(), sends: new SendGate(2),
});
const post = (a: ReturnType<typeof app>, path: string, raw: string) =>
  a.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
const sends = () => fake.calls.filter((c) => c.method === "send" || c.method === "sendReaction");

describe("gateway sends meet the text-field rule", () => {
  it.each([
    ['{"recipient":"+4915112345678","message":"A.\\u0000 hidden"}', "message"],
    ['{"recipient":"+4915112345678","message":"half \\ud800 pair"}', "message"],
    ['{"recipient":"+4915112345678","message":"ok","note\\u0000":1}', "(key)"],
  ])("POST /v2/send %s is 400 naming %s, nothing sent", async (raw, field) => {
    const r = await post(app(), "/v2/send", raw);
    expect(r.status).toBe(400);
    expect((await r.json()).field).toBe(field);
    expect(sends()).toEqual([]);
  });

  it("a JSON-RPC send with a NUL answers -32602 naming the field, nothing sent", async () => {
    const r = await post(app(), "/api/v1/rpc", '{"jsonrpc":"2.0","id":1,"method":"send","params":{"recipient":"+4915112345678","message":"x\\u0000y"}}');
    expect(await r.json()).toMatchObject({ error: { code: -32602, data: { field: "message" } }, id: 1 });
    expect(sends()).toEqual([]);
  });
});

describe("inbound forwarding meets the text-field rule", () => {
  it("a message with a NUL is not forwarded and is logged without its text", async () => {
    let posted = 0;
    const d = {
      baseUrl: "http://127.0.0.1:9", webhookSecret: "whsec_" + btoa("s"), signal: new SignalCli(fake.url, null), sends: new SendGate(1), log,
    };
    const origFetch = globalThis.fetch;
    globalThis.fetch = (async () => { posted++; return new Response("{}", { status: 500 }); }) as typeof fetch;
    try {
      const env = { sourceUuid: "3f2504e0-4f89-41d3-9a0c-0305e82c3301", timestamp: 5, dataMessage: { timestamp: 5, message: "secret\u0000tail" } };
      expect(await forwardInbound(d, env)).toBeNull();
    } finally {
      globalThis.fetch = origFetch;
    }
    expect(posted).toBe(0);
    expect(logs).toEqual([{ level: "warn", msg: "inbound message not forwarded: it breaks the text-field rule", fields: { field: "text", reason: "nul" } }]);
    expect(JSON.stringify(logs)).not.toContain("secret");
  });
});
