/**
 * One operator-initiated sync of one connector instance (issue 15; SPEC §9 "Connector and case-governance rules":
 * nothing fetches in the background, `cairn sync` is the crank). Steps: the 300 s floor since the last attempt
 * (SPEC §8, refused with the wait named), claim the registry row (`syncing`), page from the committed cursor, each
 * page committed with its cursor (page-commit.ts), then the reconcile sweep: items missing from `livePaths()` are
 * marked deleted and `POST /sources/reconcile`'s logic sweeps their chunks and superseded revisions. Vendor failures
 * (after vendor-http's bounded retries) end in `state: error` with a safe message; the cursor stays at the last
 * committed page, so the next sync resumes there.
 */
import { isMemoryError, MemoryError } from "../core/errors.ts";
import type { SourceService } from "../sources/source-service.ts";
import { claimConnector, finishConnector, type ConnectorRow } from "../store/connectors.ts";
import type { Db } from "../store/db.ts";
import { commitPage, type PageCounts, type PageDeps, type RefusedRecord } from "./page-commit.ts";
import { isResumable } from "./resumable.ts";
import { VendorError, type VendorSource } from "./vendor.ts";

/** The outcome of a sync (also the CLI's `--json` line). */
export interface SyncSummary extends PageCounts {
  kind: string;
  instance: string;
  state: "idle" | "error";
  pages: number;
  deleted: number;
  swept: number;
  seconds: number;
  error?: string;
  /** Records refused for their own content (at most 50 named), only when some were. */
  refused?: RefusedRecord[];
}

/** What a sync needs. */
export interface SyncDeps extends PageDeps {
  db: Db;
  sources: SourceService;
  clock: () => Date;
  /** Minimum seconds between two syncs of the same instance (SPEC §8: 300). */
  floorSec: number;
  /** Called after every committed page. */
  onPage?: (p: { pages: number; records: number }) => void;
}

const MAX_PAGES = 1_000_000;

/** Runs one sync of the registered connector `row` over `source`. */
export async function runSync(d: SyncDeps, row: ConnectorRow, source: VendorSource, domain?: string): Promise<SyncSummary> {
  const now = d.clock();
  if (row.last_attempt_at) {
    const wait = Math.ceil(d.floorSec - (now.getTime() - Date.parse(row.last_attempt_at)) / 1000);
    if (wait > 0) {
      throw new MemoryError("sync_too_soon", `The last sync of ${row.kind}/${row.instance} was under ${d.floorSec} s ago; wait ${wait} s`, { retry_after_sec: wait }, 429);
    }
  }
  const staleBefore = new Date(now.getTime() - 3600_000).toISOString();
  if (!(await d.db.write((tx) => claimConnector(tx, row.id, now.toISOString(), staleBefore)))) {
    throw new MemoryError("conflict", `A sync of ${row.kind}/${row.instance} is already running`, undefined, 409);
  }
  const sum: SyncSummary = {
    kind: row.kind, instance: row.instance, state: "idle", pages: 0, deleted: 0, swept: 0, seconds: 0,
    records: 0, created: 0, revised: 0, unchanged: 0, cases_applied: 0, cases_unchanged: 0, cases_refused: 0, records_refused: 0,
  };
  const t0 = Date.now();
  try {
    let cursor = row.cursor;
    for (;;) {
      const page = await source.page(cursor);
      if (page.cursor !== null && page.cursor === cursor) throw new VendorError("repeated_cursor", "The vendor answered the same cursor twice");
      const { counts: c, refused } = await commitPage(d, { id: row.id, kind: row.kind, instance: row.instance, domain }, page);
      for (const k of Object.keys(c) as (keyof PageCounts)[]) sum[k] += c[k];
      if (refused.length) sum.refused = [...(sum.refused ?? []), ...refused].slice(0, 50);
      sum.pages++;
      d.onPage?.({ pages: sum.pages, records: sum.records });
      if (page.cursor === null) break;
      if (sum.pages >= MAX_PAGES) throw new VendorError("repeated_cursor", `The vendor kept paging past ${MAX_PAGES} pages`);
      cursor = page.cursor;
    }
    // The reconcile sweep: what no longer exists upstream (deleted, transferred) is marked deleted, then swept.
    const live = new Set(await source.livePaths());
    for (const s of await d.sources.list(`connector:${row.kind}`, row.instance)) {
      if (s.state === "active" && !live.has(s.path)) {
        await d.sources.deleteFile(s);
        sum.deleted++;
      }
    }
    sum.swept = (await d.sources.reconcile()).swept.length;
    const next = isResumable(source) ? source.resumeCursor() : null;
    await d.db.write((tx) => finishConnector(tx, row.id, { ok: true, at: d.clock().toISOString(), cursor: next }));
  } catch (e) {
    sum.state = "error";
    sum.error = safeMessage(e);
    await d.db.write((tx) => finishConnector(tx, row.id, { ok: false, error: sum.error! }));
  }
  sum.seconds = (Date.now() - t0) / 1000;
  return sum;
}

/** A message safe to store and print: vendor and domain errors are already safe; anything else is generic. */
function safeMessage(e: unknown): string {
  if (e instanceof VendorError) return `${e.reason}: ${e.message}`;
  if (isMemoryError(e)) return `${e.code}: ${e.message}`;
  return "internal: the sync failed unexpectedly";
}
