/**
 * The shutdown stamp (SPEC §3 last row, issue 23 §5), kept in `store_meta`:
 * a serving process marks the store `running` at boot and `clean` at a clean
 * shutdown. A boot that finds `running` knows the last run ended uncleanly
 * (killed, crashed, power cut) and says so on `/health/db`, `cairn status`
 * and `cairn check-consistency`.
 */
import type { Exec } from "./db.ts";
import { getMeta, setMeta } from "./health.ts";

const KEY = "shutdown_stamp";

/** What the stamp holds. */
export interface ShutdownStamp {
  state: "running" | "clean";
  /** Process id of the serving process (to tell a live server from a dead one). */
  pid: number;
  booted_at: string;
  clean_at?: string;
  /** How the run before this one ended, as found at this boot. */
  previous: "clean" | "unclean" | "none";
}

/** Reads the stamp (undefined on a store no server has run on). */
export async function readShutdownStamp(ex: Exec): Promise<ShutdownStamp | undefined> {
  const v = await getMeta(ex, KEY);
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v) as ShutdownStamp;
  } catch {
    return undefined;
  }
}

/** Writes the stamp. */
export async function writeShutdownStamp(ex: Exec, stamp: ShutdownStamp): Promise<void> {
  await setMeta(ex, KEY, JSON.stringify(stamp));
}
