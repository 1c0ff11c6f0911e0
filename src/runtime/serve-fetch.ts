/**
 * The HTTP server half of the runtime adapter (STYLE rule 5; split from platform.ts): serves a fetch handler on Node
 * (`@hono/node-server`) or Deno (`Deno.serve`) with the same surface.
 */
// deno-lint-ignore no-explicit-any
const g = globalThis as any;
const isDeno: boolean = typeof g.Deno?.version?.deno === "string";

/** A running HTTP server. */
export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Bindings the adapter hands the app as `c.env`: the socket peer address, set
 * from the connection itself (never from a header), so clients cannot spoof it.
 */
export interface PeerBindings {
  remoteAddr?: string;
  /** Aborted when the client closes the connection before its answer was delivered (the request's work then stops). */
  clientGone?: AbortSignal;
}

/** A complete answer the adapter writes itself for a request the HTTP parser refused (see src/http/parser-refusal.ts). */
export interface RawRefusal {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** Serves a fetch handler on hostname:port (port 0 only in tests: the CLI refuses it at config). */
export async function serveFetch(
  fetch: (req: Request, env: PeerBindings) => Response | Promise<Response>,
  opts: { hostname: string; port: number; refusal?: (kind: "malformed" | "header_overflow" | "internal") => RawRefusal },
): Promise<RunningServer> {
  if (isDeno) {
    let resolvePort: (p: number) => void;
    const ready = new Promise<number>((r) => (resolvePort = r));
    // `info.completed` rejects when the connection closes before the answer was delivered (`request.signal` would
    // also abort after every successful answer under Deno's legacy behaviour).
    const handler = (req: Request, info: { remoteAddr?: { hostname?: string }; completed?: Promise<void> }) => {
      const gone = new AbortController();
      info?.completed?.catch(() => gone.abort());
      return fetch(req, { remoteAddr: info?.remoteAddr?.hostname, clientGone: gone.signal });
    };
    const server = g.Deno.serve({ hostname: opts.hostname, port: opts.port, onListen: (a: { port: number }) => resolvePort(a.port) }, handler);
    const port = await ready;
    // Deno's shutdown is graceful only: a stalled upload or an endless stream would hold it open. After the grace the
    // close resolves anyway, so the caller's clean stamp and exit still happen (the exit ends what is left).
    return {
      port,
      close: () => new Promise<void>((r) => {
        const grace = setTimeout(r, 1000);
        server.shutdown().then(() => (clearTimeout(grace), r()), () => (clearTimeout(grace), r()));
      }),
    };
  }
  const { getRequestListener } = await import("@hono/node-server");
  const { createServer } = await import("node:http");
  // deno-lint-ignore no-explicit-any
  // The adapter aborts `req.signal` only when the connection closes before the answer was written.
  const handler = (req: Request, env: any) => fetch(req, { remoteAddr: env?.incoming?.socket?.remoteAddress, clientGone: req.signal });
  const refusal = opts.refusal;
  // A target the adapter cannot turn into a Request (`/\\x`, a bad Host) reaches errorHandler: answer with the envelope.
  const errorHandler = refusal && ((e: unknown) => {
    const r = refusal((e as Error)?.name === "RequestError" ? "malformed" : "internal");
    return new Response(r.body, { status: r.status, headers: r.headers });
  });
  const server = createServer(getRequestListener(handler, { hostname: opts.hostname, errorHandler }));
  // Node's parser refuses unknown methods and oversized heads before any handler runs; by default it writes an
  // empty 400/431. With a listener it writes nothing, so the answer (envelope, X-Api-Version) is ours.
  if (refusal) {
    server.on("clientError", (err: { code?: string }, socket) => {
      if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
      const r = refusal(err.code === "HPE_HEADER_OVERFLOW" ? "header_overflow" : "malformed");
      const head = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
      socket.end(`HTTP/1.1 ${r.status} ${r.reason}\r\n${head}\r\n${r.body}`);
    });
  }
  return await new Promise<RunningServer>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => {
      const a = server.address();
      resolve({
        port: typeof a === "object" && a !== null ? a.port : opts.port,
        // Stop accepting, drop idle keep-alive sockets now and any still busy after a 1 s grace: a browser's pooled
        // connection must not hold a shutdown open (the clean-shutdown stamp and WAL checkpoint come after it).
        // The grace timer keeps the process alive: a socket paused on an unread body (a refused upload) holds no
        // active handle, so with an unref'd timer the process would end here, before the clean stamp, with exit 0.
        close: () => new Promise<void>((r) => {
          const grace = setTimeout(() => server.closeAllConnections(), 1000);
          server.close(() => (clearTimeout(grace), r()));
          server.closeIdleConnections();
        }),
      });
    });
  });
}
