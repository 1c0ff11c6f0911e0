/**
 * The common part of the loopback vendor fakes (issue 15): a real node:http server on 127.0.0.1 that records every
 * request (method + path), checks the vendor's auth header (401 in the vendor's error format otherwise), answers
 * only GET (anything else is recorded and refused with 405), and can be armed to answer the next request with the
 * vendor's 429 + `Retry-After` or a redirect.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake saw. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** A vendor's answer. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** How a fake speaks its vendor's error format. */
export interface FakeOptions {
  authorized(headers: IncomingHttpHeaders): boolean;
  unauthorized: Answer;
  rateLimited: Answer;
  route(url: URL): Answer;
}

/** A running fake. */
export interface Fake {
  origin: string;
  seen: SeenRequest[];
  /** Answers the next `times` requests with the vendor's 429 (Retry-After: 1). */
  arm429(times?: number): void;
  /** Answers the next request with a 302 to `location`. */
  armRedirect(location: string): void;
  close(): Promise<void>;
}

/** Starts a fake. */
export async function startFake(o: FakeOptions): Promise<Fake> {
  const seen: SeenRequest[] = [];
  let limited = 0;
  let redirect: string | undefined;
  const send = (res: ServerResponse, a: Answer) => {
    const body = a.body === undefined ? "" : typeof a.body === "string" ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, { "content-type": "application/json; charset=utf-8", ...a.headers });
    res.end(body);
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
      if (redirect !== undefined) {
        const location = redirect;
        redirect = undefined;
        return send(res, { status: 302, headers: { location } });
      }
      if (limited > 0) {
        limited--;
        return send(res, o.rateLimited);
      }
      if (!o.authorized(req.headers)) return send(res, o.unauthorized);
      if (req.method !== "GET") return send(res, { status: 405, body: { error: "MethodNotAllowed" } });
      try {
        send(res, o.route(new URL(req.url ?? "/", "http://fake")));
      } catch (e) {
        send(res, { status: 500, body: { error: String(e) } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    arm429: (times = 1) => void (limited = times),
    armRedirect: (location) => void (redirect = location),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A monotonic vendor clock: each tick is one second later, ISO-8601 UTC without fractions. */
export function vendorClock(start = Date.parse("2026-11-01T09:00:00Z")) {
  let t = start;
  return {
    tick: () => new Date((t += 1000)).toISOString().replace(".000Z", "Z"),
    epoch: () => Math.floor(t / 1000),
  };
}

/** The requester every fake uses: none of these strings may reach the database. */
export const REQUESTER = {
  name: "Jane Requester",
  email: "jane.requester@customer.example",
  phone: "+44 20 7946 0958",
} as const;

/** A customer reply that quotes the requester's address, as real mail clients do. */
export const QUOTED_REPLY = `Still broken after the restart.\n\nOn Mon, ${REQUESTER.name} <${REQUESTER.email}> wrote:\n> Export fails with error E42`;
