import { openTestMemory } from "./test/_helpers/memory.ts";
import { createParsePool } from "./src/runtime/parse-pool.ts";
const t = await openTestMemory({ CAIRN_EMBED_KIND: "static", CAIRN_RATE_LIMIT_MAX: "10000000" }, { parseWork: await createParsePool() });
const kind = process.env.K!;
const N = Number(process.env.N ?? 400_000);
const content = kind.repeat(Math.ceil(N / kind.length)).slice(0, N);
// warm the worker
await t.app.request("/ingest/markdown", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "w", content: "x ".repeat(20000) }) }, { remoteAddr: "127.0.0.1" });
const t0 = performance.now();
let maxGap = 0; let last = performance.now(); const gaps: number[] = [];
const iv = setInterval(() => { const n = performance.now(); const g = n - last; if (g > 50) gaps.push(Math.round(g)); maxGap = Math.max(maxGap, g); last = n; }, 1);
const r = await t.app.request("/ingest/markdown", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "h", content }) }, { remoteAddr: "127.0.0.1" });
clearInterval(iv);
console.log(r.status, Math.round(performance.now() - t0), "ms; max loop gap", Math.round(maxGap), "gaps>50:", gaps.join(","));
await t.close();
