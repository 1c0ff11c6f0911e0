/**
 * The hostile-input corpus format (README.md beside this file): one file per
 * class exports `cases: HostileCase[]`. `hostile-corpus.test.ts` sends every
 * case that is not `heavy` to a real server in `npm test` (and every case in
 * `npm run fuzz`), asserting the status, the code, no 500 and that `/health`
 * kept answering; the route fuzzer draws bodies and strings from the same cases.
 */

/** What a case may do before it is sent: make the ids, rows or schemas it refers to. */
export interface CaseRequester {
  /** Sends a JSON (or raw string) request to the server under test. */
  (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** One hostile request and what the server must answer. */
export interface HostileCase {
  /** Names the input, as the test names it. */
  name: string;
  method: string;
  /** Path and query (a getter when `setup` creates the id it names). */
  path: string;
  headers?: Record<string, string>;
  /** The request body, built on demand (some are megabytes). */
  body?: () => string | Uint8Array;
  /** Runs before the request (e.g. creates the claim schema a verify case needs). */
  setup?: (req: CaseRequester) => Promise<void>;
  /** Acceptable statuses, and the error code when the answer is an error. */
  expect: { status: number[]; code?: string };
  /** Too slow or too large for `npm test`: only `npm run fuzz` sends it. */
  heavy?: boolean;
}
