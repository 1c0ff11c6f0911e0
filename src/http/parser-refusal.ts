/**
 * Answers for requests refused before the app sees them (issue 23 §3): the
 * runtime's HTTP parser rejects an unknown method, an oversized request head
 * (e.g. an 18 KB URL) or a malformed target, and by default answers an empty
 * 400/431 without `X-Api-Version`. SPEC §7: every non-2xx except the bare
 * 413 and 429 carries the envelope, and every response the version header.
 * Plain data, so the runtime adapter can write it on a raw socket.
 */
import { VERSION } from "../core/version.ts";

/** Why the parser refused. */
export type ParserRefusalKind = "malformed" | "header_overflow" | "internal";

/** A complete response: status, headers and a JSON body. */
export interface ParserRefusal {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** The response for a parser refusal. */
export function parserRefusal(kind: ParserRefusalKind): ParserRefusal {
  const [status, reason, code, message] = kind === "header_overflow"
    ? [431, "Request Header Fields Too Large", "headers_too_large", "Request line and headers exceed the server's limit"]
    : kind === "internal"
    ? [500, "Internal Server Error", "internal_error", "internal error"]
    : [400, "Bad Request", "bad_request", "The request could not be parsed"];
  const body = JSON.stringify({ error: { code, message } });
  return {
    status, reason, body,
    headers: { "content-type": "application/json", "x-api-version": VERSION, connection: "close", "content-length": String(new TextEncoder().encode(body).length) },
  };
}
