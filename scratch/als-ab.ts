import { openTestMemory } from "../test/_helpers/memory.ts";
import { directScope } from "../src/core/deadline.ts";
const mode = process.env.MODE ?? "als";
const t = await openTestMemory({ CAIRN_RATE_LIMIT_MAX: "100000000" }, mode === "direct" ? { workScope: directScope } : {});
function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0; const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = []; let n = 0;
  while (n < bytes) { const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join(""); const p = next() < 0.08 ? `${w}.\n` : `${w} `; parts.push(p); n += p.length; }
  return parts.join("").slice(0, bytes);
}
const c0 = process.cpuUsage();
for (let b = 0; b < 20; b++) await t.req("POST", "/ingest/batch", { items: Array.from({ length: 250 }, (_, i) => ({ title: `n${b}-${i}`, content: prose(600, b * 1000 + i) })) });
const ci = process.cpuUsage(c0);
const qs = Array.from({ length: 600 }, (_, i) => prose(60, 5000 + i).replace(/[.\n]/g, " "));
for (let i = 0; i < 50; i++) await t.req("POST", "/recall", { query: qs[i] });
const q0 = process.cpuUsage();
for (const q of qs) await t.req("POST", "/recall", { query: q });
const cq = process.cpuUsage(q0);
console.log(mode, "ingest cpu s", ((ci.user + ci.system) / 1e6).toFixed(2), "recall cpu ms/query", ((cq.user + cq.system) / 1000 / qs.length).toFixed(3));
await t.close();
