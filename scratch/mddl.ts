import { startServer } from "../test/scale/_procs.ts";
import { tempDir } from "../test/_helpers/memory.ts";
import { join } from "node:path";
const dir = tempDir();
const s = await startServer({ CAIRN_EMBED_KIND: "static", CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_REQUEST_DEADLINE_MS: "100" });
function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0; const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = []; let n = 0;
  while (n < bytes) { const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join(""); const p = next() < 0.08 ? `${w}.\n` : `${w} `; parts.push(p); n += p.length; }
  return parts.join("").slice(0, bytes);
}
function sections(bytes: number): string { const out = ["# Field notes\n"]; let n = 0; for (let i = 0; n < bytes; i++) { const x = `\n## Section ${i}\n\n${prose(220, i + 7)}\n`; out.push(x); n += x.length; } return out.join(""); }
const r0 = await s.json("POST", "/ingest", { title: "Big", content: prose(990_000) });
console.log(r0.status, JSON.stringify(r0.body).slice(0, 100));
const r = await s.json("POST", "/ingest/markdown", { title: "F", content: sections(300_000) });
console.log(r.status, JSON.stringify(r.body).slice(0, 100));
for (let i = 0; i < 15; i++) {
  const m = await (await fetch(`${s.base}/metrics`)).text();
  console.log(i, m.split("\n").filter((l) => l.startsWith("cairn_abandoned") || l.startsWith("cairn_http_inflight")).join(" | "));
  await new Promise((r) => setTimeout(r, 1000));
}
await s.stop();
