/**
 * Cost of the injection screen per SciFact abstract (issue 26 keeps it within
 * 1.5× of the rules-only screen it started from). Prints the median of five
 * passes over the 5,183 abstracts, with the range; the machine may be shared,
 * so compare runs taken back to back.
 *
 *   npx tsx scripts/bench-screen.ts [--runs N]
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { screen } from "../src/hygiene/screen.ts";

const file = resolve(import.meta.dirname, "../../shared/data/scifact/corpus.jsonl");
if (!existsSync(file)) {
  console.log(`SciFact not found at ${file}; skipping`);
} else {
  const docs = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => {
    const d = JSON.parse(l) as { title: string; text: string };
    return `${d.title}\n${d.text}`;
  });
  const args = process.argv.slice(2);
  const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : 5;
  for (const d of docs.slice(0, 500)) screen(d); // warm-up
  const per: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (const d of docs) screen(d);
    per.push(((performance.now() - t0) * 1000) / docs.length);
  }
  per.sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(0);
  console.log(`screen per SciFact abstract: median ${f(per[Math.floor(per.length / 2)])} µs (range ${f(per[0])}–${f(per[per.length - 1])}, ${runs} passes over ${docs.length})`);
}
