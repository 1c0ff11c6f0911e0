/**
 * Issue 25 memory attribution: preloaded into a `cairn serve` process (`node --import ./bench/mem-probe.mjs`) by
 * `bench/memory.ts`. On SIGUSR2 it appends one JSON line to $CAIRN_MEM_PROBE: process.memoryUsage(), V8's heap
 * spaces, and the kernel's split of resident memory (anonymous vs file-backed, from /proc/self/status), first as
 * the process stands and then after a full GC when the process runs with --expose-gc. A bench tool, not served code.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from "node:v8";

const out = process.env.CAIRN_MEM_PROBE;
const mib = (b) => Math.round((b / 2 ** 20) * 10) / 10;
const status = () => {
  const s = readFileSync("/proc/self/status", "utf8");
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile"), shmem: kb("RssShmem") };
};
const sample = () => {
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, { size: mib(s.space_size), used: mib(s.space_used_size) }]));
  const st = status();
  return {
    rss: Math.round(st.rss * 10) / 10, hwm: Math.round(st.hwm * 10) / 10, anon: Math.round(st.anon * 10) / 10, file: Math.round(st.file * 10) / 10,
    heapTotal: mib(m.heapTotal), heapUsed: mib(m.heapUsed), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers),
    mallocedMemory: mib(h.malloced_memory), peakMalloced: mib(h.peak_malloced_memory),
    // What V8 and Node account for; the rest of the anonymous memory is native (libSQL, glibc arenas, thread stacks).
    unaccountedAnon: Math.round((st.anon - (m.heapTotal + m.external) / 2 ** 20) * 10) / 10,
    spaces,
  };
};
if (out) {
  process.on("SIGUSR2", () => {
    const before = sample();
    let afterGc;
    if (typeof globalThis.gc === "function") { globalThis.gc(); globalThis.gc(); afterGc = sample(); }
    // $CAIRN_MEM_HEAPSNAP (a directory): a V8 heap snapshot after each sample, for attribution by constructor.
    const snap = process.env.CAIRN_MEM_HEAPSNAP ? writeHeapSnapshot(`${process.env.CAIRN_MEM_HEAPSNAP}/probe-${Date.now()}.heapsnapshot`) : undefined;
    appendFileSync(out, JSON.stringify({ t: Date.now(), before, afterGc, snap }) + "\n");
  });
}
