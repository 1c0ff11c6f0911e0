/**
 * An optional extension of `VendorSource` (vendor.ts stays as agreed): a source whose vendor supports incremental
 * reads (GitHub `since`, Zendesk's incremental export cursor) tells the core, after its last page, where the next
 * sync should start. The core stores that as the registry cursor, so the next `cairn sync` calls `page(it)` instead
 * of `page(null)` and fetches only what changed. Without it a complete sync stores `null` and the next one walks
 * from the start (unchanged revisions are no-ops, so that is correct, just slower).
 */
import type { VendorSource } from "./vendor.ts";

/** A source that can name where the next sync starts once the backfill is complete. */
export interface ResumableSource extends VendorSource {
  /** The cursor the next sync starts from, read after `page()` returned `cursor: null`; null = start over. */
  resumeCursor(): string | null;
}

/** True when the source implements `resumeCursor`. */
export function isResumable(s: VendorSource): s is ResumableSource {
  return typeof (s as Partial<ResumableSource>).resumeCursor === "function";
}
