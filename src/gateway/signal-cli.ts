/**
 * A client of signal-cli's HTTP JSON-RPC daemon (`signal-cli daemon --http`,
 * man page signal-cli-jsonrpc(5)): `POST /api/v1/rpc` carries JSON-RPC 2.0
 * requests, `GET /api/v1/events` streams `receive` notifications as
 * server-sent events. The gateway never speaks the Signal protocol itself
 * (issue 18). Outbound client: 15 s timeout, no redirects (SPEC §8).
 */

export const CLIENT_TIMEOUT_MS = 15_000;

/** A JSON-RPC error answered by signal-cli. */
export class SignalCliError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = "SignalCliError";
  }
}

/** The part of a signal-cli `receive` envelope the gateway reads. */
export interface SignalEnvelope {
  source?: string;
  sourceNumber?: string | null;
  sourceUuid?: string;
  timestamp?: number;
  dataMessage?: { timestamp?: number; message?: string | null; groupInfo?: unknown; groupV2?: unknown } | null;
}

/** What the gateway needs of its backend. */
export interface SignalBackend {
  /** The linked account number, or null when no account is linked. */
  linkedAccount(): Promise<string | null>;
  call(method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** Streams receive notifications until `signal` aborts; `onOpen` is called once the stream is established. */
  events(signal: AbortSignal, onOpen?: () => void): AsyncIterable<{ envelope?: SignalEnvelope; account?: string }>;
}

/** The params of a request: multi-account mode names the account on every call but the account-less ones (signal-cli-jsonrpc(5)). */
export function withAccount(account: string | null, method: string, params: Record<string, unknown>): Record<string, unknown> {
  return account && method !== "listAccounts" && method !== "startLink" && method !== "finishLink" ? { account, ...params } : params;
}

/** The linked account from a `listAccounts` result: the configured one if listed, else the first; null when none. */
export function linkedFrom(list: unknown, account: string | null): string | null {
  const numbers = (Array.isArray(list) ? list : []).map((a) => (a as { number?: unknown })?.number).filter((n): n is string => typeof n === "string");
  if (account) return numbers.includes(account) ? account : null;
  return numbers[0] ?? null;
}

/** A signal-cli HTTP daemon at `rpcUrl`; `account` selects the account in multi-account mode. */
export class SignalCli implements SignalBackend {
  private nextId = 1;
  constructor(private readonly rpcUrl: string, private readonly account: string | null) {}

  async call(method: string, params: Record<string, unknown> = {}, timeoutMs = CLIENT_TIMEOUT_MS): Promise<unknown> {
    const p = withAccount(this.account, method, params);
    const res = await fetch(new URL("/api/v1/rpc", this.rpcUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method, params: p, id: this.nextId++ }),
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new SignalCliError(-32000, `signal-cli answered HTTP ${res.status}`);
    const body = await res.json() as { result?: unknown; error?: { code?: number; message?: string } };
    if (body.error) throw new SignalCliError(body.error.code ?? -32000, body.error.message ?? "signal-cli error");
    return body.result;
  }

  async linkedAccount(): Promise<string | null> {
    return linkedFrom(await this.call("listAccounts"), this.account);
  }

  async *events(signal: AbortSignal, onOpen?: () => void): AsyncIterable<{ envelope?: SignalEnvelope; account?: string }> {
    const u = new URL("/api/v1/events", this.rpcUrl);
    if (this.account) u.searchParams.set("account", this.account);
    const res = await fetch(u, { headers: { accept: "text/event-stream" }, redirect: "error", signal });
    if (!res.ok || !res.body) throw new SignalCliError(-32000, `signal-cli events answered HTTP ${res.status}`);
    onOpen?.();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += value;
        let cut: number;
        while ((cut = buf.search(/\r?\n\r?\n/)) >= 0) {
          if (signal.aborted) return; // a buffered backlog is not handed out after the caller stopped
          const block = buf.slice(0, cut);
          buf = buf.slice(cut).replace(/^\r?\n\r?\n/, "");
          const data = block.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
          if (data === "") continue;
          try {
            yield JSON.parse(data);
          } catch {
            // A malformed event is skipped: the stream stays up.
          }
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
}
