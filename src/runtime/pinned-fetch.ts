/**
 * A fetch that connects only to addresses already checked against the egress
 * deny table (SPEC §5 item 12). The outbound client resolves a host name once
 * and vets every answer; a plain `fetch` would resolve the name again, and a
 * hostile DNS server could then answer 127.0.0.1 (DNS rebinding). Here the
 * connection's lookup returns the vetted answers and nothing else, while the
 * URL keeps the name: `Host` carries it, and TLS sends it as SNI and verifies
 * the certificate against it.
 *
 * Built on `node:http`/`node:https` with a `lookup` override, which behaves the
 * same under Node and Deno (Deno's `fetch` has no lookup hook: its
 * `createHttpClient` tcp proxy transport pins the address but speaks plain
 * HTTP even for an https URL). HTTP/1.1, one connection per request, no
 * redirects followed (a 3xx is returned as is), gzip/deflate/br decoded.
 */

/** Options of `createPinnedFetch`. */
export interface PinnedFetchOptions {
  /** Extra trusted CA certificates in PEM (tests); the system store otherwise. */
  ca?: string[];
}

import type { IncomingMessage } from "node:http";

type LookupCallback = (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/** Returns `pin(addresses)`: a fetch whose connections go only to `addresses` (IP literals, already vetted). */
export function createPinnedFetch(opts: PinnedFetchOptions = {}): (addresses: readonly string[]) => typeof fetch {
  return (addresses) => {
    const answers = addresses.map((a) => ({ address: a, family: a.includes(":") ? 6 : 4 }));
    // Node's net.connect asks with {all: true} (happy eyeballs) or for one address, optionally of one family.
    const lookup = (_host: string, o: { all?: boolean; family?: number | string } | number | undefined, cb: LookupCallback) => {
      const family = typeof o === "number" ? o : o?.family === "IPv4" ? 4 : o?.family === "IPv6" ? 6 : Number(o?.family ?? 0);
      const fit = family === 4 || family === 6 ? answers.filter((a) => a.family === family) : answers;
      if (fit.length === 0) return cb(Object.assign(new Error("no vetted address of the requested family"), { code: "ENOTFOUND" }), "", 0);
      if (typeof o === "object" && o?.all) return cb(null, fit);
      cb(null, fit[0]!.address, fit[0]!.family);
    };
    return (async (input: RequestInfo | URL, init?: RequestInit) => await send(new Request(input, init), lookup, opts)) as typeof fetch;
  };
}

async function send(req: Request, lookup: unknown, opts: PinnedFetchOptions): Promise<Response> {
  const url = new URL(req.url);
  const secure = url.protocol === "https:";
  const [http, zlib, stream] = await Promise.all([import(secure ? "node:https" : "node:http"), import("node:zlib"), import("node:stream")]);
  const body = req.body === null ? undefined : new Uint8Array(await req.arrayBuffer());
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => (headers[k] = v));
  headers["accept"] ??= "*/*";
  if (body !== undefined) headers["content-length"] = String(body.byteLength);
  const signal = req.signal;
  signal.throwIfAborted();
  return await new Promise<Response>((resolve, reject) => {
    const r = http.request({
      protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ""), port: url.port || (secure ? 443 : 80),
      path: url.pathname + url.search, method: req.method, headers, lookup, agent: false, signal,
      ...(secure && opts.ca ? { ca: opts.ca } : {}),
    }, (res: IncomingMessage) => {
      try {
        resolve(toResponse(req, res, signal, zlib, stream));
      } catch (e) {
        // A status fetch cannot represent (e.g. 999) is a network failure, never an uncaught throw.
        res.destroy();
        reject(e);
      }
    });
    r.once("error", reject);
    r.end(body);
  });
}

// deno-lint-ignore no-explicit-any
function toResponse(req: Request, res: IncomingMessage, signal: AbortSignal, zlib: any, stream: any): Response {
  const out = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch { /* a header value fetch would refuse is dropped */ }
  }
  const status = res.statusCode ?? 502;
  const empty = req.method === "HEAD" || status === 204 || status === 205 || status === 304;
  if (empty) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? "", headers: out });
  }
  const enc = (out.get("content-encoding") ?? "").trim().toLowerCase();
  const decoder = enc === "gzip" || enc === "x-gzip" ? zlib.createGunzip() : enc === "deflate" ? zlib.createInflate() : enc === "br" ? zlib.createBrotliDecompress() : undefined;
  // deno-lint-ignore no-explicit-any
  const raw: any = decoder ? res.pipe(decoder) : res;
  if (decoder) res.once("error", (e: Error) => decoder.destroy(e));
  // The caller's deadline covers the body too: an abort after the head ends the stream with an error.
  signal.addEventListener("abort", () => raw.destroy(signal.reason), { once: true });
  const web = stream.Readable.toWeb(raw) as unknown as ReadableStream<Uint8Array>;
  return new Response(web, { status, statusText: res.statusMessage ?? "", headers: out });
}
