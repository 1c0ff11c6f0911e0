/**
 * Who may change the shutdown stamp (SPEC §3 last row). A serving process
 * claims it only after it listens, and only when no other live process holds
 * it; it stamps `clean` at its close only while the stamp is still its own.
 * So a second `serve` that fails to bind (or runs beside the owner) never
 * touches the owner's stamp, and a later kill of the owner reads unclean.
 * Each read-and-write is one transaction (compare and set).
 */
import type { Exec } from "../store/db.ts";
import { readShutdownStamp, writeShutdownStamp, type ShutdownStamp } from "../store/shutdown-stamp.ts";

/** What the stamp operations need. */
export interface StampDeps {
  /** One write transaction. */
  write<T>(fn: (tx: Exec) => Promise<T>): Promise<T>;
  pid: number;
  /** Whether another process with this id runs. */
  alive(pid: number): boolean;
  now(): Date;
}

/** The outcome of a claim: the stamp this process now owns, or the live process that owns it. */
export type StampClaim = { owned: ShutdownStamp } | { heldBy: number };

/** Marks the store as served by this process, unless another live process holds the stamp. */
export async function claimStamp(d: StampDeps): Promise<StampClaim> {
  return await d.write(async (tx) => {
    const before = await readShutdownStamp(tx);
    if (before?.state === "running" && before.pid !== d.pid && d.alive(before.pid)) return { heldBy: before.pid };
    // A `running` stamp of a dead process (or of this pid, reused) is a run that ended uncleanly.
    const previous = before === undefined ? "none" : before.state === "clean" ? "clean" : "unclean";
    const owned: ShutdownStamp = { state: "running", pid: d.pid, booted_at: d.now().toISOString(), previous };
    await writeShutdownStamp(tx, owned);
    return { owned };
  });
}

/** Stamps a clean shutdown if the stamp is still the one this process wrote; false when it was not. */
export async function releaseStamp(d: StampDeps, owned: ShutdownStamp): Promise<boolean> {
  return await d.write(async (tx) => {
    const now = await readShutdownStamp(tx);
    if (now?.state !== "running" || now.pid !== owned.pid || now.booted_at !== owned.booted_at) return false;
    await writeShutdownStamp(tx, { ...owned, state: "clean", clean_at: d.now().toISOString() });
    return true;
  });
}
