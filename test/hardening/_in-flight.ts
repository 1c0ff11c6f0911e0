/**
 * Sending a hostile case while `/health` is probed, for the corpus test and the hostile-input bench: the answer, the
 * time to it, and the worst `/health` latency seen while it was in flight.
 */
import type { CaseRequester } from "./corpus/types.ts";

/** What one request in flight came to. */
export interface InFlight {
  status: number;
  /** The error envelope's code, when the answer is one. */
  code?: string;
  ms: number;
  worstHealthMs: number;
}

/**
 * Runs `send` while calling `probe` (one `/health`) again and again, 5 ms apart, the first after `firstProbeAfterMs`.
 * Every probe started while the request is in flight counts, whole (one blocked by it ends after its answer).
 */
export async function inFlight(send: () => Promise<Response>, probe: () => Promise<unknown>, firstProbeAfterMs = 0): Promise<InFlight> {
  let done = false;
  let worst = 0;
  const poll = (async () => {
    if (firstProbeAfterMs > 0) await new Promise((r) => setTimeout(r, firstProbeAfterMs));
    while (!done) {
      const t0 = performance.now();
      await probe();
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  const res = await send();
  const text = await res.text();
  const ms = performance.now() - t0;
  done = true;
  await poll;
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code, ms, worstHealthMs: worst };
}

/** The requester a case's `setup` sends through: JSON bodies over fetch to the server at `base()`. */
export function caseRequester(base: () => string): CaseRequester {
  return (method, path, body, headers = {}) =>
    fetch(base() + path, {
      method, headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
}
