/**
 * A client of signal-cli's JSON-RPC over a byte stream (signal-cli-jsonrpc(5)):
 * one JSON object per line each way, on a UNIX socket (`daemon --socket`),
 * a TCP socket (`daemon --tcp`) or a child's stdin/stdout (`jsonRpc`, which
 * the gateway starts itself when the config names signal-cli's path).
 * Responses match requests by id; `receive` notifications (plain, or wrapped
 * `{subscription, result}` in manual receive mode) feed `events`. A lost
 * stream fails what is pending and ends the event streams with an error;
 * the next call opens a new one. Calls time out after 15 s (SPEC §8).
 */
import { CLIENT_TIMEOUT_MS, linkedFrom, type SignalBackend, SignalCliError, type SignalEnvelope, withAccount } from "./signal-cli.ts";

/** The runtime's byte stream (src/runtime/byte-conn.ts), handed in. */
export interface ByteConn {
  readable: ReadableStream<Uint8Array>;
  write(bytes: Uint8Array): Promise<void>;
  close(): void;
}

type Notice = { envelope?: SignalEnvelope; account?: string };
interface Open {
  conn: ByteConn;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  subscribers: Set<{ push: (n: Notice) => void; fail: (e: Error) => void }>;
}

/** signal-cli over a byte stream opened by `open` (called again after the stream is lost). */
export class SignalCliStream implements SignalBackend {
  private nextId = 1;
  private current: Promise<Open> | null = null;
  constructor(private readonly open: () => Promise<ByteConn>, private readonly account: string | null) {}

  async call(method: string, params: Record<string, unknown> = {}, timeoutMs = CLIENT_TIMEOUT_MS): Promise<unknown> {
    const s = await this.connection();
    const id = this.nextId++;
    const line = JSON.stringify({ jsonrpc: "2.0", method, params: withAccount(this.account, method, params), id }) + "\n";
    return await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        s.pending.delete(id);
        reject(new SignalCliError(-32000, `signal-cli did not answer ${method} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      s.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      s.conn.write(new TextEncoder().encode(line)).catch((e) => s.pending.get(id)?.reject(e instanceof Error ? e : new Error(String(e))));
    });
  }

  async linkedAccount(): Promise<string | null> {
    return linkedFrom(await this.call("listAccounts"), this.account);
  }

  async *events(signal: AbortSignal, onOpen?: () => void): AsyncIterable<Notice> {
    const s = await this.connection();
    onOpen?.();
    const queue: Notice[] = [];
    let failed: Error | null = null;
    let wake: (() => void) | null = null;
    const sub = { push: (n: Notice) => (queue.push(n), wake?.()), fail: (e: Error) => ((failed = e), wake?.()) };
    const onAbort = () => wake?.();
    s.subscribers.add(sub);
    signal.addEventListener("abort", onAbort);
    try {
      while (!signal.aborted) {
        if (queue.length > 0) {
          yield queue.shift()!;
          continue;
        }
        if (failed) throw failed;
        await new Promise<void>((r) => (wake = r));
        wake = null;
      }
    } finally {
      s.subscribers.delete(sub);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Closes the stream (a started signal-cli is terminated). */
  async close(): Promise<void> {
    const s = await this.current?.catch(() => null);
    this.current = null;
    s?.conn.close();
  }

  private connection(): Promise<Open> {
    if (!this.current) {
      const opening = this.open().then((conn) => {
        const s: Open = { conn, pending: new Map(), subscribers: new Set() };
        void this.read(s).then(() => this.lost(s, opening, new SignalCliError(-32000, "signal-cli closed the connection")), (e) => this.lost(s, opening, e instanceof Error ? e : new Error(String(e))));
        return s;
      });
      this.current = opening;
      opening.catch(() => {
        if (this.current === opening) this.current = null;
      });
    }
    return this.current;
  }

  private lost(s: Open, opening: Promise<Open>, e: Error): void {
    if (this.current === opening) this.current = null;
    for (const p of s.pending.values()) p.reject(e);
    s.pending.clear();
    for (const sub of s.subscribers) sub.fail(e);
  }

  private async read(s: Open): Promise<void> {
    const reader = s.conn.readable.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line !== "") this.dispatch(s, line);
      }
    }
  }

  private dispatch(s: Open, line: string): void {
    let msg: { id?: unknown; method?: unknown; params?: Record<string, unknown>; result?: unknown; error?: { code?: number; message?: string } };
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not JSON-RPC (a stray log line): skipped
    }
    if (typeof msg.id === "number" && s.pending.has(msg.id) && msg.method === undefined) {
      const p = s.pending.get(msg.id)!;
      s.pending.delete(msg.id);
      if (msg.error) p.reject(new SignalCliError(msg.error.code ?? -32000, msg.error.message ?? "signal-cli error"));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method !== "receive" || typeof msg.params !== "object" || msg.params === null) return;
    // Manual receive mode wraps the notification: {subscription, result: {envelope, account}}.
    const n = (msg.params.result !== undefined ? msg.params.result : msg.params) as Notice;
    if (this.account && n.account && n.account !== this.account) return; // another account of a multi-account daemon
    for (const sub of s.subscribers) sub.push(n);
  }
}
