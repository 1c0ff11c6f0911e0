/**
 * Refit of the confidence model on small-store rows (issue 24 item 4). Reads the rows
 * `DUMP=… scripts/abstention-small-stores.ts` writes (static-embedder profile, signals and answer guard per
 * query), fits the logistic model on the train seeds only (class-balanced, as scripts/calibrate-abstention.ts),
 * picks the threshold that abstains on at most 1% of the train seeds' answerable queries the guards leave, and
 * reports, per store size on the held-out seeds, wrongly abstained answerable queries and caught off-topic and
 * nonsense queries for the served model and the refit one (the guards apply to both).
 *
 *   npx tsx scripts/refit-small-stores.ts /tmp/small.json [--train 1,2,3] [--test 4,5,6]
 */
import { readFileSync } from "node:fs";
import { CONFIDENCE_MODELS, featuresOf, type QualitySignals } from "../src/recall/quality.ts";
import { DEFAULT_RECALL_PARAMS } from "../src/recall/recall-params.ts";

interface Row { size: number; seed: number; kind: string; answerable: boolean; signals: QualitySignals; guard?: string }
const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const rows: Row[] = JSON.parse(readFileSync(args[0], "utf8"));
const train = new Set(opt("--train", "1,2,3").split(",").map(Number)), test = new Set(opt("--test", "4,5,6").split(",").map(Number));
const x = (r: Row) => featuresOf(r.signals, "static");
const predict = (w: readonly number[], v: number[]) => 1 / (1 + Math.exp(-v.reduce((z, f, j) => z + w[j + 1] * f, w[0])));

function fit(rs: Row[]): number[] {
  const xs = rs.map(x);
  const w = new Array(xs[0].length + 1).fill(0);
  const pos = rs.filter((r) => r.answerable).length;
  const cw = (r: Row) => (r.answerable ? rs.length / (2 * pos) : rs.length / (2 * (rs.length - pos)));
  for (let it = 0; it < 4000; it++) {
    const g = new Array(w.length).fill(0);
    rs.forEach((r, i) => {
      const e = (predict(w, xs[i]) - (r.answerable ? 1 : 0)) * cw(r);
      g[0] += e;
      xs[i].forEach((v, j) => (g[j + 1] += e * v));
    });
    for (let j = 0; j < w.length; j++) w[j] -= (0.5 * g[j]) / rs.length + (j ? 1e-4 * w[j] : 0);
  }
  return w;
}

const trainRows = rows.filter((r) => train.has(r.seed));
const w = fit(trainRows);
const answerable = trainRows.filter((r) => r.answerable);
const open = answerable.filter((r) => !r.guard).map((r) => predict(w, x(r))).sort((a, b) => a - b);
const k = Math.floor(0.01 * answerable.length);
const t = k === 0 ? open[0] - 1e-6 : (open[k - 1] + open[k]) / 2;
console.log(`refit on seeds ${[...train]} (${trainRows.length} rows): [${w.map((v) => v.toFixed(4)).join(", ")}] threshold ${t.toFixed(4)}`);
const models = { served: (r: Row) => predict(CONFIDENCE_MODELS.static, x(r)) < DEFAULT_RECALL_PARAMS.abstainBelow, refit: (r: Row) => predict(w, x(r)) < t };
console.log("| store size | seeds | answerable wrongly abstained: served / refit | off-topic caught: served / refit | nonsense caught: served / refit |");
console.log("|---|---|---|---|---|");
for (const seeds of [train, test]) {
  for (const size of [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b)) {
    const rs = rows.filter((r) => r.size === size && seeds.has(r.seed));
    const cell = (kind: (r: Row) => boolean) => (["served", "refit"] as const).map((m) => {
      const of = rs.filter(kind);
      return `${of.filter((r) => !r.guard && models[m](r)).length}/${of.length}`;
    }).join(" / ");
    console.log(`| ${size} | ${[...seeds]} | ${cell((r) => r.answerable)} | ${cell((r) => r.kind === "off-topic")} | ${cell((r) => r.kind === "nonsense")} |`);
  }
}
