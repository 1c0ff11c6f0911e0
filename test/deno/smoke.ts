/**
 * Deno smoke (run by `.ci/run` as `deno task smoke`): boots the same app
 * under Deno against a real libSQL file, ingests over HTTP and reads back.
 */
import { bootServer } from "../../src/server.ts";
import { createOutboundClient } from "../../src/outbound/outbound-client.ts";
import { createPinnedFetch } from "../../src/runtime/pinned-fetch.ts";

const dir = await Deno.makeTempDir({ prefix: "cairn-deno-" });
const booted = await bootServer({ CAIRN_DB_PATH: `${dir}/smoke.db` }, 0);
const base = `http://127.0.0.1:${booted.server.port}`;
let failures = 0;
const check = (name: string, ok: boolean) => {
  console.log(`${ok ? "ok" : "FAIL"} - ${name}`);
  if (!ok) failures++;
};
try {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await (await post("/ingest", { title: "Deno", content: "Cairn runs under Deno with a libSQL file." })).json();
  check("ingest created", created.status === "created" && typeof created.id === "number");
  const dup = await (await post("/ingest", { title: "Deno", content: "Cairn runs under Deno with a libSQL file." })).json();
  check("read back: duplicate returns the same id", dup.status === "duplicate" && dup.id === created.id);
  const domains = await (await fetch(`${base}/domains`)).json();
  check("read back: global counts one entry", domains.domains[0].entries === 1);
  const health = await fetch(`${base}/health/db`);
  const hb = await health.json();
  check("health/db reports wal", hb.durability.journal_mode === "wal");
  check("X-Api-Version header", health.headers.get("x-api-version") === hb.version);
  const recall = await post("/recall", { query: "Deno libSQL" });
  if (recall.status !== 404) {
    const rb = await recall.json();
    check("recall finds the entry", Array.isArray(rb.hits) && rb.hits.some((h: { id: number }) => h.id === created.id));
  } else {
    await recall.body?.cancel();
  }
  // The operator web client (issue 19): the JSX shell and a gated fragment render under Deno too.
  const shell = await (await fetch(`${base}/app`)).text();
  check("web client shell renders", shell.startsWith("<!doctype html>") && shell.includes('data-src="/app/fragments/review"'));
  const ops = await fetch(`${base}/app/fragments/ops`);
  check("web client fragment renders", ops.status === 200 && (await ops.text()).includes("Audit chain verified"));
  // SPEC §5 item 12 under Deno: a name connects to the address the egress check vetted, never to a second lookup's.
  const hosts: string[] = [];
  const sink = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => (hosts.push(req.headers.get("host") ?? ""), new Response("pinned")));
  let lookups = 0;
  const rebinding = async () => (++lookups === 1 ? ["127.0.0.1"] : ["93.184.216.34"]);
  const client = createOutboundClient({ allowedOrigins: [`http://sink.test:${sink.addr.port}`], resolve: rebinding, allowLoopback: true, pinnedFetch: createPinnedFetch() });
  const out = await client.send(`http://sink.test:${sink.addr.port}/hook`, { method: "POST", body: "x" });
  check("outbound: pinned to the checked address, Host keeps the name", out.sent && (await out.response.text()) === "pinned" && lookups === 1 && hosts[0] === `sink.test:${sink.addr.port}`);
  await sink.shutdown();
} finally {
  await booted.close();
  await Deno.remove(dir, { recursive: true });
}
console.log(`${failures === 0 ? "deno smoke passed" : "deno smoke FAILED"}`);
Deno.exit(failures === 0 ? 0 : 1);
