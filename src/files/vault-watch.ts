/**
 * `cairn reconcile <vault> --watch`: follows a vault live through the same
 * planner and audited executor as one-shot reconcile (`vault-reconcile.ts`).
 * Every batch plans the whole vault against the store, so the store after a
 * batch is what one `cairn reconcile` would leave, and a watch stopped at
 * any point leaves nothing for a one-shot run to do.
 *
 * Events only say "look again": editors save through a temporary file and a
 * rename, write several events per save, and a folder move or a git checkout
 * sends hundreds. Events are collected for `quietMs` after the last one (at
 * most `maxWaitMs` after the first), then one batch runs; events arriving
 * during a batch make the next one. The scan re-reads only files an event
 * named or whose time or size changed (`vault-scan.ts`). A file that vanishes
 * or changes between the scan and its step is left for the next batch. When
 * file events are unavailable (the platform refuses the watch, e.g. the
 * inotify limit) the watch falls back to a full rescan every `pollMs`; with
 * events it still rescans every `rescanMs` (cheap: the cache), so an event
 * the platform dropped delays a change, never loses it.
 */
import type { Memory } from "../memory.ts";
import { MemoryError } from "../core/errors.ts";
import { type DirWatch, isReadableDir } from "../runtime/dir-watch.ts";
import { absolutePath } from "../runtime/platform.ts";
import type { ScanCache } from "./vault-scan.ts";
import { reconcileVault, type VaultOptions, type VaultReport } from "./vault-reconcile.ts";

/** The file-event port (`src/runtime/dir-watch.ts` `watchDir`). */
export type WatchPort = (root: string, onEvent: (path: string | undefined) => void, onError: (e: Error) => void) => DirWatch;

/** Options of a watch. */
export interface WatchOptions extends Omit<VaultOptions, "cache" | "dirty" | "dryRun"> {
  watch: WatchPort;
  /** Stops the watch: the running batch finishes, then the watch resolves. */
  signal: AbortSignal;
  /** Quiet time after the last event before a batch runs (default 150 ms). */
  quietMs?: number;
  /** Longest wait after the first event of a batch (default 1,000 ms), so a steady stream of events still lands. */
  maxWaitMs?: number;
  /** Full rescan period when file events are unavailable (default 2,000 ms). */
  pollMs?: number;
  /**
   * A rescan (listing and file times, reading only what changed) every this many ms even with file events
   * (default 60,000; 0: never): the backstop for an event the platform dropped (an inotify queue overflow).
   */
  rescanMs?: number;
  /** After each batch (the first is the initial reconcile). */
  onBatch?: (b: WatchBatch) => void;
  /** A batch that threw, or the watcher falling back to polling. */
  onNotice?: (message: string) => void;
}

/** One batch. */
export interface WatchBatch {
  /** 0 for the initial reconcile. */
  n: number;
  /** File events folded into it. */
  events: number;
  report: VaultReport;
  ms: number;
}

/** Totals of a watch, when it stops. */
export interface WatchSummary {
  batches: number;
  events: number;
}

// Editor and tool temporaries that never hold a note (vim's swap and 4913 probe, emacs locks and backups, atomic
// writers' `.tmp`); a hidden segment (`.git/`, `.obsidian/`, `.note.md.swp`) is never a vault file either.
const IGNORED = /(^|\/)\.|~$|\.(swp|swx|tmp|crswap)$|(^|\/)4913$|\.tmp-[a-z0-9]+$/i;

/** Runs the watch until `signal` aborts. */
export async function watchVault(memory: Memory, dir: string, o: WatchOptions): Promise<WatchSummary> {
  const root = await absolutePath(dir);
  // A folder missing at the start is a mistake to report (a typo); one that goes away later (an unmounted drive) is
  // waited for: its batches fail, nothing is deleted, and the watch looks again.
  if (!(await isReadableDir(root))) throw new MemoryError("invalid_request", `${root} is not a readable directory`);
  const quietMs = o.quietMs ?? 150;
  const maxWaitMs = o.maxWaitMs ?? 1000;
  const cache: ScanCache = new Map();
  let dirty = new Set<string>();
  let events = 0;
  let firstAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let batches = 0;
  let total = 0;
  let poll: ReturnType<typeof setInterval> | undefined;
  let backstop: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let failures = 0;

  const runBatch = async (): Promise<void> => {
    const named = dirty;
    const n = events;
    dirty = new Set();
    events = 0;
    firstAt = 0;
    const t0 = performance.now();
    try {
      const { watch: _w, signal: _s, quietMs: _q, maxWaitMs: _m, pollMs: _p, rescanMs: _r, onBatch: _b, onNotice: _n, ...vault } = o;
      const report = await reconcileVault(memory, root, { ...vault, cache, dirty: named });
      failures = 0;
      o.onBatch?.({ n: batches++, events: n, report, ms: Math.round(performance.now() - t0) });
      // A file that moved under a step is looked at again, event or not.
      if (report.retry.length) {
        for (const r of report.retry) dirty.add(r.path);
        schedule(quietMs);
      }
    } catch (e) {
      // The store was busy or a read failed: nothing is half-done (each step is its own transaction); look again,
      // backing off while it keeps failing.
      failures++;
      o.onNotice?.(`batch failed: ${(e as Error).message}; retrying`);
      for (const p of named) dirty.add(p);
      cache.clear();
      firstAt = 0;
      schedule(Math.min(500 * failures, 5000), true);
      return;
    }
    // Events that arrived during the batch: their timer fired while it ran, so arm it again.
    if (events) schedule(quietMs);
  };

  const fire = () => {
    timer = undefined;
    if (running) return; // runBatch schedules again when it ends
    running = runBatch().finally(() => { running = undefined; });
  };

  function schedule(delay: number, exact = false): void {
    if (stopped) return;
    const now = performance.now();
    if (firstAt === 0) firstAt = now;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, exact ? delay : Math.max(0, Math.min(now + delay, firstAt + maxWaitMs) - now));
  }

  const onEvent = (path: string | undefined) => {
    if (stopped) return;
    if (path !== undefined && IGNORED.test(path)) return;
    // A platform that names no path: everything is suspect.
    if (path === undefined) cache.clear();
    else dirty.add(path.replace(/\/+$/, ""));
    events++;
    total++;
    schedule(quietMs);
  };

  const onError = (e: Error) => {
    if (stopped || poll !== undefined) return;
    o.onNotice?.(`file events unavailable (${e.message}); rescanning every ${(o.pollMs ?? 2000) / 1000} s`);
    watcher.close();
    if (backstop !== undefined) clearInterval(backstop);
    poll = setInterval(() => schedule(0), o.pollMs ?? 2000);
  };

  // Watch first, then reconcile: an edit made while the initial run reads the vault is an event for the next batch.
  const watcher = o.watch(root, onEvent, onError);
  const rescanMs = o.rescanMs ?? 60_000;
  if (rescanMs > 0 && poll === undefined) backstop = setInterval(() => schedule(0), rescanMs);
  running = runBatch().finally(() => { running = undefined; });
  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve();
    else o.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  stopped = true;
  if (timer !== undefined) clearTimeout(timer);
  if (poll !== undefined) clearInterval(poll);
  if (backstop !== undefined) clearInterval(backstop);
  watcher.close();
  while (running) await running;
  return { batches, events: total };
}
