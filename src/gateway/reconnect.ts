/**
 * Reconnecting to signal-cli's event stream (issue: an absent signal-cli must
 * not mean a retry and a log line every second). The delay doubles from 1 s
 * to a 60 s ceiling; a stream that opened resets it. A failure is logged only
 * at the 1st, 2nd, 4th, 8th … in a row, so a day-long outage writes about a
 * dozen lines. The state is shared with `/v1/health`, which reports it.
 */

/** First delay after a failure (ms). */
export const RECONNECT_MIN_MS = 1000;
/** Longest delay between attempts (ms). */
export const RECONNECT_MAX_MS = 60_000;

/** The follower's view of the stream: consecutive failed attempts and when the next one is due (epoch ms). */
export interface StreamState {
  failures: number;
  retryAt: number | null;
}

/** The delay after `failures` consecutive failures (≥ 1). */
export function reconnectDelayMs(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

/** Whether the `failures`-th failure in a row is logged (powers of two). */
export function logsFailure(failures: number): boolean {
  return failures > 0 && (failures & (failures - 1)) === 0;
}
