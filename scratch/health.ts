import { startServer } from "../test/scale/_procs.ts";
import { tempDir } from "../test/_helpers/memory.ts";
import { join } from "node:path";
import { request } from "node:http";
const probe = (url: string) => new Promise<number>((res, rej) => { const r = request(url, { agent: false }, (m) => { m.resume(); m.on("end", () => res(m.statusCode!)); }); r.on("error", rej); r.end(); });
const send = (url: string, body: unknown) => new Promise<{ status: number; text: string }>((res, rej) => { const data = Buffer.from(JSON.stringify(body)); const r = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": String(data.length) } }, (m) => { let t = ""; m.on("data", (c) => (t += c)); m.on("end", () => res({ status: m.statusCode!, text: t })); }); r.on("error", rej); r.end(data); });
const dir = tempDir();
const s = await startServer({ CAIRN_EMBED_KIND: "static", CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_RATE_LIMIT_MAX: "1000000", ...(process.env.DL ? { CAIRN_REQUEST_DEADLINE_MS: process.env.DL } : {}), ...(process.env.W ? { CAIRN_INGEST_WORKERS: process.env.W } : {}) });
function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0; const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = []; let n = 0;
  while (n < bytes) { const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join(""); const p = next() < 0.08 ? `${w}.\n` : `${w} `; parts.push(p); n += p.length; }
  return parts.join("").slice(0, bytes);
}
function sections(bytes: number): string { const out = ["# Field notes\n"]; let n = 0; for (let i = 0; n < bytes; i++) { const x = `\n## Section ${i}\n\n${prose(220, i + 7)}\n`; out.push(x); n += x.length; } return out.join(""); }
let seed = 0;
const kinds: Record<string, () => { path: string; body: unknown }> = {
  md: () => ({ path: "/ingest/markdown", body: { title: "F", content: sections(+(process.env.N ?? 300_000)) + (seed++) } }),
  big: () => ({ path: "/ingest", body: { title: "Big", content: prose(+(process.env.N ?? 990_000), ++seed) } }),
  batch: () => ({ path: "/ingest/batch", body: { items: Array.from({ length: 250 }, (_, i) => ({ title: `n${i}`, content: prose(3900, i + 1000 * ++seed) })) } }),
};
{
  const lat: number[] = [];
  const until = performance.now() + 3000;
  while (performance.now() < until) { const h0 = performance.now(); await probe(`${s.base}/health`); lat.push(performance.now() - h0); await new Promise((r) => setTimeout(r, 5)); }
  lat.sort((a, b) => a - b);
  console.log(`idle: /health probes ${lat.length}, median ${lat[lat.length >> 1]?.toFixed(1)} ms, worst ${lat[lat.length - 1]?.toFixed(1)} ms`);
}
for (const kind of (process.env.KIND ?? "big,md,batch").split(",")) {
  const results: string[] = [];
  for (let rep = 0; rep < +(process.env.REPS ?? 1); rep++) {
    const body = kinds[kind]();
    const t0 = performance.now();
    let done = false; let status = 0;
    const long = send(`${s.base}${body.path}`, body.body).then((r) => { done = true; status = r.status; return performance.now() - t0; });
    const lat: number[] = [];
    await new Promise((r) => setTimeout(r, 20));
    while (!done) { const h0 = performance.now(); await probe(`${s.base}/health`); if (!done) lat.push(performance.now() - h0); await new Promise((r) => setTimeout(r, 5)); }
    const took = await long;
    lat.sort((a, b) => a - b);
    results.push(`${kind} status ${status} answer ${Math.round(took)} ms; /health probes ${lat.length}, median ${lat[lat.length >> 1]?.toFixed(1)} ms, worst ${lat[lat.length - 1]?.toFixed(1)} ms`);
  }
  console.log(results.join("\n"));
}
await s.stop();
