import { openTestMemory } from "../test/_helpers/memory.ts";
const t = await openTestMemory({});
function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0; const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = []; let n = 0;
  while (n < bytes) { const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join(""); const p = next() < 0.08 ? `${w}.\n` : `${w} `; parts.push(p); n += p.length; }
  return parts.join("").slice(0, bytes);
}
// warm up
await t.req("POST", "/ingest", { title: "w", content: prose(50_000, 99) });
const gaps: { at: number; gap: number; cpu: number }[] = [];
let last = performance.now(); let on = true; let lastCpu = process.cpuUsage();
const t0 = performance.now();
const tick = () => { const now = performance.now(); const cpu = process.cpuUsage(); const dc = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000; if (dc > 15) gaps.push({ at: Math.round(last - t0), gap: Math.round(now - last), cpu: Math.round(dc) }); last = now; lastCpu = cpu; if (on) setImmediate(tick); };
setImmediate(tick);
function sections(bytes: number): string { const out = ["# Field notes\n"]; let n = 0; for (let i = 0; n < bytes; i++) { const x = `\n## Section ${i}\n\n${prose(220, i + 7)}\n`; out.push(x); n += x.length; } return out.join(""); }
const kind = process.env.KIND ?? "big";
const [path, body] = kind === "md" ? ["/ingest/markdown", { title: "F", content: sections(+(process.env.N ?? 300_000)) }]
  : kind === "batch" ? ["/ingest/batch", { items: Array.from({ length: 250 }, (_, i) => ({ title: `n${i}`, content: prose(3900, i + 77) })) }]
  : ["/ingest", { title: "Big", content: prose(990_000, 5) }];
const r = await t.req("POST", path as string, body);
on = false;
console.log(r.status, Math.round(performance.now() - t0), "ms; gaps > 15ms:", JSON.stringify(gaps));
await t.close();
