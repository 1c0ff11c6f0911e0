/**
 * A loopback fake of signal-cli's HTTP daemon (`signal-cli daemon --http`,
 * signal-cli-jsonrpc(5)): JSON-RPC 2.0 on `POST /api/v1/rpc` (listAccounts,
 * send, sendReaction, sendTyping; unknown → -32601) and `receive`
 * notifications as server-sent events on `GET /api/v1/events`.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeSignalCli {
  url: string;
  /** Accounts listAccounts answers; empty = unlinked. */
  accounts: string[];
  calls: { method: string; params: Record<string, unknown> }[];
  /** Push one receive notification to every events subscriber. */
  push(params: { envelope: Record<string, unknown>; account?: string }): void;
  failSends: boolean;
  close(): Promise<void>;
}

export async function startFakeSignalCli(accounts: string[] = ["+15550001234"]): Promise<FakeSignalCli> {
  const subscribers = new Set<ServerResponse>();
  let ts = 1_700_000_000_000;
  const fake: FakeSignalCli = {
    url: "",
    accounts,
    calls: [],
    failSends: false,
    push(params) {
      for (const s of subscribers) s.write(`event:receive\ndata:${JSON.stringify({ account: fake.accounts[0], ...params })}\n\n`);
    },
    close: () => new Promise((r) => {
      for (const s of subscribers) s.end();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/api/v1/events")) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(":\n\n");
      subscribers.add(res);
      req.on("close", () => subscribers.delete(res));
      return;
    }
    if (req.method !== "POST" || req.url !== "/api/v1/rpc") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const msg = JSON.parse(body) as { method: string; params?: Record<string, unknown>; id: unknown };
      const params = msg.params ?? {};
      fake.calls.push({ method: msg.method, params });
      const reply = (x: Record<string, unknown>) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, ...x }));
      switch (msg.method) {
        case "listAccounts":
          return reply({ result: fake.accounts.map((number) => ({ number })) });
        case "send":
        case "sendReaction":
          if (fake.failSends) return reply({ error: { code: -1, message: "Failed to send message" } });
          return reply({ result: { timestamp: ++ts, results: [{ type: "SUCCESS" }] } });
        case "startLink":
          return reply({ result: { deviceLinkUri: "sgnl://linkdevice?uuid=fake-provisioning-id&pub_key=BQ" } });
        case "finishLink":
          if (params.deviceLinkUri !== "sgnl://linkdevice?uuid=fake-provisioning-id&pub_key=BQ") return reply({ error: { code: -1, message: "unknown link" } });
          fake.accounts = ["+15550001234"];
          return reply({ result: { number: "+15550001234" } });
        case "sendTyping":
          return reply({ result: {} });
        default:
          return reply({ error: { code: -32601, message: "Method not implemented" } });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
