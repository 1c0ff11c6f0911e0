/**
 * Bi-temporal edge rules (SPEC §2.6, §3, §4.6) as pure functions: the
 * upsert planner the store executes, the "graph as of `at`" filter and the
 * history order. An edge row carries valid time (`validAt`, `invalidAt`:
 * when the fact holds in the world) and transaction time (`createdAt`,
 * `supersededAt`: when the store believed it). `supersededAt` absent marks
 * the current belief; retired rows are never deleted.
 *
 * Planner (SPEC §3): re-ingesting a (from, type, to) triple with the same
 * valid window is a `duplicate` (no writes, same id); with a different
 * window the current row is retired and a new row inserted, with the old
 * `supersededAt` equal to the new `createdAt`; with no current row it is an
 * `insert`. Timestamps are ISO-8601 UTC strings; windows compare by instant,
 * so "2024-01-01" equals "2024-01-01T00:00:00.000Z".
 */
import { MemoryError } from "../core/errors.ts";
import { parseIsoInstant } from "../core/iso-instant.ts";

/** The temporal part of a stored edge row (the store's `EdgeRow` fits this shape). */
export interface EdgeVersion {
  id: number;
  validAt?: string | null;
  invalidAt?: string | null;
  createdAt: string;
  supersededAt?: string | null;
}

/** A requested valid window (the relation input's fields, SPEC §4.2). */
export interface ValidWindow {
  valid_at?: string | null;
  invalid_at?: string | null;
}

/** Timestamps of the row to insert; the caller adds the triple, domain and source. */
export interface NewEdgeTimes {
  validAt?: string;
  invalidAt?: string;
  createdAt: string;
}

/** What the store must do for one edge upsert. */
export type EdgePlan =
  | { action: "duplicate"; id: number }
  | { action: "supersede"; retireId: number; supersededAt: string; newRow: NewEdgeTimes }
  | { action: "insert"; newRow: NewEdgeTimes };

function instant(v: string | null | undefined, field: string): number | null {
  if (v === undefined || v === null) return null;
  const ms = parseIsoInstant(v);
  if (ms === undefined) throw new MemoryError("relation_invalid", `${field} must be an ISO-8601 timestamp`, { field });
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isCurrent = (r: EdgeVersion) => r.supersededAt === undefined || r.supersededAt === null;
const byCreated = (a: EdgeVersion, b: EdgeVersion) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id;

/**
 * Plans the upsert of one triple given all its stored rows (retired rows are
 * ignored). If the store holds several current rows (it should not), an
 * exact window match among them is the duplicate, otherwise the newest one is
 * retired. `createdAt` is bumped 1 ms past the retired row's when the clock
 * has not moved on, so transaction time never runs backwards.
 */
export function planEdgeUpsert(rows: readonly EdgeVersion[], window: ValidWindow, now: string): EdgePlan {
  const va = instant(window.valid_at, "valid_at");
  const ia = instant(window.invalid_at, "invalid_at");
  if (va !== null && ia !== null && ia <= va) {
    throw new MemoryError("relation_invalid", "invalid_at must be later than valid_at", { field: "invalid_at" });
  }
  const nowMs = Date.parse(now);
  if (Number.isNaN(nowMs)) throw new RangeError("now must be an ISO-8601 timestamp");

  const current = rows.filter(isCurrent).sort(byCreated);
  const same = current.find((r) => instant(r.validAt, "validAt") === va && instant(r.invalidAt, "invalidAt") === ia);
  if (same !== undefined) return { action: "duplicate", id: same.id };

  const times = (createdMs: number): NewEdgeTimes => {
    const t: NewEdgeTimes = { createdAt: iso(createdMs) };
    if (va !== null) t.validAt = iso(va);
    if (ia !== null) t.invalidAt = iso(ia);
    return t;
  };
  const newest = current[current.length - 1];
  if (newest === undefined) return { action: "insert", newRow: times(nowMs) };
  const at = Math.max(nowMs, Date.parse(newest.createdAt) + 1);
  return { action: "supersede", retireId: newest.id, supersededAt: iso(at), newRow: times(at) };
}

/** The current beliefs: rows not superseded (SPEC §4.6 current reads). */
export function currentEdges<T extends EdgeVersion>(rows: readonly T[]): T[] {
  return rows.filter(isCurrent);
}

/**
 * The graph as of `at` (SPEC §4.6 `at`). By default a transaction-time view,
 * what the store believed then: `createdAt ≤ at < supersededAt` (open end
 * when current). With `validTime: true` the fact must also hold in the world
 * at `at`: `validAt ≤ at < invalidAt`, open ends when absent.
 */
export function edgesAt<T extends EdgeVersion>(rows: readonly T[], at: string, opts: { validTime?: boolean } = {}): T[] {
  const t = Date.parse(at);
  if (Number.isNaN(t)) throw new MemoryError("invalid_request", "at must be an ISO-8601 timestamp", { field: "at" });
  return rows.filter((r) => {
    if (Date.parse(r.createdAt) > t) return false;
    if (!isCurrent(r) && Date.parse(r.supersededAt as string) <= t) return false;
    if (opts.validTime !== true) return true;
    const va = instant(r.validAt, "validAt");
    const ia = instant(r.invalidAt, "invalidAt");
    return (va === null || va <= t) && (ia === null || t < ia);
  });
}

/** One entry of an edge's history (SPEC §2.6 edge history version): the four timestamps and `current`. */
export interface HistoryVersion {
  id: number;
  valid_at: string | null;
  invalid_at: string | null;
  created_at: string;
  superseded_at: string | null;
  current: boolean;
}

/** The versions of one triple, oldest first (by `createdAt`, then id), in the response shape of SPEC §4.6. */
export function historyOrder(rows: readonly EdgeVersion[]): HistoryVersion[] {
  return [...rows].sort(byCreated).map((r) => ({
    id: r.id,
    valid_at: r.validAt ?? null,
    invalid_at: r.invalidAt ?? null,
    created_at: r.createdAt,
    superseded_at: r.supersededAt ?? null,
    current: isCurrent(r),
  }));
}
