import { request } from "node:http";
import { join } from "node:path";
import { startServer } from "../test/scale/_procs.ts";
import { tempDir } from "../test/_helpers/memory.ts";
import { cases } from "../test/hardening/corpus/compression.ts";
const probe = (url: string) => new Promise<number>((res, rej) => { const r = request(url, { agent: false }, (m) => { m.resume(); m.on("end", () => res(m.statusCode!)); }); r.on("error", rej); r.end(); });
const post = (url: string, body: Uint8Array, type: string) => new Promise<{ status: number; text: string }>((res, rej) => { const r = request(url, { method: "POST", agent: false, headers: { "content-type": type, "content-length": String(body.length) } }, (m) => { let t = ""; m.on("data", (c) => (t += c)); m.on("end", () => res({ status: m.statusCode!, text: t })); }); r.on("error", rej); r.end(body); });
const dir = tempDir();
const s = await startServer({ CAIRN_EMBED_KIND: "static", CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") });
for (const c of cases) {
  const body = c.body!() as Uint8Array;
  const t0 = performance.now();
  let done = false;
  const p = post(`${s.base}${c.path}`, body, c.headers!["content-type"]).then((r) => { done = true; return r; });
  const lat: number[] = [];
  while (!done) { const h0 = performance.now(); await probe(`${s.base}/health`); if (!done) lat.push(performance.now() - h0); await new Promise((r) => setTimeout(r, 5)); }
  const r = await p;
  console.log(`${c.name} [${(body.length / 1024).toFixed(0)} KB gz]: ${r.status} ${JSON.parse(r.text).error?.code} in ${Math.round(performance.now() - t0)} ms; /health probes ${lat.length}, worst ${Math.max(0, ...lat).toFixed(1)} ms`);
}
await s.stop();
