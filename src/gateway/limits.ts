/**
 * The gateway's fixed limits (SPEC §8): one global request budget of 100
 * per 60 s (not tunable), the 4,096-entry recipient cache with oldest-quarter
 * eviction and a TTL on the phone leg, and the in-flight send bound.
 */

/** Sliding-window request budget: 100 requests per 60 s across the whole surface. */
export class RequestBudget {
  static readonly LIMIT = 100;
  static readonly WINDOW_MS = 60_000;
  private stamps: number[] = [];
  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one request from the budget; false when it is spent. */
  take(): boolean {
    const t = this.now();
    const from = t - RequestBudget.WINDOW_MS;
    let drop = 0;
    while (drop < this.stamps.length && this.stamps[drop]! <= from) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
    if (this.stamps.length >= RequestBudget.LIMIT) return false;
    this.stamps.push(t);
    return true;
  }
}

/** Phone number → Signal service id. Phone entries expire (a number can change hands); insertion order is age. */
export class RecipientCache {
  static readonly MAX = 4096;
  static readonly PHONE_TTL_MS = 24 * 3600 * 1000; // x-cairn-choice: the phone leg lives one day
  private readonly map = new Map<string, { value: string; at: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.map.size;
  }

  set(key: string, value: string): void {
    this.map.delete(key);
    if (this.map.size >= RecipientCache.MAX) {
      // Oldest-quarter eviction: Map iteration order is insertion order.
      let n = RecipientCache.MAX / 4;
      for (const k of this.map.keys()) {
        if (n-- <= 0) break;
        this.map.delete(k);
      }
    }
    this.map.set(key, { value, at: this.now() });
  }

  get(key: string): string | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (key.startsWith("+") && this.now() - e.at > RecipientCache.PHONE_TTL_MS) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }
}

/** The clock a `SendGate` paces by (injected in tests; real time otherwise). */
export interface SendClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: SendClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/**
 * `max_sends_per_second` (SPEC §8 "Gateway concurrency"): at most `max` sends in flight at once, and at most `max`
 * sends started in any rolling second (signal-cli and Signal's servers rate-limit a burst; the queue waits instead).
 */
export class SendGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly started: number[] = [];
  private pacing: Promise<void> = Promise.resolve();
  constructor(private readonly max: number, private readonly clock: SendClock = realClock) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      await this.pace();
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }

  /** Waits until a start fits the rolling one-second window; starts are paced one after another (FIFO). */
  private pace(): Promise<void> {
    const turn = this.pacing.then(async () => {
      for (;;) {
        const t = this.clock.now();
        while (this.started.length > 0 && this.started[0]! <= t - 1000) this.started.shift();
        if (this.started.length < this.max) {
          this.started.push(t);
          return;
        }
        await this.clock.sleep(this.started[0]! + 1000 - t);
      }
    });
    this.pacing = turn.catch(() => {});
    return turn;
  }
}
