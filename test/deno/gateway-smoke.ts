/**
 * Deno smoke of the messaging gateway (issue 18; run by `.ci/run` as `deno task smoke:gateway`): under Deno, a
 * Cairn server that requires a bearer, the gateway (same modules as `cairn-gateway serve`) and a fake signal-cli
 * daemon on a UNIX socket (`daemon --socket`, newline-delimited JSON-RPC, signal-cli-jsonrpc(5)). The gateway
 * mounts with the channel secret only, forwards an inbound message, and the drain sends the approved reply.
 */
import { bootServer } from "../../src/server.ts";
import { loadGatewayConfig } from "../../src/gateway/config.ts";
import { startGateway } from "../../src/gateway/serve.ts";
import { connectTcp, connectUnix, spawnStdio } from "../../src/runtime/byte-conn.ts";
import { readSecretFile, serveFetch } from "../../src/runtime/platform.ts";

const dir = await Deno.makeTempDir({ prefix: "cairn-gw-deno-" });
const file = async (name: string, text: string) => {
  const p = `${dir}/${name}`;
  await Deno.writeTextFile(p, text, { mode: 0o600 });
  await Deno.chmod(p, 0o600);
  return p;
};
let failures = 0;
const check = (name: string, ok: boolean) => {
  console.log(`${ok ? "ok" : "FAIL"} - ${name}`);
  if (!ok) failures++;
};
const until = async <T>(fn: () => Promise<T | undefined>, ms: number): Promise<T | undefined> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
};

// The fake signal-cli daemon: one account, `send` recorded, `receive` notifications pushed to every connection.
const sent: Record<string, unknown>[] = [];
const conns = new Set<Deno.UnixConn>();
const socketPath = `${dir}/signal-cli.socket`;
const listener = Deno.listen({ transport: "unix", path: socketPath });
(async () => {
  for await (const conn of listener) {
    conns.add(conn);
    (async () => {
      const dec = new TextDecoder();
      let buf = "";
      try {
        for await (const chunk of conn.readable) {
          buf += dec.decode(chunk, { stream: true });
          let nl: number;
          while ((nl = buf.indexOf("\n")) >= 0) {
            const msg = JSON.parse(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
            const result = msg.method === "listAccounts" ? [{ number: "+15550001234" }] : msg.method === "send" ? (sent.push(msg.params), { timestamp: Date.now() }) : {};
            await conn.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\n"));
          }
        }
      } catch {
        // connection closed
      } finally {
        conns.delete(conn);
      }
    })();
  }
})();
const push = (envelope: Record<string, unknown>) => {
  const line = new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", method: "receive", params: { envelope, account: "+15550001234" } }) + "\n");
  for (const c of conns) c.write(line).catch(() => {});
};

const SECRET = "whsec_" + btoa("deno-smoke-channel-secret");
const BRIDGE = JSON.stringify({ kind: "signal", account: "bridge-1" });
const TOKEN = "deno-smoke-operator-token";
const booted = await bootServer({
  CAIRN_DB_PATH: `${dir}/cairn.db`, CAIRN_EMBED_KIND: "none", AUTH_TOKEN_FILE: await file("token", TOKEN),
  CAIRN_CHANNEL_WEBHOOK_SECRET_FILE: await file("channel.secret", SECRET), CAIRN_CHANNEL_BRIDGE_CONFIG: await file("bridge.signal.json", BRIDGE),
}, 0);
const base = `http://127.0.0.1:${booted.server.port}`;
const op = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
const logs: string[] = [];
// The gateway, like the service, never binds a random port (SPEC §1 Runtime rules): take a free one first.
const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const gwPort = (probe.addr as Deno.NetAddr).port;
probe.close();
const gwConfig = await file("gateway.json", JSON.stringify({
  server: { bind: "127.0.0.1", port: gwPort },
  signal_cli: { socket: socketPath },
  service: { base_url: base, webhook_secret_file: await file("gw.secret", SECRET) },
  bridge_config_path: await file("gw-bridge.signal.json", BRIDGE),
  drain_interval_secs: 5,
}));
const gw = await startGateway(await loadGatewayConfig(gwConfig, { read: readSecretFile, env: {} }), {
  version: "smoke", serveFetch, ports: { connectUnix, connectTcp, spawnStdio }, log: (level, msg) => void logs.push(`${level} ${msg}`),
});
let gwStopped = false;
let stalled: { conn: Deno.Conn; head: string } | undefined;
try {
  check("gateway mounted with the channel secret (no service token)", logs.includes("info mounted on the service"));
  const gwBase = `http://127.0.0.1:${gw.port}`;
  check("gateway health", (await (await fetch(`${gwBase}/v1/health`)).json()).status === "ok");
  const about = await (await fetch(`${gwBase}/v1/about`)).json();
  check("linked account, masked", about.linked === true && about.account === "+15*******34");

  const SENDER = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
  const run = await (await fetch(`${base}/workflow/runs`, { method: "POST", headers: op, body: JSON.stringify({ state_json: { case_ref: "crm:zendesk:acme:5", origin: "operator", channel: { kind: "signal", conversation_ref: SENDER } } }) })).json();
  let ts = 1_750_000_000_000;
  const noted = await until(async () => {
    push({ sourceUuid: SENDER, timestamp: ++ts, dataMessage: { timestamp: ts, message: "Deno inbound" } });
    await new Promise((r) => setTimeout(r, 300));
    return (await (await fetch(`${base}/workflow/runs/${run.run.id}`, { headers: op })).text()).includes("Deno inbound") || undefined;
  }, 20_000);
  check("inbound message filed as a case note", noted === true);

  const draft = await (await fetch(`${base}/workflow/runs/${run.run.id}/channel-out`, { method: "POST", headers: op, body: JSON.stringify({ text: "Deno reply" }) })).json();
  const prop = await (await fetch(`${base}/proposals/${draft.proposal_id}`, { headers: op })).json();
  const approved = await fetch(`${base}/proposals/${draft.proposal_id}/approve?digest=${prop.content_digest ?? prop.proposal?.content_digest}`, { method: "POST", headers: op });
  await approved.body?.cancel();
  check("reply approved", approved.status === 200);
  const out = await until(async () => sent.find((p) => p.message === "Deno reply"), 20_000);
  check("drain sent the approved reply through signal-cli", JSON.stringify(out?.recipient) === JSON.stringify([SENDER]));

  // The browser posture and the stop under Deno: raw sockets (Deno's fetch will not send a foreign Host).
  const rawGet = async (host: string) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: gw.port });
    await conn.write(new TextEncoder().encode(`GET /api/v1/events HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`));
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    return { conn, head: new TextDecoder().decode(buf.subarray(0, n ?? 0)) };
  };
  const rebind = await rawGet("rebind.evil.example");
  rebind.conn.close();
  check("a rebinding Host cannot subscribe to the events stream", rebind.head.startsWith("HTTP/1.1 403"));
  const post = await fetch(`${gwBase}/v2/send`, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ recipient: SENDER, message: "forged" }) });
  await post.body?.cancel();
  check("a text/plain send is refused", post.status === 415 && !sent.some((p) => p.message === "forged"));
  stalled = await rawGet(`127.0.0.1:${gw.port}`); // subscribed, then never read again
  check("a local subscriber gets the events stream", /^HTTP\/1\.1 200[\s\S]*text\/event-stream/i.test(stalled.head));
  const stopped = await Promise.race([gw.stop().then(() => "stopped"), new Promise((r) => setTimeout(() => r("hung"), 15_000))]);
  check("stop ends with a stalled subscriber attached", stopped === "stopped");
  gwStopped = true;
} finally {
  if (!gwStopped) await gw.stop();
  stalled?.conn.close();
  await booted.close();
  listener.close();
  for (const c of conns) c.close();
  await Deno.remove(dir, { recursive: true });
}
console.log(`${failures === 0 ? "deno gateway smoke passed" : "deno gateway smoke FAILED"}`);
Deno.exit(failures === 0 ? 0 : 1);
