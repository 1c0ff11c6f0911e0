/**
 * Two builds side by side in one run (issue 36: "CPU per query at 50k not above today's"): `npm run bench` against
 * build A, then B, then A … (`--rounds`, default 3, so each gets three runs interleaved on the same noisy machine),
 * each run a fresh store and a fresh server (`bench/run.ts --dist DIR --json`), then the median and range of each
 * figure per build.
 *
 *   npx tsx bench/ab.ts --a DIR --b DIR [--rounds 3] [--docs 50000] [--queries 1000]
 *
 * A build DIR is a checkout with `npm run build` done (its `dist/`, beside its `assets/`), e.g. `git archive <commit>`
 * unpacked with node_modules linked: a long run is then not affected by edits made meanwhile.
 */
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (n: string, d?: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const builds = { A: resolve(opt("--a")!), B: resolve(opt("--b")!) };
const rounds = Number(opt("--rounds", "3"));
const pass = ["--docs", opt("--docs", "50000")!, "--queries", opt("--queries", "1000")!];

type Run = Record<string, number>;
const runs: Record<"A" | "B", Run[]> = { A: [], B: [] };
for (let i = 0; i < rounds; i++) {
  for (const k of ["A", "B"] as const) {
    const out = execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "bench", "run.ts"), "--dist", join(builds[k], "dist"), "--json", ...pass],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 26 });
    const line = out.split("\n").find((l) => l.startsWith("{"));
    if (!line) throw new Error(`no JSON from the bench run of ${k}`);
    runs[k].push(JSON.parse(line) as Run);
    console.error(`round ${i + 1} ${k}: ${line}`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cell = (k: "A" | "B", f: string) => {
  const xs = runs[k].map((r) => r[f]);
  return `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})`;
};
console.log(`\nA = ${builds.A}\nB = ${builds.B}\n${rounds} runs each, interleaved; median (range)\n`);
console.log("| figure | A | B |");
console.log("|---|---|---|");
for (const [f, label] of [
  ["queryCpuMs", "server CPU per /recall (ms)"], ["p50", "p50 (ms)"], ["p95", "p95 (ms)"], ["docsPerS", "ingest docs/s"],
  ["bootMs", "cold boot (ms)"], ["rssMb", "RSS after queries (MB)"], ["ndcg10", "nDCG@10 (judged train queries)"], ["recall10", "R@10"],
] as const) {
  if (runs.A.every((r) => r[f] === undefined) && runs.B.every((r) => r[f] === undefined)) continue;
  console.log(`| ${label} | ${cell("A", f)} | ${cell("B", f)} |`);
}
