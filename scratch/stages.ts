import { xxh3Hex } from "../src/core/content-hash.ts";
import { validateIngest } from "../src/ingest/validate-ingest.ts";
import { foldForScreen } from "../src/hygiene/_screen-fold.ts";
import { canonicalForScreen } from "../src/hygiene/_screen-canon.ts";
import { screen } from "../src/hygiene/screen.ts";
import { wordTokens } from "../src/embed/static-tokenize.ts";
import { mentionNames } from "../src/graph/chunk-mentions.ts";
import { createAnalyzer } from "../src/lexical/analyzer.ts";
function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0; const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = []; let n = 0;
  while (n < bytes) { const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join(""); const p = next() < 0.08 ? `${w}.\n` : `${w} `; parts.push(p); n += p.length; }
  return parts.join("").slice(0, bytes);
}
const content = prose(990_000, 5);
const body = JSON.stringify({ title: "Big", content });
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const time = async (n: string, f: () => unknown) => { const c0 = cpu(); const t = performance.now(); await f(); console.log(n.padEnd(16), "wall", (performance.now() - t).toFixed(1).padStart(7), "cpu", (cpu() - c0).toFixed(1).padStart(7)); };
for (let r = 0; r < 2; r++) {
  await time("json.parse", () => JSON.parse(body));
  await time("validate", () => validateIngest(JSON.parse(body)));
  await time("xxh3", () => xxh3Hex(content));
  await time("fold", () => foldForScreen(content));
  const f = foldForScreen(content);
  await time("canon", () => canonicalForScreen(f));
  await time("screen", () => screen(content));
  await time("wordTokens", () => wordTokens(content));
  await time("mentionNames", () => mentionNames(content));
  const a = createAnalyzer();
  await time("analyze", () => a.analyze(content));
}
