/**
 * SPEC §5 item 12, DNS rebinding: the outbound client connects to the address it checked, not to whatever a second
 * lookup answers. The resolver is injected (a name that answers a public address first and 127.0.0.1 afterwards);
 * the "system" fetch stands in for a runtime fetch that does its own lookup (it asks the same resolver again).
 * `tls/sink.test.crt` is a self-signed test certificate for `sink.test` (valid to 2126, test only).
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "../../src/outbound/outbound-client.ts";
import { createPinnedFetch } from "../../src/runtime/pinned-fetch.ts";

const CERT = readFileSync(new URL("./tls/sink.test.crt", import.meta.url), "utf8");
const KEY = readFileSync(new URL("./tls/sink.test.key", import.meta.url), "utf8");
const PUBLIC = "93.184.216.34";

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

type Seen = { host?: string; url?: string; servername?: string | false };
async function listen(tls: boolean, answer: (req: IncomingMessage, res: import("node:http").ServerResponse) => void = (_q, r) => r.end("ok")) {
  const seen: Seen[] = [];
  const handler = (req: IncomingMessage, res: import("node:http").ServerResponse) => {
    seen.push({ host: req.headers.host, url: req.url, servername: tls ? (req.socket as TLSSocket & { servername?: string | false }).servername : undefined });
    answer(req, res);
  };
  const server = tls ? createHttpsServer({ cert: CERT, key: KEY }, handler) : createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => (server.closeAllConnections(), server.close()));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** A resolver that answers `answers[i]` on its i-th call (the last answer from then on). */
function rebinding(...answers: string[][]) {
  const calls: string[] = [];
  const resolve = async (host: string) => (calls.push(host), answers[Math.min(calls.length - 1, answers.length - 1)]!);
  return { resolve, calls };
}

const pin = createPinnedFetch({ ca: [CERT] });
/** A fetch that resolves the name itself, as the runtime's plain fetch does, through the same (hostile) resolver. */
const resolvingFetch = (resolve: (h: string) => Promise<string[]>): typeof fetch =>
  (async (input: RequestInfo | URL, init?: RequestInit) => pin(await resolve(new URL(String(input)).hostname))(input, init)) as typeof fetch;

describe("DNS rebinding between the egress check and the connection", () => {
  it("a name that answers a public address to the check and 127.0.0.1 afterwards never reaches loopback", async () => {
    const loopback = await listen(false);
    const dns = rebinding([PUBLIC], ["127.0.0.1"]);
    const client = createOutboundClient({
      allowedOrigins: [`http://rebind.test:${loopback.port}`], resolve: dns.resolve, timeoutMs: 500,
      pinnedFetch: pin, fetchImpl: resolvingFetch(dns.resolve),
    });
    const out = await client.send(`http://rebind.test:${loopback.port}/hook`, { method: "POST", body: "secret" });
    expect(out.sent).toBe(false);
    expect(loopback.seen).toEqual([]);
    expect(dns.calls).toEqual(["rebind.test"]);
  });

  it("connects to the checked address with the name as Host, whatever a later lookup would say", async () => {
    const sink = await listen(false);
    const dns = rebinding(["127.0.0.1"], [PUBLIC]);
    const client = createOutboundClient({
      allowedOrigins: [`http://sink.test:${sink.port}`], resolve: dns.resolve, allowLoopback: true, pinnedFetch: pin, fetchImpl: resolvingFetch(dns.resolve),
    });
    const out = await client.send(`http://sink.test:${sink.port}/hook?x=1`, { method: "POST", body: "hello" });
    expect(out.sent).toBe(true);
    if (out.sent) expect(await out.response.text()).toBe("ok");
    expect(sink.seen).toEqual([{ host: `sink.test:${sink.port}`, url: "/hook?x=1", servername: undefined }]);
    expect(dns.calls).toEqual(["sink.test"]);
  });

  it("over TLS the name is the SNI and the certificate is verified against it", async () => {
    const sink = await listen(true);
    const dns = rebinding(["127.0.0.1"]);
    const origins = [`https://sink.test:${sink.port}`, `https://other.test:${sink.port}`];
    const client = createOutboundClient({ allowedOrigins: origins, resolve: dns.resolve, allowLoopback: true, pinnedFetch: pin });
    const out = await client.send(`https://sink.test:${sink.port}/x`);
    expect(out.sent).toBe(true);
    expect(sink.seen).toEqual([{ host: `sink.test:${sink.port}`, url: "/x", servername: "sink.test" }]);
    // The same address under a name the certificate does not cover is refused by TLS, not sent.
    expect(await client.send(`https://other.test:${sink.port}/x`)).toMatchObject({ sent: false, reason: "network" });
    expect(sink.seen).toHaveLength(1);
  });
});

describe("the pinned fetch", () => {
  it("decodes a gzip body, returns a 3xx unfollowed, and turns a status fetch cannot represent into a failure", async () => {
    const s = await listen(false, (req, res) => {
      if (req.url === "/gz") res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" }).end(gzipSync("squeezed"));
      else if (req.url === "/moved") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.writeHead(999).end("odd");
    });
    const f = pin(["127.0.0.1"]);
    expect(await (await f(`http://sink.test:${s.port}/gz`)).text()).toBe("squeezed");
    const moved = await f(`http://sink.test:${s.port}/moved`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([302, "/elsewhere"]);
    await expect(f(`http://sink.test:${s.port}/odd`)).rejects.toThrow();
    expect(s.seen.map((x) => x.url)).toEqual(["/gz", "/moved", "/odd"]);
  });

  it("a caller's abort ends a body that is still arriving", async () => {
    const s = await listen(false, (_req, res) => res.writeHead(200).write("first part"));
    const ac = new AbortController();
    const res = await pin(["127.0.0.1"])(`http://sink.test:${s.port}/slow`, { signal: ac.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first part");
    ac.abort();
    await expect(reader.read()).rejects.toThrow();
  });
});
