/**
 * Issue 25: where a document's CPU goes, from a V8 `.cpuprofile` (`--cpu-prof`). Each sample is charged to the
 * nearest frame on its stack that belongs to a named part (lexical indexing, injection screen, static embedding,
 * libSQL, audit chain, JSON and the request body, the text worker pool); GC and idle are V8's own nodes.
 * `npx tsx scripts/profile-breakdown.ts FILE.cpuprofile [--docs N]` prints shares of the busy samples and, with
 * `--docs`, milliseconds per document.
 */
import { readFileSync } from "node:fs";

interface Node { id: number; callFrame: { functionName: string; url: string }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"))!;
const docsAt = args.indexOf("--docs");
const docs = docsAt >= 0 ? Number(args[docsAt + 1]) : 0;
const prof = JSON.parse(readFileSync(file, "utf8")) as Profile;

// Most specific first: a sample is charged to the innermost frame that matches one of these.
const PARTS: [string, (f: Node["callFrame"]) => boolean][] = [
  ["GC", (f) => f.functionName === "(garbage collector)"],
  ["idle", (f) => f.functionName === "(idle)" || f.functionName === "(program)"],
  ["lexical analysis", (f) => /src\/lexical\/(analyzer|porter-stemmer|orama-tokenizer)/.test(f.url)],
  ["lexical postings/index", (f) => /src\/lexical\//.test(f.url) || /@orama/.test(f.url)],
  ["injection screen", (f) => /src\/hygiene\//.test(f.url)],
  ["static embedding", (f) => /src\/embed\//.test(f.url)],
  ["text worker pool", (f) => /text-(work|pool)/.test(f.url)],
  ["audit chain", (f) => /src\/audit\/|canonicalize|jcs|sha256|noble/.test(f.url)],
  ["libSQL", (f) => /libsql|src\/store\//.test(f.url)],
  ["JSON / body", (f) => /^JSON\.|parse|stringify/.test(f.functionName) && f.url === "" || /hono|body/.test(f.url)],
];

const byId = new Map<number, Node>();
const parent = new Map<number, number>();
for (const n of prof.nodes) {
  byId.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
const memo = new Map<number, string>();
function partOf(id: number): string {
  const hit = memo.get(id);
  if (hit !== undefined) return hit;
  const n = byId.get(id)!;
  let part: string | undefined;
  for (const [name, test] of PARTS) if (test(n.callFrame)) { part = name; break; }
  const p = parent.get(id);
  const out = part ?? (p === undefined ? "other" : partOf(p));
  memo.set(id, out);
  return out;
}
const us = new Map<string, number>();
let busy = 0;
prof.samples.forEach((id, i) => {
  const part = partOf(id);
  const dt = prof.timeDeltas[i] ?? 0;
  us.set(part, (us.get(part) ?? 0) + dt);
  if (part !== "idle") busy += dt;
});
const rows = [...us].filter(([p]) => p !== "idle").sort((a, b) => b[1] - a[1]);
console.log(`busy ${(busy / 1e6).toFixed(2)} s${docs ? `, ${(busy / 1e3 / docs).toFixed(3)} ms a document` : ""}`);
for (const [p, t] of rows) {
  console.log(`${p.padEnd(24)} ${((100 * t) / busy).toFixed(1).padStart(5)}%${docs ? `  ${(t / 1e3 / docs).toFixed(4)} ms/doc` : ""}`);
}
if (args.includes("--other")) {
  const self = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    if (partOf(id) !== "other") return;
    const f = byId.get(id)!.callFrame;
    const k = `${f.functionName} ${f.url.replace(/.*\/(src|node_modules)\//, "$1/")}`;
    self.set(k, (self.get(k) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((100 * t) / busy).toFixed(1).padStart(5)}% ${k}`);
}
