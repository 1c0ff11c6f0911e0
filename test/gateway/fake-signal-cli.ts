/**
 * A loopback fake of signal-cli's JSON-RPC interface (signal-cli-jsonrpc(5)), on both
 * transports the daemon offers: HTTP (`daemon --http`: `POST /api/v1/rpc`, `receive`
 * notifications as server-sent events on `GET /api/v1/events`) and a UNIX socket
 * (`daemon --socket PATH`: one JSON object per line each way, `receive` notifications
 * pushed to every connection). Methods: listAccounts, send, sendReaction, sendTyping,
 * getUserStatus, startLink, finishLink; unknown → -32601. `fake-signal-cli-bin.mjs`
 * relays a started `signal-cli jsonRpc` (stdin/stdout) to the socket.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeSignalCli {
  url: string;
  /** The UNIX socket path (`daemon --socket`). */
  socket: string;
  /** Accounts listAccounts answers; empty = unlinked. */
  accounts: string[];
  /** Registered usernames → ACI (getUserStatus). */
  usernames: Record<string, string>;
  calls: { method: string; params: Record<string, unknown> }[];
  /** Push one receive notification to every subscriber (SSE and socket). */
  push(params: { envelope: Record<string, unknown>; account?: string }): void;
  failSends: boolean;
  /** Open UNIX socket connections. */
  connections(): number;
  close(): Promise<void>;
}

const LINK_URI = "sgnl://linkdevice?uuid=fake-provisioning-id&pub_key=BQ";

export async function startFakeSignalCli(accounts: string[] = ["+15550001234"]): Promise<FakeSignalCli> {
  const subscribers = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let ts = 1_700_000_000_000;
  const fake: FakeSignalCli = {
    url: "",
    socket: join(mkdtempSync(join(tmpdir(), "fake-signal-")), "socket"),
    accounts,
    usernames: {},
    calls: [],
    failSends: false,
    connections: () => sockets.size,
    push(params) {
      const p = { account: fake.accounts[0], ...params };
      for (const s of subscribers) s.write(`event:receive\ndata:${JSON.stringify(p)}\n\n`);
      for (const s of sockets) s.write(JSON.stringify({ jsonrpc: "2.0", method: "receive", params: p }) + "\n");
    },
    close: () => new Promise((r) => {
      for (const s of subscribers) s.end();
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      unix.close();
      server.close(() => r());
    }),
  };

  /** One JSON-RPC request → its response object (the same on every transport). */
  const handle = (msg: { method?: unknown; params?: Record<string, unknown>; id?: unknown }): Record<string, unknown> => {
    const params = msg.params ?? {};
    const reply = (x: Record<string, unknown>) => ({ jsonrpc: "2.0", id: msg.id ?? null, ...x });
    if (typeof msg.method !== "string") return reply({ error: { code: -32600, message: "method field must be set", data: null } });
    fake.calls.push({ method: msg.method, params });
    switch (msg.method) {
      case "listAccounts":
        return reply({ result: fake.accounts.map((number) => ({ number })) });
      case "send":
      case "sendReaction":
        if (fake.failSends) return reply({ error: { code: -1, message: "Failed to send message" } });
        return reply({ result: { timestamp: ++ts, results: [{ type: "SUCCESS" }] } });
      case "getUserStatus": {
        const names = ([] as unknown[]).concat(params.username ?? []).map(String);
        return reply({ result: names.map((n) => ({ recipient: n, username: n, uuid: fake.usernames[n] ?? null, isRegistered: n in fake.usernames })) });
      }
      case "startLink":
        return reply({ result: { deviceLinkUri: LINK_URI } });
      case "finishLink":
        if (params.deviceLinkUri !== LINK_URI) return reply({ error: { code: -1, message: "unknown link" } });
        fake.accounts = ["+15550001234"];
        return reply({ result: { number: "+15550001234" } });
      case "sendTyping":
        return reply({ result: {} });
      default:
        return reply({ error: { code: -32601, message: "Method not implemented" } });
    }
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
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(handle(JSON.parse(body)))));
  });
  const unix = createNetServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => {});
    let buf = "";
    sock.on("data", (chunk) => {
      buf += String(chunk);
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() === "") continue;
        let out: Record<string, unknown>;
        try {
          out = handle(JSON.parse(line));
        } catch {
          out = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
        }
        sock.write(JSON.stringify(out) + "\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  await new Promise<void>((r) => unix.listen(fake.socket, () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
