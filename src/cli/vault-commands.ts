/**
 * `cairn reconcile <vault> [--watch]` (SPEC §4.12; docs/vault.md): one
 * reconcile, or a watch that follows the vault until SIGINT/SIGTERM. Off a
 * TTY every step of a large batch is a progress line; every batch that did
 * something ends in one summary line on stdout.
 */
import { MemoryError } from "../core/errors.ts";
import { reconcileVault, type VaultReport } from "../files/vault-reconcile.ts";
import { watchVault } from "../files/vault-watch.ts";
import type { Memory } from "../memory.ts";
import { watchDir } from "../runtime/dir-watch.ts";
import { onShutdown } from "../runtime/platform.ts";
import { operatorActor } from "../ump/actor.ts";
import { type CliOutput, createProgress, type Progress } from "./progress.ts";

/** Options of `cairn reconcile`. */
export interface ReconcileCliOptions {
  project?: string;
  oneWay?: boolean;
  dryRun?: boolean;
  json?: boolean;
  watch?: boolean;
  /** Quiet time after the last file event before a batch runs, in ms. */
  debounce?: number | string;
}

/** A batch report as one line: what changed, then what went wrong. */
export function reportLine(r: VaultReport): string {
  const p = r.plan;
  return `${p.new} new, ${p.modified} modified, ${p.moved} moved, ${p.deleted} deleted, ${p.unchanged} unchanged, ` +
    `${p.written} written, ${r.swept} swept, ${r.conflicts.length} conflicts, ${r.failed.length} failed`;
}

function printProblems(r: VaultReport, io: CliOutput, retryHint: string): void {
  for (const c of r.conflicts) io.err(`conflict: ${c.path}: ${c.reason}\n`);
  for (const f of r.failed) io.err(`failed: ${f.path}: ${f.error}\n`);
  for (const f of r.retry) io.err(`retry: ${f.path}: ${f.reason}${retryHint}\n`);
}

/** Runs `cairn reconcile`; true when something failed (exit code 1). */
export async function reconcileCommand(memory: Memory, path: string, o: ReconcileCliOptions, io: CliOutput): Promise<boolean> {
  const actor = operatorActor(await memory.ump.operatorDid());
  if (o.watch) return await watchCommand(memory, path, o, io);
  let progress: Progress = createProgress(0, "reconcile", io);
  const r = await reconcileVault(memory, path, {
    actor, project: o.project, writeBack: !o.oneWay, dryRun: o.dryRun,
    onPlan: (plan) => { progress = createProgress(plan.actions.length, "reconcile", io); },
    onStep: (a) => progress.tick(`${a.op} ${"path" in a ? a.path : a.source.path}`),
  });
  if (o.json) io.out(JSON.stringify(r, null, 2));
  else {
    printProblems(r, io, "; run again");
    progress.done(`reconcile: ${reportLine(r)}${o.dryRun ? " (dry run)" : ""}`);
  }
  return r.failed.length > 0 || r.retry.length > 0;
}

async function watchCommand(memory: Memory, path: string, o: ReconcileCliOptions, io: CliOutput): Promise<boolean> {
  const quietMs = o.debounce === undefined ? undefined : Number(o.debounce);
  if (quietMs !== undefined && !(Number.isInteger(quietMs) && quietMs >= 0 && quietMs <= 60_000)) {
    throw new MemoryError("invalid_request", `--debounce must be a whole number of milliseconds from 0 to 60000, got "${o.debounce}"`);
  }
  const stop = new AbortController();
  onShutdown(() => stop.abort());
  let failed = false;
  // A burst (a folder moved, a checkout) gets progress lines off a TTY, a bar on one; a single save only its summary.
  let progress: Progress | undefined;
  const stamp = () => new Date().toISOString().slice(11, 19);
  io.err(`watch: following ${path} (Ctrl-C stops)\n`);
  const summary = await watchVault(memory, path, {
    actor: operatorActor(await memory.ump.operatorDid()), project: o.project, writeBack: !o.oneWay, watch: watchDir, signal: stop.signal,
    ...(quietMs !== undefined ? { quietMs } : {}),
    onPlan: (plan) => { progress = plan.actions.length >= 10 ? createProgress(plan.actions.length, "watch", io) : undefined; },
    onStep: (a) => progress?.tick(`${a.op} ${"path" in a ? a.path : a.source.path}`),
    onNotice: (m) => io.err(`watch: ${m}\n`),
    onBatch: (b) => {
      const r = b.report;
      const did = r.applied + r.swept + r.conflicts.length + r.failed.length + r.retry.length;
      if (r.failed.length) failed = true;
      printProblems(r, io, "; the next batch takes it");
      if (b.n > 0 && did === 0) return; // events that changed nothing (a temporary file, a file saved unchanged)
      const line = o.json ? JSON.stringify({ batch: b.n, events: b.events, ms: b.ms, ...r })
        : `${stamp()} ${b.n === 0 ? "reconcile" : `batch ${b.n}`}: ${b.events ? `${b.events} events, ` : ""}${reportLine(r)} (${b.ms} ms)`;
      if (progress) progress.done(line);
      else io.out(line);
      progress = undefined;
    },
  });
  io.err(`watch: stopped after ${summary.batches} batches, ${summary.events} file events\n`);
  return failed;
}
