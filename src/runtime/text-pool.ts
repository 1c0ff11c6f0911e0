/**
 * A pool of Node worker threads for the write path's text work (issue 25; the port is `TextWork`,
 * src/ingest/ports.ts): each worker loads the static table from the same file and runs the rules screen and the
 * embedding of the jobs it is sent. A batch's off-thread share is cut into one contiguous slice per worker; the
 * main thread computes its own share meanwhile (src/ingest/text-work.ts). Results are in input order and equal to
 * the in-thread ones (same code, same table bytes: a worker whose embedder id differs disables the pool).
 * The workers start with the first batch large enough to share (that batch and those until they are ready run
 * in-thread) and stop after a while without jobs, so a server that only answers queries holds no worker memory
 * (~40 MB each). Under Deno there is no pool: the write path runs everything in-thread.
 */
import type { TextJob, TextJobResult, TextWork } from "../ingest/ports.ts";
import type { ScreenResult } from "../hygiene/screen.ts";
import { isDeno } from "./platform.ts";

/** How the pool is built. */
export interface TextPoolOptions {
  /** Worker threads (≥ 1). */
  workers: number;
  /** The static table file the main thread's embedder was built from. */
  tablePath: string;
  /** The main thread's embedder id: every worker must compute the same one. */
  embedderId: string;
  /** Batches smaller than this run all in-thread (posting costs more than it saves). Default 16. */
  minBatch?: number;
  /** The main thread's share of a batch, as the weight of one worker (it also parses, writes and indexes). Default 0.8. */
  mainWeight?: number;
  /** Workers stop after this long without a job. Default 30 s. */
  idleMs?: number;
}

/** A pool; `start` starts the workers (if stopped) and resolves true once they are ready. */
export interface TextPool extends TextWork {
  start(): Promise<boolean>;
}

interface Pending { resolve: (r: TextJobResult[]) => void; reject: (e: Error) => void }
interface Reply { ready?: string; dim?: number; failed?: string; id?: number; screens?: ScreenResult[]; vectors?: Float32Array; error?: string }
interface Slot {
  // deno-lint-ignore no-explicit-any
  worker: any;
  pending: Map<number, Pending>;
  dim: number;
}

/** The number of workers for `CAIRN_INGEST_WORKERS` (-1 = cores − 1, at most 3). */
export async function ingestWorkerCount(configured: number): Promise<number> {
  if (isDeno) return 0;
  if (configured >= 0) return configured;
  const os = await import("node:os");
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return Math.max(0, Math.min(3, cores - 1));
}

/** A pool (Node); undefined under Deno or for 0 workers. No thread starts until a batch needs it. */
export async function createTextPool(opts: TextPoolOptions): Promise<TextPool | undefined> {
  if (isDeno || opts.workers < 1) return undefined;
  const { Worker } = await import("node:worker_threads");
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(`./text-worker${fromSource ? ".ts" : ".js"}`, import.meta.url);
  // From the TypeScript sources (tsx, vitest) the worker registers tsx itself, as the snapshot worker does
  // (src/runtime/platform.ts); the loader is named in the worker's source text, not imported here.
  const loader = JSON.stringify(["tsx", "esm", "api"].join("/"));
  const spawn = () => fromSource
    ? new Worker(`import(${loader}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, workerData: { tablePath: opts.tablePath } })
    : new Worker(url, { workerData: { tablePath: opts.tablePath } });
  const minBatch = opts.minBatch ?? 16;
  const mainWeight = opts.mainWeight ?? 0.8;
  const idleMs = opts.idleMs ?? 30_000;
  let slots: Slot[] | undefined;
  let starting: Promise<boolean> | undefined;
  let ready = false;
  let disabled = false;
  let nextJob = 1;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const stop = async () => {
    const old = slots;
    slots = undefined;
    starting = undefined;
    ready = false;
    if (idle !== undefined) clearTimeout(idle);
    if (old) await Promise.all(old.map((s) => s.worker.terminate()));
  };
  const fail = (slot: Slot, why: string) => {
    for (const p of slot.pending.values()) p.reject(new Error(why));
    slot.pending.clear();
    void stop();
  };
  const busy = () => slots?.some((s) => s.pending.size > 0) ?? false;
  const armIdle = () => {
    if (idle !== undefined) clearTimeout(idle);
    idle = setTimeout(() => { if (!busy()) void stop(); }, idleMs);
    idle.unref?.();
  };
  const start = (): Promise<boolean> => {
    if (disabled) return Promise.resolve(false);
    if (starting) return starting;
    const mine: Slot[] = [];
    const readies: Promise<string | undefined>[] = [];
    for (let i = 0; i < opts.workers; i++) {
      const slot: Slot = { worker: spawn(), pending: new Map(), dim: 0 };
      slot.worker.unref();
      mine.push(slot);
      readies.push(new Promise((resolve) => {
        slot.worker.on("message", (m: Reply) => {
          if (m.ready !== undefined) { slot.dim = m.dim!; resolve(m.ready); return; }
          if (m.failed !== undefined) { resolve(undefined); return; }
          const p = slot.pending.get(m.id!);
          if (p === undefined) return;
          slot.pending.delete(m.id!);
          if (slot.pending.size === 0) slot.worker.unref();
          if (m.error !== undefined) { p.reject(new Error(m.error)); return; }
          p.resolve(m.screens!.map((s, j) => ({ screen: s, vector: m.vectors!.slice(j * slot.dim, (j + 1) * slot.dim) })));
        });
        slot.worker.on("error", (e: unknown) => { resolve(undefined); fail(slot, String(e)); });
        slot.worker.on("exit", () => { resolve(undefined); if (slots === mine) fail(slot, "text worker exited"); });
      }));
    }
    slots = mine;
    starting = Promise.all(readies).then((ids) => {
      if (slots !== mine) return false;
      // A worker that computes another embedder (or none) disables the pool for good: results must be the main thread's.
      if (ids.some((x) => x !== opts.embedderId)) {
        disabled = true;
        void stop();
        return false;
      }
      ready = true;
      armIdle();
      return true;
    });
    return starting;
  };
  const post = (slot: Slot, jobs: readonly TextJob[]): Promise<TextJobResult[]> => new Promise((resolve, reject) => {
    const n = nextJob++;
    // Referenced while a job is out, so a script awaiting it is not ended under it.
    if (slot.pending.size === 0) slot.worker.ref();
    slot.pending.set(n, { resolve, reject });
    slot.worker.postMessage({ id: n, screen: jobs.map((j) => j.screen), embed: jobs.map((j) => j.embed) });
  });
  return {
    start,
    get embedderId() { return disabled ? undefined : opts.embedderId; },
    offThread: (n) => {
      if (disabled || n < minBatch) return 0;
      if (!ready) {
        void start();
        return 0;
      }
      return Math.round((n * opts.workers) / (opts.workers + mainWeight));
    },
    run: async (jobs) => {
      const live = slots;
      if (!ready || live === undefined) throw new Error("the text pool is not running");
      armIdle();
      const per = Math.ceil(jobs.length / live.length);
      const parts = await Promise.all(live.map((s, i) => (i * per < jobs.length ? post(s, jobs.slice(i * per, (i + 1) * per)) : Promise.resolve([]))));
      armIdle();
      return parts.flat();
    },
    close: async () => {
      disabled = true;
      await stop();
    },
  };
}
