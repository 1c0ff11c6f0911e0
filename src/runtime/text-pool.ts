/**
 * A pool of Node worker threads for the write path's text work (issue 25; the port is `TextWork`,
 * src/ingest/ports.ts): each worker loads the static table from the same file and runs the rules screen and the
 * embedding of the jobs it is sent. A batch's off-thread share is cut into one contiguous slice per worker; the
 * main thread computes its own share meanwhile (src/ingest/text-work.ts). Results are in input order and equal to
 * the in-thread ones (same code, same table bytes, checked by the embedder id). Under Deno there is no pool (the
 * write path runs everything in-thread); Web Workers could host the same entry later.
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
  /** Batches smaller than this run all in-thread (posting costs more than it saves). */
  minBatch?: number;
  /** The main thread's share of a batch, as the weight of one worker (it also parses, writes and indexes). */
  mainWeight?: number;
}

/** A running pool; `ready` resolves once every worker has loaded its table (false when one failed). */
export interface TextPool extends TextWork {
  ready: Promise<boolean>;
}

interface Pending { resolve: (r: TextJobResult[]) => void; reject: (e: Error) => void }
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

/** Starts a pool (Node); undefined under Deno or for 0 workers. */
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
  const slots: Slot[] = [];
  let id: string | undefined;
  let broken = false;
  let nextJob = 1;
  const fail = (slot: Slot, why: string) => {
    broken = true;
    for (const p of slot.pending.values()) p.reject(new Error(why));
    slot.pending.clear();
  };
  const readies: Promise<string | undefined>[] = [];
  for (let i = 0; i < opts.workers; i++) {
    const slot: Slot = { worker: spawn(), pending: new Map(), dim: 0 };
    slot.worker.unref();
    slots.push(slot);
    readies.push(new Promise((resolve) => {
      slot.worker.on("message", (m: { ready?: string; dim?: number; failed?: string; id?: number; screens?: ScreenResult[]; vectors?: Float32Array; error?: string }) => {
        if (m.ready !== undefined) { slot.dim = m.dim!; resolve(m.ready); return; }
        if (m.failed !== undefined) { resolve(undefined); return; }
        const p = slot.pending.get(m.id!);
        if (p === undefined) return;
        slot.pending.delete(m.id!);
        if (slot.pending.size === 0) slot.worker.unref();
        if (m.error !== undefined) { p.reject(new Error(m.error)); return; }
        const out: TextJobResult[] = m.screens!.map((s, j) => ({ screen: s, vector: m.vectors!.slice(j * slot.dim, (j + 1) * slot.dim) }));
        p.resolve(out);
      });
      slot.worker.on("error", (e: unknown) => { resolve(undefined); fail(slot, String(e)); });
      slot.worker.on("exit", () => { resolve(undefined); fail(slot, "text worker exited"); });
    }));
  }
  const ready = Promise.all(readies).then((ids) => {
    // Every worker must compute the same embedder; otherwise none is used.
    if (ids.some((x) => x === undefined || x !== ids[0])) { broken = true; return false; }
    id = ids[0];
    return true;
  });
  const minBatch = opts.minBatch ?? 16;
  const mainWeight = opts.mainWeight ?? 0.8;
  const post = (slot: Slot, jobs: readonly TextJob[]): Promise<TextJobResult[]> => new Promise((resolve, reject) => {
    const n = nextJob++;
    // Referenced while a job is out, so a script awaiting it is not ended under it.
    if (slot.pending.size === 0) slot.worker.ref();
    slot.pending.set(n, { resolve, reject });
    slot.worker.postMessage({ id: n, screen: jobs.map((j) => j.screen), embed: jobs.map((j) => j.embed) });
  });
  return {
    ready,
    get embedderId() { return broken ? undefined : id; },
    offThread: (n) => (broken || id === undefined || n < minBatch ? 0 : Math.round((n * slots.length) / (slots.length + mainWeight))),
    run: async (jobs) => {
      if (broken || id === undefined) throw new Error("the text pool is not available");
      const per = Math.ceil(jobs.length / slots.length);
      const parts = await Promise.all(slots.map((s, i) => (i * per < jobs.length ? post(s, jobs.slice(i * per, (i + 1) * per)) : Promise.resolve([]))));
      return parts.flat();
    },
    close: async () => {
      broken = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
