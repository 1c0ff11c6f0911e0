/**
 * How the store's last run ended (SPEC §3 shutdown stamp, issue 23 §5), for
 * `/health/db`, `cairn status` and the morning `cairn check-consistency`.
 * Pure: the stamp and a liveness probe of the stamping process go in.
 */
import type { ShutdownStamp } from "../store/shutdown-stamp.ts";

/** The report. `unclean`: a server's run ended without a clean shutdown (now, or before the running server booted). */
export interface ShutdownReport {
  last_shutdown: "clean" | "unclean" | "unknown";
  server_running: boolean;
  pid?: number;
  booted_at?: string;
  clean_at?: string;
}

/** Describes a stamp; `alive(pid)` tells whether the stamping process still runs. */
export function describeShutdown(stamp: ShutdownStamp | undefined, alive: (pid: number) => boolean): ShutdownReport {
  if (stamp === undefined) return { last_shutdown: "unknown", server_running: false };
  if (stamp.state === "clean") return { last_shutdown: "clean", server_running: false, pid: stamp.pid, booted_at: stamp.booted_at, clean_at: stamp.clean_at };
  if (alive(stamp.pid)) {
    // A live server: report how the run before it ended (a restart after a crash stays visible until the next clean stop).
    const last = stamp.previous === "none" ? "unknown" : stamp.previous;
    return { last_shutdown: last, server_running: true, pid: stamp.pid, booted_at: stamp.booted_at };
  }
  return { last_shutdown: "unclean", server_running: false, pid: stamp.pid, booted_at: stamp.booted_at };
}
