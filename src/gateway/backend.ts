/**
 * Picks the signal-cli client for the configured transport (issue 18: the
 * gateway starts or connects to signal-cli, path and account from the
 * config). The byte-stream openers come from the runtime (src/runtime/byte-conn.ts).
 */
import type { SignalTransport } from "./config.ts";
import { SignalCli, type SignalBackend } from "./signal-cli.ts";
import { type ByteConn, SignalCliStream } from "./signal-stream.ts";

/** The runtime's byte-stream openers. */
export interface SignalPorts {
  connectUnix(path: string): Promise<ByteConn>;
  connectTcp(host: string, port: number): Promise<ByteConn>;
  spawnStdio(command: string, args: string[]): Promise<ByteConn>;
}

/** A backend plus how to release it (a started signal-cli is terminated). */
export interface OpenBackend {
  signal: SignalBackend;
  close(): Promise<void>;
}

/** The signal-cli client of `transport`; `account` null = no account param (linking, single-account daemons). */
export function signalBackend(transport: SignalTransport, account: string | null, ports: SignalPorts): OpenBackend {
  switch (transport.kind) {
    case "http":
      return { signal: new SignalCli(transport.url, account), close: async () => {} };
    case "socket":
      return stream(() => ports.connectUnix(transport.path), account);
    case "tcp":
      return stream(() => ports.connectTcp(transport.host, transport.port), account);
    case "spawn": {
      // signal-cli(1): `--config DIR` is the data directory; `jsonRpc` without `-a` serves every local account.
      const args = [...(transport.dataDir ? ["--config", transport.dataDir] : []), "jsonRpc"];
      return stream(() => ports.spawnStdio(transport.path, args), account);
    }
  }
}

function stream(open: () => Promise<ByteConn>, account: string | null): OpenBackend {
  const s = new SignalCliStream(open, account);
  return { signal: s, close: () => s.close() };
}
