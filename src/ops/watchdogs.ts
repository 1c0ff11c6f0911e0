/**
 * The connection and RSS watchdogs (SPEC §8). Both are ticked every 30 s by
 * the server; each tick only logs (and raises a system alert), except that
 * two consecutive RSS samples over the envelope exit the process when
 * `CAIRN_RSS_RESTART=1`. Pure over their ports, so tests tick them directly.
 */

/** Where watchdog findings go. */
export interface WatchdogPorts {
  log: (level: "warn" | "error", message: string, fields: Record<string, unknown>) => void;
  /** Raises a system alert (the alert webhook when configured). */
  alert?: (kind: string, message: string, details: Record<string, unknown>) => void;
}

/** Tracks in-flight request slots. */
export interface SlotTracker {
  /** Opens a slot; call the returned function when the request finishes. */
  open(label: string, nowMs: number): () => void;
  /** Slots open now. */
  size(): number;
  /** Flags (logs) every slot held longer than `maxMs`; returns how many. */
  tick(nowMs: number): number;
}

/** Builds the connection watchdog over a slot tracker. */
export function createSlotTracker(maxMs: number, ports: WatchdogPorts): SlotTracker {
  const slots = new Map<number, { label: string; since: number }>();
  let next = 0;
  return {
    open(label, now) {
      const id = next++;
      slots.set(id, { label, since: now });
      return () => void slots.delete(id);
    },
    size: () => slots.size,
    tick(now) {
      let flagged = 0;
      for (const s of slots.values()) {
        if (now - s.since > maxMs) {
          flagged++;
          ports.log("warn", "connection watchdog: slot held too long", { route: s.label, held_s: Math.round((now - s.since) / 1000) });
        }
      }
      return flagged;
    },
  };
}

/** The RSS watchdog. */
export interface RssWatchdog {
  /** Samples once; returns the consecutive over-envelope count. */
  tick(): number;
}

/** Builds the RSS watchdog. */
export function createRssWatchdog(opts: {
  sampleBytes: () => number;
  maxMib: number;
  restart: boolean;
  exit: (code: number) => void;
} & WatchdogPorts): RssWatchdog {
  let over = 0;
  return {
    tick() {
      const mib = opts.sampleBytes() / 1048576;
      if (mib <= opts.maxMib) {
        over = 0;
        return 0;
      }
      over++;
      const fields = { rss_mib: Math.round(mib), max_rss_mib: opts.maxMib, consecutive: over };
      if (over < 2) {
        // SPEC §8: the RSS ceiling is a soft warning that never blocks writes.
        opts.log("warn", "RSS watchdog: resident set over the envelope", fields);
        return over;
      }
      opts.log("error", "RSS watchdog: two consecutive samples over the envelope", { ...fields, restart: opts.restart });
      if (over === 2) opts.alert?.("rss_over_envelope", "Resident set over the envelope on two consecutive samples", fields);
      if (opts.restart) opts.exit(1);
      return over;
    },
  };
}
