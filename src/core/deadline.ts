/**
 * Deadlines of work (SPEC §8: the request deadline → 503 `deadline_exceeded`; SPEC §7: the recall search budget →
 * 503 `recall_unavailable`). A timer cannot interrupt JavaScript that never awaits, so CPU-bound work checks its
 * deadline itself at the slice boundaries of its loops (docs/limits.md "Request deadline"):
 *
 * - `check()` throws the deadline's error once its time is up (a clock read, no timer needed) or the work was
 *   abandoned (the client went away);
 * - `pace()` also yields to the event loop once the running slice has had `sliceMs`, so `/health` and the other
 *   requests are served between the slices of a long one;
 * - `commit()` is the point of no return a write transaction passes just before its COMMIT: work past its deadline
 *   never commits, and work that has committed is never answered with a deadline error — it runs to its end, so an
 *   operation of several transactions is never cut between them.
 *
 * Where the work runs is a `WorkScope` (a port: the runtime's carries the request's deadline across awaits, so the
 * write path and the store's transactions find it without every door passing it along).
 */
import { MemoryError } from "./errors.ts";

/** How long a slice of CPU-bound work runs before it yields to the event loop (ms). */
export const SLICE_MS = 10;

/** The deadline of one piece of work. */
export interface Deadline {
  /** True once the time is up or the work was abandoned, unless it had already committed. */
  readonly expired: boolean;
  /** True once a check has thrown: the work was stopped at a slice boundary or at its COMMIT. */
  readonly stopped: boolean;
  /** Throws the deadline's error when expired (a no-op once committed or finished). */
  check(): void;
  /** True when the running slice has had its share of the event loop. */
  due(): boolean;
  /** At a slice boundary: yields to the event loop when the slice is used up, then checks. */
  pace(): Promise<void>;
  /** The point of no return (just before a COMMIT): checks once more, then the work can no longer expire. */
  commit(): void;
  /** Ends the work's time now (the request timer, the client went away); false when it had already committed. */
  expire(error?: MemoryError): boolean;
  /** The request was answered normally: checks made later by work it left running pass. */
  finish(): void;
  /** Calls `listener` once, when the deadline expires. */
  onExpire(listener: (error: MemoryError) => void): void;
  /** A shorter budget inside this one (the recall search budget): its checks also check this deadline. */
  within(ms: number, error: () => MemoryError): Deadline;
}

/** Where work runs: the deadline of the running request, carried across its awaits, and a yield to the event loop. */
export interface WorkScope {
  /** Runs `fn` (and everything it awaits) with `deadline` as the current one. */
  run<T>(deadline: Deadline, fn: () => T): T;
  /** The current work's deadline; undefined outside any request. */
  current(): Deadline | undefined;
  /** Resolves after the event loop has served what was waiting (I/O, timers). */
  yieldNow(): Promise<void>;
}

/** A scope that carries nothing across awaits (no runtime port): deadlines reach only work they are handed. */
export const directScope: WorkScope = {
  run: (_d, fn) => fn(),
  current: () => undefined,
  yieldNow: () => new Promise((r) => setTimeout(r, 0)),
};

/** Options of `createDeadline`. */
export interface DeadlineOptions {
  /** Time from now (ms). */
  ms: number;
  /** The error thrown once expired. */
  error: () => MemoryError;
  /** How work yields; defaults to a zero timeout. */
  yieldNow?: () => Promise<void>;
  /** Clock in ms; defaults to `performance.now`. */
  now?: () => number;
  sliceMs?: number;
}

/** A deadline `ms` from now. */
export function createDeadline(o: DeadlineOptions): Deadline {
  return new WorkDeadline(o, undefined);
}

/** The request deadline's error (SPEC §8). */
export const deadlineExceeded = (ms: number): MemoryError =>
  new MemoryError("deadline_exceeded", `request exceeded the ${ms / 1000} s deadline`);

/** Checks the scope's current deadline, if any (a no-op outside a request). */
export function checkWork(scope: WorkScope | undefined): void {
  scope?.current()?.check();
}

/** A slice boundary of work in `scope`: yields when the slice is used up, throws when its deadline passed. */
export async function paceWork(scope: WorkScope | undefined): Promise<void> {
  const d = scope?.current();
  if (d !== undefined) await d.pace();
}

/**
 * A slice boundary for work outside any request's deadline (a background pass over many rows): resolves at once
 * until the running slice has had `sliceMs`, then yields to the event loop.
 */
export function slicer(yieldNow: () => Promise<void>, sliceMs = SLICE_MS, now: () => number = () => performance.now()): () => Promise<void> {
  let start = now();
  return async () => {
    if (now() - start < sliceMs) return;
    await yieldNow();
    start = now();
  };
}

type State = "open" | "committed" | "expired" | "finished";

class WorkDeadline implements Deadline {
  private state: State = "open";
  stopped = false;
  private reason: MemoryError | undefined;
  private readonly endsAt: number;
  private readonly now: () => number;
  private readonly yieldNow: () => Promise<void>;
  private readonly sliceMs: number;
  private sliceStart: number;
  private listeners: ((e: MemoryError) => void)[] = [];

  constructor(private readonly o: DeadlineOptions, private readonly parent: WorkDeadline | undefined) {
    this.now = o.now ?? (() => performance.now());
    this.yieldNow = o.yieldNow ?? directScope.yieldNow;
    this.sliceMs = o.sliceMs ?? SLICE_MS;
    this.endsAt = this.now() + o.ms;
    this.sliceStart = this.now();
  }

  get expired(): boolean {
    if (this.state === "expired") return true;
    if (this.state !== "open") return false;
    return this.now() >= this.endsAt || (this.parent !== undefined && this.parent.expired);
  }

  check(): void {
    if (this.state === "committed" || this.state === "finished") return;
    if (this.state === "open" && this.now() >= this.endsAt) this.expire();
    if (this.state === "expired") {
      this.stopped = true;
      throw this.reason!;
    }
    try {
      this.parent?.check();
    } catch (e) {
      this.stopped = true;
      throw e;
    }
  }

  due(): boolean {
    return this.now() - this.sliceStart >= this.sliceMs;
  }

  async pace(): Promise<void> {
    this.check();
    if (!this.due()) return;
    await this.yieldNow();
    this.sliceStart = this.now();
    this.check();
  }

  commit(): void {
    this.check();
    if (this.state === "open") this.state = "committed";
    this.parent?.commit();
  }

  expire(error?: MemoryError): boolean {
    if (this.state === "expired") return true;
    if (this.state !== "open") return false;
    this.state = "expired";
    this.reason = error ?? this.o.error();
    for (const l of this.listeners.splice(0)) l(this.reason);
    return true;
  }

  finish(): void {
    if (this.state === "open" || this.state === "committed") this.state = "finished";
  }

  onExpire(listener: (error: MemoryError) => void): void {
    if (this.state === "expired") listener(this.reason!);
    else this.listeners.push(listener);
  }

  within(ms: number, error: () => MemoryError): Deadline {
    return new WorkDeadline({ ms, error, yieldNow: this.yieldNow, now: this.now, sliceMs: this.sliceMs }, this);
  }
}
