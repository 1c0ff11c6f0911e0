import { afterEach, describe, expect, it } from "vitest";
import { createOutboundClient, type OutboundConfig } from "../../src/outbound/outbound-client.ts";
import { createPinnedFetch } from "../../src/runtime/pinned-fetch.ts";
import { startServer } from "./_server.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function server(handle: Parameters<typeof startServer>[0]) {
  const s = await startServer(handle);
  closers.push(s.close);
  return s;
}

/** A fetch that counts connection attempts and otherwise is the real fetch. */
function countingFetch() {
  const calls: string[] = [];
  const impl: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  return { calls, impl };
}

const noDns: OutboundConfig["resolve"] = async () => [];

describe("createOutboundClient", () => {
  it("delivers to an allowed loopback origin when loopback is permitted", async () => {
    const s = await server((req, res) => res.end(`hello ${req.method} ${req.body}`));
    const client = createOutboundClient({ allowedOrigins: [s.origin], allowLoopback: true, resolve: noDns });
    const result = await client.send(`${s.origin}/hook`, { method: "POST", body: "x" });
    expect(result.sent).toBe(true);
    if (result.sent) expect(await result.response.text()).toBe("hello POST x");
    expect(s.seen.map((r) => r.url)).toEqual(["/hook"]);
  });

  it("resolves host names through the DNS port and checks every answer", async () => {
    const s = await server((_req, res) => res.end("ok"));
    const url = `http://sink.test:${s.port}/`;
    const asked: string[] = [];
    const resolve = async (host: string) => (asked.push(host), ["127.0.0.1"]);
    const client = createOutboundClient({ allowedOrigins: [`http://sink.test:${s.port}`], allowLoopback: true, resolve });
    // The connection goes to the address the port vouched for (sink.test resolves nowhere else).
    const pinned = createOutboundClient({ allowedOrigins: [`http://sink.test:${s.port}`], allowLoopback: true, resolve, pinnedFetch: createPinnedFetch() });
    expect((await pinned.send(url)).sent).toBe(true);
    expect(asked).toEqual(["sink.test"]);
    // Without a pinned connection a name is refused: a plain fetch would look it up again (DNS rebinding).
    expect(await client.send(url)).toMatchObject({ sent: false, reason: "resolve_failed" });
    expect(s.seen).toHaveLength(1);

    const mixed = createOutboundClient({ allowedOrigins: ["https://hooks.test"], resolve: async () => ["93.184.216.34", "10.0.0.7"] });
    expect(await mixed.send("https://hooks.test/x")).toMatchObject({ sent: false, reason: "forbidden_address" });
    expect(await client.send(url.replace("sink.test", "sink2.test"))).toMatchObject({ sent: false, reason: "origin_not_allowed" });
  });

  it("refuses loopback unless explicitly allowed", async () => {
    const s = await server((_req, res) => res.end("ok"));
    const { calls, impl } = countingFetch();
    const client = createOutboundClient({ allowedOrigins: [s.origin], resolve: noDns, fetchImpl: impl });
    expect(await client.send(`${s.origin}/`)).toMatchObject({ sent: false, reason: "forbidden_address" });
    expect(calls).toEqual([]);
    expect(s.seen).toEqual([]);
  });

  it("refuses private destinations without connecting, even when loopback is allowed", async () => {
    const { calls, impl } = countingFetch();
    const origins = ["http://10.0.0.5:8080", "http://169.254.169.254", "http://[fd00::1]:9000", "http://[::ffff:192.168.1.1]", "http://internal.test"];
    const client = createOutboundClient({ allowedOrigins: origins, allowLoopback: true, fetchImpl: impl, resolve: async () => ["192.168.1.10"] });
    for (const origin of origins) expect(await client.send(`${origin}/hook`), origin).toMatchObject({ sent: false, reason: "forbidden_address" });
    expect(calls).toEqual([]);
  });

  it("refuses redirects instead of following them", async () => {
    const s = await server((req, res) => {
      if (req.url === "/start") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.end("should not be reached");
    });
    const client = createOutboundClient({ allowedOrigins: [s.origin], allowLoopback: true, resolve: noDns });
    expect(await client.send(`${s.origin}/start`)).toMatchObject({ sent: false, reason: "redirect", status: 302 });
    expect(await client.send(`${s.origin}/start`, { redirect: "follow" })).toMatchObject({ sent: false, reason: "redirect" });
    expect(s.seen.map((r) => r.url)).toEqual(["/start", "/start"]);
  });

  it("gives up after the timeout", async () => {
    const s = await server(() => {}); // never answers
    const client = createOutboundClient({ allowedOrigins: [s.origin], allowLoopback: true, resolve: noDns, timeoutMs: 150 });
    expect(await client.send(`${s.origin}/slow`)).toMatchObject({ sent: false, reason: "timeout" });
  });

  it("reports a caller abort, a refused connection and a failed lookup as distinct reasons", async () => {
    const s = await server(() => {});
    const client = createOutboundClient({ allowedOrigins: [s.origin, "http://127.0.0.1:1", "https://gone.test"], allowLoopback: true, resolve: async () => { throw new Error("NXDOMAIN"); } });
    const controller = new AbortController();
    const pending = client.send(`${s.origin}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ sent: false, reason: "aborted" });
    expect(await client.send("http://127.0.0.1:1/")).toMatchObject({ sent: false, reason: "network" });
    expect(await client.send("https://gone.test/")).toMatchObject({ sent: false, reason: "resolve_failed" });
  });

  it("only accepts http(s) URLs from the allowlist", async () => {
    const client = createOutboundClient({ allowedOrigins: ["https://hooks.test"], resolve: async () => ["93.184.216.34"], fetchImpl: countingFetch().impl });
    expect(await client.send("not a url")).toMatchObject({ sent: false, reason: "bad_url" });
    expect(await client.send("file:///etc/passwd")).toMatchObject({ sent: false, reason: "bad_url" });
    expect(await client.send("http://hooks.test/")).toMatchObject({ sent: false, reason: "origin_not_allowed" });
    expect(await client.send("https://hooks.test:8443/")).toMatchObject({ sent: false, reason: "origin_not_allowed" });
  });
});
