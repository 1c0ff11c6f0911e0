/**
 * Cost of the injection screen per SciFact abstract (issue 26 keeps it within
 * 1.5× of the rules-only screen it started from, `src/hygiene` at ee7f85a).
 *
 *   npx tsx scripts/bench-screen.ts [--runs N] [--against <commit>]
 *
 * Each run is one pass of `screen` over the 5,183 abstracts (title + text),
 * timed as process CPU time (`process.cpuUsage()`, user + system) and as wall
 * time. With `--against`, the screen of that commit (its `src/hygiene`
 * extracted with `git archive`) is timed in the same process, the two passes
 * alternating within each run, so both see the same machine load; the ratio
 * is taken per run and its median printed. Medians of `--runs` (default 3)
 * with ranges; the load average is printed because the machine may be shared.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { screen } from "../src/hygiene/screen.ts";

type Screen = (text: string) => unknown;

// `../shared/data` beside the repository; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const file = resolve(process.env.CAIRN_SHARED_DATA ?? resolve(import.meta.dirname, "../../shared/data"), "scifact/corpus.jsonl");

/** CPU and wall microseconds per document for one pass. */
function pass(fn: Screen, docs: string[]): { cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const d of docs) fn(d);
  const wall = ((performance.now() - t0) * 1000) / docs.length;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / docs.length, wall };
}

/** The `screen` export of `src/hygiene/screen.ts` at a commit, from a temporary extraction. */
async function screenAt(commit: string): Promise<{ fn: Screen; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-screen-"));
  const repo = resolve(import.meta.dirname, "..");
  const tar = execFileSync("git", ["-C", repo, "archive", commit, "src/hygiene"]);
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  const mod = (await import(pathToFileURL(join(dir, "src/hygiene/screen.ts")).href)) as { screen: Screen };
  return { fn: mod.screen, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stat = (xs: number[], d = 0) => `median ${median(xs).toFixed(d)} (range ${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

async function main(): Promise<void> {
  if (!existsSync(file)) {
    console.log(`SciFact not found at ${file}; skipping`);
    return;
  }
  const docs = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => {
    const d = JSON.parse(l) as { title: string; text: string };
    return `${d.title}\n${d.text}`;
  });
  const args = process.argv.slice(2);
  const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : 3;
  const against = args.includes("--against") ? args[args.indexOf("--against") + 1] : undefined;
  const base = against ? await screenAt(against) : undefined;
  for (const d of docs.slice(0, 500)) {
    screen(d);
    base?.fn(d);
  } // warm-up (JIT) for both
  const now: { cpu: number; wall: number }[] = [];
  const old: { cpu: number; wall: number }[] = [];
  for (let r = 0; r < runs; r++) {
    if (base) old.push(pass(base.fn, docs));
    now.push(pass(screen, docs));
  }
  base?.cleanup();
  console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(", ")}; ${runs} runs over ${docs.length} abstracts`);
  console.log(`screen now: CPU µs per abstract ${stat(now.map((x) => x.cpu))}; wall µs ${stat(now.map((x) => x.wall))}`);
  if (base) {
    console.log(`screen at ${against}: CPU µs per abstract ${stat(old.map((x) => x.cpu))}; wall µs ${stat(old.map((x) => x.wall))}`);
    console.log(`ratio now / ${against} (CPU, per run): ${stat(now.map((x, i) => x.cpu / old[i].cpu), 2)}`);
  }
}

await main();
