/**
 * Domain snapshot import figure (SPEC §4.5, §8; issue 14):
 * `npx tsx bench/domain-import.ts [--chunks 50000] [--words 250] [--dim 768]`.
 *
 * 1. Builds a snapshot file (gzip'd NDJSON, `src/parcel/README.md`) of a domain at the desktop envelope: `--chunks`
 *    chunks (default 50,000, SPEC §8) of `--words` words of generated prose (30,000-word vocabulary, Zipf-like
 *    choice; ~1.6 KB, a typical markdown chunk), each with a `--dim`-d vector. The default 768-d vectors come from
 *    another embedder than the server's (a source machine on a 768-d model): they make up most of the ~190 MB, are
 *    streamed and checked, and the server re-embeds the text with its own embedder. `--dim 100` uses the shipped
 *    static embedder's space instead (vectors kept, a ~60 MB snapshot). The text is what the recall index holds
 *    afterwards; 50,000 chunks is the most the envelope is sized for.
 * 2. Starts the real server (`node bin/cairn.mjs serve`, compiled build, temp database, CAIRN_MAX_DOCS raised to fit).
 * 3. Streams the file to `POST /domains/bench/import` and reports the time, the server's RSS before the import,
 *    and its peak RSS (`VmHWM` of the server process, Linux) — against the 512 MB envelope of SPEC §8.
 * 4. Meanwhile a small `POST /ingest` and a `GET /health` every 250 ms: the worst time either waited is how long
 *    the import held other writers (its write transaction) and the event loop (docs/limits.md "Snapshot import").
 */
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "node:http";
import { createGzip } from "node:zlib";
import { xxhash3 } from "hash-wasm";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../src/embed/static-embedder.ts";
import { freePort } from "../test/_helpers/serve.ts";

const root = resolve(new URL("..", import.meta.url).pathname);
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CHUNKS = arg("--chunks", 50_000);
const WORDS = arg("--words", 250);
const DIM = arg("--dim", 768);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

async function buildSnapshot(path: string): Promise<{ chunks: number; bytes: number }> {
  const e = createStaticEmbedder(new Uint8Array(readFileSync(resolve(root, DEFAULT_STATIC_ASSET_PATH))));
  const r = rng(7);
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  const vocab = Array.from({ length: 30_000 }, () => Array.from({ length: 2 + Math.floor(r() * 3) }, () => syl[Math.floor(r() * syl.length)]).join(""));
  const gz = createGzip();
  const out = createWriteStream(path);
  gz.pipe(out);
  const hash = createHash("sha256");
  const write = async (line: string) => {
    const b = Buffer.from(line + "\n");
    hash.update(b);
    if (!gz.write(b)) await new Promise((res) => gz.once("drain", res));
  };
  const source = DIM === e.dim ? { id: e.id, dim: e.dim } : { id: `bench-source-${DIM}d`, dim: DIM };
  await write(JSON.stringify({ t: "header", format: "cairn-domain-snapshot", version: 1, domain: "bench", created_at: new Date().toISOString(), schema: "bench", embedder: source }));
  let n = 0;
  for (; n < CHUNKS; n++) {
    const words: string[] = [];
    for (let i = 0; i < WORDS; i++) words.push(vocab[Math.floor(r() * r() * vocab.length)]);
    const content = `Note ${n}: ${words.join(" ")}.`;
    const vec = new Float32Array(DIM);
    for (let d = 0; d < DIM; d++) vec[d] = r() - 0.5;
    await write(JSON.stringify({
      t: "chunk", id: n + 1, title: `Bench note ${n}`, content, domain: "bench", content_hash: await xxhash3(content), source: "structured",
      confidence: 1, flagged: 0, created_at: new Date(1_700_000_000_000 + n * 1000).toISOString(),
      vector: Buffer.from(vec.buffer).toString("base64"),
    }));
  }
  const trailer = JSON.stringify({ t: "end", counts: { chunk: n }, sha256: hash.digest("hex") }) + "\n";
  gz.end(trailer);
  await new Promise<void>((res) => out.once("close", () => res()));
  return { chunks: n, bytes: statSync(path).size };
}

const status = (pid: number, key: string) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(key)) ?? "")?.[1] ?? 0) / 1024;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-import-"));
  try {
    const file = join(dir, "bench.cairn-snapshot.ndjson.gz");
    const t0 = performance.now();
    const snap = await buildSnapshot(file);
    console.log(`snapshot: ${snap.chunks} chunks, ${(snap.bytes / 1024 / 1024).toFixed(1)} MB gzip'd (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    execFileSync("node", [join(root, "bin", "build-if-stale.mjs")], { cwd: root, stdio: "inherit" });
    const port = await freePort();
    const proc = spawn("node", ["--max-semi-space-size=4", join(root, "bin", "cairn.mjs"), "serve"], {
      cwd: root, stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, BIND_PORT: String(port), CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_MAX_DOCS: String(snap.chunks + 100_000), CAIRN_MAX_DB_MIB: "8192" },
    });
    proc.stdout!.resume();
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600; i++) {
      try { if ((await fetch(`${base}/health`)).ok) break; } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = status(proc.pid!, "VmRSS:");
    let peakSeen = before;
    const sampler = setInterval(() => { peakSeen = Math.max(peakSeen, status(proc.pid!, "VmRSS:")); }, 200);
    // Other writers and /health while the import runs: their worst wait.
    let importing = true;
    const worst = { write: 0, health: 0, writes: 0 };
    const probe = (async () => {
      for (let i = 0; importing; i++) {
        const w0 = performance.now();
        const w = await fetch(`${base}/ingest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "probe", content: `A probe written during the import, number ${i}.` }) });
        await w.arrayBuffer();
        if (importing) worst.write = Math.max(worst.write, performance.now() - w0);
        if (w.ok) worst.writes++;
        const h0 = performance.now();
        await (await fetch(`${base}/health`)).arrayBuffer();
        if (importing) worst.health = Math.max(worst.health, performance.now() - h0);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const t1 = performance.now();
    // node:http rather than fetch: fetch gives up waiting for the reply headers after 300 s.
    const { status: httpStatus, text } = await new Promise<{ status: number; text: string }>((resolveReq, rejectReq) => {
      const req = request({ host: "127.0.0.1", port, path: "/domains/bench/import", method: "POST",
        headers: { "content-type": "application/octet-stream", "content-length": String(snap.bytes) } }, (r) => {
        let t = "";
        r.setEncoding("utf8");
        r.on("data", (c: string) => (t += c));
        r.on("end", () => resolveReq({ status: r.statusCode ?? 0, text: t }));
      });
      req.on("error", rejectReq);
      createReadStream(file).pipe(req);
    });
    const res = { status: httpStatus };
    const body = JSON.parse(text || "null");
    const secs = (performance.now() - t1) / 1000;
    importing = false;
    await probe;
    clearInterval(sampler);
    const hwm = status(proc.pid!, "VmHWM:");
    const after = status(proc.pid!, "VmRSS:");
    const q = await (await fetch(`${base}/recall`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "note kalo miten", domain: "bench" }) })).json();
    proc.kill("SIGTERM");
    console.log(`import: HTTP ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
    console.log(`time ${secs.toFixed(1)} s (${(snap.bytes / 1024 / 1024 / secs).toFixed(1)} MB/s gzip'd, ${Math.round(snap.chunks / secs)} chunks/s)`);
    console.log(`during the import: ${worst.writes} small writes answered 200, worst ${(worst.write / 1000).toFixed(2)} s; worst /health ${(worst.health / 1000).toFixed(2)} s`);
    console.log(`server RSS: before ${before.toFixed(0)} MB, peak ${Math.max(hwm, peakSeen).toFixed(0)} MB (VmHWM), after ${after.toFixed(0)} MB; recall afterwards: ${q.hits?.length ?? 0} hits`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
